// The smoke suite (smoke.mjs) in Firefox ESR, Debian's firefox-esr, driven by
// puppeteer-core over WebDriver BiDi.
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { openFirefox } from './engines.mjs';
import { smoke } from './smoke.mjs';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));

test('Firefox ESR: the page, a guess, training in a Worker, the offline file, the element demo', { timeout: 300_000 }, async (t) => {
  const server = await startServer({ root: WEB, port: 0, host: '127.0.0.1' });
  const driver = await openFirefox();
  try {
    t.diagnostic(`firefox ${driver.version}`);
    await smoke(driver, `http://127.0.0.1:${server.address().port}`, t);
  } finally {
    await driver.close();
    server.close();
  }
});
