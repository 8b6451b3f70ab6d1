// Starts downloading and compiling the wasm core while the browser is still
// reading the page: a classic script in <head> runs before the first layout,
// whereas the page's modules wait for it (≈ 150 ms on a slow machine). The
// compiled module is handed to ../lib/attention-lab.js, which uses it when it
// was made from the same URL and otherwise compiles on its own.
(function startCore() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compileStreaming !== 'function' || typeof fetch !== 'function') return;
  const url = new URL('generated/attention-lab-core.wasm', document.baseURI).href;
  const compiled = fetch(url, { credentials: 'same-origin' })
    .then((response) => {
      const type = response.headers.get('Content-Type') || '';
      return response.ok && type.startsWith('application/wasm') ? WebAssembly.compileStreaming(response) : null;
    })
    .catch(() => null); // the module loader reports any failure itself
  globalThis.attentionLabEarlyCompile = { url, compiled };
}());
