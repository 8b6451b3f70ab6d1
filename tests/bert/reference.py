#!/usr/bin/python3
"""Random BERT checkpoints in Hugging Face's layout, and a float64 reference of what Hugging Face's
BertTokenizer and BertForMaskedLM compute on them, written from their documented architecture
(tokenization_bert.py, modeling_bert.py) in NumPy. The lab's core is tested against it
(tests/js/bert.test.mjs); nothing here imports the core.

  reference.py make DIR [--preset small|base|tokenizer] [--variant NAME] [--dtype F32|F16|BF16] [--seed N]
      writes DIR/config.json, vocab.txt, tokenizer_config.json (cased variants) and
      model.safetensors. Variants: plain, gamma-beta (LayerNorm's old names, an I64 position_ids,
      the NSP head and the pooler), no-prefix (no "bert." before the encoder's names), decoder
      (cls.predictions.decoder.weight and .bias written out), cased (do_lower_case false),
      tanh (hidden_act gelu_new).
  reference.py tokenize DIR < sentences (a JSON array)    JSON: each sentence's token ids
  reference.py run DIR [--top K] < sentences              JSON: tokens, ids, every head's
      weights, the last hidden rows and each [MASK]'s top K (every entry but the special ones)

Run with Debian's Python (/usr/bin/python3): it has NumPy.
"""
import json
import math
import re
import struct
import sys
import unicodedata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent.parent
SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']

PRESETS = {
    # layers, heads, hidden, feed-forward, positions
    'small': (3, 4, 64, 128, 64),
    'base': (12, 12, 768, 3072, 512),
    'tokenizer': (1, 1, 8, 8, 512),  # only its vocabulary and tokenizer are looked at
}


# ---- the vocabulary, by a written rule -------------------------------------------------------

def build_vocab(cased, size=None):
    """[PAD], [unused1…99], [UNK] [CLS] [SEP] [MASK] (bert-base-chinese's ids 0, 100–103); ASCII's
    punctuation and digits; every character of web/models/training-text.txt seen at least twice
    (most frequent first); every lower-cased word of ASCII letters seen there at least twice;
    ## and each letter and digit, and six English endings; with cased, capital letters and the
    first 300 words capitalised; é, ü and their ## forms; then, for a given size, CJK ideographs
    from U+4E00 on until the vocabulary has that many tokens."""
    tokens = ['[PAD]'] + [f'[unused{k}]' for k in range(1, 100)] + ['[UNK]', '[CLS]', '[SEP]', '[MASK]']
    seen = set(tokens)

    def add(t):
        if t and t not in seen and not any(c.isspace() for c in t):
            seen.add(t)
            tokens.append(t)

    for c in '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~0123456789':
        add(c)
    text = (ROOT / 'web/models/training-text.txt').read_text()
    counts = {}
    for c in text:
        if not c.isspace():
            counts[c] = counts.get(c, 0) + 1
    for c, k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        if k >= 2 and (cased or c.lower() == c):
            add(c)
    word_counts = {}
    for w in re.findall('[a-z]+', text.lower()):
        word_counts[w] = word_counts.get(w, 0) + 1
    words = [w for w, k in sorted(word_counts.items(), key=lambda kv: (-kv[1], kv[0])) if k >= 2]
    for w in words:
        add(w)
    for c in 'abcdefghijklmnopqrstuvwxyz0123456789':
        add(c)
        add('##' + c)
    for end in ['s', 'ed', 'ing', 'ly', 'er', 'es']:
        add('##' + end)
    if cased:
        for c in 'ABCDEFGHIJKLMNOPQRSTUVWXYZ':
            add(c)
            add('##' + c)
        for w in words[:300]:
            add(w.strip().capitalize())
    for c in 'éü':
        add(c)
        add('##' + c)
    if size:
        cp = 0x4E00
        while len(tokens) < size:
            add(chr(cp))
            cp += 1
        del tokens[size:]
    return tokens


# ---- safetensors -----------------------------------------------------------------------------

DTYPES = {'F32': np.float32, 'F16': np.float16, 'I64': np.int64}


def to_bytes(array, dtype):
    if dtype == 'BF16':  # the top 16 bits of each float32, rounded to nearest even
        bits = np.ascontiguousarray(array, dtype=np.float32).view(np.uint32).astype(np.uint64)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        return bits.astype(np.uint16).tobytes()
    return np.ascontiguousarray(array, dtype=DTYPES[dtype]).tobytes()


