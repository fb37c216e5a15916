import { cjkMatchTerm, isCjkToken, splitCjkRuns } from './cjk-segment.js';

/**
 * Turning user text into a safe FTS5 query. Nothing the user types reaches FTS5 syntax: the text is
 * cut into word tokens (letters and digits), each token is double-quoted, and the tokens are joined
 * with `OR` (BM25 already ranks documents that match more terms higher). The last token also matches
 * as a prefix (`"calc"*`), so results appear while a user is still typing. Runs of Chinese, Japanese
 * or Korean letters are separate tokens searched as the phrase of their bigrams (see `cjk-segment.ts`).
 */

/** At most this many tokens of a query are used. */
export const MAX_QUERY_TOKENS = 16;
/** Tokens are cut to this many characters. */
export const MAX_TOKEN_LENGTH = 64;
/**
 * The last token is matched as a prefix only from this length on: shorter prefixes match most of the
 * vocabulary and cost more than they help.
 */
export const MIN_PREFIX_LENGTH = 3;

/**
 * English function words dropped from a query that has other words: they occur in nearly every skill,
 * so BM25 gives them almost no weight, yet they make the index read most of its postings.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for from has have how i if in into is it its of on or so than that the ' +
    'their then there these this to was we what when where which who will with you your'
  ).split(' '),
);

/** True when every token is a stop word (the query is only function words, e.g. `the`). */
export function onlyStopWords(tokens: readonly string[]): boolean {
  return tokens.length > 0 && tokens.every((token) => STOP_WORDS.has(token));
}

/** A CJK run longer than this many characters is also searched word by word (see {@link segmentCjkWords}). */
export const MAX_CJK_PHRASE = 4;

const SEGMENTERS = new Map<string, Intl.Segmenter>();

/** Longest piece of a CJK run handed to the word segmenter at once, in characters (code points). */
const SEGMENT_WINDOW = 1024;

/**
 * Most CJK characters of one query split into words by {@link tokenizeQuery} (word segmentation costs
 * ~2 µs a character; a sentence-long need is a few hundred). Runs past this budget still count as
 * whole-run tokens; only their words are not added.
 */
export const MAX_SEGMENTED_QUERY_CHARS = 4096;

/**
 * The words of a run of Chinese, Japanese or Korean letters, by the ICU word segmenter built into
 * Node (`Intl.Segmenter`, locale `ja` when the run has kana, `ko` for hangul, else `zh`); words of
 * one character (particles, measure words) are left out.
 *
 * @param run - a CJK run (from `splitCjkRuns`)
 * @returns its words of two or more characters, in order, without repeats
 * @example
 * ```ts
 * segmentCjkWords('从报名的人里随机抽取三个幸运中奖者'); // ['报名', '随机', '抽取', '幸运', '中奖']
 * ```
 */
export function segmentCjkWords(run: string): string[] {
  const locale = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(run)
    ? 'ja'
    : /\p{Script=Hangul}/u.test(run)
      ? 'ko'
      : 'zh';
  let segmenter = SEGMENTERS.get(locale);
  if (segmenter === undefined) {
    segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    SEGMENTERS.set(locale, segmenter);
  }
  // A Set keeps the words unique in linear time (a run may be as long as the query). ICU's word
  // segmenter costs more than linear time on one long unbroken run (64 Ki CJK characters: ~7 s; 256 Ki:
  // minutes), so a run is segmented in windows of SEGMENT_WINDOW characters (a word may be cut at a
  // window's edge; no real query has an unbroken run that long).
  const words = new Set<string>();
  const chars = Array.from(run);
  for (let start = 0; start < chars.length; start += SEGMENT_WINDOW) {
    const window = chars.length <= SEGMENT_WINDOW ? run : chars.slice(start, start + SEGMENT_WINDOW).join('');
    for (const { segment, isWordLike } of segmenter.segment(window)) {
      if (isWordLike && Array.from(segment).length >= 2) words.add(segment);
    }
  }
  return [...words];
}

/**
 * Splits a query into search tokens: NFKC-normalised, lower-cased runs of letters and digits, a
 * run of CJK letters split from adjacent other letters (`小红书mcp` → `小红书`, `mcp`) and, when
 * longer than {@link MAX_CJK_PHRASE} characters, followed by its words ({@link segmentCjkWords}; of
 * the first {@link MAX_SEGMENTED_QUERY_CHARS} CJK characters of the query),
 * de-duplicated in order, {@link STOP_WORDS} removed unless nothing else is left, at most
 * {@link MAX_QUERY_TOKENS}, each at most {@link MAX_TOKEN_LENGTH}.
 *
 * @param query - raw user text (any characters; FTS operators are just punctuation here)
 * @returns the tokens, possibly empty (`"*"`, `"--"`)
 * @example
 * ```ts
 * tokenizeQuery('"foo OR bar*'); // ['foo', 'bar'] ("or" is a stop word)
 * ```
 */
