// The dictionaries of the page: the same keys and the same {slots} (the traditional
// Chinese, made from the simplified at build time: zh-hant.test.mjs); choosing a language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS_EN as PAGE_EN } from '../../web/app/strings/en.js';
import { STRINGS_ZH as PAGE_ZH } from '../../web/app/strings/zh.js';
import { HEADS_EN } from '../../web/app/strings/heads-en.js';
import { HEADS_ZH } from '../../web/app/strings/heads-zh.js';
import { EXERCISES_EN, EXERCISES_ZH } from '../../web/app/strings/exercises.js';
import { TOUR_EN, TOUR_ZH } from '../../web/app/strings/tour.js';
import { TRAINING_EN, TRAINING_ZH } from '../../web/app/strings/training.js';
import { EXPERIMENTS_EN, EXPERIMENTS_ZH } from '../../web/app/strings/experiments.js';
import { TILES_EN, TILES_ZH } from '../../web/app/strings/tiles.js';
import { LENS_EN, LENS_ZH } from '../../web/app/strings/lens.js';
import { ROLLOUT_EN, ROLLOUT_ZH } from '../../web/app/strings/rollout.js';
import { SHARED_QK_EN, SHARED_QK_ZH } from '../../web/app/strings/shared-qk.js';
import { COURSE_EN, COURSE_ZH } from '../../web/app/strings/course.js';
import { ENGLISH, LANGUAGE_IDS, languageOfTag, loadWords, pickLanguage, sentenceGap } from '../../web/app/strings/i18n.js';
import { PRESETS_ZH_HANT, WORDS_ZH_HANT } from '../../web/generated/words/words-zh-hant.js';
import { fmt, share, sig } from '../../web/app/ui/format.js';

// The page's words: the page's own, a trained model's views', Your turn's and the tour's.
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

test('the files of words do not name the same key twice', () => {
  const english = [PAGE_EN, HEADS_EN, EXERCISES_EN, TOUR_EN, TRAINING_EN, EXPERIMENTS_EN, COURSE_EN];
  const chinese = [PAGE_ZH, HEADS_ZH, EXERCISES_ZH, TOUR_ZH, TRAINING_ZH, EXPERIMENTS_ZH, COURSE_ZH];
  for (const files of [english, chinese]) {
    const keys = files.flatMap((f) => Object.keys(f));
    assert.equal(new Set(keys).size, keys.length);
  }
});

test('a share prints with two decimals, never in exponent form', () => {
  assert.deepEqual([0.9428, 0.0000023, 0.0049, 0.005, 1].map(share), ['0.94', '0.00', '0.00', '0.01', '1.00']);
});

test('each language loads as one set of words, English there from the start', async () => {
  assert.deepEqual(LANGUAGE_IDS, ['en', 'zh', 'zh-Hant']);
  assert.equal(await loadWords('en'), ENGLISH);
  assert.equal(await loadWords('xx'), ENGLISH, 'an unknown language is English');
  const zh = await loadWords('zh');
  assert.equal(zh, await loadWords('zh'), 'loaded once');
  assert.equal(zh.htmlLang, 'zh-CN');
  for (const key of Object.keys(STRINGS_ZH)) assert.equal(zh.t(key), STRINGS_ZH[key].replace(/\{(\w+)\}/g, '{$1}'), key);
  assert.equal(zh.t('no.such.key'), '⟦no.such.key⟧');
  assert.equal(zh.errorText({ code: 'empty_text', message: 'x', params: {} }), STRINGS_ZH['error.empty_text']);
  assert.equal(zh.examples, null, 'the Examples menu as the page writes it');
  const hant = await loadWords('zh-Hant');
  assert.equal(hant, await loadWords('zh-hant'), 'loaded once, whatever the case');
  assert.equal(hant.htmlLang, 'zh-TW');
  assert.equal(hant.examples, PRESETS_ZH_HANT);
  for (const key of Object.keys(STRINGS_ZH)) assert.equal(hant.t(key), WORDS_ZH_HANT[key], key);
  assert.equal(hant.t('page.brand'), '注意力實驗室');
  assert.equal(hant.errorText({ code: 'empty_text', message: 'x', params: {} }), '文字是空的：請輸入至少一個字或詞');
});

test('the lab\'s language: the lang parameter, else the browser\'s first Chinese (traditional for zh-Hant, zh-TW, zh-HK), else English', () => {
  assert.equal(pickLanguage('zh-Hant'), 'zh-Hant');
  assert.equal(pickLanguage('ZH-hant', ['en-US']), 'zh-Hant');
  assert.equal(pickLanguage('en', ['zh-TW']), 'en');
  assert.equal(pickLanguage('xx', ['zh-CN']), 'zh', 'an unknown parameter: the browser\'s');
  for (const [languages, lang] of [[['zh-TW'], 'zh-Hant'], [['zh-HK', 'en'], 'zh-Hant'], [['en-US', 'zh-Hant-TW'], 'zh-Hant'], [['zh-MO'], 'zh-Hant'],
    [['zh-CN'], 'zh'], [['zh'], 'zh'], [['zh-Hans-TW'], 'zh'], [['zh-SG', 'zh-TW'], 'zh'], [['fr-FR', 'en-GB'], 'en'], [[], 'en']]) {
    assert.equal(pickLanguage(null, languages), lang, languages.join());
  }
  assert.deepEqual(['zh-tw', 'ZH-Hant', 'zh-cn', 'en-GB', 'english', 'fr', '', undefined].map(languageOfTag), ['zh-Hant', 'zh-Hant', 'zh', 'en', null, null, null, null]);
  assert.deepEqual(LANGUAGE_IDS.map(sentenceGap), [' ', '', ''], 'Chinese sentences follow one another without a space');
});

test("the words of the chunks (training lab, experiments, course bar): the same keys and slots in both languages", () => {
  const pairs = [[TRAINING_EN, TRAINING_ZH], [EXPERIMENTS_EN, EXPERIMENTS_ZH], [TILES_EN, TILES_ZH], [ROLLOUT_EN, ROLLOUT_ZH], [LENS_EN, LENS_ZH],
    [SHARED_QK_EN, SHARED_QK_ZH],
    [COURSE_EN, COURSE_ZH]];
  for (const [en, zh] of pairs) {
    assert.ok(Object.keys(en).length > 5);
    assert.deepEqual(Object.keys(zh).sort(), Object.keys(en).sort());
    for (const [key, text] of Object.entries(en)) assert.deepEqual(slots(zh[key]), slots(text), key);
  }
});

test("the experiments' words in their chunk are not the page's too", () => {
  for (const key of Object.keys(EXPERIMENTS_EN)) assert.ok(!(key in PAGE_EN) && !(key in PAGE_ZH), key);
});

test('numbers are written with the minus sign, the exponent\'s too, as the rest of the page has them', () => {
  assert.equal(fmt(-6.47e-8), '−6.47e−8');
  assert.equal(fmt(1.58e-4), '1.58e−4');
  assert.equal(fmt(-0.25), '−0.25');
  assert.equal(fmt(-0.001), '−1.00e−3');
  assert.equal(sig(-3.06e-7), '−3.06e−7');
});
