// A small static file server for web/ (and, for tests, any folder), sending the
// strict Content-Security-Policy the page is built to live under:
//   default-src 'self'; script-src 'self' 'wasm-unsafe-eval'
// Usage: node scripts/serve.mjs        → http://localhost:8080 (PORT, HOST override)
import { createServer } from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const STRICT_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/** Serves `root` on host:port; resolves to the listening http.Server. */
export function startServer({ root, port = 8080, host = 'localhost', csp = STRICT_CSP } = {}) {
  const base = resolve(root);
  // Long sentences travel in the URL (?s=…): accept up to 2 MB of request head
  // instead of Node's 16 KB, so the page itself can say what is wrong with them.
  const server = createServer({ maxHeaderSize: 2 * 1024 * 1024 }, async (req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed');
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    } catch {
      return send(400, 'bad request');
    }
    let file = normalize(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) return send(403, 'forbidden');
    try {
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      // no-cache: the browser asks again every time (an edit shows at once),
      // and an unchanged file answers 304, so a reload reuses what it has,
      // the compiled wasm included.
      const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
      const headers = {
        ...(csp ? { 'Content-Security-Policy': csp } : {}), // csp: null sends none (as a learning platform may)
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'no-cache',
        ETag: etag,
        'Last-Modified': info.mtime.toUTCString(),
      };
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers);
        return res.end();
      }
      res.writeHead(200, {
        ...headers,
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Content-Length': info.size,
      });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file).pipe(res);
    } catch {
      send(404, 'not found');
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolvePromise(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('../web/', import.meta.url));
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST ?? 'localhost';
  startServer({ root, port, host })
    .then((server) => console.log(`Attention Lab is served at http://localhost:${server.address().port}/  (Ctrl+C stops it)`))
    .catch((error) => {
      console.error(error.code === 'EADDRINUSE'
        ? `Port ${port} is in use: stop the other server or run PORT=8081 npm start`
        : `Could not start the server: ${error.message}`);
      process.exit(1);
    });
}
