// Starts downloading and compiling the wasm core while the browser is still
// reading the page: a classic script in <head> runs before the first layout,
// whereas the page's modules wait for it (≈ 150 ms on a slow machine). The
// compiled module and the trained model's bytes, fetched alongside for the same
// reason, wait in one global that the page's boot-lab.js takes (and deletes),
// handing them to loadAttentionLab(); whatever failed is fetched again there. If the page is not
// ready 300 ms from here and its core not loaded yet, its loading message (a progress state) is shown.
(function startCore() {
  setTimeout(() => {
    const loading = document.getElementById('loading');
    // Not once the lab has its core (done) or has said it failed (error), even if its first view is still to come.
    if (loading && document.body.dataset.ready === undefined && !loading.classList.contains('error') && !loading.classList.contains('done')) loading.hidden = false;
  }, 300);
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compileStreaming !== 'function' || typeof fetch !== 'function') return;
  const url = new URL('generated/attention-lab-core.wasm', document.baseURI).href;
  const compiled = fetch(url, { credentials: 'same-origin' })
    .then((response) => {
      const type = response.headers.get('Content-Type') || '';
      return response.ok && type.startsWith('application/wasm') ? WebAssembly.compileStreaming(response) : null;
    })
    .catch(() => null); // the module loader reports any failure itself
  const modelUrl = new URL('models/trained.almodel', document.baseURI).href;
  const bytes = fetch(modelUrl, { credentials: 'same-origin' })
    .then((response) => (response.ok ? response.arrayBuffer() : null))
    .catch(() => null); // read again, and any failure reported, by the module loader
  globalThis.attentionLabEarly = { wasm: compiled, model: bytes };
}());
