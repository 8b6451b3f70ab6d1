// The smoke suite (smoke.mjs) in WebKitGTK (Safari's engine), Debian's webkit2gtk-driver:
// WebKitWebDriver drives MiniBrowser in a virtual X display (Xvfb).
import { openWebKit } from './engines.mjs';
import { smokeTest } from './smoke.mjs';

smokeTest('WebKit, Safari\'s engine', openWebKit);
