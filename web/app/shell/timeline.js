// Marks on the page's timeline (performance.getEntriesByType('mark')), named
// attention-lab:<step>, for the benchmark and for anyone profiling a load:
//   script      the page's script starts
//   core-ready  the wasm core is instantiated
//   first-run   the core's first run is over (params drawn, the trace made)
//   drawn       the first view is in the page (painted in the next frame)
//   step        an animated step's drawing starts (after the frame the click fell in)
export const mark = (step) => globalThis.performance?.mark?.(`attention-lab:${step}`);
