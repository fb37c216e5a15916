/**
 * Typo tolerance of `find`, the same for every store engine: a query word that no indexed text
 * contains is compared with the index's vocabulary (the engine supplies the candidate terms and how
 * many skills hold each), and the closest terms are searched too.
 */
import { STOP_WORDS } from './fts-query.js';

/** Query words shorter than this are never corrected (too many short words are one edit apart). */
export const MIN_TYPO_LENGTH = 5;
/** Most corrections searched per misspelt word. */
export const MAX_CORRECTIONS = 2;

/**
 * Edits allowed for a word of this length: 1 from {@link MIN_TYPO_LENGTH} characters, 2 from 8.
 *
 * @param length - characters of the query word
 */
export function maxEdits(length: number): number {
  return length < MIN_TYPO_LENGTH ? 0 : length < 8 ? 1 : 2;
}

/**
 * Whether a query token may be corrected: long enough, Latin letters only (CJK runs and numbers
 * are searched as written), not a stop word.
 */
export function isCorrectable(token: string): boolean {
  return token.length >= MIN_TYPO_LENGTH && /^[a-z]+$/.test(token) && !STOP_WORDS.has(token);
}

/**
 * Damerau–Levenshtein distance (optimal string alignment: insert, delete, substitute, swap two
 * neighbours), or `max + 1` as soon as it must exceed `max`. O(len(a) × len(b)) time on words of at
 * most 64 characters.
 *
 * @example
 * ```ts
 * editDistance('transcirbe', 'transcribe', 2); // 1
 * ```
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, (prev2[j - 2] as number) + 1);
      }
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n] as number;
}

/**
 * The index terms a misspelt word most likely meant: terms within {@link maxEdits} edits of the word
 * or of the word with a common English ending cut (the index holds stems: `survival` is `surviv`;
 * each form allows the edits of its own length),
 * closest first, then the most widespread; at most {@link MAX_CORRECTIONS}.
 *
 * @param token - a query word no indexed text contains ({@link isCorrectable})
 * @param vocabulary - candidate index terms with the number of skills holding each
 * @returns terms to search instead, possibly none
 * @example
 * ```ts
 * corrections('qauntum', [{ term: 'quantum', docs: 12 }]); // ['quantum']
 * ```
 */
export function corrections(token: string, vocabulary: Iterable<{ term: string; docs: number }>): string[] {
  // Each form allows the edits of its own length: a short stem (`noth` of `nothing`) allows none,
  // or every four-letter word one edit away would count.
  const forms = [...new Set([token, stripEnding(token)])]
    .map((form) => ({ form, limit: maxEdits(form.length) }))
    .filter((f) => f.limit > 0);
  if (forms.length === 0) return [];
  const found: Array<{ term: string; docs: number; distance: number }> = [];
  for (const { term, docs } of vocabulary) {
    if (term === token || !/^[a-z]+$/.test(term)) continue;
    let best = Number.POSITIVE_INFINITY;
    for (const { form, limit } of forms) {
      const d = editDistance(form, term, limit);
      if (d <= limit && d < best) best = d;
    }
    if (Number.isFinite(best)) found.push({ term, docs, distance: best });
  }
  found.sort((a, b) => a.distance - b.distance || b.docs - a.docs || (a.term < b.term ? -1 : 1));
  return found.slice(0, MAX_CORRECTIONS).map((f) => f.term);
}

/** English endings a stemmer removes, longest first (only to compare a word with index stems). */
const ENDINGS = [
  'ational',
  'ations',
  'ation',
  'ments',
  'ment',
  'ness',
  'ings',
  'ing',
  'ers',
  'ies',
  'ed',
  'es',
  'er',
  'ly',
  'al',
  'e',
  's',
];

function stripEnding(word: string): string {
  for (const ending of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= 4) return word.slice(0, -ending.length);
  }
  return word;
}
