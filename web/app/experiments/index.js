// The Why? experiments, one module each, in the order the rail meets them.
import context from './context.js';
import maskPosition from './mask-position.js';
import rollout from './rollout.js';
import scaling from './scaling.js';
import sharedQk from './shared-qk.js';
import stability from './stability.js';
import temperature from './temperature.js';
import textbook from './textbook.js';
import tiles from './tiles.js';
import training from './training.js';
import variance from './variance.js';

export const EXPERIMENTS = Object.freeze([variance, scaling, temperature, stability, context, maskPosition, textbook, training, tiles, rollout, sharedQk]);
export const experimentIndex = (id) => EXPERIMENTS.findIndex((e) => e.id === id);
