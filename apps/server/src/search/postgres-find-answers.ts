import type { RankedCandidate, SearchQuery } from './ranking.js';

/**
 * Ranked hits kept by {@link PostgresFindAnswers}, all queries together (a few hundred bytes each); a
 * ranking counts one more (so empty answers are bounded too).
 */
const KEPT_RANKED_HITS = 4096;

/**
 * Longest key kept, characters: a query longer than this (rarely asked twice) is ranked every time,
 * so kept keys take at most ~8 MB however long the queries sent.
 */
const MAX_KEY_LENGTH = 2048;

function weight(kept: KeptRanking): number {
  return kept.top.length + 1;
}

/** A query's ranking kept by {@link PostgresFindAnswers}: its parsed form and its hits, best first. */
export interface KeptRanking {
  /** The search generation the ranking was computed in (or after: see {@link PostgresFindAnswers}). */
  generation: string;
  parsed: SearchQuery;
  top: ReadonlyArray<RankedCandidate<number>>;
}

/**
 * One process's rankings of recent lexical `find` queries on PostgreSQL, by account, roots, query
 * text and limit, at most {@link KEPT_RANKED_HITS} ranked hits in all, each valid while the
 * database's search generation (the sum of `skill_search_generation`) is the one it was kept under.
 *
 * Why that is safe with any number of replicas: the generation is in the database, bumped in the
 * writing transaction by every insert and delete of a skill and every change of its search vector
 * (PostgreSQL migration 7), and only ever grows. A ranking depends on nothing else: the matches and
 * their relevance (the vectors, `skill_terms`, the number of skills), names and roots (never changed
 * without a new vector: a skill keeps its name and root for life). A ranking is kept under the
 * generation read before it was computed, so it was computed in that state or a later one; it is
 * given again only when a read of the generation still finds that value, that is when no such change
 * committed since that first read. The rows shown (description, revision, …) are read again, in the
 * snapshot of that generation read, so changes that leave the vector alone (a new auxiliary file)
 * show at once. Semantic queries are not kept (the query vector and the process's vector copy are
 * further inputs).
 */
export class PostgresFindAnswers {
  private generation: string | null = null;
  private ranked = 0;
  private readonly byKey = new Map<string, KeptRanking>();

  /** The ranking kept for `key`, whatever its generation (the caller compares it with the database's). */
  get(key: string): KeptRanking | undefined {
    return this.byKey.get(key);
  }

  /**
   * Keeps a ranking computed in (or after) `generation` — the oldest rankings make room, one too large
   * (or under a key longer than {@link MAX_KEY_LENGTH} characters) is not kept. A generation other
   * than the one kept so far empties the kept rankings first (the generation only grows: a newer one
   * means theirs will never be read again; an older one, read by a find that started before another's,
   * is simply not kept).
   */
  set(key: string, kept: KeptRanking): void {
    if (kept.generation !== this.generation) {
      if (this.generation !== null && BigInt(kept.generation) < BigInt(this.generation)) return;
      this.byKey.clear();
      this.ranked = 0;
      this.generation = kept.generation;
    }
    if (weight(kept) > KEPT_RANKED_HITS || key.length > MAX_KEY_LENGTH) return;
    const previous = this.byKey.get(key);
    if (previous !== undefined) {
      this.byKey.delete(key);
      this.ranked -= weight(previous);
    }
    while (this.ranked + weight(kept) > KEPT_RANKED_HITS) {
      const [oldest, dropped] = this.byKey.entries().next().value as [string, KeptRanking];
      this.byKey.delete(oldest);
      this.ranked -= weight(dropped);
    }
    this.byKey.set(key, kept);
    this.ranked += weight(kept);
  }

  /** Number of rankings kept (tests). */
  get size(): number {
    return this.byKey.size;
  }
}
