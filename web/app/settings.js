// The settings form: the model, then d_model, d_k, seed and the three switches.
// A trained model fixes its sizes and switches: they are shown, greyed out.
import { h } from './dom.js';
import { t } from './i18n.js';

const NUMBER_OPTIONS = ['dModel', 'dK', 'seed'];
const FLAG_OPTIONS = ['scale', 'causal', 'positional'];
const input = (name) => document.getElementById(`opt-${name}`);

/** A model's name in the model menu. */
const modelName = (m) => t(m.trained ? 'page.modelTrained' : 'page.modelRandom',
  { id: m.id, heads: m.heads, layers: m.layers, dModel: m.dModel, dK: m.dK });

export function fillSettings(options, models) {
  const menu = input('model');
  menu.replaceChildren(...models.map((m) => h('option', { value: m.id, selected: m.id === options.model }, modelName(m))));
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
  document.getElementById('settings-fixed').hidden = !fixed;
}

/** The form's values (the model and what it lets the learner set); an empty
 *  number box becomes NaN, which the API rejects by name. */
export function readSettings() {
  const options = { model: input('model').value };
  for (const name of NUMBER_OPTIONS) {
    if (input(name).disabled) continue;
    const text = input(name).value.trim();
    options[name] = text === '' ? NaN : Number(text);
  }
  for (const name of FLAG_OPTIONS) if (!input(name).disabled) options[name] = input(name).checked;
  return options;
}

export function onSettingsChange(handler) {
  for (const name of ['model', ...NUMBER_OPTIONS, ...FLAG_OPTIONS]) input(name).addEventListener('change', handler);
}
