// Compiling and instantiating an Emscripten module's wasm, for the core
// (attention-lab.js) and the trainer (trainer-wasm.js): while it downloads where
// the browser can (WebAssembly.compileStreaming, off the main thread, cached
// with the file), from bytes otherwise (Node, or a server that does not send
// application/wasm).

/** The compiled module of the wasm at url (a file: URL is read from disk, in Node). */
export async function compileWasm(url) {
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return WebAssembly.compile(await readFile(url));
  }
  const response = await fetch(url, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${url} answered HTTP ${response.status}`);
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** The Emscripten module createModule makes, on an instance of `module`; rejects if instantiating fails. */
export function instantiateWith(createModule, module) {
  let failed;
  const failure = new Promise((_, reject) => { failed = reject; });
  return Promise.race([failure, createModule({
    // The glue's hook for a module compiled elsewhere: instantiate it with
    // the glue's imports and hand the instance back.
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), failed);
      return {};
    },
  })]);
}
