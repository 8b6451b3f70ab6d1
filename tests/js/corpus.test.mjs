// The corpus's text rules (scripts/corpus-text.mjs) on small fixtures shaped
// like what the Debian packages ship, and one package walked end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  cleanAndSplit, fnv1a, fortuneToText, ftlValues, hanCount, htmlToText, keepLine, messageText, moEntries, normalise, readText,
  recipeLines, splitSentences, troffToText, wordnetExamples, zhlipsumSection,
} from '../../scripts/corpus-text.mjs';
import { everydaySplit, licencesOf, packageLines, PACKAGES } from '../../scripts/corpus.mjs';
import { evalSet, hide, inRange, learnerStyle, SIZES } from '../../scripts/eval-sets.mjs';

test('htmlToText: one line per block, markup and scripts gone, entities decoded', () => {
  const html = `<html><head><title>标题</title><style>p { color: red }</style><script>alert("x")</script></head>
<body><p>注意力机制让
每个词元看见<b>其他</b>词元 &amp; 位置&#12290;</p><pre>ls -l</pre><ul><li>第一项&nbsp;内容</li><li>&#x559C;欢</li></ul></body></html>`;
  const lines = htmlToText(html).split('\n').map(normalise).filter(Boolean);
  assert.deepEqual(lines, ['标题', '注意力机制让 每个词元看见其他词元 & 位置。', '第一项 内容', '喜欢']);
});

test('troffToText: comments and layout requests dropped, macro arguments and text kept, escapes resolved', () => {
  const troff = [
    '.\\" DO NOT MODIFY THIS FILE!',
    '.TH LS 1 2022年9月 "GNU coreutils 9.1" 用户命令',
    '.SH 名称',
    'ls \\- 列出目录内容',
    '.PP',
    '列出指定\\(lq文件\\(rq的信息，\\fB\\-\\-sort\\fP 按字母排序。 \\" a trailing comment',
    '\\fI\\,选项\\/\\fP 与\\ \\fB\\-l\\fP 同时使用',
  ].join('\n');
  const lines = troffToText(troff).split('\n').map(normalise).filter(Boolean);
  assert.deepEqual(lines, ['名称', 'ls - 列出目录内容', '列出指定"文件"的信息，--sort 按字母排序。', '选项 与 -l 同时使用']);
});

test('fortuneToText: records split at % lines, ANSI colours removed', () => {
  const text = '\x1b[32m《静夜思》\x1b[m\n床前明月光，疑是地上霜。\n%\n举头望明月，低头思故乡。\n%\n';
  assert.deepEqual(fortuneToText(text).split('\n').map(normalise).filter(Boolean), ['《静夜思》', '床前明月光，疑是地上霜。', '举头望明月，低头思故乡。']);
});

test('keepLine and normalise: Chinese lines need 4 Han characters, English ones 6 words of letters', () => {
  assert.equal(hanCount('我喜欢 AI 和人工智能'), 8);
  assert.equal(keepLine('人工智能', 'zh'), true);
  assert.equal(keepLine('表 1.2', 'zh'), false);
  assert.equal(keepLine('Attention is all you need, they said.', 'en'), true);
  assert.equal(keepLine('ls -l /usr/share/doc', 'en'), false);
  assert.equal(keepLine('0x12 0x34 0x56 0x78 0x9a 0xbc 0xde', 'en'), false);
  assert.equal(keepLine('这是 a line that has six words', 'en'), false);
  assert.equal(normalise('  a\u200b\tb\u0007  c '), 'a b c');
});

test('cleanAndSplit: duplicates once, dropped lines counted, the split fixed by each line\'s hash', () => {
  const lines = ['我喜欢人工智能', '我喜欢人工智能', '表 1', ...Array.from({ length: 200 }, (_, i) => `第${i}句话很长很长`)];
  const out = cleanAndSplit(lines, 'zh', 50);
  assert.equal(out.duplicates, 1);
  assert.equal(out.dropped, 1);
  assert.equal(out.train.length + out.heldout.length, 201);
  assert.ok(out.heldout.length > 0 && out.heldout.length < 15, `${out.heldout.length} held out`);
  for (const line of out.heldout) assert.equal(fnv1a(line) % 50, 0);
  // The same line lands on the same side whatever comes with it.
  const alone = cleanAndSplit([out.heldout[0]], 'zh', 50);
  assert.deepEqual(alone.heldout, [out.heldout[0]]);
  assert.equal(fnv1a('a'), 0xe40c292c); // FNV-1a's published value for "a"
});

