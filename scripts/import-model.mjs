// npm run import-model -- DIR OUT.almodel [--int8]: a Hugging Face BERT checkpoint's folder
// (config.json, vocab.txt, model.safetensors, tokenizer_config.json when there is one) as one
// model file a course can host, opened with core.loadModel(id, { 'model.almodel': bytes })
// (docs/models.md). The core reads and checks the checkpoint as loadModel does and writes the
// file (bert.hpp's save_bert_model); --int8 keeps the matrices as int8 rows (a quarter of the bytes).
import { existsSync, openAsBlob, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAttentionLab } from '../web/lib/attention-lab.js';

const args = process.argv.slice(2);
const int8 = args.includes('--int8');
const [dir, out, ...rest] = args.filter((a) => a !== '--int8');
if (!dir || !out || rest.length) {
  console.error('usage: npm run import-model -- DIR OUT.almodel [--int8]');
  process.exit(2);
}
const files = {};
for (const name of ['config.json', 'vocab.txt', 'model.safetensors', 'tokenizer_config.json']) {
  const path = join(dir, name);
  if (existsSync(path)) files[name] = await openAsBlob(path);
}
try {
  if (!files['model.safetensors']) throw new Error(`${dir} has no model.safetensors: a checkpoint's folder holds config.json, vocab.txt and model.safetensors`);
  const core = await loadAttentionLab();
  const info = await core.loadModel('import', files);
  const bytes = await core.saveModelFile('import', { int8 });
  writeFileSync(out, bytes);
  console.log(`${out}: ${info.name}, ${info.layers} layers of ${info.heads} heads, d_model ${info.dModel}, `
    + `${info.vocabSize} tokens; ${(bytes.length / 1e6).toFixed(1)} MB${int8 ? ' (int8 matrices)' : ''}`);
} catch (error) {
  console.error(`import-model: ${error.message}${error.code ? ` (${error.code})` : ''}`);
  process.exit(1);
}
