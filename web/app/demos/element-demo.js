// The element demo: two <attention-lab> elements, driven through their
// attributes, with every event they fire logged (docs/embedding.md).
const $ = (id) => document.getElementById(id);
const first = $('first');

// The steps' ids come with the element's ready event, as a host would get them.
first.addEventListener('ready', (event) => {
  $('host-step').replaceChildren(...event.detail.steps.map((id) => new Option(id, id, false, id === first.getAttribute('step'))));
}, { once: true });
$('host-step').addEventListener('change', () => first.setAttribute('step', $('host-step').value));
$('send-sentence').addEventListener('click', () => first.setAttribute('sentence', $('host-sentence').value));

for (const type of ['ready', 'step', 'select', 'exercise', 'state', 'error']) {
  document.addEventListener(type, (event) => {
    if (event.target.localName !== 'attention-lab') return;
    const item = document.createElement('li');
    item.textContent = `${event.target.id} ${type}: ${JSON.stringify(event.detail).slice(0, 300)}`;
    $('log').prepend(item);
    if (type === 'ready') document.body.dataset[`${event.target.id}Ready`] = 'true';
  });
}
