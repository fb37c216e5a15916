/**
 * The semantic relevance of skills to a query, the same for every store engine: each engine hands
 * over the stored vectors of the caller's skills, this module scores them.
 *
 * Raw cosine similarity is not comparable across models (unrelated texts score ~0.1 with some
 * models and ~0.7 with others), so each skill's similarity is measured against the query's own
 * similarity to everything else in scope: `z = (cos − mean) / std` over the caller's other skills
 * (leave-one-out, with {@link PRIOR_WEIGHT} pseudo-skills of similarity 0 ± {@link PRIOR_STD} mixed
 * in, so a registry of a handful of skills is scored sensibly too). An unrelated skill sits near z = 0,
 * and among n unrelated skills the closest one stands out by chance by about `√(2 ln n)` deviations
 * (the expected maximum of n normal draws: 2.2 for 12 skills, 3.9 for 2,000, 4.3 for 10,000). Only a
 * skill that stands out by more than that chance level (at least {@link SEMANTIC_Z_FLOOR}) gets
 * relevance, on the lexical (BM25) scale: `(z − floor) × SEMANTIC_SCALE`. A skill 2 deviations above
 * the chance level scores like a solid lexical hit (raw 5 → score 0.5).
 */

/** The least number of deviations above the crowd from which a skill counts as related. */
export const SEMANTIC_Z_FLOOR = 2;
/**
 * The least z-score from which the meaning of a skill that also matched words of the query counts
 * (the one-sided 2.3 % tail of a normal distribution). On the relevance set of `pnpm bench search`
 * with the bundled local model, re-ranking the lexical candidates this way raised paraphrase
 * recall@3 from 0.81 to 0.86, while meaning alone (semantic-only hits) added nothing there.
 */
export const SEMANTIC_AGREEMENT_Z = 2;
/** Raw relevance per deviation above the floor (BM25 scale, see `score.ts`). */
export const SEMANTIC_SCALE = 2.5;
/** Pseudo-skills of similarity 0 and spread {@link PRIOR_STD} mixed into the statistics. */
export const PRIOR_WEIGHT = 5;
/** The spread assumed by the prior (typical cosine spread of unrelated texts). */
export const PRIOR_STD = 0.15;

/** One stored vector of the caller's scope. */
export interface ScopedVector<K> {
  key: K;
  name: string;
  rootUri: string;
  vector: Float32Array;
}

/** A semantic candidate: the skill and its semantic relevance (> 0). */
export interface SemanticMatch<K> {
  key: K;
  name: string;
  rootUri: string;
  /** Semantic relevance on the lexical raw scale (> 0). */
  semantic: number;
  /** Cosine similarity to the query. */
  cosine: number;
}

/** Options of {@link semanticMatches}. */
export interface SemanticMatchOptions<K> {
  /** Keys of the skills that matched words of the query (their meaning counts from {@link SEMANTIC_AGREEMENT_Z}). */
  lexicalKeys?: ReadonlySet<K>;
  /** The model's calibration for skills found by meaning alone (`SemanticQuery.semanticOnlyMinZ`). */
  semanticOnlyMinZ?: number;
}

/**
 * Scores stored vectors against the query vector: every lexical candidate whose meaning agrees
 * (z above {@link SEMANTIC_AGREEMENT_Z}), plus the best `limit` skills that stand out by meaning
 * alone (z above the chance level or the model's calibration).
 *
 * @param query - the query's unit-length vector
 * @param vectors - unit-length vectors of the caller's skills (same model and dimension as `query`;
 *   others are skipped)
 * @param limit - most skills returned for their meaning alone
 * @param options - the lexical candidates' keys and the model's calibration
 * @returns matches with relevance > 0, best first
 * @example
 * ```ts
 * semanticMatches(q, cache.inScope(account, roots, model), 40, { lexicalKeys });
 * ```
 */
export function semanticMatches<K>(
  query: Float32Array,
  vectors: Iterable<ScopedVector<K>>,
  limit: number,
  options: SemanticMatchOptions<K> = {},
): Array<SemanticMatch<K>> {
  const max = Math.max(0, Math.floor(limit));
  const lexical = options.lexicalKeys;
  if (max === 0 && (lexical === undefined || lexical.size === 0)) return [];
  // Parallel arrays, not an object per vector: a find at 100,000 skills scores 100,000 vectors.
  const entries: Array<ScopedVector<K>> = [];
  const cosines: number[] = [];
  let sum = 0;
  let sumSquares = 0;
  const dim = query.length;
  for (const entry of vectors) {
    const v = entry.vector;
    if (v.length !== dim) continue;
    let dot = 0;
    for (let i = 0; i < dim; i++) dot += (query[i] as number) * (v[i] as number);
    entries.push(entry);
    cosines.push(dot);
    sum += dot;
    sumSquares += dot * dot;
  }
  const n = entries.length;
  if (n === 0) return [];
  const floor = Math.max(SEMANTIC_Z_FLOOR, Math.sqrt(2 * Math.log(n)), options.semanticOnlyMinZ ?? 0);
  const agreeing: Array<SemanticMatch<K>> = [];
  const out: Array<SemanticMatch<K>> = [];
  for (let k = 0; k < n; k++) {
    const entry = entries[k] as ScopedVector<K>;
    const cosine = cosines[k] as number;
    // Leave-one-out: the crowd is everyone else (plus the prior), so a skill never lowers its own z.
    const others = n - 1 + PRIOR_WEIGHT;
    const mean = (sum - cosine) / others;
    const squares = sumSquares - cosine * cosine + PRIOR_WEIGHT * PRIOR_STD * PRIOR_STD;
    const variance = Math.max(squares / others - mean * mean, 1e-6);
    const z = (cosine - mean) / Math.sqrt(variance);
    const agrees = lexical?.has(entry.key) === true;
    const from = agrees ? SEMANTIC_AGREEMENT_Z : floor;
    if (z <= from) continue;
    (agrees ? agreeing : out).push({
      key: entry.key,
      name: entry.name,
      rootUri: entry.rootUri,
      semantic: (z - from) * SEMANTIC_SCALE,
      cosine,
    });
  }
  out.sort((a, b) => b.semantic - a.semantic);
  return [...agreeing, ...out.slice(0, max)].sort((a, b) => b.semantic - a.semantic);
}
