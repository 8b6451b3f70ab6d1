// Token groups: the learner's words (tokens made into one word, as 喜欢 from 喜 and 欢): how a
// word reads, and how words go into a link and come out of one. Which tokens
// make a word, and its attention, are the core's (trace.wordAttention).

/** How tokens from … to read as one word: characters and ##pieces run together, other words apart. */
export function wordText(tokens, from, to) {
  let text = '';
  for (let i = from; i <= to; i += 1) {
    const token = tokens[i];
    const piece = token.startsWith('##');
    const joined = piece || i === from || /^\p{Script=Han}/u.test(token) || /\p{Script=Han}$/u.test(text);
    text += (joined ? '' : ' ') + (piece ? token.slice(2) : token);
  }
  return text;
}

/** The labels of the groups the core made (each word, and every other token alone). */
export const groupLabels = (tokens, groups) => groups.map((g) => wordText(tokens, g.from, g.to));

/** The index of the group (or word) that holds token i among [{ from, to }], or −1. */
export const groupAt = (groups, i) => groups.findIndex((g) => g.from <= i && i <= g.to);

/** Words as a link writes them: "2-3,4-7" (token indices, both included). */
export const wordsParam = (words) => words.map((w) => `${w.from}-${w.to}`).join(',');

/** Words from a link's "2-3,4-7", or null when it is not such a list. */
export function parseWordsParam(text) {
  const parts = text.split(',').filter(Boolean);
  const words = [];
  for (const part of parts) {
    const m = /^(\d{1,4})-(\d{1,4})$/.exec(part.trim());
    if (!m) return null;
    words.push({ from: Number(m[1]), to: Number(m[2]) });
  }
  return words;
}
