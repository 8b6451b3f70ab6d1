// Packages the offline page (web/generated/attention-lab.html) as a SCORM 1.2 or
// 2004 (4th edition) content package for learning platforms (Moodle, Canvas, Blackboard, Open edX):
// a zip with imsmanifest.xml at its root and the page as its one SCO. On the
// platform, the page reports its exercises' score and completion through the
// platform's runtime API (web/app/host/scorm.js).
//   npm run package:scorm -- [--version=1.2|2004] [--exercises=softmax:2:3,output] [--sentence=…]
//                            [--lang=zh|en] [--tour] [--title=…] [--mastery=80] [--out=dist/attention-lab-scorm.zip]
// --tour: the lesson opens on the guided tour of the article (going through it completes the lesson).
// --exercises: the set, as ?exercises=… takes it (every exercise once if not given);
// --mastery: the score (0–100) that passes; the platform's own setting wins.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseExercises } from '../web/app/panels/exercise-set.js';
import { writeZip } from './zip.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    version: { type: 'string', default: '1.2' },
    exercises: { type: 'string', default: '' },
    tour: { type: 'boolean', default: false },
    sentence: { type: 'string' },
    lang: { type: 'string' },
    title: { type: 'string', default: 'Attention Lab: softmax(QKᵀ/√d_k)·V, your turn' },
    mastery: { type: 'string', default: '80' },
    out: { type: 'string', default: 'dist/attention-lab-scorm.zip' },
  },
});
const fail = (message) => {
  console.error(`package:scorm: ${message}`);
  process.exit(2);
};

const { ignored } = parseExercises(values.exercises);
if (ignored.length) fail(`not exercises: ${ignored.join(', ')} (each is dot, scaled, exp, softmax or output, optionally with its cell: softmax:2:3)`);
if (!['1.2', '2004'].includes(values.version)) fail(`--version is 1.2 or 2004, got ${values.version}`);
if (values.lang && !['en', 'zh'].includes(values.lang)) fail(`--lang is en or zh, got ${values.lang}`);
const mastery = Number(values.mastery);
if (!Number.isInteger(mastery) || mastery < 0 || mastery > 100) fail(`--mastery is an integer from 0 to 100, got ${values.mastery}`);
if (values.sentence !== undefined && !values.sentence.trim()) fail('--sentence is empty');

const escapeXml = (text) => text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]);

let page;
try {
  page = readFileSync(resolve(root, 'web/generated/attention-lab.html'), 'utf8');
} catch {
  fail('web/generated/attention-lab.html is not built: run `bash scripts/build.sh web` (npm run package:scorm does)');
}
// The set, the sentence and the language go in as the page's packaged link.
const link = new URLSearchParams();
if (values.exercises) link.set('exercises', values.exercises);
if (values.sentence) link.set('s', values.sentence);
if (values.lang) link.set('lang', values.lang);
if (values.tour) link.set('tour', 'article');
const meta = `<meta name="attention-lab-link" content="${escapeXml(link.toString())}">`;
if (!page.includes('<meta charset="utf-8">')) fail('the offline page has no <meta charset="utf-8"> to put the link after');
page = page.replace('<meta charset="utf-8">', () => `<meta charset="utf-8">\n  ${meta}`);

const title = escapeXml(values.title);
// The one organisation and the one SCO, as each version's manifest writes them.
const body = (scormType, objective) => `  <organizations default="attention-lab-course">
    <organization identifier="attention-lab-course">
      <title>${title}</title>
      <item identifier="attention-lab-item" identifierref="attention-lab-page" isvisible="true">
        <title>${title}</title>
${objective}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="attention-lab-page" type="webcontent" ${scormType}="sco" href="attention-lab.html">
      <file href="attention-lab.html"/>
    </resource>
  </resources>`;
const manifest = values.version === '1.2' ? `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attention-lab" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
${body('adlcp:scormtype', `        <adlcp:masteryscore>${mastery}</adlcp:masteryscore>`)}
</manifest>
` : `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="attention-lab" version="1"
    xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
    xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
    xmlns:adlnav="http://www.adlnet.org/xsd/adlnav_v1p3"
    xmlns:imsss="http://www.imsglobal.org/xsd/imsss"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd http://www.adlnet.org/xsd/adlseq_v1p3 adlseq_v1p3.xsd http://www.adlnet.org/xsd/adlnav_v1p3 adlnav_v1p3.xsd http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>2004 4th Edition</schemaversion>
  </metadata>
${body('adlcp:scormType', `        <imsss:sequencing>
          <imsss:objectives>
            <imsss:primaryObjective objectiveID="attention-lab-mastery" satisfiedByMeasure="true">
              <imsss:minNormalizedMeasure>${(mastery / 100).toFixed(2)}</imsss:minNormalizedMeasure>
            </imsss:primaryObjective>
          </imsss:objectives>
        </imsss:sequencing>`)}
</manifest>
`;
const out = resolve(process.cwd(), values.out);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, writeZip([{ name: 'imsmanifest.xml', data: manifest }, { name: 'attention-lab.html', data: page }]));
console.log(`wrote ${out} (SCORM ${values.version}: imsmanifest.xml + attention-lab.html, ${link.toString() || 'every exercise once'})`);
