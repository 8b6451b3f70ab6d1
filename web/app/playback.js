// Play and pause through the steps, and the speed of every animation.
import { prefersReducedMotion, setText, sleep } from './dom.js';
import { t } from './i18n.js';

const DWELL_MS = 1600; // how long Play rests on each step, at speed 1

/**
 * button: the Play button; count: how many steps; at(): the step shown;
 * goTo(k, animate): shows step k and resolves once it is drawn.
 * Returns { playing, play(), pause(), setSpeed(speed), relabel() }.
 */
export function createPlayer({ button, count, at, goTo }) {
  let playing = false;
  let speed = 1;
  const setPlaying = (on) => {
    playing = on;
    setText(button, t(on ? 'page.pause' : 'page.play')); // unchanged on most clicks: no write, no restyle
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
        await sleep(DWELL_MS / speed);
        if (!playing) break;
        await goTo(at() + 1, true);
      }
      setPlaying(false); // the last step is reached, or the learner paused
    },
    setSpeed(next) {
      speed = next;
      document.documentElement.style.setProperty('--motion', prefersReducedMotion() ? '0ms' : `${Math.round(450 / speed)}ms`);
    },
    /** The button's words again (after a language switch). */
    relabel() { setPlaying(playing); },
  };
  return player;
}
