// The development server (npm start): the strict policy on every file, 304
// for what the browser already has, and nothing outside the served folder.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { STRICT_CSP, startServer } from '../../scripts/serve.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
let server;
let port;

before(async () => {
  server = await startServer({ root: WEB, port: 0, host: '127.0.0.1' });
  port = server.address().port;
});
after(() => server.close());

// Raw requests (fetch would normalise "/../" away before sending it).
function get(path, headers = {}, method = 'GET') {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, method }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('files come with the strict policy, their type and a validator', async () => {
  const page = await get('/');
  assert.equal(page.status, 200);
  assert.equal(page.headers['content-security-policy'], STRICT_CSP);
  assert.match(page.headers['content-type'], /^text\/html/);
  assert.equal(page.headers['cache-control'], 'no-cache');
  assert.ok(page.headers.etag);
  const wasm = await get('/generated/attention-lab-core.wasm');
  assert.equal(wasm.headers['content-type'], 'application/wasm');
  assert.deepEqual([...wasm.body.subarray(0, 4)], [0, 0x61, 0x73, 0x6d]);
});

test('an unchanged file answers 304 with no body; a stale validator gets the file', async () => {
  const first = await get('/generated/attention-lab-core.wasm');
  const again = await get('/generated/attention-lab-core.wasm', { 'If-None-Match': first.headers.etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers['content-security-policy'], STRICT_CSP);
  const stale = await get('/generated/attention-lab-core.wasm', { 'If-None-Match': 'W/"0-0"' });
  assert.equal(stale.status, 200);
  assert.equal(stale.body.length, first.body.length);
});

test('nothing outside the folder, no methods but GET and HEAD', async () => {
  for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2fpackage.json']) {
    const res = await get(path);
    assert.ok(res.status === 403 || res.status === 404, `${path} → ${res.status}`);
    assert.doesNotMatch(res.body.toString(), /"attention-lab"/);
  }
  assert.equal((await get('/', {}, 'POST')).status, 405);
  const head = await get('/index.html', {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.equal((await get('/no-such-file.js')).status, 404);
});
