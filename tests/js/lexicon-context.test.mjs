// The lexicon's words set into everyday sentences (scripts/lexicon-context.mjs, rules X1–X3).
import assert from 'node:assert/strict';
import test from 'node:test';
import { fnv1a } from '../../scripts/corpus-text.mjs';
import { carrierOf, carrierSlots, lexiconInContext, readWordTags } from '../../scripts/lexicon-context.mjs';
import { readWordCounts } from '../../scripts/eval-sets.mjs';

const DICT = ['我 5000 r', '喜欢 900 v', '音乐 800 n', '电影 700 n', '人工智能 150 n', '看 600 v', '天气 300 n', '很 700 d', '好 900 a',
  '今天 400 t', '人工 200 n', '智能 300 n', '天 300 q'].join('\n');

test('readWordTags reads each word\'s first tag; lines without a count are skipped', () => {
  const tags = readWordTags(`${DICT}\n人工 3 vn\n坏行\n`);
  assert.equal(tags.get('人工智能'), 'n');
  assert.equal(tags.get('人工'), 'n');
  assert.equal(tags.get('坏行'), undefined);
});

test('carrierOf (X1): final punctuation off, 6 to 16 characters, at least 4 in 5 Han', () => {
  assert.equal(carrierOf('我喜欢看电影。'), '我喜欢看电影');
  assert.equal(carrierOf('我喜欢看电影吗？！'), '我喜欢看电影吗');
  assert.equal(carrierOf('我喜欢音'), null); // 4 characters
  assert.equal(carrierOf('我一二三四五六七八九十一二三四五六'), null); // 17
  assert.equal(carrierOf('我喜欢 OK 电影'), null); // 5 Han of 9
  assert.equal(carrierOf('今天天气很好'), '今天天气很好');
});

test('lexiconInContext (X2, X3): a word takes a slot of its own tag, chosen by the hash of word and number', () => {
  const counts = readWordCounts(DICT);
  const tags = readWordTags(DICT);
  const sentences = ['我很喜欢音乐。', '今天天气很好！', '我喜欢看电影', '我很喜欢音乐。', '我喜欢音乐'];
  const slots = carrierSlots(sentences, counts, tags);
  // Each carrier once; its words of two or more Han characters that have a tag.
  assert.deepEqual([...slots.keys()].sort(), ['n', 't', 'v']);
  assert.deepEqual(slots.get('n').map(({ words, at }) => words[at]), ['音乐', '天气', '电影']);
  assert.deepEqual(slots.get('v').map(({ words, at }) => words[at]), ['喜欢', '喜欢']);
  const { units, placed, alone } = lexiconInContext(['人工智能', '', '人工智能', '', '很', '', '好好', ''], tags, slots);
  assert.equal(placed, 2);
  assert.equal(alone, 2); // 很 (tag d) and 好好 (no tag): no slot
  const nouns = slots.get('n');
  const expect = (k) => {
    const { words, at } = nouns[(fnv1a(`人工智能\t${k}`) >>> 8) % nouns.length];
    return [...words.slice(0, at), '人工智能', ...words.slice(at + 1)].join('');
  };
  assert.deepEqual(units, [expect(0), '', expect(1), '', '很', '', '好好', '']);
  for (const unit of [units[0], units[2]]) {
    assert.ok(['我很喜欢人工智能', '今天人工智能很好', '我喜欢看人工智能'].includes(unit), unit);
  }
});
