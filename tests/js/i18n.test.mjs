// The two dictionaries of the page: the same keys and the same {slots}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS_EN } from '../../web/app/strings-en.js';
import { STRINGS_ZH } from '../../web/app/strings-zh.js';

const slots = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('English and Chinese have the same keys', () => {
  const en = Object.keys(STRINGS_EN).sort();
  const zh = Object.keys(STRINGS_ZH).filter((k) => !k.startsWith('error.')).sort();
  assert.deepEqual(zh, en);
});

test('each translation fills the same slots as the English', () => {
  for (const [key, text] of Object.entries(STRINGS_EN)) {
    assert.deepEqual(slots(STRINGS_ZH[key]), slots(text), key);
  }
});

test('Chinese error messages exist for every code the page shows', () => {
  for (const code of ['empty_text', 'too_many_tokens', 'text_too_long', 'invalid_utf8', 'invalid_text', 'invalid_config', 'invalid_option']) {
    assert.ok(STRINGS_ZH[`error.${code}`], code);
  }
});
