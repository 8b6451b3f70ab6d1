// What the learning-platform packages share (package-scorm.mjs, package-cmi5.mjs):
// the author's lesson settings, checked; the offline page with them inside as its
// packaged link (<meta name="attention-lab-link">, which main.js reads); XML text.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseExercises } from '../web/app/panels/exercise-set.js';
import { LANGUAGE_IDS } from '../web/app/strings/i18n.js';
import { loadAttentionLab } from '../web/lib/attention-lab.js';

// The exercises a set may name are the core's (the wasm the packages carry).
const { exerciseNames } = await loadAttentionLab();

const OFFLINE_PAGE = fileURLToPath(new URL('../web/generated/attention-lab.html', import.meta.url));

/** The steps a lesson may open on: the H5P content type's list (h5p/semantics.json), the page's step ids. */
export const LESSON_STEPS = Object.freeze(JSON.parse(readFileSync(new URL('../h5p/semantics.json', import.meta.url), 'utf8'))
  .find((f) => f.name === 'step').options.map((o) => o.value));

/** The lesson's options for parseArgs, each package adding its own. */
export const LESSON_OPTIONS = Object.freeze({
  exercises: { type: 'string', default: '' },
  step: { type: 'string' },
  tour: { type: 'boolean', default: false },
  sentence: { type: 'string' },
  lang: { type: 'string' },
  mastery: { type: 'string', default: '80' },
});

/** The lesson's settings checked: returns the mastery score (an integer 0–100); throws an Error naming a bad one. */
export function checkLesson({ exercises = '', lang, mastery = '80', sentence, step }) {
  const { ignored } = parseExercises(exercises, exerciseNames);
  if (ignored.length) throw new Error(`not exercises: ${ignored.join(', ')} (each is one of ${exerciseNames.join(', ')}, optionally with its cell: softmax:2:3)`);
  if (lang !== undefined && !LANGUAGE_IDS.includes(lang)) throw new Error(`--lang is ${LANGUAGE_IDS.join(', ')}, got ${lang}`);
  if (step !== undefined && !LESSON_STEPS.includes(step)) throw new Error(`--step is one of ${LESSON_STEPS.join(', ')}, got ${step}`);
  const score = Number(mastery);
  if (!Number.isInteger(score) || score < 0 || score > 100) throw new Error(`--mastery is an integer from 0 to 100, got ${mastery}`);
  if (sentence !== undefined && !sentence.trim()) throw new Error('--sentence is empty');
  return score;
}

export const escapeXml = (text) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);

/** The offline page with the lesson's set, sentence, language, first step and tour as its packaged link; throws if it is not built. */
export function lessonPage({ exercises, sentence, lang, step, tour }, script) {
  let page;
  try {
    page = readFileSync(OFFLINE_PAGE, 'utf8');
  } catch {
    throw new Error(`web/generated/attention-lab.html is not built: run \`bash scripts/build.sh web\` (npm run ${script} does)`);
  }
  const link = new URLSearchParams();
  if (exercises) link.set('exercises', exercises);
  if (sentence) link.set('s', sentence);
  if (lang) link.set('lang', lang);
  if (step) link.set('step', step);
  if (tour) link.set('tour', 'article');
  const meta = `<meta name="attention-lab-link" content="${escapeXml(link.toString())}">`;
  if (!page.includes('<meta charset="utf-8">')) throw new Error('the offline page has no <meta charset="utf-8"> to put the link after');
  return { page: page.replace('<meta charset="utf-8">', () => `<meta charset="utf-8">\n  ${meta}`), link: link.toString() };
}
