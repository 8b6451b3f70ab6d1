// The stylesheet of what the lab draws only once it is opened (the experiments after the article,
// the training lab, the Code switch): web/generated/later.css beside app.css, linked into the lab's
// document or shadow root the first time one of them opens, so the first load does not carry it.
// A build whose stylesheet is inline (the offline page, the H5P element) carries both already.

// Shared by every lab: a document (or a shadow root) needs the link once, whichever lab gave it.
const linked = new WeakSet(); // the documents and shadow roots given the link

/** Links later.css where `node` (on the page) lives, once, after its app.css link. */
export function ensureLaterStyles(node) {
  const scope = node.getRootNode();
  if (linked.has(scope) || typeof scope.querySelector !== 'function') return;
  linked.add(scope);
  const base = scope.querySelector('link[rel="stylesheet"][href*="app.css"]');
  if (!base) return; // inline: app.css and later.css together
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('later.css', base.href).href;
  base.after(link);
}