export function tokenizeQuery(query: string): string[] {
  // The words are read one at a time (`matchAll` is lazy), so a query of megabytes of words makes no
  // array of them: its first words decide the tokens. A Set keeps the tokens unique, in first-seen
  // order, in linear time (Array.includes here cost minutes of CPU on a query of distinct words).
  // Reading stops once MAX_QUERY_TOKENS content tokens are known: the result cannot change after that.
  const words = query
    .normalize('NFKC')
    .toLowerCase()
    .matchAll(/[\p{L}\p{N}]+/gu);
  const unique = new Set<string>();
  let content = 0;
  let segmentBudget = MAX_SEGMENTED_QUERY_CHARS;
  const add = (part: string): void => {
    // 2n+1 UTF-16 code units hold at least n whole code points: only those are split up.
    const head = part.length > 2 * MAX_TOKEN_LENGTH + 1 ? part.slice(0, 2 * MAX_TOKEN_LENGTH + 1) : part;
    const token = Array.from(head).slice(0, MAX_TOKEN_LENGTH).join('');
    if (unique.has(token)) return;
    unique.add(token);
    if (!STOP_WORDS.has(token)) content++;
  };
  reading: for (const [word] of words) {
    for (const part of splitCjkRuns(word)) {
      add(part);
      if (content >= MAX_QUERY_TOKENS) break reading;
      // A sentence in Chinese or Japanese has no spaces: besides the whole run (an exact phrase),
      // search its words, so a need written as a sentence finds texts that use some of them.
      if (isCjkToken(part) && segmentBudget > 0) {
        const head = part.length > 2 * segmentBudget + 2 ? part.slice(0, 2 * segmentBudget + 2) : part;
        const chars = Array.from(head);
        if (chars.length <= MAX_CJK_PHRASE) continue;
        const run = chars.length <= segmentBudget ? part : chars.slice(0, segmentBudget).join('');
        segmentBudget -= Math.min(chars.length, segmentBudget);
        for (const segment of segmentCjkWords(run)) {
          add(segment);
          if (content >= MAX_QUERY_TOKENS) break reading;
        }
      }
    }
  }
  const tokens = [...unique];
  const contentTokens = tokens.filter((token) => !STOP_WORDS.has(token));
  return (contentTokens.length > 0 ? contentTokens : tokens).slice(0, MAX_QUERY_TOKENS);
}

/**
 * Builds the FTS5 `MATCH` expression for tokens: `"a" OR "b" OR "c"*`. A CJK token is the phrase of
 * its bigrams (`"小红 红书"`), or a prefix when it is one character (`"书"*`), wherever it stands.
 *
 * @param tokens - output of {@link tokenizeQuery}
 * @param options - `prefixLast` (default true): match the last token as a prefix when it has at least
 *   {@link MIN_PREFIX_LENGTH} characters; `columns`: restrict to those columns (`{name tags} : (…)`)
 * @returns the expression, or null when there are no tokens (the caller returns no hits)
 * @example
 * ```ts
 * buildMatchExpression(['search', 'web']); // '"search" OR "web"*'
 * buildMatchExpression(['小红书', 'mcp']); // '"小红 红书" OR "mcp"*'
 * ```
 */
export function buildMatchExpression(
  tokens: readonly string[],
  options: { prefixLast?: boolean; columns?: readonly string[] } = {},
): string | null {
  if (tokens.length === 0) return null;
  const prefixLast = options.prefixLast ?? true;
  const terms = tokens.map((token, index) => {
    if (isCjkToken(token)) return cjkMatchTerm(token);
    const quoted = `"${token.replaceAll('"', '""')}"`;
    const isLast = index === tokens.length - 1;
    const prefix =
      isLast && prefixLast && Array.from(token).length >= MIN_PREFIX_LENGTH && !STOP_WORDS.has(token);
    return prefix ? `${quoted}*` : quoted;
  });
  const expression = terms.join(' OR ');
  return options.columns === undefined ? expression : `{${options.columns.join(' ')}} : (${expression})`;
}
