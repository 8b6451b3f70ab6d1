// The stylesheet of what the lab draws only once it is opened (the experiments after the article,
// the training lab, the Code switch, the tour's card, Your turn's exercises): web/generated/later.css
// beside app.css, linked into the lab's document or shadow root the first time one of them opens,
// so the first load does not carry it. A build whose stylesheet is inline (the offline page, the
// H5P element) carries both already.

// Shared by every lab: a document (or a shadow root) needs the link once, whichever lab gave it.
const linked = new WeakMap(); // document or shadow root → the promise of its link's loading

// Links later.css right after app.css's link; the promise settles when it has loaded or failed.
function linkAfter(base) {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('later.css', base.href).href;
  const loaded = new Promise((settle) => {
    link.addEventListener('load', settle, { once: true });
    link.addEventListener('error', settle, { once: true });
  });
  base.after(link);
  return loaded;
}

/** Links later.css where `node` (on the page) lives, once, after its app.css link. Returns a
 *  promise that settles when the stylesheet has loaded or failed (at once when inline), so a chunk
 *  can wait for it before it draws. */
export function ensureLaterStyles(node) {
  const scope = node.getRootNode();
  if (typeof scope.querySelector !== 'function') return Promise.resolve();
  if (linked.has(scope)) return linked.get(scope);
  const base = scope.querySelector('link[rel="stylesheet"][href*="app.css"]');
  const loaded = base ? linkAfter(base) : Promise.resolve(); // no link: app.css and later.css are inline together
  linked.set(scope, loaded);
  return loaded;
}
