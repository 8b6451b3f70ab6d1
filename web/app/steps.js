// The page's steps, in pipeline order: one view module per step. The steps
// from Q, K, V to the output show the selected head (head-view.js); the last,
// concat, what the layer makes of all its heads. (The core's
// matrices are its *stages*: lab.stageNames, trace.stage(id). A step shows one
// or more stages.)
//
// Each step is one descriptor that owns everything the page knows about it:
//   id           the public name (?step=…, host messages, data-step, exports)
//   label()      its button on the rail; title(ctx), explain(ctx) its texts
//   inFormula    whether index.html's formula has a part marked data-step=id
//   matrices     the core stages it shows, exported as CSV and LaTeX (the last as PNG)
//   ofLayer      its matrices are the selected layer's (a trained model's), not one head's
//   panelColumn  the side panel's column it computes ('scores', 'scaled', 'probs'), if any
//   labs         the labs that explain it (their Why? buttons)
//   render(body, ctx)  draws it; resolves to its legends
import tokens from './views/tokens.js';
import embedding from './views/embedding.js';
import qkv from './views/qkv.js';
import scores from './views/scores.js';
import scaled from './views/scaled.js';
import softmax from './views/softmax.js';
import weightedSum from './views/weighted-sum.js';
import output from './views/output.js';
import concat from './views/concat.js';

export const STEPS = Object.freeze([tokens, embedding, qkv, scores, scaled, softmax, weightedSum, output, concat]);

export const stepIndex = (id) => STEPS.findIndex((s) => s.id === id);
