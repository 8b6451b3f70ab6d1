// Traditional Chinese (zh-Hant), made from the simplified words at build time
// (scripts/zh-hant-words.mjs: OpenCC cn → twp, then scripts/zh-hant-corrections.mjs):
// every table has its twin with the same keys and {slots}, no simplified character
// is left where OpenCC would convert one, and the modules in web/generated/words/
// are what the sources make now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { Converter } from 'opencc-js/cn2t';
import { TABLES, toTaiwan, zhHantModules } from '../../scripts/zh-hant-words.mjs';
import { CORRECTIONS, KEPT } from '../../scripts/zh-hant-corrections.mjs';
import { WORDS_ZH } from '../../web/app/strings/words-zh.js';
import { PRESETS } from '../../web/app/shell/presets.js';
import { PRESETS_ZH_HANT, WORDS_ZH_HANT } from '../../web/generated/words/words-zh-hant.js';

const STRINGS = new URL('../../web/app/strings/', import.meta.url);
const GENERATED = new URL('../../web/generated/words/', import.meta.url);
const slots = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
// Every pair of tables: [where, simplified, traditional].
const pairs = async () => [['words-zh.js', WORDS_ZH, WORDS_ZH_HANT], ...await Promise.all(TABLES.map(async ([file, name]) => {
  const simplified = await import(new URL(`${file}.js`, STRINGS));
  const generated = await import(new URL(`${file}.js`, GENERATED));
  return [`${file}.js`, simplified[`${name}_ZH`], generated[`${name}_ZH_HANT`]];
}))];

test('every table of Chinese words has a traditional twin: the same keys, the same {slots}, and each by language id', async () => {
  for (const [where, zh, hant] of await pairs()) {
    assert.deepEqual(Object.keys(hant), Object.keys(zh), where);
    for (const [key, text] of Object.entries(zh)) {
      assert.deepEqual(slots(hant[key]), slots(text), `${where} ${key}`);
      assert.equal(typeof hant[key], 'string');
    }
  }
  for (const [file, name] of TABLES) {
    const words = (await import(new URL(`${file}.js`, GENERATED)))[`${name}_WORDS`];
    assert.deepEqual(Object.keys(words), ['en', 'zh', 'zh-Hant'], file);
  }
});

test('every Chinese table under web/app/strings is one the build makes traditional', async () => {
  const covered = new Set(['STRINGS_ZH', 'HEADS_ZH', 'WORDS_ZH', ...TABLES.map(([, name]) => `${name}_ZH`)]); // the first three: the page's words
  for (const file of readdirSync(STRINGS).filter((f) => f.endsWith('.js'))) {
    for (const name of Object.keys(await import(new URL(file, STRINGS)))) {
      if (/_ZH$/.test(name)) assert.ok(covered.has(name), `${file}: ${name} has no traditional twin`);
    }
  }
});

test('no simplified character is left where OpenCC would convert one', async () => {
  // Characters only (Taiwan's standard, no phrases): the text should come back as it is. The kept
  // words (the article's sentence, as the lab shows it) are left aside; 只 ("only") is a traditional
  // character too, which OpenCC reads as the simplified 隻 (a measure word) when alone.
  const characters = Converter({ from: 'cn', to: 'tw' });
  const kept = new RegExp(KEPT.join('|'), 'g');
  for (const [where, , hant] of await pairs()) {
    for (const [key, text] of Object.entries(hant)) {
      const plain = text.replace(kept, '');
      assert.equal(characters(plain).replace(/隻/g, '只'), plain.replace(/隻/g, '只'), `${where} ${key}`);
    }
  }
});

test('the conversion: Taiwan words and quotes, rows and columns as Taiwan reads them, {slots} and the kept words untouched', () => {
  assert.equal(toTaiwan('跟踪“{token}”（位置 {i}）'), '追蹤「{token}」（位置 {i}）');
  assert.equal(toTaiwan('第 {row} 行、第 {col} 列'), '第 {row} 列、第 {col} 行');
  assert.equal(toTaiwan('请运行 `npm start`，然后下面全部列出'), '請執行 `npm start`，然後下面全部列出', 'no row nor column here');
  assert.equal(toTaiwan('文章里的句子“我喜欢人工智能”'), '文章裡的句子「我喜欢人工智能」', 'as the lab shows it');
  assert.equal(toTaiwan('软件信息 {name} [MASK] 123 x·y'), '軟體資訊 {name} [MASK] 123 x·y');
  assert.equal(WORDS_ZH_HANT['page.brand'], '注意力實驗室');
  assert.equal(WORDS_ZH_HANT['step.softmax.title'], 'softmax：注意力權重');
  for (const [from] of CORRECTIONS) assert.ok(!KEPT.some((word) => word.includes(from) || from.includes(word)), `${from} and a kept word overlap`);
});

test('the Examples menu in traditional characters: the Chinese sentences converted, the others as they are', () => {
  assert.equal(PRESETS_ZH_HANT.length, PRESETS.length);
  assert.equal(PRESETS_ZH_HANT[0], '我喜歡人工智慧');
  assert.ok(PRESETS_ZH_HANT.includes('我[MASK]歡人工智慧'));
  PRESETS.forEach((text, k) => {
    if (!/\p{Script=Han}/u.test(text)) assert.equal(PRESETS_ZH_HANT[k], text);
  });
});

test('web/generated/words/ holds what the sources and the corrections make now (every correction still applies)', async () => {
  const made = await zhHantModules(); // throws on a correction that matches nothing
  assert.deepEqual(readdirSync(GENERATED).filter((f) => f.endsWith('.js')).sort(), Object.keys(made).sort());
  for (const [name, text] of Object.entries(made)) assert.equal(readFileSync(new URL(name, GENERATED), 'utf8'), text, `${name}: build again`);
});
