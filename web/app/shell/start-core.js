// Starts downloading and compiling the wasm core while the browser is still
// reading the page: a classic script in <head> runs before the first layout,
// whereas the page's modules wait for it (≈ 150 ms on a slow machine). The
// compiled module is handed to ../lib/attention-lab.js, which uses it when it
// was made from the same URL and otherwise compiles on its own. The trained
// model's file is fetched alongside, for the same reason. If the page is not
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
  globalThis.attentionLabEarlyCompile = { url, compiled };
  const modelUrl = new URL('models/trained.almodel', document.baseURI).href;
  const bytes = fetch(modelUrl, { credentials: 'same-origin' })
    .then((response) => (response.ok ? response.arrayBuffer() : null))
    .catch(() => null); // read again, and any failure reported, by the module loader
  globalThis.attentionLabEarlyModel = { url: modelUrl, bytes };
}());
