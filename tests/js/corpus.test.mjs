// The corpus's text rules (scripts/corpus-text.mjs) on small fixtures shaped
// like what the Debian packages ship, and one package walked end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import {
  cleanAndSplit, fnv1a, fortuneToText, ftlValues, hanCount, htmlToText, keepLine, mallardParagraphs, messageText, moEntries, normalise,
  qmEntries, rdbStrings, readText, recipeLines, splitSentences, stampText, troffToText, wordnetExamples, zhlipsumSection,
} from '../../scripts/corpus-text.mjs';
import { EVERYDAY, PACKAGES } from '../../scripts/corpus-sources.mjs';
import { everydaySplit, licencesOf, packageLines } from '../../scripts/corpus.mjs';
import {
  commonWords, evalSet, hide, inRange, LEARNER_COMMON, LEARNER_SIZE, learnerSet, learnerStyle, SIZES,
} from '../../scripts/eval-sets.mjs';

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

// ---- the learner-register sources ----

/** A Qt .qm file of { context, source, translation } messages, as lrelease writes them (messages section only). */
function qmFile(messages) {
  const parts = [];
  const field = (tag, bytes) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    parts.push(Buffer.from([tag]), length, bytes);
  };
  for (const m of messages) {
    if (m.translation !== undefined) {
      const utf16 = Buffer.from(m.translation, 'utf16le');
      utf16.swap16();
      field(0x03, utf16);
    }
    field(0x06, Buffer.from(m.source, 'utf8'));
    field(0x07, Buffer.from(m.context, 'utf8'));
    field(0x08, Buffer.alloc(0));
    parts.push(Buffer.from([0x01]));
  }
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(5);
  head[0] = 0x69;
  head.writeUInt32BE(body.length, 1);
  const magic = Buffer.from([0x3c, 0xb8, 0x64, 0x18, 0xca, 0xef, 0x9c, 0x95, 0xcd, 0x21, 0x1c, 0xbf, 0x60, 0xa1, 0xbd, 0xdd]);
  return Buffer.concat([magic, head, body]);
}

test('qmEntries: a Qt .qm file\'s messages, UTF-16 translations decoded; GCompris gives both languages, mainland Chinese', async () => {
  const qm = qmFile([
    { context: 'Menu', source: 'Select the image where the child is inside the box.', translation: '選擇小孩在盒子裡的圖片。' },
    { context: 'Data', source: 'Mom|made|me|a|sandwich.', translation: 'Mom|made|me|a|sandwich.' }, // left untranslated
    { context: 'Menu', source: 'Quit' },
  ]);
  assert.deepEqual(qmEntries(qm), [
    { context: 'Menu', source: 'Select the image where the child is inside the box.', translation: '選擇小孩在盒子裡的圖片。' },
    { context: 'Data', source: 'Mom|made|me|a|sandwich.', translation: 'Mom|made|me|a|sandwich.' },
    { context: 'Menu', source: 'Quit', translation: '' },
  ]);
  assert.throws(() => qmEntries(Buffer.alloc(40)), /not a Qt \.qm file/);
  const gcompris = EVERYDAY.find((s) => s.name === 'gcompris-qt-data');
  assert.equal(gcompris.learner, true);
  const got = (await import('../../scripts/corpus-sources.mjs')).activityText((text) => `«${text}»`)(qm); // a stand-in for OpenCC
  assert.deepEqual(got.en, ['Select the image where the child is inside the box.', 'Mom made me a sandwich.', 'Quit']);
  assert.deepEqual(got.zh, ['«選擇小孩在盒子裡的圖片。»']); // the untranslated one gives no Chinese
});

test('mallardParagraphs: a GNOME help page\'s description, titles and paragraphs; key sequences, links the page fills in, code', () => {
  const page = `<page xmlns="http://projectmallard.org/1.0/" id="x"><info><link type="guide" xref="tips"/>
<credit type="author"><name>A. Writer</name></credit><desc>Type characters not found on your keyboard.</desc></info>
<title>Enter special characters</title>
<p>You can enter and view thousands of
  characters, even <em>emoji</em> &amp; symbols.</p>
<p>Press <keyseq><key>Ctrl</key><key>Shift</key><key>U</key></keyseq> to start.</p>
<p>See <link xref="keyboard-layouts"/> for more.</p>
<screen>gsettings set a b</screen>
<steps><item><p>Open the <gui>Activities</gui> overview.</p></item></steps></page>`;
  assert.deepEqual(mallardParagraphs(page), [
    'Type characters not found on your keyboard.', 'Enter special characters',
    'You can enter and view thousands of characters, even emoji & symbols.', 'Press Ctrl+Shift+U to start.',
    'Open the Activities overview.',
  ]);
});

