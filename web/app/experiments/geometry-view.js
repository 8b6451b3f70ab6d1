// Experiment view: queries and keys as geometry (a chunk of its own, loaded when the
// experiment opens). The selected head's keys and queries in the plane of the selected
// query (trace.keyPlane: x along the query, so x × |q| is the score; y the keys' largest
// spread square to it), and random N(0, 1) vectors whose lengths and scores grow with d_k
// (core.randomKeys). Every number is the core's; the view only places them.
// The page's own helpers come in from experiments/geometry.js (imported here, they would
// make a chunk that the first load must fetch too).
import { GEOMETRY_WORDS } from '../../generated/words/geometry.js';

const SVG = 'http://www.w3.org/2000/svg';
const COUNT = 16; // random keys
const SCORE_RANGE = 80; // the random lines' fixed scales: q · k, and ÷√d_k
const SCALED_RANGE = 4;
const DK_STEPS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/** An SVG element (text goes in as text nodes). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** root: the element to fill; deps: { h, morphChildren, fmt, share, translator, headNumber }. Returns { update(ctx), dispose() }. */
export function createGeometryView(root, { h, morphChildren, fmt, share, translator, headNumber, sentenceGap }) {
  let drawnFor = null;
  let dkStep = 6; // 64, the article's d_k
  const main = h('div'); // the lab's head, drawn again with each run
  const random = h('div', { class: 'geometry-random' }); // the random vectors, drawn again with the slider
  root.replaceChildren(main, random);

  // The plane: keys as circles with their tokens, the other queries as diamonds, the query as an arrow along x.
  function planePicture(p, tokens, i, t) {
    const W = 640, H = 400, pad = 28, top = 44; // the band above the plot holds the y axis's caption (a phone draws it larger)
    const xs = [...p.keyX, ...p.queryX, 0], ys = [...p.keyY, ...p.queryY, 0];
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const scale = Math.min((W - 2 * pad) / Math.max(x1 - x0, 1e-9), (H - top - 2 * pad) / Math.max(y1 - y0, 1e-9)); // one scale: angles stay true
    const cx = (W - scale * (x1 - x0)) / 2 - scale * x0, cy = top + (H - top - scale * (y1 - y0)) / 2 + scale * y1;
    const X = (x) => cx + scale * x, Y = (y) => cy - scale * y;
    const parts = [
      svg('line', { x1: 0, y1: Y(0), x2: W, y2: Y(0), class: 'axis' }), svg('line', { x1: X(0), y1: top, x2: X(0), y2: H, class: 'axis' }),
      // Above the horizontal axis at its end: the query's label sits below it.
      svg('text', { x: W - 4, y: Y(0) - 10, 'text-anchor': 'end', class: 'axis-label' }, t('geometry.axisX')),
      // Above the vertical axis, anchored to keep inside the picture wherever the axis falls.
      svg('text', { x: X(0), y: top - 12, 'text-anchor': X(0) < W / 3 ? 'start' : X(0) > (2 * W) / 3 ? 'end' : 'middle', class: 'axis-label' }, t('geometry.axisY')),
    ];
    tokens.forEach((token, j) => {
      if (j === i) return;
      const [x, y] = [X(p.queryX[j]), Y(p.queryY[j])];
      parts.push(svg('path', { d: `M${x} ${y - 5}L${x + 5} ${y}L${x} ${y + 5}L${x - 5} ${y}Z`, class: 'query' }, svg('title', {}, `q: ${token}`)));
    });
    parts.push(svg('line', { x1: X(0), y1: Y(0), x2: X(p.queryNorm), y2: Y(0), class: 'query-arrow', 'marker-end': 'url(#geometry-arrow)' }),
      svg('text', { x: X(p.queryNorm), y: Y(0) + 22, 'text-anchor': 'middle', class: 'query-label' }, `q ${tokens[i]}`));
    tokens.forEach((token, j) => {
      const [x, y] = [X(p.keyX[j]), Y(p.keyY[j])];
      parts.push(svg('g', { class: 'key', 'data-key': j },
        svg('title', {}, t('geometry.hover', { token, x: fmt(p.keyX[j], 3), norm: fmt(p.queryNorm, 3), score: fmt(p.scores[j], 3) })),
        svg('circle', { cx: x, cy: y, r: 5 }), svg('text', { x: x + 7, y: y - 6 }, token)));
    });
    return svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': t('geometry.picture', { token: tokens[i] }) },
      svg('defs', {}, svg('marker', { id: 'geometry-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' },
        svg('path', { d: 'M0 0L10 5L0 10Z' }))), parts);
  }

  // A number line with fixed ends; points beyond sit on the ends.
  function line(values, range, caption) {
    const W = 640, H = 36, pad = 10;
    const at = (v) => pad + ((Math.max(-range, Math.min(range, v)) + range) / (2 * range)) * (W - 2 * pad);
    return h('figure', { class: 'geometry-line' }, h('figcaption', {}, caption),
      svg('svg', { viewBox: `0 0 ${W} ${H}`, 'aria-hidden': 'true' }, svg('line', { x1: pad, y1: H / 2, x2: W - pad, y2: H / 2, class: 'axis' }),
        svg('line', { x1: W / 2, y1: 6, x2: W / 2, y2: H - 6, class: 'axis' }),
        Array.from(values, (v) => svg('circle', { cx: at(v), cy: H / 2, r: 4 }))));
  }

  function drawRandom(ctx, t) {
    const dk = DK_STEPS[dkStep];
    let r;
    try {
      r = ctx.compute.randomKeys(dk, { count: COUNT, seed: 1 });
    } catch (error) {
      morphChildren(random, h('div', {}, h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error))));
      return;
    }
    const slider = h('input', { type: 'range', min: '0', max: String(DK_STEPS.length - 1), step: '1', value: String(dkStep), 'aria-label': t('geometry.dkLabel'),
      'aria-valuetext': t('geometry.dk', { dk }), oninput: (e) => { dkStep = Number(e.target.value); drawRandom(ctx, t); } });
    morphChildren(random, h('div', {}, h('h3', {}, t('geometry.randomTitle')), h('p', { class: 'explain' }, t('geometry.randomExplain', { count: COUNT })),
      h('label', { class: 'experiment-control' }, slider, ' ', h('output', {}, t('geometry.dk', { dk }))),
      h('p', { class: 'geometry-numbers' }, t('geometry.randomNumbers', { norm: fmt(r.queryNorm, 2), root: fmt(r.rootDk, 2), sd: fmt(r.scoreSd, 2), scaledSd: fmt(r.scaledSd, 2) })),
      line(r.scores, SCORE_RANGE, t('geometry.scoresLine', { range: SCORE_RANGE })), line(r.scaled, SCALED_RANGE, t('geometry.scaledLine', { range: SCALED_RANGE })),
      h('p', { class: 'note' }, t('geometry.outside'))));
  }

  function draw(ctx) {
    const t = translator(GEOMETRY_WORDS[ctx.lang] ?? GEOMETRY_WORDS.en);
    const { tokens, selected: i, where } = ctx;
    const head = ctx.trained ? t('geometry.titleHead', { token: tokens[i], layer: where.layer + 1, head: headNumber(where.head) }) : t('geometry.title', { token: tokens[i] });
    let p, row;
    try {
      p = ctx.view.keyPlane(i);
      row = ctx.view.softmaxRow(i);
    } catch (error) {
      morphChildren(main, h('div', {}, h('p', { class: 'message error', role: 'alert' }, ctx.errorText(error))));
      return;
    }
    const scaled = ctx.config.scale !== false; // a trained model always divides; the seeded head has a switch
    const table = h('div', { class: 'geometry-scroll' }, h('table', { class: 'steps geometry-keys' },
      h('thead', {}, h('tr', {}, ['geometry.key', 'geometry.x', 'geometry.y', 'geometry.score', scaled ? 'geometry.scaled' : 'geometry.scaledOff']
        .map((k) => h('th', { scope: 'col' }, t(k))))),
      h('tbody', {}, tokens.map((token, j) => h('tr', { dataset: { key: String(j) } }, h('th', { scope: 'row' }, token),
        h('td', { class: 'num' }, fmt(p.keyX[j], 3)), h('td', { class: 'num' }, fmt(p.keyY[j], 3)),
        h('td', { class: 'num' }, fmt(p.scores[j], 3)), h('td', { class: 'num' }, fmt(row.scaled[j], 3)))))));
    morphChildren(main, h('div', {}, h('p', { class: 'explain' }, t('geometry.explain')), h('h3', {}, head),
      h('p', { class: 'geometry-numbers' }, t(scaled ? 'geometry.norm' : 'geometry.normUnscaled', { norm: fmt(p.queryNorm, 3), root: fmt(ctx.view.divisor, 3) }), sentenceGap(ctx.lang),
        p.secondAxis ? t('geometry.kept', { kept: share(p.kept), dk: ctx.config.dK }) : t('geometry.flat')),
      h('div', { class: 'geometry-plane', dataset: { atomic: '' } }, planePicture(p, tokens, i, t)), table));
    drawRandom(ctx, t);
  }

  return {
    update(ctx) {
      const key = [ctx.viewOf, ctx.selected, ctx.where.layer, ctx.where.head, ctx.lang];
      if (drawnFor && key.every((v, k) => v === drawnFor[k])) return;
      drawnFor = key;
      draw(ctx);
    },
    dispose() {
      drawnFor = null;
    },
  };
}
