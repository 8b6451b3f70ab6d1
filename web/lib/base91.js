// Binary data as text (basE91, Joachim Henke's scheme): two characters of a 91-letter ASCII
// alphabet for every 13 or 14 bits, 1.23 characters a byte against base64's 1.33 (92 % of its
// length). The one-file builds carry the gzipped wasm and model this way inside a script; the
// alphabet has no quote (") and no backslash, so JSON.stringify adds no escapes to it.
export const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,./:;<=>?@[]^_`{|}~-';

/** bytes (Uint8Array) → text. */
export function encode91(bytes) {
  let bits = 0;
  let count = 0;
  const out = [];
  for (const byte of bytes) {
    bits |= byte << count;
    count += 8;
    if (count > 13) {
      let value = bits & 8191;
      if (value > 88) {
        bits >>= 13;
        count -= 13;
      } else {
        value = bits & 16383;
        bits >>= 14;
        count -= 14;
      }
      out.push(ALPHABET[value % 91], ALPHABET[Math.floor(value / 91)]);
    }
  }
  if (count) {
    out.push(ALPHABET[bits % 91]);
    if (count > 7 || bits > 90) out.push(ALPHABET[Math.floor(bits / 91)]);
  }
  return out.join('');
}

/** text → bytes (Uint8Array). Throws on a character outside the alphabet. */
export function decode91(text) {
  const table = new Int16Array(128).fill(-1);
  for (let k = 0; k < ALPHABET.length; k += 1) table[ALPHABET.charCodeAt(k)] = k;
  const out = new Uint8Array(Math.ceil((text.length * 14) / 16) + 1);
  let length = 0;
  let value = -1;
  let bits = 0;
  let count = 0;
  for (let k = 0; k < text.length; k += 1) {
    const code = text.charCodeAt(k);
    const digit = code < 128 ? table[code] : -1;
    if (digit < 0) throw new Error(`not basE91 text: ${JSON.stringify(text[k])} at ${k}`);
    if (value < 0) {
      value = digit;
      continue;
    }
    value += digit * 91;
    bits |= value << count;
    count += (value & 8191) > 88 ? 13 : 14;
    do {
      out[length++] = bits & 255;
      bits >>= 8;
      count -= 8;
    } while (count > 7);
    value = -1;
  }
  if (value >= 0) out[length++] = (bits | (value << count)) & 255;
  return out.subarray(0, length);
}

/** Bytes from the basE91 text of their gzip (how the one-file builds carry the wasm and the
 *  model), unpacked by the browser's own DecompressionStream: nothing is fetched. */
export async function unpackGzip91(text) {
  if (typeof DecompressionStream !== 'function') {
    throw new Error('this browser is too old to unpack the built-in files (it has no DecompressionStream)');
  }
  const packed = decode91(text);
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
