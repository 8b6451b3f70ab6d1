// Play and pause through the steps, and the speed of every animation.
import { prefersReducedMotion, setText, sleep } from '../ui/dom.js';

const DWELL_MS = 1600; // how long Play rests on each step, at speed 1

/**
 * button: the Play button; count: how many steps; at(): the step shown;
 * goTo(k, animate): shows step k and resolves once it is drawn; frame: the
 * lab's frame (its --motion); words(): the lab's words now; signal: the lab's life (its end stops playing).
 * Returns { playing, play(), pause(), setSpeed(speed), relabel() }.
 */
export function createPlayer({ button, count, at, goTo, frame, words, signal }) {
  let playing = false;
  let speed = 1;
  const setPlaying = (on) => {
    playing = on;
    setText(button, words().t(on ? 'page.pause' : 'page.play')); // unchanged on most clicks: no write, no restyle
    if (button.getAttribute('aria-pressed') !== String(on)) button.setAttribute('aria-pressed', String(on));
  };
  const player = {
    get playing() { return playing; },
    pause() { setPlaying(false); },
    async play() {
      if (playing) return;
      setPlaying(true);
      if (at() === count - 1) await goTo(0, true);
      while (playing && at() < count - 1) {
        await sleep(DWELL_MS / speed, signal);
        if (!playing || signal.aborted) break;
        await goTo(at() + 1, true);
      }
      setPlaying(false); // the last step is reached, or the learner paused
    },
    setSpeed(next) {
      speed = next;
      frame.style.setProperty('--motion', prefersReducedMotion() ? '0ms' : `${Math.round(450 / speed)}ms`);
    },
    /** The button's words again (after a language switch). */
    relabel() { setPlaying(playing); },
  };
  return player;
}

/** The step and Play buttons, the speed menu, and their keys (← → Home Space),
 *  for a player; $(id): the lab's element; at(): the step shown; goTo(k,
 *  animate) shows step k; keys: where the keys are listened to; signal: the
 *  lab's life (its abort removes the keys' listener). */
export function bindControls(player, { $, at, goTo, keys, signal }) {
  const step = (k) => { player.pause(); goTo(k, true); };
  const toggle = () => (player.playing ? player.pause() : player.play());
  $('prev').addEventListener('click', () => step(at() - 1));
  $('next').addEventListener('click', () => step(at() + 1));
  $('restart').addEventListener('click', () => step(0));
  $('play').addEventListener('click', toggle);
  $('speed').addEventListener('change', () => player.setSpeed(Number($('speed').value)));
  keys.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest('input, select, textarea, table.matrix')) return;
    if (event.key === 'ArrowRight') step(at() + 1);
    else if (event.key === 'ArrowLeft') step(at() - 1);
    else if (event.key === 'Home') step(0);
    else if (event.key === ' ' && !event.target.closest('button')) {
      event.preventDefault();
      toggle();
    }
  }, { signal });
}
