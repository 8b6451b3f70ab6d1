// One run of the core, as the API hands it out (see core.js for the rules every
// file of web/lib/ keeps). The seeded model's run is one head; a trained
// model's run has every head of every layer, and each layer's own stages.
import { CHECKS, checkFlag, checkHead, checkIndex, describe, fail, freezeRow, unwrap, wrapMatrix } from './checks.js';

/** One run of the core: tokens, ids, resolved config, and every stage. */
export class Trace {
  #handle;
  #owner;
  #layerStages;
  #heads = new Map();
  #spanData; // the core's spans, three numbers a token (to_js.hpp), until spans is first read
  #spans = null;

  // handle: the core's Trace (the seeded model) or EncoderTrace (a trained
  // model); config: the run's, as core.js completes it; layerStages: the layer
  // stage ids for a trained model, else null. owner.register(trace, wasm) and
  // owner.release(trace, wasm) keep the core's count and its safety net;
  // wasm = { handle, views } is what freeWasm() frees.
  constructor(handle, owner, { config, layerStages = null, knockOut = [] }) {
    this.#handle = handle;
    this.#owner = owner;
    this.#layerStages = layerStages;
    owner.register(this, { handle, views: this.#heads });
    const { texts, ids, spans, forms } = handle.tokens();
    /** Token texts as typed, [CLS] first and [SEP] last. */
    this.tokens = Object.freeze(texts);
    /** Each token as the vocabulary holds it: tokens, but for a character in a form it aliases (歡 → 欢). */
    this.forms = forms ? Object.freeze(forms) : this.tokens;
    this.#spanData = spans;
    /** Vocabulary ids (Int32Array), one per token. */
    this.ids = ids;
    /** The configuration used, defaults filled in: model, layers, heads, dModel, dK, … */
    this.config = Object.freeze(config);
    /** The heads whose output was zeroed, as { layer, head }. */
    this.knockOut = Object.freeze(knockOut.map((k) => Object.freeze({ ...k })));
    /** What every score is divided by: √dK when scaling is on, else 1. */
    this.divisor = handle.divisor();
  }

  /** A stage by id: { rows, cols, data: Float32Array, min, max }, row-major
   *  (data[i * cols + j]); min and max are over the finite entries. The data
   *  is a copy the caller owns. `where` = { layer, head } (both 0 when absent)
   *  picks the head of a trained model; a layer's own stages (layerStageNames:
   *  concat … layerOutput) take only the layer; 'x', the layer's input, is every head's x. */
  stage(id, where = {}) {
    const name = this.#stageId(id);
    const { layer } = checkHead(where);
    if (this.#layerStages?.includes(name) && name !== 'x') {
      return wrapMatrix(unwrap(this.#live().layerStage(name, layer)));
    }
    return wrapMatrix(unwrap(this.#head(where).stage(name)));
  }

  /** Query row i through softmax, every intermediate (see SOFTMAX_ROW in
   *  checks.js): its scores, scaled and masked rows, and probs = its weights row. */
  softmaxRow(i, { jacobian = false, ...where } = {}) {
    checkIndex('row', i);
    checkFlag('jacobian', jacobian);
    return freezeRow(unwrap(this.#head(where).softmaxRow(i, jacobian)));
  }

  /** Every row's plain e^x (no maximum subtracted; 0 where masked) as a matrix, and each row's
   *  total: what softmax divides by. { exps, sums }. */
  expRows(where = {}) {
    const { exps, sums } = unwrap(this.#head(where).expRows());
    return Object.freeze({ exps: wrapMatrix(exps), sums });
  }

  // After the article (trace-after.js has each one's documentation): FlashAttention's tiles, attention
  // between words, the symmetry of Q·Kᵀ, attention rollout, a layer's heads together, queries and keys in a plane. Their
  // JavaScript comes with the after-the-article module (core.loadAfterArticle()).
  tiledRow(i, options) { return this.#afterCall('tiledRow', i, options); }
  tiledAttention(options) { return this.#afterCall('tiledAttention', options); }
  wordAttention(words, where) { return this.#afterCall('wordAttention', words, where); }
  qkSymmetry(where) { return this.#afterCall('qkSymmetry', where); }
  rollout(options) { return this.#afterCall('rollout', options); }
  rolloutRow(i) { return this.#afterCall('rolloutRow', i); }
  layerRow(i, where) { return this.#afterCall('layerRow', i, where); }
  keyPlane(i, where) { return this.#afterCall('keyPlane', i, where); }

  /** The terms of one cell: for 'scores', a = q_i, b = k_j; for 'output',
   *  a = weights row i, b = v column j. { a, b, products, total,
   *  productsMin, productsMax }. */
  dotTerms(id, i, j, where = {}) {
    checkIndex('row', i);
    checkIndex('column', j);
    return Object.freeze(unwrap(this.#head(where).dotTerms(this.#stageId(id), i, j)));
  }

  /** ×V for query i: row k is weights(i, k) · v_k; the rows add up to output row i. */
  weightedRows(i, where = {}) {
    checkIndex('row', i);
    return wrapMatrix(unwrap(this.#head(where).weightedRows(i)));
  }

  /** How much each token's value adds to output i: { lengths (|p_ij · v_j| for each j, Float32Array),
   *  strongest (the token whose term is longest) }. */
  contributions(i, where = {}) {
    checkIndex('row', i);
    return Object.freeze(unwrap(this.#head(where).contributions(i)));
  }

  /** What ÷√d_k did to a head's scores (cpp/include/attention/claims.hpp): { scoreVariance, scaledVariance
   *  (over the cells softmax sees), variance ('below', 'unit' or 'above': the scaled variance against 1, a
   *  factor of 2 either way), largestWeight, saturatedRows (rows whose largest weight is at least 0.9), rows,
   *  saturation ('saturates' when any row does, else 'spread') }. */
  scalingReport(where = {}) {
    return Object.freeze(unwrap(this.#head(where).scalingReport()));
  }

  /** "Your turn": what the learner is given for exercise `name` on cell
   *  { row, col } of a head, and what the core expects. name: 'dot' (q_i·k_j),
   *  'scaled' (÷√d_k), 'exp' (e^x), 'softmax' (a probability) or 'output'
   *  (Σ_k p_ik·v_kj; col is a d_k column). { exercise, cell, a, b, partialSum,
   *  byHand, dK, dModel, divisor, expected, tolerance, mistakes: [{ mistake, value }] }:
   *  a, b and partialSum are the inputs (see cpp/include/attention/exercises.hpp). */
  exercise(name, { row, col, ...where } = {}) {
    const e = unwrap(this.#head(where).exercise(exerciseName(name), cellIndex('row', row), cellIndex('col', col)));
    const { row: r, col: c, ...rest } = e;
    return Object.freeze({ ...rest, cell: Object.freeze({ row: r, col: c }), mistakes: Object.freeze(e.mistakes.map(Object.freeze)) });
  }

  /** A cell for exercise `name`: query row `row` if it is a real token (else
   *  the first), and a key (or d_k column) picked by `seed`. { row, col }. */
  pickCell(name, { row = 1, seed = 0, ...where } = {}) {
    checkIndex('row', row);
    checkIndex('seed', seed);
    return Object.freeze(unwrap(this.#head(where).pickCell(exerciseName(name), row, seed)));
  }

  /** Checks a learner's answer: { exercise, cell, answer, expected, correct,
   *  mistake, tolerance }; mistake names the usual error the answer matches, among
   *  those the exercise's givens allow ('already_scaled', 'partial_sum_left_out',
   *  'no_scale', 'sqrt_d_model', 'no_sqrt', 'not_normalised', 'unweighted'), or null. */
  checkAnswer(name, { row, col, ...where } = {}, answer) {
    if (typeof answer !== 'number' || !Number.isFinite(answer)) fail(`an answer must be a finite number, got ${describe(answer)}`, 'invalid_argument');
    const v = unwrap(this.#head(where).checkAnswer(exerciseName(name), cellIndex('row', row), cellIndex('col', col), answer));
    return Object.freeze({ exercise: name, cell: Object.freeze({ row, col }), answer, expected: v.expected, correct: v.correct,
      mistake: v.mistake, tolerance: v.tolerance });
  }

  /** Σ of each row of a head's stage (−∞ counts as 0): Float32Array. */
  rowSums(id, where = {}) {
    return unwrap(this.#head(where).rowSums(this.#stageId(id)));
  }

  /** Where a head's attention goes on this sentence, averaged over the real
   *  tokens: { shares: { self, previous, next, special, same }, label, knockedOut };
   *  label is 'self', 'previous', 'next', 'special' or 'same' when that share
   *  is at least 0.5, else null. */
  headReport(where = {}) {
    const { layer, head } = checkHead(where);
    const report = unwrap(this.#head(where).headReport());
    const knockedOut = this.knockOut.some((k) => k.layer === layer && k.head === head);
    return Object.freeze({ shares: Object.freeze(report.shares), label: report.label, knockedOut });
  }

  /** The head to open on for token i, by the rule the article's table
   *  illustrates (cpp/include/attention/heads.hpp, article_head()): among the
   *  heads whose row for i gives its largest weight, after i itself, to the
   *  token just before or after it, a labelled head first, then a spread row
   *  (largest weight ≤ 0.9: a softmax, not an argmax), then the token after
   *  (as 喜 → 欢 in the article's row), then the largest weight on that
   *  neighbour. { layer, head, found, neighbour, weight, labelled, spread,
   *  next }; found is false (layer 0, head 0) when no head looks at a
   *  neighbour first (the seeded model has one head: layer 0, head 0, found or not). */
  articleHead(i) {
    checkIndex('token', i);
    return Object.freeze(unwrap(this.#live().articleHead(i)));
  }


  /** How token `from` looks at token `to` over every head of a trained model
   *  (a pronoun and the noun it refers to, say): { strongest: { layer, head },
   *  weight, first, peak: { layer, head }, peakToken, peakWeight }. strongest
   *  is the head with the largest weight from → to, first whether `to` is that
   *  row's largest weight but from's own ([CLS] and [SEP] counted); peak is the head whose
   *  row for `from` puts the largest weight on one other real token (peakToken). */
  tokenLink(from, to) {
    checkIndex('from', from);
    checkIndex('to', to);
    if (!this.#layerStages) fail('tokenLink compares the heads of a trained model; the random model has one head', 'invalid_argument');
    const k = unwrap(this.#live().tokenLink(from, to));
    return Object.freeze({ ...k, strongest: Object.freeze(k.strongest), peak: Object.freeze(k.peak) });
  }

  // trace-after.js's <name>Of(run, …), with what it reads: the after-the-article module, a head's
  // stages, every head's weights, the checks.
  #afterCall(name, ...args) {
    const run = { after: (what) => this.#owner.after(what), headStages: (where, ids) => this.#headStages(where, ids),
      everyHead: () => this.#everyHead(), ids: this.ids, checks: CHECKS };
    return this.#owner.after(name)[`${name}Of`](run, ...args);
  }

  // A head's stages by id, as the core hands them out (copies the after-the-article module reads).
  #headStages(where, ids) {
    const head = this.#head(where);
    return ids.map((id) => unwrap(head.stage(id)));
  }

  // Every head's weights, [layer][head], and which are knocked out: what a rollout multiplies.
  #everyHead() {
    const { layers, heads } = this.#layerStages ? this.config : { layers: 1, heads: 1 };
    const silenced = [];
    const all = [];
    for (let layer = 0; layer < layers; layer += 1) {
      all.push([]);
      silenced.push([]);
      for (let head = 0; head < heads; head += 1) {
        all[layer].push(unwrap(this.#head({ layer, head }).stage('weights')).data);
        silenced[layer].push(this.knockOut.some((k) => k.layer === layer && k.head === head));
      }
    }
    return { layers: all, silenced, n: this.tokens.length };
  }

  /** Cosine similarity of row a of one stage and row b of another (same width). */
  cosine(idA, rowA, idB, rowB, where = {}) {
    return this.cosineWith(this, idA, rowA, idB, rowB, where);
  }

  /** Cosine similarity of row rowA of stage idA here and row rowB of stage idB
   *  in another trace (the same head of each). */
  cosineWith(other, idA, rowA, idB, rowB, where = {}) {
    if (!(other instanceof Trace)) fail(`cosineWith needs another trace, got ${describe(other)}`, 'invalid_argument');
    checkIndex('row', rowA);
    checkIndex('row', rowB);
    return unwrap(this.#head(where).cosine(other.#head(where), this.#stageId(idA), rowA, this.#stageId(idB), rowB));
  }

  // The core's Trace for one head: the run itself for the seeded model, a
  // view made once per head (and freed with the trace) for a trained one.
  #head(where) {
    const { layer, head } = checkHead(where);
    const live = this.#live();
    if (!this.#layerStages) {
      if (layer !== 0 || head !== 0) {
        fail(`there is no head ${head} in layer ${layer}: the random model has 1 layer of 1 head, counted from 0`,
          'invalid_argument', { layer: String(layer), head: String(head), layers: '1', heads: '1' });
      }
      return live;
    }
    const key = `${layer}/${head}`;
    if (!this.#heads.has(key)) this.#heads.set(key, unwrap(live.head(layer, head)));
    return this.#heads.get(key);
  }

  #live() {
    if (!this.#handle) fail('this trace was disposed; run the sentence again to get a new one', 'disposed');
    return this.#handle;
  }

  #stageId(id) {
    if (typeof id !== 'string') fail(`a stage id must be a string, got ${describe(id)}`, 'unknown_stage');
    return id;
  }

  /** Where each token's word stands in the sentence: { begin, end } in UTF-16 units (string
   *  indices), hideable: the token starts a word or is a CJK character, so the word can be
   *  hidden there behind [MASK]; null for [CLS] and [SEP]. (Read after dispose() too.) */
  get spans() {
    const s = this.#spanData;
    this.#spans ??= Object.freeze(this.tokens.map((_, i) => (s[3 * i] < 0 ? null
      : Object.freeze({ begin: s[3 * i], end: s[3 * i + 1], hideable: s[3 * i + 2] === 1 }))));
    return this.#spans;
  }

  get disposed() {
    return this.#handle === null;
  }

  /** Frees the wasm memory behind the trace. Safe to call twice. tokens, ids
   *  and config stay readable; stage() throws afterwards. */
  dispose() {
    if (!this.#handle) return;
    const handle = this.#handle;
    this.#handle = null;
    this.#owner.release(this, { handle, views: this.#heads });
  }
}

function exerciseName(name) {
  if (typeof name !== 'string') fail(`an exercise is named by a string (dot, scaled, exp, softmax, output), got ${describe(name)}`, 'invalid_argument');
  return name;
}

function cellIndex(name, value) {
  checkIndex(name, value);
  return value;
}

/** Frees a trace's wasm objects: its head views, then the run. */
export function freeWasm({ handle, views }) {
  for (const view of views.values()) view.delete();
  views.clear();
  handle.delete();
}