def write_safetensors(path, tensors):
    """tensors: [(name, array, dtype)], written in that order."""
    header, offset, chunks = {}, 0, []
    for name, array, dtype in tensors:
        data = to_bytes(array, dtype)
        header[name] = {'dtype': dtype, 'shape': list(array.shape), 'data_offsets': [offset, offset + len(data)]}
        offset += len(data)
        chunks.append(data)
    header['__metadata__'] = {'format': 'pt'}
    text = json.dumps(header, separators=(',', ':')).encode()
    text += b' ' * ((8 - len(text) % 8) % 8)
    with open(path, 'wb') as f:
        f.write(struct.pack('<Q', len(text)))
        f.write(text)
        for c in chunks:
            f.write(c)


def read_safetensors(path):
    raw = Path(path).read_bytes()
    (n,) = struct.unpack('<Q', raw[:8])
    header = json.loads(raw[8:8 + n])
    out = {}
    for name, info in header.items():
        if name == '__metadata__':
            continue
        b, e = info['data_offsets']
        data = raw[8 + n + b:8 + n + e]
        if info['dtype'] == 'BF16':
            bits = np.frombuffer(data, dtype=np.uint16).astype(np.uint32) << 16
            array = bits.view(np.float32)
        else:
            array = np.frombuffer(data, dtype=DTYPES[info['dtype']])
        out[name] = array.reshape(info['shape']).astype(np.float64 if info['dtype'] != 'I64' else np.int64)
    return out


# ---- a random checkpoint ---------------------------------------------------------------------

def make(directory, preset='small', variant='plain', dtype='F32', seed=1):
    layers, heads, hidden, ff, positions = PRESETS[preset]
    cased = variant == 'cased'
    vocab = build_vocab(cased, 21128 if preset == 'base' else None)
    rng = np.random.default_rng(seed)
    d = hidden

    def normal(shape, std):
        return rng.standard_normal(shape) * std

    prefix = '' if variant == 'no-prefix' else 'bert.'
    gamma, beta = ('gamma', 'beta') if variant == 'gamma-beta' else ('weight', 'bias')
    tensors = []

    def put(name, array):
        tensors.append((name, array.astype(np.float32), dtype))

    def layer_norm(name):
        put(f'{name}.{gamma}', 1 + normal(d, 0.1))
        put(f'{name}.{beta}', normal(d, 0.1))

    def linear(name, n_out, n_in, std=None):
        put(f'{name}.weight', normal((n_out, n_in), std if std else 1 / math.sqrt(n_in)))
        put(f'{name}.bias', normal(n_out, 0.1))

    e = prefix + 'embeddings.'
    put(e + 'word_embeddings.weight', normal((len(vocab), d), 0.1))
    put(e + 'position_embeddings.weight', normal((positions, d), 0.5))
    put(e + 'token_type_embeddings.weight', normal((2, d), 0.5))
    layer_norm(e + 'LayerNorm')
    if variant == 'gamma-beta':
        tensors.append((e + 'position_ids', np.arange(positions, dtype=np.int64)[None, :], 'I64'))
    for l in range(layers):
        at = f'{prefix}encoder.layer.{l}.'
        linear(at + 'attention.self.query', d, d, 1.2 / math.sqrt(d))
        linear(at + 'attention.self.key', d, d, 1.2 / math.sqrt(d))
        linear(at + 'attention.self.value', d, d)
        linear(at + 'attention.output.dense', d, d)
        layer_norm(at + 'attention.output.LayerNorm')
        linear(at + 'intermediate.dense', ff, d)
        linear(at + 'output.dense', d, ff)
        layer_norm(at + 'output.LayerNorm')
    if variant == 'gamma-beta':
        linear(prefix + 'pooler.dense', d, d)
        linear('cls.seq_relationship', 2, d)
    linear('cls.predictions.transform.dense', d, d)
    layer_norm('cls.predictions.transform.LayerNorm')
    bias = normal(len(vocab), 0.5)
    put('cls.predictions.bias', bias)
    if variant == 'decoder':
        tensors.append(('cls.predictions.decoder.weight', tensors[0][1], dtype))
        put('cls.predictions.decoder.bias', bias)
    rng.shuffle(tensors)  # the file's order is not the model's

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    config = {
        'architectures': ['BertForMaskedLM'], 'model_type': 'bert', 'hidden_size': d,
        'num_hidden_layers': layers, 'num_attention_heads': heads, 'intermediate_size': ff,
        'max_position_embeddings': positions, 'type_vocab_size': 2, 'vocab_size': len(vocab),
        'layer_norm_eps': 1e-12, 'hidden_act': 'gelu_new' if variant == 'tanh' else 'gelu',
        'position_embedding_type': 'absolute', '_name_or_path': f'random-bert-{preset}-{variant}',
    }
    (directory / 'config.json').write_text(json.dumps(config, indent=2))
    (directory / 'vocab.txt').write_text(''.join(t + '\n' for t in vocab))
    if cased:
        (directory / 'tokenizer_config.json').write_text(json.dumps({'do_lower_case': False}))
    write_safetensors(directory / 'model.safetensors', tensors)


