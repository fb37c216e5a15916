/**
 * Ranking constants and the score normalisation of `find`.
 *
 * Raw relevance is FTS5's BM25 (negated, so higher is better) with per-field weights, plus a fixed
 * boost when the query *is* the skill's name. BM25 is unbounded and depends on the corpus, so the
 * score shown to clients is `s / (s + k)`: 0 for no relevance, approaching 1 for very strong
 * matches, and strictly increasing in `s` — ordering by score is ordering by relevance, and a
 * `score_threshold` means the same thing whatever else the query returns (unlike dividing by the best
 * hit, which would make every query's top hit 1).
 */

/**
 * BM25 weights of the indexed fields, in index column order. The body weighs least: it is long and
 * full of words every skill uses, so with a heavier body, long skills that happen to contain many
 * of a query's words outranked the skill whose name and description say what the need is (on the
 * relevance set of `pnpm bench search`, body weight 1 → 0.25 raised recall@3 of paraphrased needs
 * from 0.68 to 0.81).
 */
export const FIELD_WEIGHTS = {
  name: 10,
  tags: 5,
  description: 3,
  overview: 1.5,
  body: 0.25,
} as const;

/** The indexed fields, in index column order (also the order of `matchedFields`). */
export const SEARCH_FIELDS = ['name', 'tags', 'description', 'overview', 'body'] as const;

/** A searchable field. */
export type SearchField = (typeof SEARCH_FIELDS)[number];

/**
 * Added to the raw relevance of a skill whose name equals the query (case-insensitively, or the
 * query's kebab-case form): an exact name hit outranks any lexical hit of comparable strength, and
 * its score is at least `NAME_MATCH_BOOST / (NAME_MATCH_BOOST + SCORE_HALF_POINT)` (≈ 0.89).
 */
export const NAME_MATCH_BOOST = 40;

/**
 * Added to the raw relevance of every lexical match. FTS5 clamps the IDF of a term found in more
 * than half of the documents to ~0, so in a small registry a real match could otherwise score 0;
 * with the floor every match scores at least `0.5 / (0.5 + SCORE_HALF_POINT)` (≈ 0.09). A constant
 * shift keeps the order.
 */
export const LEXICAL_MATCH_FLOOR = 0.5;

/** The raw relevance that maps to a score of 0.5 (typical strong multi-field hits reach 3–10). */
export const SCORE_HALF_POINT = 5;

/**
 * Maps raw relevance to [0, 1): `s / (s + SCORE_HALF_POINT)`, 0 for `s <= 0`.
 *
 * @param raw - negated BM25 plus boosts (≥ 0 for a match)
 * @returns the score, rounded to 6 decimals (rounding keeps ties equal, never reorders)
 * @example
 * ```ts
 * normaliseScore(5); // 0.5
 * ```
 */
export function normaliseScore(raw: number): number {
  if (!(raw > 0)) return 0;
  return Math.round((raw / (raw + SCORE_HALF_POINT)) * 1e6) / 1e6;
}
