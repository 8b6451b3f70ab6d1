// Number formatting for display. Formatting only: no arithmetic on values.

const MINUS = '−';

/** A number with fixed decimals, a real minus sign, and ±∞ spelled out. */
export function fmt(value, digits = 2) {
  if (value === Infinity) return '∞';
  if (value === -Infinity) return `${MINUS}∞`;
  if (Number.isNaN(value)) return '—';
  const abs = Math.abs(value);
  let text;
  if (abs !== 0 && (abs >= 1e6 || abs < 10 ** -digits / 2)) {
    text = value.toExponential(2).replace('e+', 'e');
  } else {
    text = value.toFixed(digits);
  }
  text = text.replaceAll('-', MINUS);
  return text === `${MINUS}0.${'0'.repeat(digits)}` ? text.slice(1) : text;
}

/** A number with `digits` significant digits: tiny and huge ones in exponent form (−3.06e−7),
 *  the rest as decimals (0.9999997). For worked examples whose values span many orders. */
export function sig(value, digits = 3) {
  if (!Number.isFinite(value) || value === 0) return fmt(value, 0);
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent < -4 || exponent >= 6) return value.toExponential(digits - 1).replace('e+', 'e').replace(/e-/, 'e−').replace('-', '−');
  return fmt(value, Math.max(0, digits - 1 - exponent));
}

/** A factor inside a product: negative numbers in parentheses. */
export function factor(value, digits = 2) {
  const text = fmt(value, digits);
  return value < 0 ? `(${text})` : text;
}

/** A share in [0, 1] with two decimals, never in exponent form (a bar beside it shows its size). */
export function share(value) {
  return fmt(Math.abs(value) < 0.005 ? 0 : value);
}
