// The corpus's sources: the packages and what is read of each (the manuals,
// the everyday text, the usage text, the lexicon), and the traditional
// characters the model file aliases. scripts/corpus.mjs downloads and splits them.
import { Converter } from 'opencc-js';
import {
  fortuneToText, ftlValues, htmlToText, mallardParagraphs, messageText, moEntries, qmEntries, rdbStrings, readText, recipeLines,
  stampText, troffToText, wordnetExamples, zhlipsumSection,
} from './corpus-text.mjs';
import { bookParagraphs, wordnetGlosses } from './usage-text.mjs';
import { readZip } from './zip.mjs';

/** The base corpus (manuals, help pages, sayings): what each package gives, its
 *  language, and which files, read how. Its held-out lines are tests/data/heldout/. */
export const PACKAGES = [
  { name: 'fortunes-zh', language: 'zh', files: /games\/fortunes\/(chinese|tang300|song100)$/, read: fortuneToText },
  { name: 'manpages-zh', language: 'zh', files: /man\/zh_CN\/.*\.gz$/, read: troffToText },
  { name: 'debian-reference-zh-cn', language: 'zh', files: /debian-reference\/.*\.zh-cn\.html$/, read: htmlToText },
  { name: 'gimp-help-zh-cn', language: 'zh', files: /help\/zh_CN\/.*\.html$/, read: htmlToText, copyright: 'gimp-help-common' },
  { name: 'libreoffice-help-zh-cn', language: 'zh', files: /help\/zh-CN\/text\/.*\.html$/, read: htmlToText },
  // Its copyright file has no License: field; it grants the GNU-manual-style verbatim copying permission.
  { name: 'debian-faq-zh-cn', language: 'zh', files: /FAQ\/zh-cn\/.*\.html$/, read: htmlToText, licence: 'verbatim and modified copies permitted (the Debian FAQ notice; no License: field)' },
  { name: 'debian-edu-doc-zh-cn', language: 'zh', files: /debian-edu-doc-zh-cn\/.*\.html$/, read: htmlToText },
  { name: 'maint-guide-zh-cn', language: 'zh', files: /maint-guide-zh-cn\/html\/.*\.html$/, read: htmlToText },
  { name: 'kicad-doc-zh', language: 'zh', files: /help\/zh\/.*\.html$/, read: htmlToText },
  // Its copyright file: "This program falls under the BSD copyright", no License: field.
  { name: 'fortunes', language: 'en', files: /games\/fortunes\/[a-z-]+$/, read: fortuneToText, licence: 'BSD (4.4BSD fortune)' },
  { name: 'debian-reference-en', language: 'en', files: /debian-reference\/.*\.en\.html$/, read: htmlToText },
  { name: 'manpages', language: 'en', files: /man\/man\d\/.*\.gz$/, read: troffToText },
];

const WESNOTH = ['data', 'did', 'dm', 'dw', 'ei', 'httt', 'l', 'low', 'nr', 'sof', 'sota', 'sotbe', 'thot', 'trow', 'tsg', 'ttb', 'utbs'];
const gameText = (bytes) => {
  const out = { zh: [], en: [] };
  for (const [id, str] of moEntries(bytes)) {
    const en = messageText(id);
    const zh = messageText(str);
    if (en !== null && zh !== null && str) out.zh.push(zh), out.en.push(en);
  }
  return out;
};
const uiText = (bytes) => {
  const out = { zh: [], en: [] };
  for (const [id, str] of moEntries(bytes)) {
    const en = messageText(id);
    const zh = messageText(str);
    if (zh !== null) out.zh.push(zh);
    if (en !== null && !en.includes('%')) out.en.push(en); // %PRODUCTNAME and the like are not text
  }
  return out;
};

/** GCompris's activities (a .qm of Taiwan Chinese, whose sources are the
 *  English): the English, and the Chinese turned into mainland simplified
 *  (OpenCC's Taiwan-phrases-to-mainland conversion); an untranslated message
 *  (the Chinese the English) gives only the English. The sentence-ordering
 *  activities write a sentence's words between | marks. */
