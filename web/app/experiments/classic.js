// The Why? experiments drawn afresh each time they are shown (variance, scaling,
// temperature, stable softmax, context, mask and position, the textbook
// example): their tabs are on the page from the start; their code and words
// are one chunk (classic-views.js), loaded when the first of them opens.
import { clear, h } from '../ui/dom.js';
import { fmt, sig } from '../ui/format.js';
import { sentenceGap, translator } from '../strings/i18n.js';
import { renderMatrix } from '../matrix/matrix-view.js';
import { headNumber } from '../heads/head-names.js';
import { referenceNote } from '../heads/reference-note.js';
import { PRESETS } from '../shell/presets.js';
import { lazyRendered } from './lazy.js';

// Each experiment keeps its view once loaded (lazyRendered); the chunk itself is one module the
// browser fetches once for all seven.
const classic = (id, words = id) => lazyRendered({
  id,
  label: (t) => t(`experiment.${words}.label`),
  load: () => import('./classic-views.js')
    .then(({ classicViews }) => classicViews({ clear, h, fmt, sig, translator, sentenceGap, renderMatrix, headNumber, referenceNote, presets: PRESETS })[id]),
});

export const variance = classic('variance');
export const scaling = classic('scaling');
export const temperature = classic('temperature');
export const stability = classic('stability');
export const context = classic('context');
export const maskPosition = classic('mask-position', 'mask');
export const textbook = classic('textbook');
