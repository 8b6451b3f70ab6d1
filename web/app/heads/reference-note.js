// A sentence with a pronoun and the noun it refers to (the English example's
// "it … animal", the Chinese one's 小猫 … 它): one sentence on what this
// model's heads do with the pronoun, from the core's numbers
// (trace.tokenLink()), beside what large models are reported to do.
import { h } from '../ui/dom.js';
import { fmt } from '../ui/format.js';
import { sentences } from '../strings/i18n.js';
import { headNumber } from './head-names.js';

/** The pronouns the examples use, each with the noun it refers to there. */
export const REFERENCES = Object.freeze([
  Object.freeze({ pronoun: 'it', noun: 'animal' }),
  Object.freeze({ pronoun: '它', noun: '猫' }),
]);

/** { from, to, pronoun, noun }: the pronoun's token and the noun's before it, or null. */
export function referenceOf(tokens) {
  for (const { pronoun, noun } of REFERENCES) {
    const from = tokens.indexOf(pronoun);
    const to = tokens.indexOf(noun);
    if (from > 0 && to > 0 && to < from) return { from, to, pronoun, noun };
  }
  return null;
}

/** The note for ctx's run (a trained model's), or null when its sentence has no such pair. */
export function referenceNote(ctx) {
  const ref = ctx.trained ? referenceOf(ctx.tokens) : null;
  if (!ref) return null;
  const link = ctx.view.tokenLink(ref.from, ref.to);
  const words = {
    pronoun: ref.pronoun, noun: ref.noun, weight: fmt(link.weight),
    layer: link.strongest.layer + 1, head: headNumber(link.strongest.head),
    peak: ctx.tokens[link.peakToken], peakWeight: fmt(link.peakWeight),
    peakLayer: link.peak.layer + 1, peakHead: headNumber(link.peak.head),
  };
  const near = Math.abs(link.peakToken - ref.from) === 1 ? 'heads.reference.near' : 'heads.reference.far';
  return h('p', { class: 'note reference-note', dataset: { reference: link.first ? 'found' : 'none' } },
    sentences(ctx.lang, ctx.t(link.first ? 'heads.reference.found' : 'heads.reference.none', words), ctx.t(near, words),
      // "by position, not by reference": only when no head finds the noun and the pull is to a neighbour.
      !link.first && near === 'heads.reference.near' ? ctx.t('heads.reference.small', words) : '', ctx.t('heads.reference.large')));
}