export const activityText = (toSimplified) => (bytes) => {
  const out = { zh: [], en: [] };
  for (const { source, translation } of qmEntries(bytes)) {
    const en = messageText(source.replace(/\|/g, ' '));
    if (en !== null) out.en.push(en);
    const zh = translation && translation !== source ? messageText(translation.replace(/\|/g, '')) : null;
    if (zh !== null) out.zh.push(toSimplified(zh));
  }
  return out;
};

/** The everyday corpus: narrative and dialogue (Wesnoth's Chinese translation
 *  and its English originals), recipes, a short story, short UI phrases and
 *  dictionary example sentences. `extract` limits what is unpacked of a large
 *  package; `read(bytes, file)` gives { zh: [...], en: [...] } paragraphs.
 *  `phrases`: UI strings, trained on but not in the evaluation sets, which
 *  are sentences. */
export const EVERYDAY = [
  ...WESNOTH.map((c) => ({
    name: `wesnoth-1.16-${c}`, extract: '*/locale/zh_CN/*', files: /locale\/zh_CN\/LC_MESSAGES\/wesnoth.*\.mo$/, read: gameText,
    // Its copyright file's License: paragraph is free text: "GNU General Public License version 2 or at your option any later version".
    licence: 'GPL-2+',
  })),
  { name: 'libreoffice-l10n-zh-cn', phrases: true, files: /resource\/zh_CN\/LC_MESSAGES\/.*\.mo$/, read: uiText },
  {
    name: 'firefox-esr-l10n-zh-cn', phrases: true, files: /langpack-zh-CN.*\.xpi$/,
    read: (bytes) => ({ zh: [...readZip(bytes)].filter(([name]) => name.endsWith('.ftl')).flatMap(([, b]) => ftlValues(b.toString('utf8'))) }),
  },
  // Only the zhufu section (鲁迅's 祝福, public domain): the simp and trad sections are random filler.
  {
    name: 'texlive-lang-chinese', extract: '*zhlipsum*', files: /zhlipsum-utf8\.def$/,
    read: (bytes) => ({ zh: zhlipsumSection(bytes.toString('utf8'), 'zhufu') }), licence: '祝福 by 鲁迅 (1924): public domain; the package: LPPL-1.3c',
  },
  { name: 'wordnet-base', files: /wordnet\/data\.(noun|verb|adj|adv)$/, read: (bytes) => ({ en: wordnetExamples(bytes.toString('utf8')) }) },
  // Where everyday English words are used: WordNet's definitions, the office
  // suite's help, Jane Austen's six novels (public domain, janeaustenr's R data). Not in the training lab's text (lab: false).
  {
    name: 'wordnet-base', part: 'glosses', lab: false, files: /wordnet\/data\.(noun|verb|adj|adv)$/,
    read: (bytes) => ({ en: wordnetGlosses(bytes.toString('utf8')) }),
  },
  {
    name: 'libreoffice-help-en-us', lab: false, extract: '*/help/en-US/text/*', files: /help\/en-US\/text\/.*\.html$/,
    read: (bytes, file) => ({ en: htmlToText(readText(bytes, file)).split('\n') }),
  },
  {
    name: 'r-cran-janeaustenr', lab: false, files: /janeaustenr\/data\/Rdata\.rdb$/,
    read: (bytes) => ({ en: bookParagraphs(rdbStrings(bytes)) }),
  },
  { npm: 'howtocook-mcp', version: '0.2.2', files: /all_recipes\.json$/, read: (bytes) => ({ zh: recipeLines(bytes.toString('utf8')) }) },
  // A learner's register: a children's activity suite, the desktop's help,
  // the Harvard test sentences, picture descriptions. Their held-out sentences
  // make the learner-register English set (learner: true).
  {
    name: 'gcompris-qt-data', extract: '*/translations/gcompris_zh_TW.qm', files: /translations\/gcompris_zh_TW\.qm$/, learner: true,
    read: (bytes) => activityText(simplified)(bytes),
  },
  {
    name: 'gnome-user-docs', extract: '*/help/*/gnome-help/*.page', files: /help\/(C|zh_CN)\/gnome-help\/.*\.page$/, learner: true,
    read: (bytes, file) => ({ [file.includes('/zh_CN/') ? 'zh' : 'en']: mallardParagraphs(bytes.toString('utf8')) }),
  },
  // The 720 Harvard sentences (IEEE 1969) as stringr's `sentences` data; its `words` and `fruit` are single words, dropped.
  { name: 'r-cran-stringr', files: /stringr\/data\/Rdata\.rdb$/, learner: true, read: (bytes) => ({ en: rdbStrings(bytes) }) },
  {
    name: 'tuxpaint-stamps-default', extract: '*/stamps/*.txt', files: /stamps\/.*\.txt$/, learner: true,
    read: (bytes) => stampText(bytes.toString('utf8')),
  },
];