# ---- the tokenizer (tokenization_bert.py's BasicTokenizer and WordpieceTokenizer) ------------

def is_whitespace(c):
    return c in ' \t\n\r' or unicodedata.category(c) == 'Zs'


def is_control(c):
    return c not in '\t\n\r' and unicodedata.category(c).startswith('C')


def is_punctuation(c):
    cp = ord(c)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(c).startswith('P')


def is_chinese(cp):
    return any(a <= cp <= b for a, b in [(0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF),
                                         (0x2A700, 0x2B73F), (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF),
                                         (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)])


def strip_accents(text):
    return ''.join(c for c in unicodedata.normalize('NFD', text) if unicodedata.category(c) != 'Mn')


def split_on_punctuation(text):
    out, new_word = [], True
    for c in text:
        if is_punctuation(c):
            out.append(c)
            new_word = True
        else:
            if new_word:
                out.append('')
            new_word = False
            out[-1] += c
    return out


def basic_tokenize(text, lower_case, accents, chinese):
    text = ''.join(' ' if is_whitespace(c) else c for c in text
                   if not (ord(c) == 0 or ord(c) == 0xFFFD or is_control(c)))
    if chinese:
        text = ''.join(f' {c} ' if is_chinese(ord(c)) else c for c in text)
    out = []
    for token in text.split():
        if lower_case:
            token = token.lower()
            if accents is not False:
                token = strip_accents(token)
        elif accents:
            token = strip_accents(token)
        out.extend(split_on_punctuation(token))
    return ' '.join(out).split()


def wordpiece(word, vocab):
    if len(word) > 100:
        return ['[UNK]']
    pieces, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            piece = ('##' if start > 0 else '') + word[start:end]
            if piece in vocab:
                found = piece
                break
            end -= 1
        if found is None:
            return ['[UNK]']
        pieces.append(found)
        start = end
    return pieces


class Tokenizer:
    def __init__(self, directory):
        directory = Path(directory)
        lines = (directory / 'vocab.txt').read_text(encoding='utf-8').split('\n')
        if lines and lines[-1] == '':
            lines.pop()
        self.vocab = {t: k for k, t in enumerate(lines)}  # a repeated token: its last line
        self.tokens = lines
        settings = {}
        if (directory / 'tokenizer_config.json').exists():
            settings = json.loads((directory / 'tokenizer_config.json').read_text())
        self.lower_case = settings.get('do_lower_case', True)
        self.accents = settings.get('strip_accents', None)
        self.chinese = settings.get('tokenize_chinese_chars', True)

    def tokenize(self, text):
        """[CLS], each special token as written, the other text's WordPiece pieces, [SEP]."""
        parts, at = [], 0
        while True:
            hits = [(text.find(s, at), s) for s in SPECIALS if text.find(s, at) >= 0]
            if not hits:
                parts.append(text[at:])
                break
            where, special = min(hits)
            parts.append(text[at:where])
            parts.append((special,))
            at = where + len(special)
        out = ['[CLS]']
        for part in parts:
            if isinstance(part, tuple):
                out.append(part[0])
                continue
            for word in basic_tokenize(part, self.lower_case, self.accents, self.chinese):
                out.extend(wordpiece(word, self.vocab))
        out.append('[SEP]')
        return out

    def ids(self, text):
        return [self.vocab[t] for t in self.tokenize(text)]


# ---- BertForMaskedLM in float64 --------------------------------------------------------------

def gelu(x, form):
    if form == 'gelu':
        erf = np.frompyfunc(math.erf, 1, 1)
        return 0.5 * x * (1 + erf(x / math.sqrt(2)).astype(np.float64))
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def layer_norm(x, gain, bias, eps):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gain + bias


