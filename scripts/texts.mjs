// npm run texts: every text the page shows, in one place. For the article's
// sentence and one English sentence, in English, simplified and traditional
// Chinese, it opens the built page in Chromium and writes what a learner reads:
// each step (its explanation, body, side panel, Your turn, the heads panel),
// every Why? experiment, the tour's cards with their answers, every exercise with
// each mistake it can name, the guesses at a hidden token and the messages bad
// input gets. Then, from the word tables themselves, every template the page can
// fill (the branches this sentence does not take included). It writes
// docs/texts/<lang>.md; `--check` writes nothing and exits 1 when those files are
// stale (tests/browser/texts.browser.test.mjs runs the same comparison in npm test).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from './serve.mjs';
import { launchChromium } from '../tests/browser/chromium.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TEXTS_DIR = join(ROOT, 'docs', 'texts');
export const LANGS = ['en', 'zh', 'zh-Hant'];
export const SENTENCES = ['我喜欢人工智能', "The animal didn't cross the street because it was too tired."];
const STEP_IDS = ['tokens', 'embedding', 'qkv', 'scores', 'scaled', 'softmax', 'weighted-sum', 'output', 'concat'];

// What a reader reads: tables keep their captions and column headers, not their numbers.
const READING_CSS = `tbody, canvas, .heat-canvas, .matrix-canvas, .legend, .chip .sub { display: none !important; }`;

/** The text a learner reads in each of `selectors` (one text each; '' when absent or hidden). */
function readRegions(page, selectors) {
  return page.evaluate((list) => list.map((selector) => {
    const el = document.querySelector(selector);
    if (!el || el.closest('[hidden]') || !el.checkVisibility()) return '';
    return el.innerText.split('\n').map((line) => line.replace(/\s+/g, ' ').trim()).filter(Boolean).join('\n');
  }), selectors).then((texts) => texts.map(compact));
}

// Runs of short lines (a token, a number, a label each) as one line, joined by ' · '.
function compact(text) {
  const out = [];
  let run = [];
  const flush = () => {
    if (run.length) out.push(run.join(' · '));
    run = [];
  };
  for (const line of text.split('\n').filter(Boolean)) {
    if ([...line].length < 16) run.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join('\n');
}

/** Waits until the text under `selector` stops changing (checked every 150 ms), at most `ms`. */
async function settled(page, selector, ms = 15_000) {
  let last = null;
  let same = 0;
  for (let waited = 0; waited < ms; waited += 150) {
    const now = await page.evaluate((s) => document.querySelector(s)?.innerText ?? '', selector);
    same = now === last && !/…$|\.\.\.$/.test(now.trim()) ? same + 1 : 0;
    if (same >= 3) return now;
    last = now;
    await page.waitForTimeout(150);
  }
  return last;
}

async function ready(page) {
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 30_000 });
  await page.evaluate((css) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  }, READING_CSS);
}

async function stepDrawn(page, step) {
  await page.waitForSelector(`body[data-step="${step}"][data-rendered]`, { state: 'attached' });
  await settled(page, '#step-body');
}

// A section: a heading and its texts, each region under a label, unchanged regions said once.
class Writer {
  constructor() {
    this.lines = [];
    this.seen = new Map();
  }

  heading(level, text) {
    this.lines.push('', `${'#'.repeat(level)} ${text}`, '');
  }

  region(label, text, { once = false } = {}) {
    if (!text) return;
    if (once && this.seen.get(label) === text) {
      this.lines.push(`**${label}**: as above.`, '');
      return;
    }
    this.seen.set(label, text);
    this.lines.push(`**${label}**`, '', ...text.split('\n').map((line) => `> ${line}`), '');
  }
}

