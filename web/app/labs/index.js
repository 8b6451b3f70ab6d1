// The labs that answer "why?", one module each, in the order the rail meets them.
import context from './context.js';
import maskPosition from './mask-position.js';
import scaling from './scaling.js';
import stability from './stability.js';
import temperature from './temperature.js';
import textbook from './textbook.js';
import variance from './variance.js';

export const LABS = Object.freeze([variance, scaling, temperature, stability, context, maskPosition, textbook]);
export const labIndex = (id) => LABS.findIndex((lab) => lab.id === id);
