// Which lab the code is drawing for. The page is one lab; a course page may
// hold several <attention-lab> elements (element.js), each its own tree of the
// same ids inside a shadow root. Modules that look up an element by id (the
// message line, the tooltip, the settings form …) or mark the lab's frame
// (data-ready, data-step …) ask here; a lab makes itself current before it
// draws, and before any of its event handlers runs (enterOn).
import { useLanguage } from './i18n.js';

let current = { scope: globalThis.document, frame: globalThis.document?.body, lang: 'en' };

/** instance: { scope: document or a ShadowRoot, frame: the element that
 *  stands for the page's <body>, lang }. */
export function enter(instance) {
  current = instance;
  useLanguage(instance.lang);
}

/** The current lab's element with this id. */
export const byId = (id) => current.scope.getElementById(id);

/** The current lab's frame: <body> for the page, the element's inner root. */
export const frame = () => current.frame;

/** Makes `instance` current at the start of every event inside its scope,
 *  before the handlers where the event happens run (capture phase). */
export function enterOn(instance, types = ['click', 'input', 'change', 'submit', 'keydown', 'pointerover', 'pointermove',
  'pointerout', 'pointerdown', 'mousemove', 'mouseover', 'mouseout', 'mouseleave', 'focusin', 'focusout', 'toggle']) {
  for (const type of types) instance.scope.addEventListener(type, () => enter(instance), true);
}
