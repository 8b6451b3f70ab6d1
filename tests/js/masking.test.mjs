// Hiding a word behind [MASK] (web/app/heads/masking.js): where each token's word
// stands in the sentence is the core's tokenizer's (trace.spans), so the page
// hides exactly what the model reads, whatever the text's case or script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAttentionLab } from 'attention-lab';
import { canHide, hideToken, showMask } from '../../web/app/heads/masking.js';

const core = await loadAttentionLab();

test('hiding a word: where it stands is the core\'s tokenizer\'s, so the page hides what the model reads', async () => {
  // "İ" lower-cases to two code points: offsets found in the lower-cased text would land one off.
  const sentence = 'İ cat sat, 😀 in 北京 [Mask] now';
  const trace = core.run(sentence);
  const at = (text) => trace.tokens.indexOf(text);
  const cat = hideToken(sentence, trace, at('cat'));
  assert.deepEqual(cat, { sentence: 'İ [MASK] sat, 😀 in 北京 [Mask] now', hidden: 'cat' });
  assert.equal(hideToken(sentence, trace, at('北')).sentence, 'İ cat sat, 😀 in [MASK]京 [Mask] now');
  for (const special of [0, trace.tokens.length - 1, at(','), at('[MASK]')]) assert.equal(canHide(trace, special), false, trace.tokens[special]);
  // A word of several pieces is hidden whole, from its first piece only.
  const long = core.run('unbelievably');
  assert.ok(long.tokens.length > 3, 'several pieces');
  assert.equal(hideToken('unbelievably', long, 1).sentence, '[MASK]');
  assert.equal(canHide(long, 2), false);
  // The [MASK] as typed ([Mask]) is put back in place.
  assert.equal(showMask(sentence, trace, at('[MASK]'), 'is'), 'İ cat sat, 😀 in 北京 is now');
  for (const t of [trace, long]) t.dispose();
});
