// Assertions the API's Node tests share.
import assert from 'node:assert/strict';
import { AttentionLabError } from 'attention-lab';

/** fn throws an AttentionLabError with this code and a message matching part. */
export function throwsLab(fn, code, part) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof AttentionLabError, `not an AttentionLabError: ${error}`);
    assert.ok(error instanceof Error);
    assert.equal(error.code, code);
    assert.match(error.message, part);
    return true;
  });
}
