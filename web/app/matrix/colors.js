// Colour scales, colour-blind safe: a diverging orange–white–purple scale
// centred at 0 for signed values, and viridis for weights from 0 to 1.
// Mapping a value to a colour is drawing, not attention math.

import { h } from '../ui/dom.js';

const DIVERGING = [
  [179, 88, 6], [224, 130, 20], [253, 184, 99], [254, 224, 182], [247, 247, 247],
  [216, 218, 235], [178, 171, 210], [128, 115, 172], [84, 39, 136],
];
const VIRIDIS = [
  [68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142],
  [31, 158, 137], [53, 183, 121], [109, 205, 89], [180, 222, 44], [253, 231, 37],
];

function interpolate(stops, t) {
  const x = Math.min(1, Math.max(0, t)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  return stops[i].map((c, k) => Math.round(c + (stops[i + 1][k] - c) * f));
}

/** A scale: { kind, lo, hi, rgb(v) → [r, g, b], css(v), text(v) }.
 *  Diverging scales are symmetric around 0 so that 0 is always white. */
export function makeScale(kind, min, max) {
  if (kind === 'sequential') {
    const lo = 0;
    const hi = Math.max(1e-12, max);
    const rgb = (v) => (Number.isFinite(v) ? interpolate(VIRIDIS, (v - lo) / (hi - lo)) : [128, 128, 128]);
    return finish({ kind, lo, hi, min, max, rgb });
  }
  const bound = Math.max(Math.abs(min), Math.abs(max), 1e-12);
  const rgb = (v) => {
    if (v === -Infinity) return [90, 90, 90];
    if (!Number.isFinite(v)) return [128, 128, 128];
    return interpolate(DIVERGING, (v + bound) / (2 * bound));
  };
  return finish({ kind, lo: -bound, hi: bound, min, max, rgb });
}

function relativeLuminance(rgb) {
  const [r, g, b] = rgb.map((c) => {
    const x = c / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

const LUT_STEPS = 1024; // colours per scale for pixels: steps far below what an eye tells apart
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** An opaque colour as the 32-bit word whose bytes, in memory, are R, G, B, 255. */
function word([r, g, b]) {
  return (LITTLE_ENDIAN ? (255 << 24) | (b << 16) | (g << 8) | r : (r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
}

function finish(scale) {
  scale.css = (v) => `rgb(${scale.rgb(v).join(' ')})`;
  // RGBA bytes for many values at once (canvases of up to 512 × 768 cells):
  // a table of LUT_STEPS colours instead of one interpolation per value, each
  // colour one 32-bit word (its four bytes in the platform's order), so a
  // pixel is one store.
  let lut = null;
  scale.fill = (values, bytes, count = values.length) => {
    if (!lut) {
      lut = new Uint32Array(LUT_STEPS);
      for (let k = 0; k < LUT_STEPS; k += 1) lut[k] = word(scale.rgb(scale.lo + ((scale.hi - scale.lo) * k) / (LUT_STEPS - 1)));
    }
    const pixels = new Uint32Array(bytes.buffer, bytes.byteOffset, count);
    const { lo } = scale;
    const step = (LUT_STEPS - 1) / (scale.hi - lo);
    for (let t = 0; t < count; t += 1) {
      const v = values[t];
      if (Number.isFinite(v)) {
        const k = Math.round((v - lo) * step); // clamped after rounding: the same colour as before it
        pixels[t] = lut[k < 0 ? 0 : k > LUT_STEPS - 1 ? LUT_STEPS - 1 : k];
      } else {
        pixels[t] = word(scale.rgb(v));
      }
    }
  };
  // Black or white, whichever contrasts more with the cell (WCAG luminance).
  scale.text = (v) => {
    const lum = relativeLuminance(scale.rgb(v));
    return (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) ? '#000' : '#fff';
  };
  return scale;
}

/** The colour bar of a scale: a CSS gradient through 17 of its colours (an
 *  element, not a canvas, so a redraw with the same range changes nothing). */
export function scaleBar(scale, stops = 17) {
  const colours = Array.from({ length: stops }, (_, k) => {
    const [r, g, b] = scale.rgb(scale.lo + ((scale.hi - scale.lo) * k) / (stops - 1));
    return `rgb(${r}, ${g}, ${b}) ${((100 * k) / (stops - 1)).toFixed(2)}%`;
  });
  return h('span', { class: 'scale-bar', style: { backgroundImage: `linear-gradient(to right, ${colours.join(', ')})` } });
}
