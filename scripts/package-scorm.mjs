// Packages the offline page (web/generated/attention-lab.html) as a SCORM 1.2 or
// 2004 (4th edition) content package for learning platforms (Moodle, Canvas, Blackboard, Open edX):
// a zip with imsmanifest.xml at its root and the page as its one SCO. On the
// platform, the page reports its exercises' score and completion through the
// platform's runtime API (web/app/host/scorm.js).
//   npm run package:scorm -- [--version=1.2|2004] [--exercises=softmax:2:3,output] [--sentence=…]
//                            [--lang=en|zh|zh-Hant] [--step=softmax] [--tour] [--title=…] [--mastery=80] [--out=dist/attention-lab-scorm.zip]
// --tour: the lesson opens on the guided tour of the article (going through it completes the lesson).
// --exercises: the set, as ?exercises=… takes it (every exercise once if not given);
// --mastery: the score (0–100) that passes; the platform's own setting wins.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LESSON_OPTIONS, checkLesson, escapeXml, lessonPage } from './lesson-package.mjs';
import { writeZip } from './zip.mjs';

const { values } = parseArgs({
  options: {
    ...LESSON_OPTIONS,
    version: { type: 'string', default: '1.2' },
    title: { type: 'string', default: 'Attention Lab: softmax(QKᵀ/√d_k)·V, your turn' },
    out: { type: 'string', default: 'dist/attention-lab-scorm.zip' },
  },
});
const fail = (message) => {
  console.error(`package:scorm: ${message}`);
  process.exit(2);
};

let mastery;
let page;
let link;
try {
  mastery = checkLesson(values);
  if (!['1.2', '2004'].includes(values.version)) throw new Error(`--version is 1.2 or 2004, got ${values.version}`);
  ({ page, link } = lessonPage(values, 'package:scorm'));
} catch (error) {
  fail(error.message);
}

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
console.log(`wrote ${out} (SCORM ${values.version}: imsmanifest.xml + attention-lab.html, ${link || 'every exercise once'})`);
