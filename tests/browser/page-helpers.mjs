// What the page tests share: opening the served page ready to read, waiting
// for a step to be drawn, and reading its chips and its matrix table.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { waitForParam, watchProblems } from './chromium.mjs';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations under `scope` (a selector; the document if null), as
 *  "rule: targets" lines. The page's context needs bypassCSP, for axe-core goes in as an inline script. */
export async function axeViolations(page, scope = null) {
  await page.addScriptTag({ content: AXE });
  return page.evaluate(async (selector) => (await window.axe.run(selector ? document.querySelector(selector) : document)).violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`), scope);
}

/** Opens the page (reduced motion unless asked otherwise: no waiting on animations) and waits until drawn. */
export async function openPage(env, query = '', { viewport = { width: 1280, height: 800 }, colorScheme = 'light', reducedMotion = 'reduce' } = {}) {
  const context = await env.browser.newContext({ viewport, colorScheme, reducedMotion });
  const page = await context.newPage();
  const problems = watchProblems(page);
  const dialogs = [];
  page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
  await page.goto(`${env.origin}/${query}`);
  await page.waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 });
  return { page, context, problems, dialogs };
}

// The experiments after the article, and what is there once each view is drawn.
export const EXPERIMENTS = { tiles: '.tiles-row', rollout: '.rollout-row', lens: '.lens-depths', 'shared-qk': '.qk-heads', 'what-if': '.what-if-row', geometry: '.geometry-keys' };

/** Opens a step, then its Why? button for experiment id; resolves once the
 *  experiment is drawn and the link says it. */
export async function openFromWhy(env, step, id) {
  const opened = await openPage(env, step);
  await opened.page.click(`#step-explain .why-link[data-experiment="${id}"]`);
  await opened.page.waitForSelector(EXPERIMENTS[id]);
  await waitForParam(opened.page, 'experiment', id);
  return opened;
}

/** Waits until the step with this id is drawn. */
export async function rendered(page, step) {
  await page.waitForSelector(`body[data-step="${step}"][data-rendered]`, { state: 'attached' });
  await page.waitForFunction(() => document.body.dataset.rendered === String(document.querySelectorAll('#step-body').length && document.body.dataset.rendered));
}

export const chips = (page) => page.$$eval('#token-chips .chip .text', (els) => els.map((e) => e.textContent));

/** The displayed cells of the table of one stage: [{ i, j, value, text }]. */
export const cells = (page, stage) => page.$$eval(`figure.stage-${stage} td[data-j]`, (tds) => tds.map((td) => ({
  i: Number(td.dataset.i), j: Number(td.dataset.j), value: Number(td.dataset.value),
  text: (td.querySelector('.new') ?? td).textContent,
})));

/** The head every step shows, as the lab marks it on its frame: { layer, head }
 *  (the core's article head for the selected token until one is picked). */
export const shownHead = (page, frame = 'body') => page.$eval(frame, (el) => ({ layer: Number(el.dataset.layer), head: Number(el.dataset.head) }));
