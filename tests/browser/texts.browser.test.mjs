// Every text of the page, in one committed snapshot (docs/texts/, written by
// `npm run texts`): this test writes it again from the built page and fails
// when the committed one is stale, so every change of wording shows in a diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEXTS_DIR, collectTexts } from '../../scripts/texts.mjs';

test('docs/texts is what the page shows now (npm run texts writes it)', { timeout: 600_000 }, async () => {
  const texts = await collectTexts();
  for (const [lang, text] of Object.entries(texts)) {
    const committed = await readFile(join(TEXTS_DIR, `${lang}.md`), 'utf8').catch(() => '');
    if (committed === text) continue;
    // The first line that differs, to say where.
    const a = committed.split('\n');
    const b = text.split('\n');
    const at = b.findIndex((line, k) => line !== a[k]);
    assert.fail(`docs/texts/${lang}.md is stale (run npm run texts): line ${at + 1}\n  committed: ${a[at] ?? '(none)'}\n  page:      ${b[at] ?? '(none)'}`);
  }
  // The snapshot holds what the page's words promise: every step, card, experiment, exercise and message.
  const en = texts.en;
  for (const part of ['### Steps', '### Why? experiments', '### The tour', '### Your turn', '### Guess the hidden token', '### Messages', '## Every template']) {
    assert.ok(en.includes(part), `the snapshot has ${part}`);
  }
  assert.doesNotMatch(Object.values(texts).join('\n'), /⟦/, 'no key is missing in any language');
});