/** Lexical knowledge: jieba's dictionary (349,046 words with counts). Its
 *  words of 2 to 4 Han characters counted at least LEXICON_MIN times become
 *  training units of their own, one a paragraph (those counted at least
 *  LEXICON_TWICE times twice, so that a unit's chance follows the word's
 *  frequency in two steps); all its Han words and counts segment the
 *  word-inside evaluation set and feed the lexicon baseline. */
export const LEXICON = { name: 'python3-jieba', extract: '*/jieba/dict.txt', files: /jieba\/dict\.txt$/ };
export const LEXICON_MIN = 50;
export const LEXICON_TWICE = 1000;

/** The lexicon's training units and its Han words: { units, words: Map word → count }. */
export function lexiconUnits(counts) {
  const words = new Map([...counts].filter(([w]) => /^\p{Script=Han}+$/u.test(w)));
  const units = [];
  for (const [word, count] of words) {
    const n = [...word].length;
    if (n < 2 || n > 4 || count < LEXICON_MIN) continue;
    for (let k = count >= LEXICON_TWICE ? 2 : 1; k > 0; k -= 1) units.push(word, '');
  }
  return { units, words };
}

/** OpenCC (npm opencc-js, a devDependency): Taiwan Chinese to mainland
 *  simplified with Taiwan's phrases (GCompris), and the character-level
 *  conversions traditionalAliases() reads. */
const simplified = Converter({ from: 'twp', to: 'cn' });
export const ALIAS_CONVERTERS = Object.freeze({
  twToCn: Converter({ from: 'tw', to: 'cn' }), hkToCn: Converter({ from: 'hk', to: 'cn' }), cnToTw: Converter({ from: 'cn', to: 'tw' }),
});

/** Traditional characters as aliases of simplified ones, for the model file
 *  (the core's Vocabulary): "typed\tsimplified" lines. Every CJK character
 *  OpenCC's character-level Taiwan or Hong Kong conversion to mainland turns
 *  into one other character; for each simplified character its Taiwan form
 *  (cn → tw) first, the form guesses are shown in. */
export function traditionalAliases({ twToCn, hkToCn, cnToTw }) {
  const bySimplified = new Map();
  const add = (typed, simple) => {
    if (typed === simple || [...simple].length !== 1) return;
    if (!bySimplified.has(simple)) bySimplified.set(simple, new Set());
    bySimplified.get(simple).add(typed);
  };
  for (const [from, to] of [[0x3400, 0x4dbf], [0x4e00, 0x9fff]]) {
    for (let c = from; c <= to; c += 1) {
      const typed = String.fromCodePoint(c);
      add(typed, twToCn(typed));
      add(typed, hkToCn(typed));
    }
  }
  const lines = [];
  for (const [simple, typed] of bySimplified) {
    const shown = cnToTw(simple);
    const ordered = typed.has(shown) ? [shown, ...[...typed].filter((t) => t !== shown)] : [...typed];
    for (const t of ordered) lines.push(`${t}\t${simple}`);
  }
  return lines;
}
