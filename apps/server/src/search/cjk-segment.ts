import { buildSearchDocument, type SearchDocument } from './search-document.js';

/**
 * Chinese, Japanese and Korean text for the search index.
 *
 * FTS5's `unicode61` tokenizer cuts words at spaces and punctuation only, so an unbroken run of
 * ideographs, kana or hangul (`检查小红书登录状态`) is ONE token and only the whole run could match.
 * Both the indexed text and the query are therefore segmented here, before FTS5 sees them: each CJK
 * run becomes its overlapping bigrams (`检查 查小 小红 … 状态`) followed by its last character
 * (`态`); a run of one character is that character. A query run of n ≥ 2 characters is searched as
 * the phrase of its bigrams (consecutive positions, so it matches exactly the texts that contain the
 * run), a query of one character as a prefix (`"书"*`: bigrams starting with it plus the trailing
 * unigrams, so every position of every run is reachable).
 *
 * Why bigrams in the existing table rather than a second FTS5 table with the `trigram` tokenizer:
 * trigrams cannot match one- or two-character queries (common in Chinese: `登录`, `书`), a second table
 * would need its own BM25 that cannot be merged with the weighted five-column ranking, and a trigram
 * index of every body (Latin text included) is several times the size of the word index. Bigrams keep
 * one index, one ranking, one query; non-CJK text passes through unchanged, so its tokens stay as
 * they were. The cost: a CJK run of n characters indexes n tokens instead of 1.
 */

/**
 * One CJK letter: a letter or digit of the Han, Hiragana, Katakana or Hangul scripts, or a kana
 * length/voicing mark (`ー`, half-width `ｰ ﾞ ﾟ`, whose script is "Common"). Non-letters of those
 * scripts (e.g. Kangxi radicals, circled katakana) are not token characters for `unicode61` and stay
 * outside runs.
 */
const CJK_CHAR =
  '(?:(?=[\\p{L}\\p{N}])[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}]|[\\u30FC\\uFF70\\uFF9E\\uFF9F])';

const CJK_RUN = new RegExp(`${CJK_CHAR}+`, 'gu');
const HAS_CJK = new RegExp(CJK_CHAR, 'u');
const ALL_CJK = new RegExp(`^${CJK_CHAR}+$`, 'u');
const ASCII = /^[\x00-\x7f]*$/;
/**
 * Cheap pre-check by UTF-16 code unit (no `u` flag; supplementary planes by their high surrogate): a
 * superset of {@link CJK_CHAR}'s blocks. The exact test with script properties costs ~1 ms on a
 * 90 KB English body with one non-ASCII character; this one a few microseconds.
 */
const MAYBE_CJK =
  /[\u1100-\u11ff\u3005-\u3007\u3021-\u3029\u3031-\u303b\u3040-\u30ff\u3131-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uffdc\ud81b\ud82c\ud840-\ud8bf]/;

/** True when `text` contains at least one CJK letter (see {@link splitCjkRuns}). */
export function hasCjk(text: string): boolean {
  return !ASCII.test(text) && MAYBE_CJK.test(text) && HAS_CJK.test(text);
}

/** True when a query token is a CJK run (as produced by {@link splitCjkRuns}). */
export function isCjkToken(token: string): boolean {
  return ALL_CJK.test(token);
}

/**
 * Splits a word into its CJK runs and the rest, in order: `小红书mcp` → `['小红书', 'mcp']`. CJK runs are
 * NFKC-normalised (half-width katakana → full width), as the index stores them.
 *
 * @param word - a run of letters and digits (from the query tokenizer)
 * @returns the parts, non-empty, in order; `[word]` when it has no CJK letter
 */
export function splitCjkRuns(word: string): string[] {
  if (!hasCjk(word)) return [word];
  const parts: string[] = [];
  let last = 0;
  for (const match of word.matchAll(CJK_RUN)) {
    if (match.index > last) parts.push(word.slice(last, match.index));
    parts.push(match[0].normalize('NFKC'));
    last = match.index + match[0].length;
  }
  if (last < word.length) parts.push(word.slice(last));
  return parts;
}

/** The index tokens of one CJK run: overlapping bigrams then the last character; one character alone. */
function runTokens(run: string): string[] {
  const chars = Array.from(run.normalize('NFKC'));
  if (chars.length <= 1) return chars;
  const tokens: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) tokens.push(`${chars[i]}${chars[i + 1]}`);
  tokens.push(chars[chars.length - 1] ?? '');
  return tokens;
}

/**
 * Rewrites text for the index: every CJK run is replaced by its tokens (bigrams, then the last
 * character), set off by spaces; everything else is returned byte for byte.
 *
 * @param text - field text as stored
 * @returns the text handed to FTS5 (the same string when it has no CJK letter)
 * @example
 * ```ts
 * segmentForIndex('检查小红书登录'); // ' 检查 查小 小红 红书 书登 登录 录 '
 * segmentForIndex('AI视频'); // 'AI 视频 频 '
 * ```
 */
export function segmentForIndex(text: string): string {
  if (!hasCjk(text)) return text;
  return text.replace(CJK_RUN, (run) => ` ${runTokens(run).join(' ')} `);
}

/**
 * Sets every CJK run of `text` off with spaces, leaving it as it is (`小红书MCP` → ` 小红书 MCP`), so
 * word matching in JavaScript sees the same word boundaries as the index.
 *
 * @param text - any text
 * @returns the text with a space before and after each CJK run
 */
export function spaceOutCjk(text: string): string {
  return text.replace(CJK_RUN, ' $& ');
}

/**
 * The FTS5 term for one CJK query token: the quoted phrase of its bigrams for n ≥ 2 characters
 * (matches texts containing the whole run), a quoted prefix for one character.
 *
 * @param token - a CJK run from {@link splitCjkRuns}
 * @returns an FTS5 phrase (`"小红 红书"`) or prefix term (`"书"*`); CJK letters need no escaping
 */
export function cjkMatchTerm(token: string): string {
  const chars = Array.from(token);
  if (chars.length <= 1) return `"${token}"*`;
  const bigrams: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) bigrams.push(`${chars[i]}${chars[i + 1]}`);
  return `"${bigrams.join(' ')}"`;
}

/**
 * Applies {@link segmentForIndex} to every field of a search document (what is written to FTS5).
 *
 * @param doc - output of `buildSearchDocument`
 * @returns a new document with segmented fields
 */
export function segmentSearchDocument(doc: SearchDocument): SearchDocument {
  return {
    name: segmentForIndex(doc.name),
    tags: segmentForIndex(doc.tags),
    description: segmentForIndex(doc.description),
    overview: segmentForIndex(doc.overview),
    body: segmentForIndex(doc.body),
  };
}

/**
 * The document FTS5 indexes for a stored skill row: {@link buildSearchDocument} of its text columns
 * (`tags` as stored, a JSON array of strings), segmented by {@link segmentSearchDocument}. Written
 * rows, the index rebuild and the per-term lists all build it this way, so they index the same text.
 */
export function indexedSearchDocument(row: {
  name: string;
  tags: string;
  description: string;
  overview: string | null;
  body: string;
}): SearchDocument {
  return segmentSearchDocument(
    buildSearchDocument({
      name: row.name,
      tags: JSON.parse(row.tags) as string[],
      description: row.description,
      overview: row.overview,
      body: row.body,
    }),
  );
}
