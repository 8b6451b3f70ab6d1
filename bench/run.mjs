// The benchmark suite (npm run bench): the kernel section (kernel.mjs), the
// trained model's section (model.mjs), the page section in headless Chromium
// (page.mjs, page-probes.mjs), and the report (report.mjs), which writes
// bench/RESULTS.md. Not part of npm test.
//   npm run bench -- --kernel   the kernel section alone (≈ 10 s), printed;
//                               RESULTS.md is left as it is.
//   npm run bench -- --model    the kernel and trained-model sections, printed.
//   npm run bench -- --training the training lab's section alone, printed.
//   npm run bench -- --bert     the BERT-base section (bench/bert.mjs) alone, printed.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { loadAttentionLab } from 'attention-lab';
import { median, ROOT } from './common.mjs';
import { bertSection, bertTable, bertTargets } from './bert.mjs';
import { heapFlat, kernel, loadCeiling, native } from './kernel.mjs';
import { modelSection, modelTable } from './model.mjs';
import { page } from './page.mjs';
import { kernelTable, report } from './report.mjs';
import { training, trainingReport } from './training.mjs';

if (process.argv.includes('--training')) {
  const { targets, table } = trainingReport(await training());
  console.log(['| target | this run | met? |', '|---|---|---|', ...targets.map((r) => `| ${r.join(' | ')} |`), '', ...table].join('\n'));
  process.exit(0);
}

const core = await loadAttentionLab();
const ceiling = await loadCeiling();
if (process.argv.includes('--bert')) {
  const bert = await bertSection(core, ceiling);
  console.log(['| target | this run | met? |', '|---|---|---|', ...bertTargets(bert).map((r) => `| ${r.join(' | ')} |`), '', ...bertTable(bert)].join('\n'));
  process.exit(0);
}
const nat = native();
const ker = await kernel(core, ceiling);
const topAll = median(ker.map((k) => k.ceiling));
if (process.argv.includes('--kernel')) {
  console.log([`ceiling ${topAll.toFixed(2)} GFLOP/s`, '', ...kernelTable(ker, nat)].join('\n'));
  process.exit(0);
}
const model = await modelSection(core, ceiling);
if (process.argv.includes('--model')) {
  console.log([`ceiling ${topAll.toFixed(2)} GFLOP/s`, '', ...modelTable(model), '', JSON.stringify({ load: model.load, training: model.training })].join('\n'));
  process.exit(0);
}
const heap = heapFlat(core);
const bert = await bertSection(core, ceiling);
const pg = await page();
const train = await training();
const offline = readFileSync(`${ROOT}web/generated/attention-lab.html`);
const lines = report({ ceiling, topAll, ker, nat, model, heap, bert, pg, train, single: statSync(`${ROOT}web/generated/attention-lab.html`).size, singleGz: gzipSync(offline).length });
writeFileSync(`${ROOT}bench/RESULTS.md`, lines.join('\n'));
console.log(lines.join('\n'));