async function steps(page, w) {
  w.heading(3, 'Steps');
  for (const step of STEP_IDS) {
    await page.click(`#step-rail [data-step="${step}"]`);
    await stepDrawn(page, step);
    await page.locator('#exercise-body').scrollIntoViewIfNeeded();
    await settled(page, '#exercise-body');
    const [title, explain, body, detail, exercise, heads] = await readRegions(page,
      ['#step-title', '#step-explain', '#step-body', '.detail', '#exercise-body', '#heads-body']);
    w.heading(4, title);
    w.region('Explanation', explain);
    w.region('Body', body);
    w.region('Side panel', detail, { once: true });
    w.region('Your turn', exercise, { once: true });
    w.region('What each head does', heads, { once: true });
  }
}

async function experiments(page, w) {
  w.heading(3, 'Why? experiments');
  const ids = await page.$$eval('#experiment-tabs button', (els) => els.map((el) => el.dataset.experiment));
  for (const id of ids) {
    await page.click(`#experiment-tabs button[data-experiment="${id}"]`);
    await page.waitForFunction((x) => new URL(location.href).searchParams.get('experiment') === x, id);
    const label = await page.$eval(`#experiment-tabs button[data-experiment="${id}"]`, (el) => el.textContent);
    await settled(page, '#experiment-body');
    const [text] = await readRegions(page, ['#experiment-body']);
    w.heading(4, `${label} (${id})`);
    w.region('Experiment', text);
  }
  await page.click('#experiment-tabs button[aria-pressed="true"]');
}

async function tour(page, w) {
  w.heading(3, 'The tour');
  await page.click('#tour-start');
  await page.waitForSelector('#tour .tour-of');
  for (let k = 0; k < 40; k += 1) {
    await settled(page, '#tour');
    const choice = await page.$('#tour .tour-choice');
    if (choice) {
      await choice.click();
      await page.waitForSelector('#tour .tour-feedback');
      await settled(page, '#tour');
    }
    const [of, text, explain] = await readRegions(page, ['#tour .tour-of', '#tour', '#step-explain']);
    w.heading(4, of);
    w.region('Card (its first choice picked)', text);
    w.region('The step under it', explain, { once: true });
    const after = await page.$('#tour .tour-after');
    if (after) await after.click();
    else if (await page.$('#tour-title[data-card="after"]')) break;
    else await page.click('#tour .tour-next');
    await page.waitForFunction((before) => document.querySelector('#tour .tour-of')?.textContent !== before, of);
  }
  await page.click('#tour .tour-leave');
  await page.waitForSelector('#tour', { state: 'hidden' });
}

// Each exercise: its task, then what each answer gets: right, each mistake the core can
// name (its value typed in), an answer that is no usual mistake, text that is no number,
// and the answer shown. The cell and the mistakes' values are the core's, asked through the API.
async function exercises(page, w, sentence) {
  w.heading(3, 'Your turn: every exercise and what each answer gets');
  const count = await page.$$eval('#exercise-body .ex-dot', (els) => els.length);
  for (let k = 0; k < count; k += 1) {
    await page.click(`#exercise-body .ex-dot >> nth=${k}`);
    await settled(page, '#exercise-body');
    const [task] = await readRegions(page, ['#exercise-body']);
    const cell = await page.$eval('#exercise-body', (el) => {
      const at = el.querySelector('[data-exercise]');
      return at ? { name: at.dataset.exercise, row: Number(at.dataset.row), col: Number(at.dataset.col) } : null;
    });
    w.heading(4, `Exercise ${k + 1}${cell ? ` (${cell.name})` : ''}`);
    w.region('Task', task);
    if (!cell) continue;
    const { expected, mistakes } = await page.evaluate(async ({ text, name, row, col }) => {
      const { loadAttentionLab } = await import('/lib/attention-lab.js');
      const core = await loadAttentionLab();
      const trace = core.run(text);
      try {
        const where = { layer: Number(document.body.dataset.layer), head: Number(document.body.dataset.head) };
        const e = trace.exercise(name, { row, col, ...where });
        return { expected: e.expected, mistakes: e.mistakes.map((m) => ({ id: m.mistake, value: m.value })) };
      } finally {
        trace.dispose();
      }
    }, { text: sentence, ...cell });
    const answers = [['right', expected], ...mistakes.map((m) => [`the mistake “${m.id}”`, m.value]),
      ['no usual mistake', 98765], ['not a number', 'abc']];
    for (const [what, value] of answers) {
      const answer = typeof value === 'number' ? String(Number(value.toPrecision(6))) : value;
      await page.fill('#exercise-answer', answer);
      await page.click('#exercise-body .ex-check');
      await settled(page, '#exercise-body .ex-feedback');
      const [feedback] = await readRegions(page, ['#exercise-body .ex-feedback']);
      w.region(`Answer ${answer} (${what})`, feedback);
    }
    await page.click('#exercise-body .ex-reveal');
    await settled(page, '#exercise-body .ex-feedback');
    w.region('Show the answer', (await readRegions(page, ['#exercise-body .ex-feedback']))[0]);
  }
}

