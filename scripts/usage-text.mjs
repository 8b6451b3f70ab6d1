// Readers of the usage text and the word lists (scripts/corpus-sources.mjs):
// WordNet's glosses and lemmas, a book kept as an R character vector.

/** WordNet's glosses: each synset's definitions (the gloss before its quoted
 *  examples, split at semicolons), as sentences that use everyday words. */
export function wordnetGlosses(data) {
  const out = [];
  for (const line of data.split('\n')) {
    const bar = line.indexOf(' | ');
    if (line.startsWith('  ') || bar < 0) continue; // the licence header
    for (const part of line.slice(bar + 3).split(';')) {
      const gloss = part.trim();
      if (gloss && !gloss.includes('"')) out.push(gloss);
    }
  }
  return out;
}

/** WordNet's lemmas with their sense-tagged counts (an index file's lines:
 *  lemma pos synset_cnt p_cnt [ptr_symbol]×p_cnt sense_cnt tagsense_cnt …):
 *  [lemma with spaces, 1 + tagsense_cnt] pairs; multi-word lemmas ("cup of
 *  tea") are the list's collocations. */
export function wordnetLemmas(index) {
  const out = [];
  for (const line of index.split('\n')) {
    if (line.startsWith('  ') || !line.trim()) continue; // the licence header
    const fields = line.trim().split(' ');
    const pointers = Number(fields[3]);
    const tagged = Number(fields[4 + pointers + 1]);
    if (Number.isFinite(tagged)) out.push([fields[0].replace(/_/g, ' ').toLowerCase(), 1 + tagged]);
  }
  return out;
}

/** A book kept as an R character vector of its lines (janeaustenr's data):
 *  its paragraphs, the lines between empty ones joined; _italics_ marks dropped. */
export function bookParagraphs(lines) {
  const out = [];
  let paragraph = [];
  for (const line of [...lines, '']) {
    if (line.trim()) paragraph.push(line.trim());
    else if (paragraph.length) out.push(paragraph.join(' ').replace(/_/g, '')), (paragraph = []);
  }
  return out;
}
