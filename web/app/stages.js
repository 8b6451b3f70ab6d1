// The stage rail, in pipeline order: one view module per stage.
import tokens from './views/tokens.js';
import embedding from './views/embedding.js';
import qkv from './views/qkv.js';
import scores from './views/scores.js';
import scaled from './views/scaled.js';
import softmax from './views/softmax.js';
import weightedSum from './views/weighted-sum.js';
import output from './views/output.js';

export const STAGES = Object.freeze([tokens, embedding, qkv, scores, scaled, softmax, weightedSum, output]);

export const stageIndex = (id) => STAGES.findIndex((s) => s.id === id);
