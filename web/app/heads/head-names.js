// The run as the page's steps see it: one head of one layer. Every step view
// asks this object for stages, softmax rows, dot terms…; it passes the
// selected { layer, head } on to the trace, so selecting another head changes
// what every step draws without the steps knowing there are several.
// (The seeded random model has one head: { layer: 0, head: 0 }.)

/** trace seen through `where` = { layer, head }. */
export function headView(trace, where) {
  return Object.freeze({
    tokens: trace.tokens,
    ids: trace.ids,
    config: trace.config,
    divisor: trace.divisor,
    knockOut: trace.knockOut,
    where,
    /** The whole run (every head), for views that show all heads or the layer. */
    run: trace,
    stage: (id) => trace.stage(id, where),
    softmaxRow: (i, options = {}) => trace.softmaxRow(i, { ...options, ...where }),
    dotTerms: (id, i, j) => trace.dotTerms(id, i, j, where),
    weightedRows: (i) => trace.weightedRows(i, where),
    contributions: (i) => trace.contributions(i, where),
    scalingReport: () => trace.scalingReport(where),
    rowSums: (id) => trace.rowSums(id, where),
    expRows: () => trace.expRows(where),
    tiledRow: (i, block) => trace.tiledRow(i, { block, ...where }),
    tiledAttention: (block) => trace.tiledAttention({ block, ...where }),
    headReport: () => trace.headReport(where),
    cosine: (idA, rowA, idB, rowB) => trace.cosine(idA, rowA, idB, rowB, where),
    cosineWith: (other, idA, rowA, idB, rowB) => trace.cosineWith(other.run ?? other, idA, rowA, idB, rowB, where),
    exercise: (name, cell) => trace.exercise(name, { ...cell, ...where }),
    pickCell: (name, pick) => trace.pickCell(name, { ...pick, ...where }),
    checkAnswer: (name, cell, answer) => trace.checkAnswer(name, { ...cell, ...where }, answer),
  });
}

/** A head's number on the page: "head 3" counts from 1, as a learner does (the API from 0). */
export const headNumber = (head) => head + 1;

/** A head's name on the page, "Head 3" / "第 3 个头". */
export const headName = (t, head) => t('heads.name', { n: headNumber(head) });
