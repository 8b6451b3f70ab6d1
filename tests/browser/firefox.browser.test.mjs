// The smoke suite (smoke.mjs) in Firefox ESR, Debian's firefox-esr, driven by
// puppeteer-core over WebDriver BiDi.
import { openFirefox } from './engines.mjs';
import { smokeTest } from './smoke.mjs';

smokeTest('Firefox ESR', openFirefox);
