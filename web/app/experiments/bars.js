// A small bar chart shared by the experiments: one bar per value, heights scaled to
// the largest. Drawing only, with the page's h() (ui/dom.js): it goes in the
// experiments' chunk (experiments/classic-views.js).

/** barChart(values, { labels, caption, className }) → a <figure>, drawn with h. */
export const barChartWith = (h) => function barChart(values, { labels = [], caption = '', className = '' } = {}) {
  let top = 0;
  for (const v of values) top = Math.max(top, Math.abs(v));
  const bars = Array.from(values, (v, k) => {
    const bar = h('span', { class: 'hbar', title: `${labels[k] ?? k}: ${v}` });
    bar.style.height = `${top ? Math.round((Math.abs(v) / top) * 100) : 0}%`;
    return bar;
  });
  const named = labels.length === values.length && labels.length <= 64;
  // Words longer than a bar is wide (English tokens on a phone) are written downwards, whole.
  const long = named && labels.some((l) => [...String(l)].length > 3);
  return h('figure', { class: `bar-chart ${className}` },
    h('div', { class: 'hbars' }, bars),
    named ? h('div', { class: long ? 'hlabels vertical' : 'hlabels' }, labels.map((l) => h('span', {}, l))) : null,
    caption ? h('figcaption', {}, caption) : null);
};
