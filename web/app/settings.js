// The settings form: d_model, d_k, seed and the three switches.
const NUMBER_OPTIONS = ['dModel', 'dK', 'seed'];
const FLAG_OPTIONS = ['scale', 'causal', 'positional'];
const input = (name) => document.getElementById(`opt-${name}`);

export function fillSettings(options) {
  for (const name of NUMBER_OPTIONS) {
    if (input(name).value !== String(options[name])) input(name).value = String(options[name]);
  }
  for (const name of FLAG_OPTIONS) input(name).checked = options[name];
}

/** The form's values; an empty number box becomes NaN, which the API rejects by name. */
export function readSettings() {
  const options = {};
  for (const name of NUMBER_OPTIONS) {
    const text = input(name).value.trim();
    options[name] = text === '' ? NaN : Number(text);
  }
  for (const name of FLAG_OPTIONS) options[name] = input(name).checked;
  return options;
}

export function onSettingsChange(handler) {
  for (const name of [...NUMBER_OPTIONS, ...FLAG_OPTIONS]) input(name).addEventListener('change', handler);
}
