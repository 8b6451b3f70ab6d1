// The corpus's text rules (scripts/corpus-text.mjs) on small fixtures shaped
// like what the Debian packages ship, and one package walked end to end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cleanAndSplit, fnv1a, fortuneToText, hanCount, htmlToText, keepLine, normalise, readText, troffToText } from '../../scripts/corpus-text.mjs';
import { licencesOf, packageLines, PACKAGES } from '../../scripts/corpus.mjs';

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
