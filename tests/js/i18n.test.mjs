// The two dictionaries of the page: the same keys and the same {slots}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS_EN as PAGE_EN } from '../../web/app/strings/en.js';
import { STRINGS_ZH as PAGE_ZH } from '../../web/app/strings/zh.js';
import { HEADS_EN, HEADS_ZH } from '../../web/app/strings/heads.js';
import { share } from '../../web/app/ui/format.js';

// The page's words: the page's own and those of a trained model's views.
const STRINGS_EN = { ...PAGE_EN, ...HEADS_EN };
const STRINGS_ZH = { ...PAGE_ZH, ...HEADS_ZH };

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

test('the two files of words do not name the same key twice', () => {
  for (const key of Object.keys(HEADS_EN)) assert.ok(!(key in PAGE_EN), key);
  for (const key of Object.keys(HEADS_ZH)) assert.ok(!(key in PAGE_ZH), key);
});

test('a share prints with two decimals, never in exponent form', () => {
  assert.deepEqual([0.9428, 0.0000023, 0.0049, 0.005, 1].map(share), ['0.94', '0.00', '0.00', '0.01', '1.00']);
});
