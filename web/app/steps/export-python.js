// Export → Python: a self-contained script (NumPy only) holding this run's
// numbers for the shown head, its input X and its W_q, W_k, W_v, b_q, b_k, b_v
// as the core computed them, that runs the article's four steps on them and
// prints every stage. A learner runs it and finds the page's numbers again;
// tests/js/export-python.test.mjs runs it with Debian's python3-numpy and
// compares each printed number with the core's. Part of the exports chunk.

// A number exactly as the core's float32 holds it (JavaScript's shortest form of
// that double reads back to the same float); −∞ as NumPy's.
const pyNumber = (v) => (v === -Infinity ? '-np.inf' : String(v));

/** A stage as a NumPy array literal, row by row. */
function pyArray(m) {
  const rows = [];
  for (let i = 0; i < m.rows; i += 1) rows.push(`    [${Array.from(m.data.subarray(i * m.cols, (i + 1) * m.cols), pyNumber).join(', ')}],`);
  return `np.array([\n${rows.join('\n')}\n], dtype=np.float64)`;
}

// Python's string literal for the tokens (JSON's escapes are Python's for these).
const pyString = (text) => JSON.stringify(text);

/** The stages the script prints, in the order it computes them. */
export const PYTHON_STAGES = Object.freeze(['q', 'k', 'v', 'scores', 'scaled', 'masked', 'weights', 'output']);

/** The script for the head `view` shows ({ stage(id), tokens, config, where }); about: a line saying
 *  which run it is (the sentence, the model, the head). */
export function toPython(view, about) {
  const { config } = view;
  const stage = (id) => pyArray(view.stage(id));
  const x = view.stage('x');
  const causal = config.causal
    ? 'masked = np.where(np.triu(np.ones_like(scaled, dtype=bool), k=1), -np.inf, scaled)  # causal: no token sees a later one'
    : 'masked = scaled  # no mask in this run';
  const scaling = config.scale
    ? 'scaled = scores / np.sqrt(d_k)  # scores = scores / math.sqrt(self.d_k)'
    : 'scaled = scores  # this run does not divide by √d_k (the scale switch is off)';
  return `# Attention Lab: one head of softmax(Q·Kᵀ/√d_k)·V, computed again with NumPy.
# ${about.replaceAll('\n', ' ')}
# Run it with: python3 <this file>   (NumPy: pip install numpy, or apt install python3-numpy)
# It prints each stage of the run row by row, to compare with the page.
import numpy as np

tokens = [${view.tokens.map(pyString).join(', ')}]

# The head's input: one row per token (${x.rows} × ${x.cols}).
X = ${pyArray(x)}

# The head's projections (d_model × d_k) and biases (1 × d_k), as the core holds them.
W_q = ${stage('wq')}
W_k = ${stage('wk')}
W_v = ${stage('wv')}
b_q = ${stage('bq')}
b_k = ${stage('bk')}
b_v = ${stage('bv')}
d_k = W_q.shape[1]

# The article's steps. Its PyTorch uses nn.Linear, which computes x @ W.T + b; here each W is stored
# already transposed (d_model × d_k, i.e. nn.Linear's weight.T), so it is X @ W + b. The article's
# single head is 768 wide (d_k = hidden_size); this run's head has d_k columns.
Q = X @ W_q + b_q  # Q = self.W_Q(x)
K = X @ W_k + b_k  # K = self.W_K(x)
V = X @ W_v + b_v  # V = self.W_V(x)
scores = Q @ K.T  # ① scores = torch.matmul(Q, K.transpose(-2, -1))
${scaling}  # ②
${causal}
# ③ attention_weights = torch.softmax(scores, dim=-1), subtracting each row's maximum first, as torch.softmax does inside
e = np.exp(masked - masked.max(axis=1, keepdims=True))
weights = e / e.sum(axis=1, keepdims=True)
output = weights @ V  # ④ output = torch.matmul(attention_weights, V)


def show(name, m):
    print(f"# {name} {m.shape[0]}x{m.shape[1]}")
    for row in m:
        print(" ".join("-inf" if np.isneginf(v) else f"{v:.9g}" for v in row))


for name, m in [${PYTHON_STAGES.map((id) => `("${id}", ${{ q: 'Q', k: 'K', v: 'V' }[id] ?? id})`).join(', ')}]:
    show(name, m)
print("# the weights of every row add up to 1:", np.allclose(weights.sum(axis=1), 1.0))
`;
}
