// The views of the experiments in classic.js, and their words: one chunk. What
// they draw with (h, fmt, the matrix view …) is the page's, handed in, so the
// first load shares no chunk with this one.
import { EXPERIMENTS_WORDS } from '../../generated/words/experiments.js';
import { barChartWith } from './bars.js';
import context from './context.js';
import maskPosition from './mask-position.js';
import scaling from './scaling.js';
import stability from './stability.js';
import temperature from './temperature.js';
import textbook from './textbook.js';
import variance from './variance.js';

/** deps: { clear, h, fmt, sig, translator, sentenceGap, renderMatrix, headNumber, referenceNote, presets } (the page's).
 *  Every view by experiment id: { render(body, ctx) }, its words looked up first in this chunk's
 *  table of ctx.lang, then in the lab's (ctx.t). */
export function classicViews(deps) {
  const { translator } = deps;
  const tables = Object.fromEntries(Object.entries(EXPERIMENTS_WORDS).map(([lang, table]) => [lang, { table, t: translator(table) }]));
  const withWords = (ctx) => {
    const own = tables[ctx.lang] ?? tables.en;
    return { ...ctx, t: (key, params) => (key in own.table ? own.t(key, params) : ctx.t(key, params)) };
  };
  const made = { ...deps, barChart: barChartWith(deps.h) };
  const views = { variance, scaling, temperature, stability, context, 'mask-position': maskPosition, textbook };
  return Object.fromEntries(Object.entries(views).map(([id, view]) => {
    const { render } = view(made);
    return [id, { render: (body, ctx) => render(body, withWords(ctx)) }];
  }));
}
