// Opening a Hugging Face BERT checkpoint in the checkpoints' module (models-wasm.js): the small
// files whole, then model.safetensors a chunk at a time, so that JS never holds the weights
// whole when it is given a Blob (a File in a browser, fs.openAsBlob() in Node). The core reads,
// checks and keeps every number (bert.hpp); nothing is computed here. The API's checks come in
// from core.js (checks.js's CHECKS): imported here, they would make a chunk the page's first load
// fetches too.

/** The files a checkpoint is opened from; tokenizer_config.json may be left out. */
export const CHECKPOINT_FILES = Object.freeze(['config.json', 'vocab.txt', 'model.safetensors', 'tokenizer_config.json']);
const CHUNK_BYTES = 8 << 20; // a multiple of every element size the core reads (2 and 4 bytes)

const isBlob = (file) => typeof Blob === 'function' && file instanceof Blob;
const sizeOf = (file) => (isBlob(file) ? file.size : file.byteLength);

// Bytes [begin, end) of a file given as a Uint8Array, an ArrayBuffer or a Blob.
async function slice(file, begin, end) {
  if (isBlob(file)) return new Uint8Array(await file.slice(begin, end).arrayBuffer());
  const bytes = file instanceof ArrayBuffer ? new Uint8Array(file) : file;
  return bytes.subarray(begin, end);
}

/** Opens a model file npm run import-model wrote (ALMODEL4: a checkpoint's files and weights in
 *  one) under `id`; resolves to its ModelInfo. files: { 'model.almodel': bytes or a Blob }. */
export async function openModelFile(models, id, files, { checks, taken }) {
  const { describe, fail, unwrap } = checks;
  if (taken) fail(`the id "${id}" is a model file's model here; open the file under another id`, 'invalid_argument', { id });
  const names = Object.keys(files);
  if (names.length !== 1) fail(`a converted model is opened from { 'model.almodel': its bytes } alone, got ${names.join(', ')}`, 'invalid_argument');
  const file = files['model.almodel'];
  if (!(file instanceof Uint8Array || file instanceof ArrayBuffer || isBlob(file))) {
    fail(`model.almodel is given as a Uint8Array, an ArrayBuffer or a Blob, got ${describe(file)}`, 'invalid_argument', { name: 'model.almodel' });
  }
  return unwrap(models.openBertModelFile(id, await slice(file, 0, sizeOf(file))));
}

/** The small files of a checkpoint (config.json, vocab.txt, tokenizer_config.json or empty), as
 *  Uint8Arrays: what a model file written from it carries besides the weights. */
export async function checkpointTexts(files) {
  const whole = async (name) => (files[name] === undefined ? new Uint8Array(0) : slice(files[name], 0, sizeOf(files[name])));
  const [config, vocab, tokenizer] = await Promise.all(['config.json', 'vocab.txt', 'tokenizer_config.json'].map(whole));
  return { config, vocab, tokenizer };
}

function checkFiles(files, { describe, fail }) {
  for (const name of Object.keys(files)) {
    if (!CHECKPOINT_FILES.includes(name)) {
      fail(`a checkpoint is opened from ${CHECKPOINT_FILES.join(', ')}; "${name}" is none of them`, 'invalid_argument', { name });
    }
  }
  for (const name of CHECKPOINT_FILES) {
    const file = files[name];
    if (file === undefined && name === 'tokenizer_config.json') continue;
    if (file === undefined) fail(`a checkpoint needs its ${name}`, 'invalid_argument', { name });
    if (!(file instanceof Uint8Array || file instanceof ArrayBuffer || isBlob(file))) {
      fail(`${name} is given as a Uint8Array, an ArrayBuffer or a Blob, got ${describe(file)}`, 'invalid_argument', { name });
    }
  }
}

/** Opens the checkpoint `files` under `id` in the checkpoints' module `models`; resolves to its
 *  ModelInfo. options.onProgress(bytesRead, bytesToRead), when given, follows model.safetensors.
 *  checks: checks.js's CHECKS; taken: whether a model file's model has the id already. */
export async function importCheckpoint(models, id, files, { onProgress } = {}, { checks, taken }) {
  const { describe, fail, unwrap } = checks;
  if (onProgress !== undefined && typeof onProgress !== 'function') fail(`onProgress must be a function, got ${describe(onProgress)}`, 'invalid_argument');
  if (taken) fail(`the id "${id}" is a model file's model here; open the checkpoint under another id`, 'invalid_argument', { id });
  checkFiles(files, checks);
  const { config, vocab, tokenizer } = await checkpointTexts(files);
  const weights = files['model.safetensors'];
  const size = sizeOf(weights);
  const headerEnd = unwrap(models.bertHeaderEnd(await slice(weights, 0, Math.min(8, size)), size));
  const reading = unwrap(models.bertImport(id, config, vocab, tokenizer, await slice(weights, 0, headerEnd), size));
  try {
    const reads = reading.reads();
    const total = reads.reduce((sum, r) => sum + (r.end - r.begin), 0);
    let done = 0;
    for (const [r, { begin, end }] of reads.entries()) {
      for (let at = begin; at < end; at += CHUNK_BYTES) {
        const chunk = await slice(weights, at, Math.min(end, at + CHUNK_BYTES));
        if (chunk.length !== Math.min(end, at + CHUNK_BYTES) - at) {
          fail('model.safetensors changed or was cut short while it was read', 'model_truncated');
        }
        unwrap(reading.put(r, at - begin, chunk));
        done += chunk.length;
        onProgress?.(done, total);
      }
    }
    return unwrap(reading.finish(id));
  } finally {
    reading.delete();
  }
}