test('rdbStrings: the character vectors of an R lazy-load database (the Harvard sentences); stampText: Tux Paint\'s descriptions', () => {
  // One STRSXP serialised in XDR, version 3, as R writes it: "X\n", versions, the native encoding, then the vector.
  const u32 = (v) => { const b = Buffer.alloc(4); b.writeInt32BE(v); return b; };
  const strings = ['The birch canoe slid on the smooth planks.', 'Glue the sheet to the dark blue background.'];
  const xdr = Buffer.concat([Buffer.from('X\n'), u32(3), u32(0x40200), u32(0x30500), u32(5), Buffer.from('UTF-8'), u32(16), u32(strings.length),
    ...strings.flatMap((t) => [u32(0x40009), u32(Buffer.byteLength(t)), Buffer.from(t)])]);
  const object = (payload) => Buffer.concat([u32(payload.length), deflateSync(payload)]);
  const other = Buffer.concat([Buffer.from('X\n'), u32(3), u32(0x40200), u32(0x30500), u32(5), Buffer.from('UTF-8'), u32(14), u32(1), Buffer.alloc(8)]);
  assert.deepEqual(rdbStrings(Buffer.concat([object(other), object(xdr)])), strings); // a numeric vector is skipped
  assert.deepEqual(stampText('A computer mouse. Squeak!\nde.utf8=Eine Maus.\nzh_CN.utf8=电脑鼠标。吱吱！\n'),
    { en: ['A computer mouse. Squeak!'], zh: ['电脑鼠标。吱吱！'] });
  assert.deepEqual(stampText('Hair.\n'), { en: ['Hair.'], zh: [] });
});

test('everydaySplit: the learner-register sources are held out 1 in 10 and kept apart as the learner set\'s candidates', () => {
  const paragraphs = Array.from({ length: 400 }, (_, i) => ({ text: `Day ${i}: we open the door and walk in.`, learner: true }));
  const out = everydaySplit([...paragraphs, { text: 'The dragon burns the village down.' }], 'en', 25, 10);
  const heldout = paragraphs.filter((p) => fnv1a(normalise(p.text)) % 10 === 0);
  assert.ok(heldout.length > 20);
  assert.deepEqual(out.learnerSentences, heldout.flatMap((p) => splitSentences(p.text, 'en')));
  assert.equal(out.learnerTrain.filter(Boolean).length, 400 - heldout.length);
  assert.equal(out.learnerTrain.filter((l) => l === '').length, 400 - heldout.length); // a paragraph's end
  assert.deepEqual(out.sentences.filter((s) => s.includes('door')), []); // not in the other sets' candidates
});

test('the learner-register English set in tests/data/everyday follows its written rule (L1–L4)', () => {
  const lines = readFileSync(new URL('../data/everyday/en-learner.tsv', import.meta.url), 'utf8').trim().split('\n');
  const common = readFileSync(new URL('../data/everyday/en-learner.common.txt', import.meta.url), 'utf8').trim().split('\n');
  assert.equal(lines.length, LEARNER_SIZE);
  assert.equal(common.length, LEARNER_COMMON);
  const isCommon = new Set(common);
  const sentences = lines.map((line) => {
    const [masked, answer] = line.split('\t');
    const sentence = masked.replace('[MASK]', answer);
    assert.equal(sentence, learnerStyle(sentence).toLowerCase(), sentence);
    assert.ok(inRange(sentence, 'en'), sentence);
    assert.ok(isCommon.has(answer), `${answer}: a common word`);
    return sentence;
  });
  assert.deepEqual(learnerSet(sentences, common).map((e) => `${e.masked}\t${e.answer}`), lines);
  // The common words: the most frequent first, ties in the order met.
  assert.deepEqual(commonWords(['The cat sat.', 'the dog sat on the mat', "It's the cat's"], 3), ['the', 'sat', 'cat']); // cat's is a word of its own
});
