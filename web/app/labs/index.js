// The labs that answer "why?", one module each, in the order the rail meets them.
import scaling from './scaling.js';
import textbook from './textbook.js';

export const LABS = Object.freeze([scaling, textbook]);
export const labIndex = (id) => LABS.findIndex((lab) => lab.id === id);
