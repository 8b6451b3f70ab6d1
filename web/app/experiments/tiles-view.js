// Experiment view: softmax(QKᵀ/√d_k)·V tile by tile, as FlashAttention computes
// it (a chunk of its own, loaded when the experiment opens). The selected token's
// row goes through its keys a block of B at a time: each block's scores, the
// running maximum, the rescale e^(m_old − m_new), ℓ and the accumulator, step by
// step or played; at the end the output against the whole computation and the
// memory each way; then every row, for every block size. Every number is the
// core's (trace.tiledRow, trace.tiledAttention).
// The page's own helpers come in from experiments/tiles.js (imported here, they would
// make a chunk that the first load must fetch too).
import { TILES_WORDS } from '../../generated/words/tiles.js';

const PLAY_MS = 1200;
const SHOWN = 6; // accumulator entries shown (of d_k)

/** The block sizes offered for n keys: 2, 4, 8 … below n, and n (one block: the whole row). */
export function blockSizes(n) {
  const sizes = [];
  for (let b = 2; b < n; b *= 2) sizes.push(b);
  sizes.push(n);
  return sizes;
}

const first = (values, k = SHOWN) => Array.from(values).slice(0, k);

/** root: the element to fill; deps: { h, morphChildren, fmt, translator } (ui/dom.js, ui/format.js,
 *  strings/i18n.js). Returns { update(ctx), dispose() }. */
