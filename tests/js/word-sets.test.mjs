// The word-level evaluation sets (a character inside a Chinese word, an English
// content word), the lexical training units, the usage sources' readers and the
// traditional-character aliases: each rule on small fixtures, and the committed
// sets rebuilt from their own sentences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { EVERYDAY, LEXICON_MIN, LEXICON_TWICE, lexiconUnits, traditionalAliases } from '../../scripts/corpus-sources.mjs';
import { everydaySplit } from '../../scripts/corpus.mjs';
import { bookParagraphs, wordnetGlosses, wordnetLemmas } from '../../scripts/usage-text.mjs';
import {
  CONTENT_SIZE, contentSet, FUNCTION_COUNT, inRange, learnerStyle, lexiconFor, readWordCounts, segment, WORD_SIZE, wordInsideSet,
} from '../../scripts/eval-sets.mjs';

const data = (name) => readFileSync(new URL(`../data/everyday/${name}`, import.meta.url), 'utf8');

test('segment: the dictionary path with the largest product of word frequencies; unknown characters alone', () => {
  const counts = readWordCounts('我 1000 r\n喜欢 200 v\n人工 50 n\n智能 40 n\n人工智能 30 n\n工智 1 n\n喜 20 v\n欢 10 a\n');
  assert.deepEqual(segment('我喜欢人工智能', counts), ['我', '喜欢', '人工智能']);
  assert.deepEqual(segment('我喜欢猫', counts), ['我', '喜欢', '猫']); // 猫 is not in the dictionary
  assert.deepEqual(segment('人工智', counts), ['人工', '智']);
  const { total, counts: used } = lexiconFor(['我喜欢'], counts);
  assert.equal(total, 1351);
  assert.deepEqual([...used.keys()].sort(), ['喜', '喜欢', '我', '欢']);
});

test('wordInsideSet: the hidden character lies inside a word of two or more Han characters (W1–W4)', () => {
  const counts = readWordCounts('今天 500 t\n天气 400 n\n很 300 d\n好 300 a\n我们 600 r\n去 200 v\n公园 100 n\n');
  const set = wordInsideSet(['今天天气很好。', '“我们去公园吧！”', '很好很好很好', 'abc今天天气'], counts, 10);
  assert.deepEqual(set.map((e) => e.sentence).sort(), ['今天天气很好', '我们去公园吧']); // no word of two: left out; Latin: out of range
  for (const e of set) {
    assert.ok(['今天', '天气', '我们', '公园'].includes(e.word), e.word);
    assert.equal(e.masked.replace('[MASK]', e.answer), e.sentence);
    assert.ok(e.word.includes(e.answer));
  }
});

test('the word-inside Chinese set in tests/data/everyday follows its written rule', () => {
  const lines = data('zh-words.tsv').trim().split('\n');
  assert.equal(lines.length, WORD_SIZE);
  const [head, ...entries] = data('zh-words.lexicon.tsv').trim().split('\n');
  const total = Number(head.split('\t')[1]);
  const counts = new Map(entries.map((l) => l.split('\t')).map(([w, c]) => [w, Number(c)]));
  const sentences = lines.map((line) => {
    const [masked, answer] = line.split('\t');
    const sentence = masked.replace('[MASK]', answer);
    assert.equal(learnerStyle(sentence), sentence);
    assert.ok(inRange(sentence, 'zh'), sentence);
    return sentence;
  });
  assert.deepEqual(wordInsideSet(sentences, counts, WORD_SIZE, total).map((e) => `${e.masked}\t${e.answer}`), lines);
});

test('the content-word English set in tests/data/everyday follows its written rule (L1, L2, C3, L4)', () => {
  const lines = data('en-content.tsv').trim().split('\n');
  const frequent = data('en-content.frequent.txt').trim().split('\n');
  assert.equal(lines.length, CONTENT_SIZE);
  assert.equal(frequent.length, FUNCTION_COUNT);
  const sentences = lines.map((line) => {
    const [masked, answer] = line.split('\t');
    assert.ok(!frequent.includes(answer) && /^[a-z]+$/.test(answer), `${answer}: a content word`);
    return masked.replace('[MASK]', answer);
  });
  assert.deepEqual(contentSet(sentences, frequent).map((e) => `${e.masked}\t${e.answer}`), lines);
  // A sentence of frequent words only is left out.
  assert.deepEqual(contentSet(['it is what it is', 'it is a cat'], ['it', 'is', 'what', 'a']).map((e) => e.answer), ['cat']);
});

test('lexiconUnits: words of 2 to 4 Han characters counted often enough, one a paragraph; the most counted twice', () => {
  const counts = new Map([['人工智能', 151], ['天气', LEXICON_TWICE + 1], ['罕见', LEXICON_MIN - 1], ['我', 9999], ['中华人民共和国', 500], ['AI芯片', 300]]);
  const { units, words } = lexiconUnits(counts);
  assert.deepEqual(units, ['人工智能', '', '天气', '', '天气', '']);
  assert.equal(words.has('AI芯片'), false);
  assert.equal(words.get('我'), 9999);
});

test('usage sources: WordNet glosses, Jane Austen\'s paragraphs; kept out of the lab text and the everyday sets', () => {
  const wn = '  1 This software and database\n07933274 13 n 03 tea 0 | a beverage made by steeping tea leaves in water; a light meal; "iced tea is a cooling drink"\n';
  assert.deepEqual(wordnetGlosses(wn), ['a beverage made by steeping tea leaves in water', 'a light meal']);
  const index = '  1 This software\ntea n 5 8 @ ~ #m #s #p %s %p ; 5 2 07933274\ncup_of_tea n 1 1 @ 1 1 00432881\n';
  assert.deepEqual(wordnetLemmas(index), [['tea', 3], ['cup of tea', 2]]);
  assert.deepEqual(bookParagraphs(['EMMA', '', 'Emma Woodhouse, handsome,', 'clever, and _rich_.', '', '']), ['EMMA', 'Emma Woodhouse, handsome, clever, and rich.']);
  assert.deepEqual(EVERYDAY.filter((s) => s.lab === false).map((s) => s.name), ['wordnet-base', 'libreoffice-help-en-us', 'r-cran-janeaustenr']);
  const split = everydaySplit(Array.from({ length: 60 }, (_, i) => ({ text: `She walked to the village ${i} times.`, lab: false })), 'en', 2);
  assert.equal(split.train.length + split.heldout.length, 0);
  assert.ok(split.usageTrain.length > 0 && split.usageHeldout.length > 0);
  assert.equal(split.sentences.length, 0);
});

test('traditionalAliases: each traditional character once per simplified one, its Taiwan form first', () => {
  const table = { 歡: '欢', 懽: '欢', 們: '们', 發: '发', 髮: '发', 人: '人' };
  const toCn = (c) => table[c] ?? c;
  const lines = traditionalAliases({ twToCn: toCn, hkToCn: toCn, cnToTw: (c) => ({ 欢: '歡', 们: '們', 发: '發' })[c] ?? c });
  assert.deepEqual(lines.sort(), ['們\t们', '懽\t欢', '歡\t欢', '發\t发', '髮\t发'].sort());
  const order = traditionalAliases({ twToCn: toCn, hkToCn: toCn, cnToTw: (c) => ({ 发: '髮' })[c] ?? c });
  assert.ok(order.indexOf('髮\t发') < order.indexOf('發\t发'), 'the shown form first');
});