// The guesses with the selected token hidden (the Tokens step's chip, as a learner hides it).
async function guesses(page, w) {
  w.heading(3, 'Guess the hidden token');
  const [before] = await readRegions(page, ['#guess-body']);
  w.region('Before a token is hidden', before);
  const hide = await page.$('#guess-body .hide-selected');
  if (!hide) return;
  await hide.click();
  await page.waitForSelector('#guess-body .guess');
  await settled(page, '#guess-body');
  const [after, chips] = await readRegions(page, ['#guess-body', '#token-chips']);
  w.region(`With ${chips.split('\n').join(' ')}`, after);
}

// What bad input gets: the message line under the sentence box.
async function messages(page, w, lang) {
  w.heading(3, 'Messages');
  const cases = [['an empty sentence', ''], ['600 tokens', '字'.repeat(600)]];
  for (const [what, text] of cases) {
    await page.fill('#sentence', text);
    await page.press('#sentence', 'Enter');
    await page.waitForSelector('#input-message:not(:empty)');
    await settled(page, '#input-message');
    w.region(`The sentence is ${what}`, (await readRegions(page, ['#input-message']))[0]);
  }
  const link = `/?lang=${lang}&step=nowhere&dK=abc&t=x&tour=none`;
  await page.goto(`${page.url().replace(/\/\?.*$/, '')}${link}`);
  await ready(page);
  await settled(page, '#input-message');
  w.region(`A link with bad settings (${link})`, (await readRegions(page, ['#input-message']))[0]);
}

async function oneSentence(browser, origin, lang, sentence, w) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await page.goto(`${origin}/?lang=${lang}&s=${encodeURIComponent(sentence)}`);
    await ready(page);
    w.heading(2, sentence);
    await steps(page, w);
    await experiments(page, w);
    if (sentence === SENTENCES[0]) await tour(page, w);
    await page.click('#step-rail [data-step="weighted-sum"]');
    await stepDrawn(page, 'weighted-sum');
    await exercises(page, w, sentence);
    await page.click('#step-rail [data-step="tokens"]');
    await stepDrawn(page, 'tokens');
    await guesses(page, w);
    if (sentence === SENTENCES[0]) await messages(page, w, lang);
  } finally {
    await context.close();
  }
  if (problems.length) throw new Error(`page errors (${lang}, ${sentence}): ${problems.join('; ')}`);
}