test('a package walked end to end: its files matched, gunzipped and read; its licences found', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-'));
  try {
    const man = join(dir, 'usr/share/man/zh_CN/man1');
    mkdirSync(man, { recursive: true });
    writeFileSync(join(man, 'ls.1.gz'), gzipSync('.SH 名称\nls \\- 列出目录内容\n'));
    writeFileSync(join(man, 'README'), 'not a man page');
    const pkg = PACKAGES.find((p) => p.name === 'manpages-zh');
    const { files, lines } = packageLines(pkg, dir);
    assert.equal(files, 1);
    assert.deepEqual(lines.map(normalise).filter(Boolean), ['名称', 'ls - 列出目录内容']);
    assert.equal(readText(gzipSync('文本'), 'x.gz'), '文本');
    assert.equal(licencesOf('Files: *\nLicense: GPL-2+\n\nFiles: b\nLicense: MIT\nLicense: GPL-2+\n'), 'GPL-2+, MIT');
    assert.equal(licencesOf('Copyright 1995 X.\nThis software is under the BSD licence.\n'), 'This software is under the BSD licence.');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ---- the everyday corpus ----

/** A gettext .mo file holding the given [msgid, msgstr] pairs (the header entry first, as msgfmt writes it). */
function moFile(pairs) {
  const all = [['', 'Content-Type: text/plain; charset=UTF-8\n'], ...pairs];
  const n = all.length;
  const strings = [];
  let at = 28 + 16 * n;
  const table = (texts) => texts.map((t) => {
    const bytes = Buffer.from(t, 'utf8');
    const entry = [bytes.length, at];
    strings.push(bytes, Buffer.alloc(1));
    at += bytes.length + 1;
    return entry;
  });
  const originals = table(all.map(([id]) => id));
  const translations = table(all.map(([, str]) => str));
  const head = Buffer.alloc(28 + 16 * n);
  head.writeUInt32LE(0x950412de, 0);
  head.writeUInt32LE(n, 8);
  head.writeUInt32LE(28, 12);
  head.writeUInt32LE(28 + 8 * n, 16);
  [...originals, ...translations].forEach(([length, offset], k) => {
    head.writeUInt32LE(length, 28 + 8 * k);
    head.writeUInt32LE(offset, 32 + 8 * k);
  });
  return Buffer.concat([head, ...strings]);
}

test('moEntries and messageText: a .mo file\'s pairs; markup removed, placeholders refused', () => {
  const mo = moFile([['Die, villain!', '死吧，恶贼！'], ['ctx\u0004Open', '打开'], ['one\0many', '一个\0多个']]);
  assert.deepEqual(moEntries(mo), [['Die, villain!', '死吧，恶贼！'], ['Open', '打开'], ['one', '一个']]);
  assert.throws(() => moEntries(Buffer.alloc(32)), /not a gettext/);
  assert.equal(messageText('He said: <i>“Run!”</i>'), 'He said: “Run!”');
  assert.equal(messageText('$unit.name attacks'), null);
  assert.equal(messageText('Gold: {GOLD}'), null);
  assert.equal(messageText('%s files'), null);
});

test('recipes, zhlipsum, Fluent and WordNet readers keep the sentences and drop the rest', () => {
  const recipes = JSON.stringify([{ description: '# 番茄炒蛋\n\n简单又好吃的家常菜。\n\n预估烹饪难度：★★', steps: [{ description: '鸡蛋打散。' }], additional_notes: ['- **注意**火候'] }]);
  assert.deepEqual(recipeLines(recipes).map(normalise).filter(Boolean), ['简单又好吃的家常菜。', '鸡蛋打散。', '注意火候']);
  const def = '+newzhlipsum < simp >\n  <\n    <随机填充文字。>,\n  >\n+newzhlipsum < zhufu >\n  <\n    <旧历的年底毕竟最像年底。>,\n    <“你回来了？”她先这样问。>\n  >\n';
  assert.deepEqual(zhlipsumSection(def, 'zhufu'), ['旧历的年底毕竟最像年底。', '“你回来了？”她先这样问。']);
  assert.throws(() => zhlipsumSection(def, 'trad'), /no section/);
  const ftl = 'about = 关于此网站\nbutton =\n    .label = 打开 { -brand-name }\n    .tooltip = 保存页面\n# 注释 = 不是\n';
  assert.deepEqual(ftlValues(ftl), ['关于此网站', '保存页面']);
  const data = '  1 This software and database is being provided\n00001740 03 n 01 entity 0 003 | that which is perceived; "the team is a unit"; "we did not understand his motivation"\n';
  assert.deepEqual(wordnetExamples(data), ['the team is a unit', 'we did not understand his motivation']);
});

test('splitSentences: after 。！？ and closing quotes; in English before a capital, not after Mr.', () => {
  assert.deepEqual(splitSentences('“你回来了？”她先这样问。我说：“是的。”然后走了', 'zh'), ['“你回来了？”', '她先这样问。', '我说：“是的。”', '然后走了']);
  assert.deepEqual(splitSentences('Did you see? I need to go. "Yes!" he said. Mr. Smith came... ok then', 'en'),
    ['Did you see?', 'I need to go.', '"Yes!" he said.', 'Mr. Smith came... ok then']);
});

test('everydaySplit: whole paragraphs held out by hash, one sentence a line, phrases kept out of the evaluation candidates', () => {
  const paragraphs = Array.from({ length: 300 }, (_, i) => `第${i}天我们出发了。天气很好！`);
  const out = everydaySplit([...paragraphs, paragraphs[0], '表 1', { text: '打开文件的对话框', phrases: true }], 'zh', 25);
  assert.equal(out.duplicates, 1);
  assert.equal(out.dropped, 1);
  assert.equal(out.paragraphs, 301);
  const heldout = paragraphs.filter((p) => fnv1a(p) % 25 === 0);
  assert.ok(heldout.length > 0);
  assert.deepEqual(out.heldout.filter(Boolean), heldout.flatMap((p) => splitSentences(p, 'zh')));
  assert.equal(out.heldout.filter((l) => l === '').length, heldout.length); // an empty line after each paragraph
  assert.deepEqual(out.sentences, heldout.flatMap((p) => splitSentences(p, 'zh')));
  assert.equal(out.train.includes('打开文件的对话框') || out.heldout.includes('打开文件的对话框'), true);
});

test('the evaluation sets in tests/data/everyday follow the written rule (scripts/eval-sets.mjs)', () => {
  for (const [language, size] of Object.entries(SIZES)) {
    const lines = readFileSync(new URL(`../data/everyday/${language}.tsv`, import.meta.url), 'utf8').trim().split('\n');
    assert.equal(lines.length, size, language);
    const sentences = lines.map((line) => {
      const [masked, answer, ...rest] = line.split('\t');
      assert.equal(rest.length, 0, line);
      assert.equal(masked.split('[MASK]').length, 2, line);
      const sentence = masked.replace('[MASK]', answer);
      assert.equal(learnerStyle(sentence), sentence, `${language}: no trailing punctuation: ${sentence}`);
      assert.ok(inRange(sentence, language), `${language}: in range: ${sentence}`);
      return sentence;
    });
    // The set rebuilt from its own sentences is itself: the hidden tokens and the order are the rule's.
    assert.deepEqual(evalSet(sentences, language, size).map((e) => `${e.masked}\t${e.answer}`), lines);
    assert.equal(new Set(sentences).size, size);
  }
  assert.deepEqual(hide('我喜欢人工智能', 'zh'), { masked: hide('我喜欢人工智能', 'zh').masked, answer: [...'我喜欢人工智能'][(fnv1a('我喜欢人工智能') >>> 8) % 7] });
  assert.equal(learnerStyle('“你回来了？”'), '你回来了');
  assert.equal(inRange('今天天气很好', 'zh'), true);
  assert.equal(inRange('今天 weather 很好', 'zh'), false);
  assert.equal(inRange('the team is a unit', 'en'), true);
  assert.equal(inRange('see page 12 now', 'en'), false);
});
