// Runs only in browsers too old for JavaScript modules (script nomodule): say
// so instead of leaving "Loading…" on screen forever. Old-style JS on purpose.
(function () {
  var el = document.getElementById('loading');
  if (!el) return;
  el.className = 'message error';
  el.hidden = false;
  el.textContent = 'This browser is too old for Attention Lab: it needs JavaScript modules and ' +
    'WebAssembly. Open the page in a current Chrome, Edge, Firefox or Safari.';
}());