// Every template of every word table, in the order the tables list them.
async function templates(lang) {
  const tables = [];
  const base = pathToFileURL(join(ROOT, 'web/')).href;
  if (lang === 'en') {
    const { ENGLISH } = await import(`${base}app/strings/i18n.js`);
    void ENGLISH;
    tables.push(['The page', { ...(await import(`${base}app/strings/en.js`)).STRINGS_EN, ...(await import(`${base}app/strings/heads-en.js`)).HEADS_EN }]);
  } else if (lang === 'zh') {
    tables.push(['The page', (await import(`${base}app/strings/words-zh.js`)).WORDS_ZH]);
  } else {
    tables.push(['The page', (await import(`${base}generated/words/words-zh-hant.js`)).WORDS_ZH_HANT]);
  }
  const chunks = ['tour', 'experiments', 'exercises', 'rollout', 'lens', 'shared-qk', 'tiles', 'what-if', 'geometry', 'training', 'code', 'course'];
  for (const chunk of chunks) {
    const module = await import(`${base}generated/words/${chunk}.js`);
    const words = Object.entries(module).find(([name]) => name.endsWith('_WORDS'))[1];
    tables.push([chunk, words[lang]]);
  }
  if (lang === 'en') tables.push(["The core's messages (English shows them as the core writes them; Chinese has the error.* templates)", await coreMessages()]);
  const lines = ['', '## Every template', '',
    'Each word table as written, `{name}` a slot the page fills; which of several sentences is said is the core’s choice.', ''];
  for (const [name, table] of tables) {
    lines.push(`### ${name}`, '');
    for (const [key, text] of Object.entries(table)) lines.push(`- \`${key}\`: ${text.replace(/\n/g, ' ⏎ ')}`);
    lines.push('');
  }
  return lines;
}

// The core's own messages, one a code, each provoked through the API as a learner's input or a
// host's call would: what the English page shows after "Not computed (…)".
async function coreMessages() {
  const { loadAttentionLab } = await import(pathToFileURL(join(ROOT, 'web/lib/attention-lab.js')).href);
  const core = await loadAttentionLab();
  const messages = {};
  const provoke = (call) => {
    try {
      call();
    } catch (error) {
      messages[`error.${error.code}`] ??= error.message;
    }
  };
  const trace = core.run('我喜欢人工智能');
  provoke(() => trace.rollout()); // before the after-the-article module: not_loaded
  provoke(() => core.run(''));
  provoke(() => core.run('字'.repeat(600)));
  provoke(() => core.run('a'.repeat(core.limits.maxTextBytes + 1)));
  provoke(() => core.run('\uD800'));
  provoke(() => core.run('x', { nope: 1 }));
  provoke(() => core.run('x', { model: 'random', dK: 0 }));
  provoke(() => core.run('x', { model: 'nope' }));
  provoke(() => trace.softmaxRow(99));
  provoke(() => trace.stage('nope'));
  provoke(() => core.loadModel('damaged', new Uint8Array([1, 2, 3])));
  trace.dispose();
  provoke(() => trace.stage('q'));
  return Object.fromEntries(Object.entries(messages).sort());
}

/** The texts of every language: { en: markdown, zh: …, 'zh-Hant': … }. */
export async function collectTexts({ langs = LANGS } = {}) {
  const server = await startServer({ root: join(ROOT, 'web'), port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await launchChromium();
  try {
    const out = {};
    // Two languages at a time: this machine has two cores.
    const queue = [...langs];
    const worker = async () => {
      for (let lang = queue.shift(); lang; lang = queue.shift()) {
        const w = new Writer();
        w.lines.push(`# Every text of the page: ${lang}`, '',
          'Written by `npm run texts` (scripts/texts.mjs) from the built page: do not edit; `npm test` fails when it is stale.',
          'Tables keep their captions and column headers; their numbers, the canvases and the legends are left out.');
        for (const sentence of SENTENCES) await oneSentence(browser, origin, lang, sentence, w);
        w.lines.push(...(await templates(lang)));
        out[lang] = `${w.lines.join('\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
      }
    };
    await Promise.all([worker(), worker()]);
    return Object.fromEntries(langs.map((lang) => [lang, out[lang]]));
  } finally {
    await browser.close();
    server.close();
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const check = process.argv.includes('--check');
  const texts = await collectTexts();
  const stale = [];
  for (const [lang, text] of Object.entries(texts)) {
    const file = join(TEXTS_DIR, `${lang}.md`);
    const old = await readFile(file, 'utf8').catch(() => null);
    if (old !== text) stale.push(file);
    if (!check) {
      await mkdir(TEXTS_DIR, { recursive: true });
      await writeFile(file, text);
    }
  }
  if (check && stale.length) {
    console.error(`stale (run npm run texts): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log(check ? 'texts: docs/texts is current' : `texts: wrote ${Object.keys(texts).length} files in docs/texts`);
}
