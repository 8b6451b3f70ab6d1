// The training lab's controls: the text to learn from, the preset, the knobs
// (their ranges, the presets and d_k from the trainer: web/lib/training.js's
// openTrainer), ÷√d_k, one matrix for queries and keys, and Start, Pause, Stop,
// the ÷√d_k experiment and the Q/K experiment. They keep what the learner set;
// the lab reads it when a run starts.

// The knobs, and how far a click on an arrow moves each; their ranges are the trainer's.
const KNOBS = Object.freeze([['layers', 1], ['heads', 1], ['dModel', 8], ['steps', 100], ['lr', 0.0005], ['initScale', 0.01], ['seed', 1]]);
// The preset a lab opens with (the smallest: its heads get a label soonest).
const FIRST_PRESET = 'tiny';

/**
 * element: where the controls go. deps: { h, clear, fmt, group (the source radios' name, one per lab),
 * start(compare: null, 'scaling' or 'sharedQk'), pauseOrResume(), stop() }. Returns { draw({ t, trainer, loading, textBytes, active, paused }),
 * settings() (what a run starts with), source ('lab' or 'own'), ownText }. trainer: an open Trainer
 * (training.js), or null while it loads (loading) or when it could not open.
 */
export function createTrainControls(element, { h, clear, fmt, group, start, pauseOrResume, stop }) {
  let settings = null; // the trainer's defaults and the first preset, once the trainer is open
  let preset = FIRST_PRESET;
  let source = 'lab';
  let ownText = '';
  let last = null; // what the controls were last drawn with

  function draw(given) {
    last = given;
    const { t, trainer, loading, textBytes, active, paused } = given;
    if (!trainer) {
      clear(element, h('p', { class: 'explain' }, t('train.explain')), loading ? h('p', { class: 'hint' }, t('train.loading')) : null);
      return;
    }
    settings ??= { ...trainer.defaults, ...trainer.presets[FIRST_PRESET] };
    const knobName = (name) => t(`train.knob.${name}`);
    const presetSelect = h('select', { id: 'train-preset', onchange: (e) => { preset = e.target.value; Object.assign(settings, trainer.presets[preset]); draw(last); } },
      Object.keys(trainer.presets).map((id) => h('option', { value: id, selected: id === preset }, t(`train.preset.${id}`))));
    const dk = h('span', { class: 'train-dk' }, t('train.dk', { dk: '…' }));
    const drawDk = () => {
      const asked = [settings.dModel, settings.heads];
      trainer.headSize(...asked).then((size) => {
        if (asked[0] === settings.dModel && asked[1] === settings.heads) dk.textContent = t('train.dk', { dk: size || '—' });
      }, () => {}); // a trainer let go of meanwhile: the lab is closing
    };
    const knobs = KNOBS.map(([name, step]) => h('label', { class: 'train-knob' }, knobName(name), ' ',
      h('input', { type: 'number', id: `train-${name}`, min: trainer.ranges[name].min, max: trainer.ranges[name].max, step,
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
    clear(element,
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
    settings: () => settings && ({ layers: settings.layers, heads: settings.heads, dModel: settings.dModel, steps: settings.steps, lr: settings.lr,
      initScale: settings.initScale, seed: settings.seed, scaled: settings.scaled, sharedQk: settings.sharedQk }),
    get source() { return source; },
    get ownText() { return ownText; },
  };
}
