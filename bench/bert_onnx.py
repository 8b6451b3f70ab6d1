#!/usr/bin/python3
"""Writes a Hugging Face BERT checkpoint's encoder as ONNX, for npm run bench's comparison with
onnxruntime-web (bench/bert.mjs). The graph is BertModel's encoder as modeling_bert.py computes it
(the same math as tests/bert/reference.py, in PyTorch, float32): input ids [1, n] → the last hidden
rows [1, n, hidden], token type 0, no attention mask (one sentence, no padding).

  bert_onnx.py CHECKPOINT_DIR OUT.onnx

Run with Debian's Python (/usr/bin/python3) and python3-torch.
"""
import json
import math
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / 'tests' / 'bert'))
from reference import Model  # noqa: E402  (its weights, names unified)


class Encoder(torch.nn.Module):
    def __init__(self, directory):
        super().__init__()
        model = Model(directory)
        c = model.config
        self.layers, self.heads, self.hidden = c['num_hidden_layers'], c['num_attention_heads'], c['hidden_size']
        self.eps = c.get('layer_norm_eps', 1e-12)
        self.tanh = c.get('hidden_act', 'gelu') != 'gelu'
        for name, array in model.w.items():
            if name.startswith(('embeddings.', 'encoder.')):
                self.register_buffer(name.replace('.', '_'), torch.tensor(array, dtype=torch.float32))

    def w(self, name):
        return getattr(self, name.replace('.', '_'))

    def linear(self, name, x):
        return torch.nn.functional.linear(x, self.w(name + '.weight'), self.w(name + '.bias'))

    def norm(self, name, x):
        return torch.nn.functional.layer_norm(x, (self.hidden,), self.w(name + '.weight'), self.w(name + '.bias'), self.eps)

    def forward(self, ids):
        n = ids.shape[1]
        dk = self.hidden // self.heads
        x = torch.nn.functional.embedding(ids, self.w('embeddings.word_embeddings.weight')) \
            + self.w('embeddings.position_embeddings.weight')[:n] + self.w('embeddings.token_type_embeddings.weight')[0]
        x = self.norm('embeddings.LayerNorm', x)
        for l in range(self.layers):
            at = f'encoder.layer.{l}.'

            def split(t):
                return t.view(1, n, self.heads, dk).transpose(1, 2)

            q = split(self.linear(at + 'attention.self.query', x))
            k = split(self.linear(at + 'attention.self.key', x))
            v = split(self.linear(at + 'attention.self.value', x))
            p = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dk), dim=-1)
            context = (p @ v).transpose(1, 2).reshape(1, n, self.hidden)
            a = self.norm(at + 'attention.output.LayerNorm', self.linear(at + 'attention.output.dense', context) + x)
            inner = self.linear(at + 'intermediate.dense', a)
            inner = torch.nn.functional.gelu(inner, approximate='tanh' if self.tanh else 'none')
            x = self.norm(at + 'output.LayerNorm', self.linear(at + 'output.dense', inner) + a)
        return x


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    encoder = Encoder(sys.argv[1]).eval()
    ids = torch.tensor([[101] + [2000] * 7 + [102]], dtype=torch.int64)
    with torch.no_grad():
        torch.onnx.export(encoder, (ids,), sys.argv[2], input_names=['ids'], output_names=['hidden'],
                          dynamic_axes={'ids': {1: 'n'}, 'hidden': {1: 'n'}}, opset_version=14)
    print(json.dumps({'onnx': sys.argv[2], 'bytes': Path(sys.argv[2]).stat().st_size}))


if __name__ == '__main__':
    main()
