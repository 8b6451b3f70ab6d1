// The smoke suite (smoke.mjs) in WebKitGTK (Safari's engine), Debian's webkit2gtk-driver:
// WebKitWebDriver drives MiniBrowser in a virtual X display (Xvfb).
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { openWebKit } from './engines.mjs';
import { smoke } from './smoke.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));

test('WebKit, Safari\'s engine: the page, a guess, training in a Worker, the offline file, the element demo', { timeout: 300_000 }, async (t) => {
  const server = await startServer({ root: WEB, port: 0, host: '127.0.0.1' });
  const driver = await openWebKit();
  try {
    t.diagnostic(`WebKitGTK ${driver.version}`);
    await smoke(driver, `http://127.0.0.1:${server.address().port}`, t);
  } finally {
    await driver.close();
    server.close();
  }
});
