// The guided tour, as the lab loads it when a tour first opens (a chunk of its
// own: the first load of a page without a tour does not carry it).
export { createTourControl } from './tour-control.js';
export { createTourPanel } from './tour-panel.js';
