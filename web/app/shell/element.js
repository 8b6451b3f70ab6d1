// <attention-lab>: the whole lab as one custom element, for course pages.
//
//   <script type="module" src="…/generated/attention-lab-element.js"></script>
//   <attention-lab sentence="我喜欢人工智能" step="softmax" lang="zh"></attention-lab>
//   (lang: en, zh or zh-Hant, traditional Chinese; else the browser's language)
//
// Each element is a lab of its own (start-lab.js) in a shadow root, so the course
// page's styles stay out and its ids stay apart; every element on a page shares
// the one wasm core (loadAttentionLab() loads it once). Attributes mirror the
// link's parameters (url-state.js) and may change at any time; the element
// fires the events a framed lab posts to its host (docs/embedding.md): ready,
// step, select, exercise, state and error, each with its body as `detail`.
// scripts/bundle-app.mjs bundles this file with the page's markup (from
// web/index.html) into web/generated/attention-lab-element.js.
import MARKUP from 'attention-lab:markup';
import STYLE from 'attention-lab:style';
import { startLab } from './start-lab.js';

// Attribute → the link parameter it stands for.
export const ATTRIBUTES = Object.freeze({
  sentence: 's', step: 'step', token: 't', lang: 'lang', model: 'model', head: 'head', layer: 'layer',
  dk: 'dK', 'd-model': 'dModel', seed: 'seed', scale: 'scale', causal: 'causal', positional: 'positional',
  experiment: 'experiment', lab: 'lab', exercises: 'exercises', embed: 'embed', tour: 'tour', // lab: the older name of experiment
});
const RUN_ATTRIBUTES = ['sentence', 'model', 'dk', 'd-model', 'seed', 'scale', 'causal', 'positional'];

export class AttentionLabElement extends HTMLElement {
  #lab = null;

  static get observedAttributes() { return Object.keys(ATTRIBUTES); }

  connectedCallback() {
    if (this.#lab) return; // moved in the page: it keeps its lab
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    // The stylesheet beside the script, or (a build that carries it, as the H5P package's) its text.
    const style = document.createElement(STYLE === null ? 'link' : 'style');
    if (STYLE === null) {
      style.rel = 'stylesheet';
      style.href = new URL('app.css', import.meta.url).href;
    } else style.textContent = STYLE;
    const frame = document.createElement('div');
    frame.className = 'al-frame';
    frame.innerHTML = MARKUP; // the page's own markup, from the build: nothing the user typed
    root.replaceChildren(style, frame); // connected again after a removal: a new lab, from the attributes as they are now
    this.#lab = startLab({ scope: root, frame, search: this.#search(), page: false,
      announce: (type, detail) => this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true })) });
  }

  // Removed from the page: the lab ends (its training runs' Workers, its run in the core, its
  // timers and listeners). A move within the page (removed and put back in the same task) keeps it.
  disconnectedCallback() {
    queueMicrotask(() => {
      if (this.isConnected || !this.#lab) return;
      this.#lab.dispose();
      this.#lab = null;
    });
  }

  /** Where the learner is, as plain data a platform keeps between visits (shell/progress.js); null before the first view. */
  progress() { return this.#lab?.progress() ?? null; }

  /** Goes back to a progress() of an earlier visit, once the lab is ready; what does not fit is left aside. */
  restore(saved) { return this.ready.then(() => this.#lab.restore(saved)); }

  /** How many exercises its set has, as the lab reads the `exercises` attribute (every exercise once when absent);
   *  null until the lab is ready (the names are the core's). */
  get exerciseCount() { return this.#lab?.exerciseCount() ?? null; }

  /** Shows the solution of every exercise of the set, once the lab is ready. */
  showSolutions() { return this.ready.then(() => this.#lab.revealAnswers()); }

  /** Resolves when the lab has drawn its first view. */
  get ready() { return this.#lab?.ready ?? Promise.reject(new Error('an <attention-lab> starts once it is in the document')); }

  attributeChangedCallback(name, before, after) {
    if (!this.#lab || before === after) return;
    if (name === 'lang') this.#lab.switchLanguage(after ?? 'en');
    else if (name === 'experiment' || name === 'lab') this.#lab.openExperiment(after || null);
    else if (name === 'exercises') this.#lab.setExercises(after ?? '');
    else if (name === 'tour') this.#lab.setTour(after, 0);
    else if (name === 'embed') this.#lab.ready.then(() => this.shadowRoot.querySelector('.al-frame').classList.toggle('embed', after !== null));
    else this.#lab.applyLink(this.#search(), RUN_ATTRIBUTES.includes(name) ? 'run' : name);
  }

  // The attributes as the query string a link would carry.
  #search() {
    const params = new URLSearchParams();
    for (const [attribute, param] of Object.entries(ATTRIBUTES)) {
      const value = this.getAttribute(attribute);
      if (value !== null) params.set(param, attribute === 'embed' ? '1' : value);
    }
    return params.toString();
  }
}

if (!customElements.get('attention-lab')) customElements.define('attention-lab', AttentionLabElement);
