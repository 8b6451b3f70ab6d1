// Colour scales: the canvas fill (a 1024-colour table, one 32-bit word per
// pixel) paints every value the colour rgb() gives its table step, and values
// that are not finite the colour rgb() gives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeScale } from '../../web/app/matrix/colors.js';

const STEPS = 1024;

function expected(scale, v) {
  if (!Number.isFinite(v)) return scale.rgb(v);
  const k = Math.round(Math.min(STEPS - 1, Math.max(0, ((v - scale.lo) * (STEPS - 1)) / (scale.hi - scale.lo))));
  return scale.rgb(scale.lo + ((scale.hi - scale.lo) * k) / (STEPS - 1));
}

for (const [kind, min, max] of [['diverging', -3.5, 2], ['sequential', 0, 0.8]]) {
  test(`a ${kind} scale fills RGBA bytes with the colours of rgb(), opaque`, () => {
    const scale = makeScale(kind, min, max);
    const values = Float32Array.from([min, max, 0, 0.3, -0.7, 1e9, -1e9, 0.123456, -Infinity, Infinity, NaN, max / 3]);
    const bytes = new Uint8ClampedArray(values.length * 4 + 8).fill(7);
    scale.fill(values, bytes);
    values.forEach((v, t) => {
      assert.deepEqual([...bytes.slice(4 * t, 4 * t + 4)], [...expected(scale, v), 255], `value ${v}`);
    });
    assert.deepEqual([...bytes.slice(values.length * 4)], [7, 7, 7, 7, 7, 7, 7, 7], 'nothing past count is written');
  });
}

test('the fill covers only the first `count` values', () => {
  const scale = makeScale('diverging', -1, 1);
  const bytes = new Uint8ClampedArray(16);
  scale.fill(Float32Array.from([1, -1, 0, 0.5]), bytes, 2);
  assert.deepEqual([...bytes.slice(0, 8)], [...scale.rgb(1), 255, ...scale.rgb(-1), 255]);
  assert.deepEqual([...bytes.slice(8)], [0, 0, 0, 0, 0, 0, 0, 0]);
});