class Model:
    def __init__(self, directory):
        directory = Path(directory)
        self.config = json.loads((directory / 'config.json').read_text())
        raw = read_safetensors(directory / 'model.safetensors')
        self.w = {}
        for name, array in raw.items():
            if name.startswith('bert.'):
                name = name[5:]
            if 'LayerNorm' in name:
                name = name.replace('.gamma', '.weight').replace('.beta', '.bias')
            self.w[name] = array
        self.tokenizer = Tokenizer(directory)

    def forward(self, ids):
        c, w = self.config, self.w
        eps, form = c.get('layer_norm_eps', 1e-12), c.get('hidden_act', 'gelu')
        n, h = len(ids), c['num_attention_heads']
        d = c['hidden_size']
        dk = d // h
        x = w['embeddings.word_embeddings.weight'][ids] + w['embeddings.position_embeddings.weight'][:n] \
            + w['embeddings.token_type_embeddings.weight'][0]
        x = layer_norm(x, w['embeddings.LayerNorm.weight'], w['embeddings.LayerNorm.bias'], eps)
        weights = []

        def linear(name, v):
            return v @ w[name + '.weight'].T + w[name + '.bias']

        for l in range(c['num_hidden_layers']):
            at = f'encoder.layer.{l}.'
            q = linear(at + 'attention.self.query', x).reshape(n, h, dk).transpose(1, 0, 2)
            k = linear(at + 'attention.self.key', x).reshape(n, h, dk).transpose(1, 0, 2)
            v = linear(at + 'attention.self.value', x).reshape(n, h, dk).transpose(1, 0, 2)
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(dk)
            scores -= scores.max(axis=-1, keepdims=True)
            p = np.exp(scores)
            p /= p.sum(axis=-1, keepdims=True)
            weights.append(p)
            context = (p @ v).transpose(1, 0, 2).reshape(n, d)
            a = layer_norm(linear(at + 'attention.output.dense', context) + x,
                           w[at + 'attention.output.LayerNorm.weight'], w[at + 'attention.output.LayerNorm.bias'], eps)
            inner = gelu(linear(at + 'intermediate.dense', a), form)
            x = layer_norm(linear(at + 'output.dense', inner) + a,
                           w[at + 'output.LayerNorm.weight'], w[at + 'output.LayerNorm.bias'], eps)
        return x, weights

    def logits(self, rows):
        w = self.w
        eps, form = self.config.get('layer_norm_eps', 1e-12), self.config.get('hidden_act', 'gelu')
        t = gelu(rows @ w['cls.predictions.transform.dense.weight'].T + w['cls.predictions.transform.dense.bias'], form)
        t = layer_norm(t, w['cls.predictions.transform.LayerNorm.weight'], w['cls.predictions.transform.LayerNorm.bias'], eps)
        return t @ w['embeddings.word_embeddings.weight'].T + w['cls.predictions.bias']


def candidates(tokens):
    """Every entry but [PAD], [UNK], [CLS], [SEP], [MASK] and [unused…]: what a [MASK] is ranked among
    when every entry is asked for (a repeated token by its last line)."""
    last = {t: k for k, t in enumerate(tokens)}
    return np.array([k for k, t in enumerate(tokens)
                     if t not in SPECIALS and not (t.startswith('[unused') and t.endswith(']'))
                     and t != '' and last[t] == k])


def run(directory, sentences, top):
    model = Model(directory)
    among = candidates(model.tokenizer.tokens)
    out = []
    for text in sentences:
        tokens = model.tokenizer.tokenize(text)
        ids = [model.tokenizer.vocab[t] for t in tokens]
        hidden, weights = model.forward(ids)
        masks = [k for k, t in enumerate(tokens) if t == '[MASK]']
        guesses = []
        if masks:
            logits = model.logits(hidden[masks])
            logits -= logits.max(axis=-1, keepdims=True)
            probs = np.exp(logits)
            probs /= probs.sum(axis=-1, keepdims=True)
            for row in probs:
                order = among[np.argsort(-row[among], kind='stable')][:top]
                guesses.append([{'token': model.tokenizer.tokens[k], 'probability': float(row[k])} for k in order])
        out.append({'tokens': tokens, 'ids': ids, 'hidden': hidden.tolist(),
                    'weights': [[p.tolist() for p in layer] for layer in weights], 'guesses': guesses})
    return out


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        sys.exit(2)

    def option(name, default):
        return args[args.index(name) + 1] if name in args else default

    command, directory = args[0], args[1]
    if command == 'make':
        make(directory, option('--preset', 'small'), option('--variant', 'plain'), option('--dtype', 'F32'),
             int(option('--seed', '1')))
        return
    sentences = json.loads(sys.stdin.read())
    if command == 'tokenize':
        tokenizer = Tokenizer(directory)
        json.dump([tokenizer.ids(s) for s in sentences], sys.stdout)
    elif command == 'run':
        json.dump(run(directory, sentences, int(option('--top', '10'))), sys.stdout)
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == '__main__':
    main()
