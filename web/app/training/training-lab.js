// The training lab (the Why? experiment "train"): a small model trained in the
// browser on the lab's text or the learner's own, its loss, what the article
// measures (near one-hot rows, entropy, the gradient reaching W_q and W_k),
// its heads on the learner's sentence as they learn, and two experiments of two
// runs that differ in one thing: the ÷√d_k experiment (the scaling) and the Q/K
// experiment (one matrix for queries and keys, or two). Every number comes from the
// trainer's wasm (web/lib/training.js); this draws them (its controls: train-controls.js).
//
// A chunk of its own, loaded when the lab opens: what it draws with (h, fmt,
// the page's head grid…) is handed to it, so it shares no module with the page.
import { TRAINING_WORDS } from '../../generated/words/training.js';
import { lineChart } from './line-chart.js';
import { headsSection, keepMap, labelMarks, noteLabels, shownMap } from './heads-section.js';
import { createTrainControls } from './train-controls.js';
import { createVerdict, EXPERIMENT_RUNS, lastHeldout } from './experiment-runs.js';

// The held-out loss and the heads come with every EVERY-th step's report.
const EVERY = 10;
const RUN_CLASSES = Object.freeze({ one: 'run-one', with: 'run-with', without: 'run-without', two: 'run-two', shared: 'run-shared' });
/**
 * root: the element the lab fills. deps: { h, clear, morphChildren, fmt, translator, headGrid,
 * loadTraining() → the module web/lib/training.js, textUrl() → the lab's text's URL,
 * loadModel(id, bytes) (the lab's model menu), errorText(error) (the page's words for a core error) }.
 * Returns { update(ctx), dispose() }.
 */
