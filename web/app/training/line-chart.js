// The training lab's line charts as SVG: one polyline a series, its name as
// the line's title and in the legend, the range's ends on the axis. Drawing
// only: every value is a report's (the trainer's wasm).

/** name: the chart's caption; list: [{ name, cls, points: [[step, value]] }];
 *  steps: the x axis's end; [low, high]: the y range's ends (null: the data's); marks: [{ step, name, cls }],
 *  steps marked by a vertical line with its name as its title. */
export function lineChart({ h, fmt }, name, list, steps, [low, high] = [null, null], marks = []) {
  const W = 320;
  const H = 120;
  const values = list.flatMap((s) => s.points.map((p) => p[1])).filter(Number.isFinite);
  const min = low ?? Math.min(...values);
  const max = high ?? Math.max(...values, min + 1e-9);
  const x = (step) => 30 + ((W - 36) * step) / Math.max(1, steps);
  const y = (v) => H - 16 - ((H - 24) * (v - min)) / Math.max(1e-12, max - min);
  const svgNs = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs) => {
    const node = document.createElementNS(svgNs, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  };
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'train-chart', role: 'img', 'aria-label': name });
  svg.append(el('line', { x1: 30, y1: H - 16, x2: W - 6, y2: H - 16, class: 'axis' }), el('line', { x1: 30, y1: 8, x2: 30, y2: H - 16, class: 'axis' }));
  for (const [v, at] of [[max, 12], [min, H - 18]]) {
    const label = el('text', { x: 26, y: at, class: 'tick', 'text-anchor': 'end' });
    label.textContent = Number.isFinite(v) ? fmt(v, 2) : '';
    svg.append(label);
  }
  for (const m of marks) {
    const line = el('line', { x1: x(m.step).toFixed(1), y1: 8, x2: x(m.step).toFixed(1), y2: H - 16, class: `mark ${m.cls}`, 'data-step': m.step });
    const title = el('title', {});
    title.textContent = m.name;
    line.append(title);
    svg.append(line);
  }
  for (const s of list) {
    const points = s.points.filter((p) => Number.isFinite(p[1]));
    if (!points.length) continue;
    const line = el('polyline', { points: points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' '), class: `series ${s.cls}` });
    const title = el('title', {});
    title.textContent = s.name;
    line.append(title);
    svg.append(line);
  }
  const legend = h('ul', { class: 'train-legend' }, list.map((s) => h('li', { class: s.cls }, s.name)));
  return h('figure', { class: 'train-figure' }, h('figcaption', {}, name), svg, legend);
}

