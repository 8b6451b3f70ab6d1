// The demo host page: drives the embedded lab and logs what it announces.
const frame = document.getElementById('lab');
const log = document.getElementById('log');
const $ = (id) => document.getElementById(id);
const send = (message) => frame.contentWindow.postMessage({ protocol: 'attention-lab', ...message }, location.origin);

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.data?.protocol !== 'attention-lab') return;
  const item = document.createElement('li');
  item.textContent = JSON.stringify(event.data); // shown as text, never as HTML
  log.append(item);
  if (event.data.type === 'ready') {
    $('host-step').replaceChildren(...event.data.steps.map((id) => new Option(id, id)));
    const heads = event.data.models.find((m) => m.trained)?.heads ?? 1; // the trained model's heads, counted from 0
    $('host-head').replaceChildren(...Array.from({ length: heads }, (_, k) => new Option(`head ${k + 1}`, k)));
    document.body.dataset.labReady = 'true';
  }
});

$('send-sentence').addEventListener('click', () => send({ type: 'set', sentence: $('host-sentence').value }));
$('send-step').addEventListener('click', () => send({ type: 'set', step: $('host-step').value }));
$('send-head').addEventListener('click', () => send({ type: 'set', head: Number($('host-head').value) }));
// The trained model has no causal mask (it learned without one): the switch runs the seeded head.
$('host-causal').addEventListener('change', () => send({ type: 'set',
  options: $('host-causal').checked ? { model: 'random', causal: true } : { model: 'trained' } }));
$('send-get').addEventListener('click', () => send({ type: 'get' }));