export function createTrainingLab(root, deps) {
  const { h, clear, morphChildren, fmt, translator, loadTraining, textUrl, loadModel } = deps;
  let t = translator(TRAINING_WORDS.en);
  let ctx = null; // the page's view context, for its words, sentence and token
  let lang = null;
  let labText = null; // { text, bytes } once fetched, or { error }
  // [{ key, experiment (its EXPERIMENT_RUNS id, or null), run, info, reports, heads, headsStep, maps, mapsSeen, mapStride, shownStep,
  //    timeline: Map, error, exported }]
  let runs = [];
  let opened = 0; // models put on the menu so far
  let note = null; // { kind, text }
  let frame = 0; // the animation frame that draws the results, while one is asked for
  let disposed = false;
  const life = new AbortController(); // aborted when the lab goes: its trainer and runs end, even while they start
  let trainer = null; // the trainer's settings, d_k and verdicts (training.js's openTrainer), once open
  let trainerFailed = false; // it could not open: the status says why, and there is nothing to start

  const controls = h('div', { class: 'train-controls' });
  const status = h('div', { class: 'train-status' }); // redrawn each frame: not a live region
  const spoken = h('p', { class: 'visually-hidden', role: 'status' }); // what a screen reader hears: messages, a run's end
  const results = h('div', { class: 'train-results' });
  root.replaceChildren(controls, status, spoken, results);
  root.classList.add('training-lab');

  const textLoad = Promise.resolve().then(() => fetch(textUrl(), { credentials: 'same-origin' }))
    .then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      labText = { text: new TextDecoder().decode(bytes), bytes: bytes.length };
    })
    .catch((error) => { labText = { error: String(error?.message ?? error) }; })
    .then(() => drawControls());
  // The trainer answers the knobs and the verdicts from a worker of its own while the lab is open.
  const trainerLoad = Promise.resolve().then(() => loadTraining()).then((training) => training.openTrainer({ signal: life.signal }))
    .then((opened) => {
      if (disposed) opened.dispose();
      else trainer = opened;
    }, (error) => {
      trainerFailed = true;
      if (!disposed) say('error', t('train.failed', { error: deps.errorText(error) }));
    })
    .then(() => drawControls());

  const say = (kind, text) => {
    note = text ? { kind, text } : null;
    if (text) spoken.textContent = text;
    schedule();
  };
  const describeError = (error) => {
    const p = error?.params ?? {};
    if (error?.code === 'text_too_short') return t('train.tooShort', p);
    if (error?.code === 'invalid_option') {
      if ('min' in p) return t('train.badSetting', { ...p, name: knobName(p.name) });
      if ('heads' in p) return t('train.notMultiple', p);
      return t('train.badValue', { name: knobName(p.name), value: p.value ?? '' });
    }
    return t('train.failed', { error: deps.errorText(error) });
  };
  const knobName = (name) => t(`train.knob.${name}`);

  // ---- the controls: drawn once per language (and when the text arrives or a run starts or ends) ----
  const form = createTrainControls(controls, { h, clear, fmt, group: `train-source-${root.id || 'lab'}`,
    start, pauseOrResume, stop });
  function drawControls() {
    if (!ctx) return; // drawn with the lab's first view (its words, its core)
    form.draw({ t, trainer, loading: !trainer && !trainerFailed, textBytes: labText?.bytes ?? null,
      active: runs.some((r) => r.run && ['running', 'paused'].includes(r.run.state)), paused: runs.some((r) => r.run?.state === 'paused') });
  }

  function pauseOrResume() {
    const paused = runs.some((r) => r.run?.state === 'paused');
    for (const r of runs) if (r.run) (paused ? r.run.resume() : r.run.pause());
    drawControls();
    schedule();
  }

  function stop() {
    for (const r of runs) r.run?.stop();
  }

  function disposeRuns() {
    for (const r of runs) r.run?.dispose();
    runs = [];
  }

  async function start(experiment) {
    if (disposed) return;
    await trainerLoad; // the knobs are drawn once it is open
    if (disposed || !trainer) return;
    say(null, null);
    let text = form.ownText;
    if (form.source === 'lab') {
      await textLoad;
      if (disposed) return;
      if (labText.error) {
        say('error', t('train.textFailed', { error: labText.error }));
        return;
      }
      text = labText.text;
    }
    disposeRuns();
    const given = form.settings();
    const variants = experiment ? EXPERIMENT_RUNS[experiment].runs.map(([key, differs]) => [key, { ...given, ...differs }]) : [['one', given]];
    runs = variants.map(([key]) => ({ key, experiment, run: null, info: null, reports: [], heads: null, headsStep: 0,
      maps: [], mapsSeen: 0, mapStride: 1, shownStep: null, timeline: new Map(), error: null }));
    const mine = runs; // a start meanwhile replaces them, and then this one stops at its next turn
    say('notice', t('train.loading'));
    drawControls();
    let training;
    try {
      training = await loadTraining();
    } catch (error) {
      if (disposed || runs !== mine) return;
      runs = [];
      say('error', t('train.failed', { error: String(error?.message ?? error) }));
      drawControls();
      return;
    }
    if (disposed || runs !== mine) return;
    await Promise.all(variants.map(async ([, s], k) => {
      const entry = mine[k];
      try {
        const run = await training.startTraining(text, s, { sentence: ctx?.sentence ?? null, every: EVERY, signal: life.signal });
        if (runs !== mine) { // started again meanwhile
          run.dispose();
          return;
        }
        entry.run = run;
        entry.info = run.info;
        run.addEventListener('progress', (e) => progress(entry, e.detail));
        run.addEventListener('paused', schedule);
        run.addEventListener('done', (e) => {
          const s = run.info.settings;
          spoken.textContent = t(e.detail.reason === 'finished' ? 'train.finished' : 'train.stopped',
            { step: e.detail.step, steps: s.steps, seconds: fmt((entry.reports.at(-1)?.elapsedMs ?? 0) / 1000, 1) });
          drawControls();
          schedule();
        });
        run.addEventListener('error', (e) => { entry.error = e.detail; say('error', describeError(e.detail)); drawControls(); });
      } catch (error) {
        entry.error = error;
        if (runs === mine) say('error', describeError(error));
      }
    }));
    if (runs !== mine) return;
    if (mine.every((r) => r.run)) say(null, null);
    else {
      for (const r of mine) r.run?.dispose(); // one failed: the other is no experiment alone
      runs = [];
    }
    drawControls();
    schedule();
  }

  function progress(entry, report) {
    const { heads, sentence, ...figures } = report;
    entry.reports.push(figures);
    if (heads && sentence === ctx?.sentence) { // a report sent before the run heard of a new sentence is not drawn
      entry.heads = heads;
      entry.headsStep = report.step;
      noteLabels(entry.timeline, heads, report.step);
      keepMap(entry, { step: report.step, heads });
    }
    schedule();
  }

  // ---- the results: drawn at most once a frame -------------------------------
  function schedule() {
    if (frame || disposed) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      drawResults();
    });
  }

  const runName = (key) => t(`train.run.${key}`);
  // The slider under a run's heads: the map kept at k (the newest: follow the run again).
  const scrub = (r, k) => {
    r.shownStep = k >= r.maps.length - 1 ? null : r.maps[k].step;
    schedule();
  };
  const verdict = createVerdict({ h, fmt, schedule });

  function drawResults() {
    const lines = [note ? h('p', { class: `message ${note.kind}` }, note.text) : null];
    for (const r of runs) {
      const last = r.reports.at(-1);
      if (!r.info || !last) continue;
      const s = r.info.settings;
      const state = r.run.state;
      const line = state === 'paused' ? t('train.paused', { step: last.step, steps: s.steps })
        : state === 'finished' ? t('train.finished', { steps: s.steps, seconds: fmt(last.elapsedMs / 1000, 1) })
          : state === 'stopped' ? t('train.stopped', { step: last.step, steps: s.steps })
            : t('train.status', { step: last.step, steps: s.steps, rate: fmt(last.tokensPerSecond, 0), left: fmt(last.msLeft / 1000, 0) });
      lines.push(h('div', { class: `train-run-status ${RUN_CLASSES[r.key]}`, dataset: { run: r.key, step: last.step, state, held: r.run.heldAt ?? '' } },
        runs.length > 1 ? h('strong', {}, runName(r.key), ' ') : null,
        h('progress', { max: s.steps, value: last.step, 'aria-label': `${t('train.progress')} ${runs.length > 1 ? runName(r.key) : ''}` }),
        ' ', line, ' ', h('span', { class: 'train-loss' }, t('train.lastLoss', { train: fmt(last.loss, 3), heldout: fmt(lastHeldout(r), 3) }))));
    }
    // Morphed in place: only what changed is touched, and the heads' canvases paint where they land.
    morphChildren(status, h('div', {}, lines));
    const started = runs.filter((r) => r.reports.length);
    if (!started.length) {
      clear(results);
      return;
    }
    const first = started[0];
    morphChildren(results, h('div', {},
      h('p', { class: 'hint train-ready' }, t('train.ready', { tokens: first.info.trainTokens, vocab: first.info.vocab, heldout: first.info.heldoutSentences })),
      h('h3', {}, t('train.curves')),
      lineChart(deps, t('train.curvesName'), started.flatMap((r) => [
        { name: `${runs.length > 1 ? `${runName(r.key)}: ` : ''}${t('train.lossTrain')}`, cls: `${RUN_CLASSES[r.key]} thin`, points: r.reports.map((p) => [p.step, p.loss]) },
        { name: `${runs.length > 1 ? `${runName(r.key)}: ` : ''}${t('train.lossHeldout')}`, cls: RUN_CLASSES[r.key], points: r.reports.filter((p) => p.heldoutLoss !== undefined && p.heldoutLoss !== null).map((p) => [p.step, p.heldoutLoss]) },
      ]), first.info.settings.steps, [null, null], labelMarks(started, { t, ctx, classes: RUN_CLASSES })),
      h('h3', {}, t('train.measures')),
      h('div', { class: 'train-measures' },
        lineChart(deps, t('train.oneHot'), started.map((r) => series(r, 'oneHotShare')), first.info.settings.steps, [0, 1]),
        lineChart(deps, t('train.entropy', { max: fmt(first.reports.at(-1).maxEntropy, 2) }), started.map((r) => series(r, 'entropy')), first.info.settings.steps, [0, null]),
        lineChart(deps, t('train.grad'), started.map((r) => series(r, 'gradWq')), first.info.settings.steps, [0, null]),
        lineChart(deps, t('train.gradK'), started.map((r) => series(r, 'gradWk')), first.info.settings.steps, [0, null]),
        lineChart(deps, t('train.symmetry'), started.map((r) => series(r, 'symmetricShare')), first.info.settings.steps, [0, 1]),
        lineChart(deps, t('train.self'), started.map((r) => series(r, 'selfShare')), first.info.settings.steps, [0, 1])),
      verdict.draw(runs, trainer, t),
      h('div', { class: 'train-heads-all' }, started.filter((r) => r.heads).map((r) => headsSection(deps, {
        t, ctx, run: r, cls: RUN_CLASSES[r.key], scrub,
        title: `${runs.length > 1 ? `${runName(r.key)} · ` : ''}${t('train.heads', { sentence: ctx.sentence, step: shownMap(r).step })}` }))),
      actions()));
  }

  const series = (r, key) => ({ name: runs.length > 1 ? runName(r.key) : runName('one'), cls: RUN_CLASSES[r.key], points: r.reports.map((p) => [p.step, p[key]]) });

  function actions() {
    const r = runs.find((x) => x.key !== 'without' && x.run && ['finished', 'stopped', 'paused'].includes(x.run.state));
    if (!r) return null;
    if (!r.info.settings.scaled) return h('p', { class: 'hint' }, t('train.noFile'));
    const open = async () => {
      try {
        const bytes = await r.run.exportModel();
        opened += 1;
        const name = `my-model-${opened}`;
        loadModel(name, bytes);
        say('notice', t('train.opened', { name }));
      } catch (error) {
        say('error', describeError(error));
      }
    };
    const download = async () => {
      try {
        const bytes = await r.run.exportModel();
        const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
        const a = h('a', { href: url, download: 'attention-lab-model.almodel' });
        document.body.append(a);
        a.click();
        a.remove();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
      } catch (error) {
        say('error', describeError(error));
      }
    };
    return h('div', { class: 'train-actions' },
      h('button', { type: 'button', id: 'train-open', onclick: open }, t('train.open')),
      h('button', { type: 'button', id: 'train-download', onclick: download }, t('train.download')));
  }

  return {
    update(next) {
      const sentenceChanged = ctx && next.sentence !== ctx.sentence;
      ctx = next;
      if (next.lang !== lang) {
        lang = next.lang;
        t = translator(TRAINING_WORDS[lang] ?? TRAINING_WORDS.en);
        drawControls();
      }
      if (sentenceChanged) {
        for (const r of runs) {
          r.run?.follow(next.sentence);
          r.run?.heads(next.sentence).then((heads) => {
            if (ctx.sentence !== next.sentence) return; // changed again meanwhile
            r.heads = heads;
            r.headsStep = r.reports.at(-1)?.step ?? r.headsStep;
            Object.assign(r, { maps: [], mapsSeen: 0, mapStride: 1, shownStep: null }); // the maps kept were of the sentence before
            keepMap(r, { step: r.headsStep, heads });
            schedule();
          }, (error) => say('error', describeError(error)));
        }
      }
      schedule();
    },
    /** Ends every run (its Worker terminated) and the frame asked for; nothing is drawn after. */
    dispose() {
      disposed = true;
      life.abort();
      cancelAnimationFrame(frame);
      frame = 0;
      disposeRuns();
      trainer?.dispose();
      trainer = null;
    },
  };
}