export function createTilesView(root, { h, morphChildren, fmt, translator }) {
  let ctx = null;
  let t = translator(TILES_WORDS.en);
  let block = 2;
  let shown = 1; // blocks done, 1 … their count
  let timer = 0;
  let key = null;
  let whole = null; // every block size over the whole matrix, for this view

  const stop = () => {
    clearInterval(timer);
    timer = 0;
  };

  function draw() {
    const view = ctx.view;
    // A control pressed after the run ended and before the lab's drawing of the new one (which
    // comes after the next paint when steps animate): that drawing updates this view.
    if (view.disposed) return;
    const n = ctx.n;
    const sizes = blockSizes(n);
    if (!sizes.includes(block)) block = sizes[0];
    const row = view.tiledRow(ctx.selected, block);
    const count = row.blocks.length;
    shown = Math.min(Math.max(shown, 1), count);
    const label = (j) => ctx.tokens[j];
    // One key, two keys side by side, or the first and last of more.
    const keys = (x) => (x.end - x.begin === 1 ? label(x.begin)
      : x.end - x.begin === 2 ? `${label(x.begin)}${ctx.t('list.sep')}${label(x.begin + 1)}` : `${label(x.begin)} … ${label(x.end - 1)}`);
    const d = row.output.length;

    const select = h('select', { id: 'tiles-block', onchange: (event) => { stop(); block = Number(event.target.value); shown = 1; draw(); } },
      sizes.map((b) => h('option', { value: String(b), selected: b === block }, b === n ? t('tiles.allKeys', { b }) : String(b))));
    const go = (k) => () => { stop(); shown = k; draw(); };
    const controls = h('div', { class: 'experiment-control' },
      h('label', {}, t('tiles.block'), ' ', select),
      h('button', { type: 'button', class: 'tiles-start', onclick: go(1), disabled: shown === 1 }, t('tiles.start')),
      h('button', { type: 'button', class: 'tiles-prev', onclick: go(shown - 1), disabled: shown === 1 }, t('tiles.prev')),
      h('button', { type: 'button', class: 'tiles-next', onclick: go(shown + 1), disabled: shown === count }, t('tiles.next')),
      h('button', { type: 'button', class: 'tiles-play', 'aria-pressed': String(timer !== 0), onclick: () => (timer ? stop() : play()), disabled: count === 1 },
        t(timer ? 'tiles.pause' : 'tiles.play')));

    // The row, its keys grouped into blocks: done, the current one, to come.
    const state = (k) => (k < shown - 1 ? 'done' : k === shown - 1 ? 'current' : 'later');
    const cells = (make) => row.blocks.flatMap((b, k) => Array.from({ length: b.end - b.begin }, (_, m) => make(b, k, m)));
    const strip = h('table', { class: 'steps tiles-row' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'row' }, t('tiles.key')),
        cells((b, k, m) => h('th', { scope: 'col', dataset: { block: String(k), state: state(k), first: m === 0 } }, label(b.begin + m))))),
      h('tbody', {}, h('tr', {}, h('th', { scope: 'row' }, t('tiles.score')),
        cells((b, k, m) => h('td', { dataset: { block: String(k), state: state(k), first: m === 0 } }, fmt(b.scores[m]))))));

    const b = row.blocks[shown - 1];
    // Why the rescale is 0 or 1 when it is: the core's reason (tiled_row's rescaleWhy).
    const rescaleWhy = { none: 'tiles.rescaleNone', first: 'tiles.rescaleFirst', same: 'tiles.rescaleSame' }[b.rescaleWhy] ?? null;
    const line = (what, value, id) => h('tr', { dataset: { line: id } }, h('th', { scope: 'row' }, what), h('td', {}, value));
    const current = h('table', { class: 'steps experiment-table tiles-block' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('tiles.what')), h('th', { scope: 'col' }, t('tiles.value')))),
      h('tbody', {},
        line(t('tiles.blockMax'), fmt(b.blockMax, 4), 'block-max'),
        line(t('tiles.maxRule', { before: fmt(b.maxBefore, 4), after: fmt(b.maxAfter, 4) }), fmt(b.maxAfter, 4), 'max'),
        line(t('tiles.rescale'), rescaleWhy ? t(rescaleWhy) : fmt(b.rescale, 6), 'rescale'),
        line(t('tiles.exps'), Array.from(b.exps, (e, m) => `${label(b.begin + m)} ${fmt(e, 4)}`).join(' · '), 'exps'),
        line(t('tiles.sum'), `${fmt(b.sumBefore, 4)} × ${fmt(b.rescale, 4)} + ${fmt(b.expSum, 4)} = ${fmt(b.sumAfter, 4)}`, 'sum')));
    const accTable = h('table', { class: 'steps experiment-table tiles-acc' },
      h('caption', {}, t('tiles.acc', { k: Math.min(SHOWN, d), d })),
      h('tbody', {},
        h('tr', {}, h('th', { scope: 'row' }, t('tiles.accBefore')), first(b.accBefore).map((x) => h('td', {}, fmt(x, 3)))),
        h('tr', {}, h('th', { scope: 'row' }, t('tiles.accAfter')), first(b.accAfter).map((x) => h('td', {}, fmt(x, 3))))));

    const history = h('table', { class: 'steps experiment-table tiles-history' },
      h('caption', {}, t('tiles.history')),
      h('thead', {}, h('tr', {}, ['tiles.blockCol', 'tiles.keys', 'tiles.blockMax', 'tiles.m', 'tiles.rescale', 'tiles.l']
        .map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, row.blocks.slice(0, shown).map((x, k) => h('tr', {},
        h('td', {}, String(k + 1)), h('td', {}, keys(x)), h('td', {}, fmt(x.blockMax, 4)),
        h('td', {}, fmt(x.maxAfter, 4)), h('td', {}, fmt(x.rescale, 4)), h('td', {}, fmt(x.sumAfter, 4))))));

    const parts = [
      h('p', { class: 'explain' }, t('tiles.explain')),
      controls,
      h('h3', {}, t('tiles.rowTitle', { token: label(ctx.selected), b: block })),
      h('div', { class: 'table-scroll' }, strip),
      h('h4', { class: 'tiles-at', dataset: { k: String(shown), n: String(count) } },
        t('tiles.at', { k: shown, n: count, keys: keys(b) })),
      h('div', { class: 'tiles-cards' }, current, h('div', { class: 'table-scroll' }, accTable)),
      h('div', { class: 'table-scroll' }, history),
    ];
    if (shown === count) {
      parts.push(h('div', { class: 'tiles-end' },
        h('p', {}, t('tiles.done')),
        h('table', { class: 'steps experiment-table tiles-compare' },
          h('caption', {}, t('tiles.compare', { k: Math.min(SHOWN, d), d })),
          h('tbody', {},
            h('tr', {}, h('th', { scope: 'row' }, t('tiles.byBlocks')), first(row.output).map((x) => h('td', {}, fmt(x, 4)))),
            h('tr', {}, h('th', { scope: 'row' }, t('tiles.whole')), first(row.full).map((x) => h('td', {}, fmt(x, 4)))))),
        h('p', { class: 'tiles-difference', dataset: { max: String(row.maxDifference), relative: String(row.relativeDifference) } },
          t(`tiles.difference.${row.agreement}`, { diff: fmt(row.maxDifference, 2), rel: fmt(row.relativeDifference, 2) })),
        h('p', { class: 'tiles-memory' }, t('tiles.memory', { full: row.heldWhole, tiled: row.heldTiled }))));
    }

    // Every row, every block size (computed once a view).
    whole ??= sizes.map((size) => ({ size, result: view.tiledAttention(size) }));
    parts.push(h('h3', {}, t('tiles.matrixTitle')), h('p', { class: 'hint' }, t('tiles.matrixExplain')),
      h('table', { class: 'steps experiment-table tiles-matrix' },
        h('thead', {}, h('tr', {}, ['tiles.block', 'tiles.largest', 'tiles.relative', 'tiles.held'].map((k) => h('th', { scope: 'col' }, t(k))))),
        h('tbody', {}, whole.map(({ size, result }) => h('tr', { dataset: { block: String(size), relative: String(result.relativeDifference) } },
          h('td', {}, String(size)), h('td', {}, fmt(result.maxDifference, 2)), h('td', {}, fmt(result.relativeDifference, 2)),
          h('td', {}, `${result.tiledScores} / ${result.fullScores}`))))));
    morphChildren(root, h('div', {}, parts));
  }

  function play() {
    stop();
    if (ctx.view.disposed) return; // as in draw()
    const count = ctx.view.tiledRow(ctx.selected, block).blocks.length;
    if (shown >= count) shown = 0;
    timer = setInterval(() => {
      if (ctx.view.disposed) { // the run ended: the lab's next drawing gives this view the new one
        stop();
        return;
      }
      shown += 1;
      if (shown >= count) stop();
      draw();
    }, PLAY_MS);
    shown += 1;
    draw();
  }

  return {
    update(next) {
      ctx = next;
      t = translator(TILES_WORDS[next.lang] ?? TILES_WORDS.en);
      const now = [next.view, next.selected];
      if (!key || now.some((v, k) => v !== key[k])) {
        stop();
        shown = 1;
        whole = null;
      }
      key = now;
      draw();
    },
    dispose() {
      stop();
    },
  };
}
