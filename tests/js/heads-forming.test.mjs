// The training lab keeps the heads' maps as they form: at most MAPS_KEPT, evenly spread over the
// run, the first and the newest always kept; the map shown follows a scrubbed step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAPS_KEPT, keepMap, shownIndex, shownMap } from '../../web/app/training/heads-section.js';

test('keepMap: never more than MAPS_KEPT maps, evenly spaced but for the newest; the first and the newest stay', () => {
  const run = { maps: [], mapsSeen: 0, mapStride: 1 };
  for (let step = 10; step <= 10 * 1000; step += 10) {
    keepMap(run, { step, heads: null });
    const { maps } = run;
    assert.ok(maps.length <= MAPS_KEPT, `${maps.length} maps at step ${step}`);
    assert.equal(maps[0].step, 10);
    assert.equal(maps.at(-1).step, step);
    const gaps = maps.slice(1, -1).map((m, k) => m.step - maps[k].step);
    assert.ok(gaps.every((g) => g === 10 * run.mapStride), `even spacing at step ${step}: ${gaps}`);
  }
  assert.ok(run.maps.length > MAPS_KEPT / 2, 'a thinning keeps half or more');
});

test('shownMap: the newest until a step is chosen; after a thinning, the nearest kept map before it', () => {
  const run = { maps: [{ step: 10 }, { step: 20 }, { step: 40 }], shownStep: null, headsStep: 40, heads: null };
  assert.equal(shownIndex(run), 2);
  run.shownStep = 20;
  assert.equal(shownMap(run).step, 20);
  run.maps.splice(1, 1); // 20 thinned away
  assert.equal(shownMap(run).step, 10);
  assert.deepEqual(shownMap({ maps: [], shownStep: null, headsStep: 7, heads: 'h' }), { step: 7, heads: 'h' });
});
