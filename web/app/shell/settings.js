// The settings form: the model, then d_model, d_k, seed and the three switches.
// A trained model fixes its sizes and switches: they are shown, greyed out.
import { h } from '../ui/dom.js';

const NUMBER_OPTIONS = ['dModel', 'dK', 'seed'];
const FLAG_OPTIONS = ['scale', 'causal', 'positional'];

/** A model's name in the model menu. */
const modelName = (t, m) => t({ trained: 'page.modelTrained', random: 'page.modelRandom' }[m.id] ?? 'page.modelLoaded',
  { id: m.id, heads: m.heads, layers: m.layers, dModel: m.dModel, dK: m.dK });

/** The settings form of a lab whose elements $(id) finds. Returns
 *  { fill(options, models, t), read(), onChange(handler), onModelFile(taken, onFile) }. */
export function createSettings($) {
  const input = (name) => $(`opt-${name}`);
  return {
    fill: (options, models, t) => fillSettings(input, $, options, models, t),
    read: () => readSettings(input),
    onChange(handler) {
      for (const name of ['model', ...NUMBER_OPTIONS, ...FLAG_OPTIONS]) input(name).addEventListener('change', handler);
    },
    onModelFile: (taken, onFile) => onModelFile(input('model-file'), taken, onFile),
  };
}

function fillSettings(input, $, options, models, t) {
  const menu = input('model');
  menu.replaceChildren(...models.map((m) => h('option', { value: m.id, selected: m.id === options.model }, modelName(t, m))));
  const fixed = models.find((m) => m.id === options.model)?.trained ?? false;
  for (const name of NUMBER_OPTIONS) {
    const text = options[name] === undefined ? '' : String(options[name]);
    if (input(name).value !== text) input(name).value = text;
    input(name).disabled = fixed;
  }
  for (const name of FLAG_OPTIONS) {
    input(name).checked = options[name];
    input(name).disabled = fixed;
  }
  $('settings-fixed').hidden = !fixed;
}

/** The form's values (the model and what it lets the learner set); an empty
 *  number box becomes NaN, which the API rejects by name. */
function readSettings(input) {
  const options = { model: input('model').value };
  for (const name of NUMBER_OPTIONS) {
    if (input(name).disabled) continue;
    const text = input(name).value.trim();
    options[name] = text === '' ? NaN : Number(text);
  }
  for (const name of FLAG_OPTIONS) if (!input(name).disabled) options[name] = input(name).checked;
  return options;
}

/** A model file the learner picks (one `npm run train` or train_encoder --export
 *  wrote): onFile(id, bytes), the id made from the file's name (letters,
 *  digits, . _ -), never one of the ids taken. */
function onModelFile(box, taken, onFile) {
  box.addEventListener('change', async () => {
    const file = box.files?.[0];
    if (!file) return;
    const base = (file.name.replace(/\.almodel$/i, '').match(/[\w.-]+/g) ?? []).join('-').slice(0, 40) || 'model';
    let id = base;
    for (let k = 2; taken().includes(id); k += 1) id = `${base}-${k}`;
    const bytes = new Uint8Array(await file.arrayBuffer());
    box.value = '';
    onFile(id, bytes);
  });
}
