import { hasCjk, isCjkToken, spaceOutCjk } from './cjk-segment.js';
import { SEARCH_FIELDS, type SearchField } from './score.js';
import type { SearchDocument } from './search-document.js';

/** Suffixes folded before comparing words, longest first; a rough stand-in for the index's Porter stemmer. */
const SUFFIXES = [
  'ational',
  'ations',
  'ation',
  'ators',
  'ments',
  'ator',
  'ings',
  'ions',
  'ment',
  'ness',
  'ing',
  'ion',
  'ers',
  'ies',
  'ate',
  'er',
  'es',
  'ed',
  'ly',
  'al',
  's',
];

const ASCII = /^[\x00-\x7f]*$/;
/** Code units of characters that NFKC can turn into CJK letters (see `containsRun`). */
const NFKC_CJK = /[\u1100-\u11ff\uf900-\ufaff\uff66-\uffdc\ud87e]/;

/** Folds text the way the index tokenizer does: NFKD, combining marks removed, lower case. */
function fold(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Strips one known suffix, keeping at least 3 characters. */
export function stripSuffix(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;
const WORD_AT = /[\p{L}\p{N}]*/uy;

/**
 * True when the character before `at` is a letter or digit, read as a whole code point: a letter
 * outside the BMP (`𝐀`) is two code units, and its second half alone is no letter. Testing that half
 * took every occurrence after such a letter for the start of a word, which was then read to its end:
 * a description of `ab𝐀` repeated (16 KB) held a find that matched the skill for ~0.4 s, 128 KB 24 s.
 */
function wordCharBefore(text: string, at: number): boolean {
  if (at === 0) return false;
  const code = text.charCodeAt(at - 1);
  const pair = code >= 0xdc00 && code <= 0xdfff && at >= 2 && (text.charCodeAt(at - 2) & 0xfc00) === 0xd800;
  return WORD_CHAR.test(pair ? text.slice(at - 2, at) : text[at - 1]!);
}

/** True when `text` (folded) has a word starting at an occurrence of `start` that satisfies `accept`. */
function hasWord(text: string, start: string, accept: (word: string) => boolean): boolean {
  if (start === '') return false;
  for (let at = text.indexOf(start); at !== -1; at = text.indexOf(start, at + 1)) {
    if (wordCharBefore(text, at)) continue;
    WORD_AT.lastIndex = at;
    const word = WORD_AT.exec(text)?.[0] ?? '';
    if (accept(word)) return true;
  }
  return false;
}

/** True when `text` contains one of the CJK runs, as written or after NFKC (as the index sees it). */
function containsRun(text: string, runs: readonly string[]): boolean {
  if (runs.length === 0 || ASCII.test(text)) return false;
  if (runs.some((run) => text.includes(run))) return true;
  // Only half-width kana, compatibility ideographs and conjoining jamo change under NFKC into CJK letters.
  if (!NFKC_CJK.test(text)) return false;
  const normalised = text.normalize('NFKC');
  return runs.some((run) => normalised.includes(run));
}

/**
 * Which fields of a document contain a query token, for `matchedFields`. Computed in JavaScript on
 * the few hits returned (asking FTS5 per field costs a full index read per field and hit). Words are
 * compared after the same folding as the index (case, diacritics) and a light suffix strip that
 * approximates its Porter stemming; the last token also matches as a prefix when `prefixLast`.
 * A CJK token (a run of ideographs, kana or hangul) matches where the field contains the run, after
 * NFKC as in the index (the index finds exactly those texts: the phrase of the run's bigrams).
 *
 * @param doc - the indexed text of the hit
 * @param tokens - query tokens (from `tokenizeQuery`)
 * @param prefixLast - whether the last token was searched as a prefix
 * @param fields - the fields that were searched (default: all)
 * @param corrected - index terms searched for misspelt words (typo corrections); a word starting with
 *   one matches
 * @returns matched fields in index order (possibly empty when the match came only from stemming
 *   this approximation does not reproduce)
 */
export function matchFields(
  doc: SearchDocument,
  tokens: readonly string[],
  prefixLast: boolean,
  fields: readonly SearchField[] = SEARCH_FIELDS,
  corrected: readonly string[] = [],
): SearchField[] {
  const cjk = tokens.filter(isCjkToken);
  const words = cjk.length === 0 ? tokens : tokens.filter((token) => !isCjkToken(token));
  const stems = words.map((token) => stripSuffix(fold(token)));
  const last = tokens[tokens.length - 1] ?? '';
  const prefix = prefixLast && !isCjkToken(last) ? fold(last) : undefined;
  const found = (text: string): boolean =>
    (prefix !== undefined && hasWord(text, prefix, () => true)) ||
    corrected.some((term) => hasWord(text, term, () => true)) ||
    stems.some((stem) => hasWord(text, stem, (word) => stripSuffix(word) === stem));
  return fields.filter((field) => {
    const raw = doc[field];
    if (containsRun(raw, cjk)) return true;
    if (stems.length === 0 && prefix === undefined && corrected.length === 0) return false;
    // Lower-casing is enough unless the text has non-ASCII letters that fold (é → e); only then
    // pay for NFKD over the whole field, and only when the cheap pass found nothing. Words touching
    // CJK letters (`小红书MCP`) are separate words in the index, so that pass sets CJK runs apart.
    if (found(raw.toLowerCase())) return true;
    return !ASCII.test(raw) && found(fold(hasCjk(raw) ? spaceOutCjk(raw) : raw));
  });
}
