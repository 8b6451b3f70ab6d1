// Two models item by item (scripts/compare-models.mjs): the paired counts and McNemar's exact test.
import assert from 'node:assert/strict';
import test from 'node:test';
import { mcnemarExact, pairedCounts } from '../../scripts/compare-models.mjs';

test('mcnemarExact gives the two-sided binomial tail of the sentences only one model gets', () => {
  // Independent figures (Python: 2 · Σ_{i ≤ min} C(n, i) / 2^n).
  assert.ok(Math.abs(mcnemarExact(21, 13) - 0.22948101302608848) < 1e-12);
  assert.ok(Math.abs(mcnemarExact(19, 16) - 0.7358788008568808) < 1e-12);
  assert.equal(mcnemarExact(0, 5), 0.0625);
  assert.equal(mcnemarExact(10, 0), 0.001953125);
  assert.equal(mcnemarExact(13, 21), mcnemarExact(21, 13));
  // No difference, or none to judge by: p is 1, never above.
  assert.equal(mcnemarExact(3, 3), 1);
  assert.equal(mcnemarExact(0, 0), 1);
});

test('pairedCounts sorts the items into both, only A, only B and neither', () => {
  const r = pairedCounts([true, true, false, false, true], [true, false, true, false, false]);
  assert.deepEqual({ ...r, p: undefined }, { both: 1, onlyA: 2, onlyB: 1, neither: 1, p: undefined });
  assert.equal(r.p, mcnemarExact(2, 1));
});
