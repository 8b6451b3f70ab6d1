// Writes the fuzzer's seed corpus (tests/fuzz/corpus/), committed with the repo:
//   node tests/fuzz/make-corpus.mjs
// Each file is a sentence followed by a configuration, encoded the way
// FuzzedDataProvider reads it in fuzz_attention.cpp: integers are consumed
// from the END of the input, first-consumed byte last.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const dir = new URL('./corpus/', import.meta.url);
mkdirSync(dir, { recursive: true });

// Bytes for ConsumeIntegralInRange(min, max) returning value.
function integral(value, min, max) {
  const range = BigInt(max) - BigInt(min);
  let result = BigInt(value) - BigInt(min);
  const bytes = [];
  for (let offset = 0n; offset < 64n && range >> offset > 0n; offset += 8n) bytes.push(0);
  for (let k = bytes.length - 1; k >= 0; k -= 1) { bytes[k] = Number(result & 0xffn); result >>= 8n; }
  // bytes[0] is the most significant and is consumed first, so it goes last.
  return bytes.reverse();
}

function encode(sentence, { dModel = 768, dK = 64, seed = 42, scale = true, causal = false, positional = true } = {}) {
  const text = typeof sentence === 'string' ? Buffer.from(sentence, 'utf8') : Buffer.from(sentence);
  const chunks = [
    [0], // mode 0: a sentence
    integral(dModel, -2, 1100),
    integral(dK, -2, 1100),
    integral(seed, -2, 4294967297),
    [scale ? 1 : 0],
    [causal ? 1 : 0],
    [positional ? 1 : 0],
  ];
  // Consumed from the end in chunk order, so the chunks are laid out reversed.
  return Buffer.concat([text, ...chunks.reverse().map((c) => Buffer.from(c))]);
}

const small = { dModel: 16, dK: 4 };
const seeds = {
  'zh-default': encode('我喜欢人工智能'),
  'zh-small': encode('我喜欢人工智能', small),
  'en-sentence': encode("The animal didn't cross the street because it was too tired.", small),
  'mixed': encode('我love AI！「注意力」100€ → ∑', small),
  'emoji-zwj': encode('👩‍💻👨‍👩‍👧‍👦🏳️‍🌈 family', small),
  'emoji-modifiers': encode('👍🏽👋🏿 ❤️ 🇨🇳🇫🇷 1️⃣', small),
  'combining-marks': encode('cafe\u0301 n\u0303 \u0301 Z\u0351\u0362\u0335a\u0337\u0321lgo', small),
  'rtl': encode('مرحبا بالعالم שלום עולם \u202Eevil\u202C', small),
  'control-chars': encode('a\u0001b\u0007c\u007f\u0085d\u200be\ufeff', small),
  'markup': encode('<img src=x onerror=alert(1)><script>alert(2)</script>', small),
  'cjk-ext': encode('𠮷野家 𪚥 々〆〇', small),
  'fullwidth': encode('ＡＢＣ１２３，。', small),
  'empty': encode(''),
  'blank': encode(' \t\r\n\u3000'),
  'invalid-lead': encode([0xff, 0x41]),
  'invalid-cont': encode([0x41, 0x80, 0x41]),
  'invalid-cut': encode([0xe4, 0xbd]),
  'invalid-overlong': encode([0xc0, 0xaf, 0xe0, 0x80, 0xaf]),
  'lone-surrogate-high': encode([0x61, 0xed, 0xa0, 0xbd, 0x62]),
  'lone-surrogate-low': encode([0xed, 0xbf, 0xbf]),
  'above-max': encode([0xf4, 0x90, 0x80, 0x80]),
  'long-cjk-10000': encode('字'.repeat(10000), small),
  'long-word-10000': encode('a'.repeat(10000), small),
  'long-words-5000': encode('ab '.repeat(3400), small),
  'max-tokens-510': encode('字'.repeat(510), small),
  'max-tokens-511': encode('字'.repeat(511), small),
  'dmodel-1': encode('hi there', { dModel: 1, dK: 1 }),
  'dmodel-0': encode('hi', { dModel: 0, dK: 1 }),
  'dmodel-neg': encode('hi', { dModel: -1, dK: 1 }),
  'dmodel-1024': encode('hi', { dModel: 1024, dK: 1024 }),
  'dmodel-1025': encode('hi', { dModel: 1025, dK: 64 }),
  'dk-0': encode('hi', { dModel: 8, dK: 0 }),
  'dk-over': encode('hi', { dModel: 8, dK: 9 }),
  'seed-0': encode('hi', { ...small, seed: 0 }),
  'seed-max': encode('hi', { ...small, seed: 4294967295 }),
  'seed-over': encode('hi', { ...small, seed: 4294967296 }),
  'seed-neg': encode('hi', { ...small, seed: -1 }),
  'flags-causal': encode('我喜欢人工智能', { ...small, causal: true }),
  'flags-none': encode('我喜欢人工智能', { ...small, scale: false, positional: false }),
  'flags-all': encode('我喜欢人工智能', { ...small, scale: false, causal: true, positional: false }),
  'scores-mode': Buffer.from([0x00, 0x00, 0x80, 0x7f, 0xff, 0xff, 0x7f, 0x7f, 0x40, 0x00, 0x01]),
};

for (const [name, bytes] of Object.entries(seeds)) {
  const hash = createHash('sha1').update(bytes).digest('hex').slice(0, 8);
  writeFileSync(new URL(`${name}-${hash}`, dir), bytes);
}
console.log(`wrote ${Object.keys(seeds).length} seeds to ${dir.pathname}`);
