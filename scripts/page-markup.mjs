// What the <attention-lab> element's builds put inside it: the page's markup
// (web/index.html's <body>, without its scripts) and, for a build that carries
// it, the stylesheet's text (null: the element links generated/app.css beside its script).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function pageMarkup() {
  const indexHtml = readFileSync(fileURLToPath(new URL('../web/index.html', import.meta.url)), 'utf8');
  return indexHtml.match(/<body>([\s\S]*)<\/body>/)[1]
    .replace(/<noscript>[\s\S]*?<\/noscript>/g, '').replace(/<script[\s\S]*?<\/script>/g, '').replace(/\n\s*/g, '\n');
}

/** The esbuild plugin that answers element.js's 'attention-lab:markup' and 'attention-lab:style'. */
export function elementParts(markup, style) {
  return {
    name: 'element-parts',
    setup(b) {
      b.onResolve({ filter: /^attention-lab:(markup|style)$/ }, ({ path }) => ({ path: path.slice('attention-lab:'.length), namespace: 'element-parts' }));
      b.onLoad({ filter: /.*/, namespace: 'element-parts' }, ({ path }) => ({ loader: 'js',
        contents: `export default ${JSON.stringify(path === 'markup' ? markup : style)};` }));
    },
  };
}
