// The training lab's controls: the text to learn from, the preset, the knobs
// (their ranges and d_k from the core), ÷√d_k, one matrix for queries and keys,
// and Start, Pause, Stop, the ÷√d_k experiment and the Q/K experiment. They keep
// what the learner set; the lab reads it when a run starts.

// From the smallest upwards. With seed 1 the tiny preset's second head looks at
// the next token from about step 2500 (docs/training.md; bench/ times it).
export const PRESETS = Object.freeze({
  tiny: Object.freeze({ layers: 1, heads: 2, dModel: 32, steps: 3000, lr: 0.01, initScale: 0.02 }),
  small: Object.freeze({ layers: 2, heads: 4, dModel: 64, steps: 3000, lr: 0.003, initScale: 0.02 }),
  larger: Object.freeze({ layers: 2, heads: 4, dModel: 128, steps: 6000, lr: 0.001, initScale: 0.02 }),
});
// The knobs, and how far a click on an arrow moves each; their ranges are the core's (core.trainingRanges).
const KNOBS = Object.freeze([['layers', 1], ['heads', 1], ['dModel', 8], ['steps', 100], ['lr', 0.0005], ['initScale', 0.01], ['seed', 1]]);

/**
 * element: where the controls go. deps: { h, clear, fmt, group (the source radios' name, one per lab),
 * start(compare: null, 'scaling' or 'sharedQk'), pauseOrResume(), stop() }. Returns { draw({ t, core, textBytes, active, paused }),
 * settings() (what a run starts with), source ('lab' or 'own'), ownText }.
 */
export function createTrainControls(element, { h, clear, fmt, group, start, pauseOrResume, stop }) {
  const settings = { ...PRESETS.tiny, scaled: true, sharedQk: false, seed: 1 };
  let preset = 'tiny';
  let source = 'lab';
  let ownText = '';
  let last = null; // what the controls were last drawn with

  function draw(given) {
    last = given;
    const { t, core, textBytes, active, paused } = given;
    const knobName = (name) => t(`train.knob.${name}`);
    const presetSelect = h('select', { id: 'train-preset', onchange: (e) => { preset = e.target.value; Object.assign(settings, PRESETS[preset]); draw(last); } },
      Object.keys(PRESETS).map((id) => h('option', { value: id, selected: id === preset }, t(`train.preset.${id}`))));
    const dk = h('span', { class: 'train-dk' });
    const drawDk = () => {
      const size = Number.isInteger(settings.dModel) && Number.isInteger(settings.heads) ? core.trainingHeadSize(settings.dModel, settings.heads) : 0;
      dk.textContent = t('train.dk', { dk: size || '—' });
    };
    const knobs = KNOBS.map(([name, step]) => h('label', { class: 'train-knob' }, knobName(name), ' ',
      h('input', { type: 'number', id: `train-${name}`, min: core.trainingRanges[name].min, max: core.trainingRanges[name].max, step,
        value: settings[name], inputmode: 'decimal',
        onchange: (e) => { settings[name] = e.target.value === '' ? Number.NaN : Number(e.target.value); drawDk(); } })));
    drawDk();
    const scaled = h('label', { class: 'train-knob' }, h('input', { type: 'checkbox', id: 'train-scaled', checked: settings.scaled,
      onchange: (e) => { settings.scaled = e.target.checked; } }), ' ', t('train.knob.scaled'));
    const shared = h('label', { class: 'train-knob' }, h('input', { type: 'checkbox', id: 'train-shared-qk', checked: settings.sharedQk,
      onchange: (e) => { settings.sharedQk = e.target.checked; } }), ' ', t('train.knob.sharedQk'));
    const size = textBytes ? fmt(textBytes / 1024, 0) : '…';
    const sources = h('fieldset', { class: 'train-source' }, h('legend', {}, t('train.source')),
      ['lab', 'own'].map((id) => h('label', {}, h('input', { type: 'radio', name: group, value: id, checked: source === id,
        onchange: () => { source = id; draw(last); } }), ' ', t(`train.source.${id}`, { size }))),
      source === 'own' ? h('textarea', { id: 'train-text', rows: 5, 'aria-label': t('train.own'), placeholder: t('train.ownPlaceholder'),
        oninput: (e) => { ownText = e.target.value; } }, ownText) : null);
    clear(element).append(
      h('p', { class: 'explain' }, t('train.explain')),
      sources,
      h('div', { class: 'train-knobs' }, h('label', { class: 'train-knob' }, t('train.preset'), ' ', presetSelect), ...knobs, dk, scaled, shared),
      h('div', { class: 'train-actions' },
        h('button', { type: 'button', id: 'train-start', disabled: active, onclick: () => start(null) }, t('train.start')),
        h('button', { type: 'button', id: 'train-pause', disabled: !active, onclick: pauseOrResume }, t(paused ? 'train.resume' : 'train.pause')),
        h('button', { type: 'button', id: 'train-stop', disabled: !active, onclick: stop }, t('train.stop')),
        h('button', { type: 'button', id: 'train-compare', disabled: active, title: t('train.compareHint'), onclick: () => start('scaling') }, t('train.compare')),
        h('button', { type: 'button', id: 'train-compare-qk', disabled: active, title: t('train.compareQkHint'), onclick: () => start('sharedQk') }, t('train.compareQk'))),
      h('p', { class: 'hint' }, t('train.hidden')));
  }

  return {
    draw,
    settings: () => ({ layers: settings.layers, heads: settings.heads, dModel: settings.dModel, steps: settings.steps, lr: settings.lr,
      initScale: settings.initScale, seed: settings.seed, scaled: settings.scaled, sharedQk: settings.sharedQk }),
    get source() { return source; },
    get ownText() { return ownText; },
  };
}
