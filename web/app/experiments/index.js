// The Why? experiments, in the order the rail meets them. Each one's view is a
// chunk loaded when it first opens (classic.js, and a module each for the rest).
import { context, maskPosition, scaling, stability, temperature, textbook, variance } from './classic.js';
import geometry from './geometry.js';
import lens from './lens.js';
import rollout from './rollout.js';
import sharedQk from './shared-qk.js';
import tiles from './tiles.js';
import training from './training.js';
import whatIf from './what-if.js';

export const EXPERIMENTS = Object.freeze([
  variance, scaling, temperature, stability, context, maskPosition, textbook, training, tiles, rollout, lens, sharedQk, whatIf, geometry]);
export const experimentIndex = (id) => EXPERIMENTS.findIndex((e) => e.id === id);
