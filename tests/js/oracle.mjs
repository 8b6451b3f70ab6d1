// A float64 reference for the tests only: the one place JavaScript recomputes
// attention math, to check the wasm core against an independent computation.

/** Row-major float64 matrix from a stage object. */
export function toRows({ rows, cols, data }) {
  return Array.from({ length: rows }, (_, i) => Array.from(data.subarray(i * cols, (i + 1) * cols)));
}

export function matmul(a, b) {
  return a.map((row) => b[0].map((_, j) => row.reduce((sum, v, k) => sum + v * b[k][j], 0)));
}

export const transpose = (m) => m[0].map((_, j) => m.map((row) => row[j]));

export function project(x, w, b) {
  return matmul(x, w).map((row) => row.map((v, j) => v + b[0][j]));
}

export function positional(n, dModel) {
  return Array.from({ length: n }, (_, pos) => Array.from({ length: dModel }, (_, j) => {
    const angle = pos / 10000 ** ((2 * Math.floor(j / 2)) / dModel);
    return j % 2 === 0 ? Math.sin(angle) : Math.cos(angle);
  }));
}

export function softmaxRows(m) {
  return m.map((row) => {
    const max = Math.max(...row);
    const e = row.map((v) => (v === -Infinity ? 0 : Math.exp(v - max)));
    const sum = e.reduce((s, v) => s + v, 0);
    return e.map((v) => v / sum);
  });
}

/** Every stage from x and the weights, in float64. */
export function forward({ x, wq, wk, wv, bq, bk, bv }, { dK, scale, causal }) {
  const q = project(x, wq, bq);
  const k = project(x, wk, bk);
  const v = project(x, wv, bv);
  const scores = matmul(q, transpose(k));
  const scaled = scores.map((row) => row.map((s) => (scale ? s / Math.sqrt(dK) : s)));
  const masked = scaled.map((row, i) => row.map((s, j) => (causal && j > i ? -Infinity : s)));
  const weights = softmaxRows(masked);
  const output = matmul(weights, v);
  return { q, k, v, scores, scaled, masked, weights, output };
}

/** Largest |a − b| over two same-shaped matrices; -Infinity pairs count as equal. */
export function maxAbsDiff(a, b) {
  let worst = 0;
  a.forEach((row, i) => row.forEach((v, j) => {
    const w = b[i][j];
    if (v === w) return;
    worst = Math.max(worst, Math.abs(v - w));
  }));
  return worst;
}
