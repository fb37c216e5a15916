/**
 * Turning user text into a safe FTS5 query. Nothing the user types reaches FTS5 syntax: the text is
 * cut into word tokens (letters and digits), each token is double-quoted, and the tokens are joined
 * with `OR` (BM25 already ranks documents that match more terms higher). The last token also matches
 * as a prefix (`"calc"*`), so results appear while a user is still typing.
 */

/** At most this many tokens of a query are used. */
export const MAX_QUERY_TOKENS = 16;
/** Tokens are cut to this many characters. */
export const MAX_TOKEN_LENGTH = 64;
/** The last token is matched as a prefix only from this length on (a one-letter prefix matches everything). */
export const MIN_PREFIX_LENGTH = 2;

/**
 * Splits a query into search tokens: NFKC-normalised, lower-cased runs of letters and digits,
 * de-duplicated in order, at most {@link MAX_QUERY_TOKENS}, each at most {@link MAX_TOKEN_LENGTH}.
 *
 * @param query - raw user text (any characters; FTS operators are just punctuation here)
 * @returns the tokens, possibly empty (`"*"`, `"--"`)
 * @example
 * ```ts
 * tokenizeQuery('"foo OR bar*'); // ['foo', 'or', 'bar']
 * ```
 */
export function tokenizeQuery(query: string): string[] {
  const words =
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const tokens: string[] = [];
  for (const word of words) {
    const token = Array.from(word).slice(0, MAX_TOKEN_LENGTH).join('');
    if (!tokens.includes(token)) tokens.push(token);
    if (tokens.length === MAX_QUERY_TOKENS) break;
  }
  return tokens;
}

/**
 * Builds the FTS5 `MATCH` expression for tokens: `"a" OR "b" OR "c"*`.
 *
 * @param tokens - output of {@link tokenizeQuery}
 * @param options - `prefixLast` (default true): match the last token as a prefix when it has at least
 *   {@link MIN_PREFIX_LENGTH} characters; `column`: restrict to one column (`{name} : (…)`)
 * @returns the expression, or null when there are no tokens (the caller returns no hits)
 * @example
 * ```ts
 * buildMatchExpression(['search', 'we']); // '"search" OR "we"*'
 * ```
 */
export function buildMatchExpression(
  tokens: readonly string[],
  options: { prefixLast?: boolean; column?: string } = {},
): string | null {
  if (tokens.length === 0) return null;
  const prefixLast = options.prefixLast ?? true;
  const terms = tokens.map((token, index) => {
    const quoted = `"${token.replaceAll('"', '""')}"`;
    const isLast = index === tokens.length - 1;
    return isLast && prefixLast && Array.from(token).length >= MIN_PREFIX_LENGTH ? `${quoted}*` : quoted;
  });
  const expression = terms.join(' OR ');
  return options.column === undefined ? expression : `{${options.column}} : (${expression})`;
}
