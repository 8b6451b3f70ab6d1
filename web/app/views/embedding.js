// Stage 2: token embedding rows, plus positional encoding rows, make x.
import { makeScale } from '../colors.js';
import { h, sleep } from '../dom.js';
import { fmt } from '../format.js';
import { heatCanvas, renderMatrix } from '../matrix-view.js';

const STRIP_LIMIT = 24;  // more tokens than this: three heat maps instead of strips

function strip(m, row, scale, explain) {
  const one = { rows: 1, cols: m.cols, data: m.data.subarray(row * m.cols, (row + 1) * m.cols) };
  return heatCanvas(one, scale, { explain: (_, j) => explain(row, j) });
}

export default {
  id: 'embedding',
  label: 'Embedding + Position',
  formulaPart: null,
  title: () => 'Embedding + position → x',
  explain(ctx) {
    const d = ctx.config.dModel;
    return ctx.config.positional
      ? `Each token id picks its own row of ${d} numbers, its embedding: the same token has the same row in every sentence. A row of sines and cosines that depends only on the position is added, so x = embedding + position knows word order.`
      : `Positional encoding is off: x is just the embedding row of each token (${d} numbers). Without positions, attention cannot tell 我喜欢 from 喜欢我.`;
  },
  async render(body, ctx) {
    const e = ctx.stage('embeddings');
    const p = ctx.stage('positional');
    const x = ctx.stage('x');
    const scale = makeScale('diverging', Math.min(e.min, p.min, x.min), Math.max(e.max, p.max, x.max));
    const explain = (i, j) => `${ctx.tokens[i]}, column ${j}:\nembedding ${fmt(e.data[i * e.cols + j], 3)} + position ${fmt(p.data[i * p.cols + j], 3)} = x ${fmt(x.data[i * x.cols + j], 3)}`;
    const legend = [{ label: 'embedding, position and x', scale }];

    if (ctx.n > STRIP_LIMIT) {
      const opts = { scale: 'diverging', rowLabels: ctx.tokens, explain };
      const blocks = [
        renderMatrix(e, { ...opts, caption: 'embeddings', stageId: 'embeddings' }),
        renderMatrix(p, { ...opts, caption: '+ positional', stageId: 'positional' }),
        renderMatrix(x, { ...opts, caption: '= x', stageId: 'x' }),
      ];
      body.append(...blocks.map((b) => b.element));
      for (const b of blocks) await b.reveal({ animate: ctx.animate });
      return legend;
    }

    const columns = [['embedding', e], ['+ position', p], ['= x', x]];
    const grid = h('div', { class: 'strips embed-strips' });
    const groups = columns.map(() => []);
    columns.forEach(([name, m], c) => {
      grid.append(h('div', { class: 'strip-head' }, ''), h('div', { class: 'strip-head' }, `${name}  (${ctx.n} × ${m.cols})`));
      for (let i = 0; i < ctx.n; i += 1) {
        const canvas = strip(m, i, scale, explain);
        canvas.dataset.stage = c === 0 ? 'embeddings' : c === 1 ? 'positional' : 'x';
        groups[c].push(canvas);
        grid.append(h('div', { class: `label${i === ctx.selected ? ' selected' : ''}` }, ctx.tokens[i]), canvas);
      }
    });
    body.append(grid);
    if (ctx.animate) {
      groups.flat().forEach((c) => c.classList.add('pending'));
      for (const group of groups) {
        await sleep(120);
        for (const c of group) {
          c.classList.remove('pending');
          await sleep(35);
        }
      }
    }
    return legend;
  },
};
