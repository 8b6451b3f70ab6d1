// npm run package:cmi5: the lab as a cmi5 course package, a zip with cmi5.xml
// (the course structure: one course, one assignable unit) and the offline page as
// the AU, which a course author imports into a cmi5 platform (an LMS with an LRS:
// SCORM Cloud, Moodle's cmi5 plugins, Cornerstone, Docebo, …). Launched with cmi5's
// parameters, the page reports to the platform by xAPI (web/app/host/cmi5.js).
//   npm run package:cmi5 -- [--exercises=softmax:2:3,output] [--sentence=…] [--lang=en|zh|zh-Hant] [--step=softmax] [--tour]
//        [--mastery=80] [--move-on=CompletedAndPassed] [--id=https://your.org/courses/attention]
//        [--title=…] [--out=dist/attention-lab-cmi5.zip]
// --mastery: the share of the exercise set (0–100) that passes (cmi5's masteryScore, 0–1);
// --move-on: what the platform counts as done (cmi5's moveOn);
// --id: the course's IRI (the AU's is it + /lesson); without it, a urn: made from the settings.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { LESSON_OPTIONS, checkLesson, escapeXml, lessonPage } from './lesson-package.mjs';
import { writeZip } from './zip.mjs';
import { toTaiwan } from './zh-hant-words.mjs';

export const MOVE_ON = Object.freeze(['Passed', 'Completed', 'CompletedAndPassed', 'CompletedOrPassed', 'NotApplicable']);
const DESCRIPTION = {
  'en-US': 'Scaled dot-product attention, softmax(QKᵀ/√d_k)·V, computed with real numbers by a C++ core in WebAssembly, '
    + 'one step at a time on a sentence; the learner computes numbers of the run by hand and the core checks them.',
  'zh-CN': '用真实的数字一步一步地看缩放点积注意力 softmax(QKᵀ/√d_k)·V：由编译成 WebAssembly 的 C++ 核心在一个句子上计算；'
    + '学习者亲手算出其中的数，由核心检查。',
};
DESCRIPTION['zh-TW'] = toTaiwan(DESCRIPTION['zh-CN']); // traditional, made as the page's words are
// The lesson's language as cmi5's langstrings tag it.
const TAG = Object.freeze({ en: 'en-US', zh: 'zh-CN', 'zh-Hant': 'zh-TW' });

/** The page's policy, allowing what a cmi5 AU must do: reach the platform's endpoint, which it learns only at launch. */
export function cmi5Policy(page) {
  const open = page.replace(/connect-src 'none'/, 'connect-src http: https:');
  if (open === page) throw new Error("the offline page's Content-Security-Policy has no connect-src 'none' to open to the platform");
  return open;
}

/** The package's files [{ name, data }] for the author's settings; throws an Error naming a bad one. */
export function cmi5Entries(values) {
  const mastery = checkLesson(values);
  const moveOn = values['move-on'] ?? 'CompletedAndPassed';
  if (!MOVE_ON.includes(moveOn)) throw new Error(`--move-on is one of ${MOVE_ON.join(', ')}, got ${moveOn}`);
  const title = values.title ?? 'Attention Lab: softmax(QKᵀ/√d_k)·V, your turn';
  const settings = JSON.stringify([values.exercises ?? '', values.sentence ?? '', values.lang ?? '', values.step ?? '', Boolean(values.tour), mastery, moveOn, title]);
  const id = values.id ?? `urn:attention-lab:cmi5:${createHash('sha256').update(settings).digest('hex').slice(0, 16)}`;
  if (!/^[a-z][a-z0-9+.-]*:[^\s<>"]+$/i.test(id) || /[?#]/.test(id)) throw new Error(`--id is an absolute IRI without ? or #, such as https://your.org/courses/attention, got ${id}`);
  const { page } = lessonPage(values, 'package:cmi5');
  const tag = TAG[values.lang] ?? 'en-US';
  const text = (kind) => `    <${kind}>\n      <langstring lang="${tag}">${escapeXml(title)}</langstring>\n    </${kind}>`;
  const description = `    <description>\n${Object.entries(DESCRIPTION).map(([lang, words]) => `      <langstring lang="${lang}">${escapeXml(words)}</langstring>`).join('\n')}\n    </description>`;
  const structure = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="${escapeXml(id)}">
${text('title')}
${description}
  </course>
  <au id="${escapeXml(`${id}/lesson`)}" moveOn="${moveOn}" masteryScore="${(mastery / 100).toFixed(2)}" launchMethod="AnyWindow">
${text('title')}
${description}
    <url>attention-lab.html</url>
  </au>
</courseStructure>
`;
  return [{ name: 'cmi5.xml', data: structure }, { name: 'attention-lab.html', data: cmi5Policy(page) }];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      ...LESSON_OPTIONS,
      'move-on': { type: 'string', default: 'CompletedAndPassed' },
      id: { type: 'string' },
      title: { type: 'string' },
      out: { type: 'string', default: 'dist/attention-lab-cmi5.zip' },
    },
  });
  try {
    const entries = cmi5Entries(values);
    const out = resolve(process.cwd(), values.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, writeZip(entries));
    console.log(`wrote ${out} (cmi5: cmi5.xml + attention-lab.html, moveOn ${values['move-on']}, masteryScore ${(Number(values.mastery) / 100).toFixed(2)})`);
  } catch (error) {
    console.error(`package:cmi5: ${error.message}`);
    process.exit(2);
  }
}
