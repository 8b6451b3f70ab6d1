// The page's steps, in pipeline order: one view module per step. The steps
// from Q, K, V to the output show the selected head (head-names.js); the last,
// concat, what the layer makes of all its heads. (The core's
// matrices are its *stages*: core.stageNames, trace.stage(id). A step shows one
// or more stages.)
//
// Each step is one descriptor that owns everything the page knows about it:
//   id           the public name (?step=…, host messages, data-step, exports)
//   label(t)     its button on the rail (t: the lab's words); title(ctx), explain(ctx) its texts; note(ctx) an optional line under them
//   inFormula    whether index.html's formula has a part marked data-step=id
//   matrices     the core stages it shows, exported as CSV and LaTeX (the last as PNG)
//   ofLayer      its matrices are the selected layer's (a trained model's), not one head's
//   panelColumn  the side panel's column it computes ('scores', 'scaled', 'probs'; 'key' before Q·Kᵀ:
//                only the keys); the columns after it stay hidden. None: every column
//   experiments  the Why? experiments that explain it (their buttons)
//   render(body, ctx)  draws it; resolves to its legends
import tokens from './tokens.js';
import embedding from './embedding.js';
import qkv from './qkv.js';
import scores from './scores.js';
import scaled from './scaled.js';
import softmax from './softmax.js';
import weightedSum from './weighted-sum.js';
import output from './output.js';
import concat from './concat.js';

export const STEPS = Object.freeze([tokens, embedding, qkv, scores, scaled, softmax, weightedSum, output, concat]);

export const stepIndex = (id) => STEPS.findIndex((s) => s.id === id);
