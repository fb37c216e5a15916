import type pg from 'pg';
import type { RankTerm } from './postgres-text.js';

/**
 * What `find` needs to know of one query term before ranking: the skills it matches (its document
 * frequency, for IDF) and, for a prefix, the lexemes it stands for.
 */
export interface TermStats {
  /** Skills whose rows of the term carry a label it asks for (the skills its `tsquery` matches). */
  df: number;
  /** The stored lexemes the term matches, in code-point order: itself, or every lexeme starting with a prefix. */
  lexemes: string[];
}

/** Entries kept before the cache starts over (a few hundred bytes each). */
const MAX_CACHED_TERMS = 10_000;

/**
 * Document frequencies (per term: the skills whose rows of its lexeme carry a label it asks for; a
 * distinct count over the lexemes of a prefix) and the total number of skills, counted from
 * `skill_terms` (index-only scans), with the search generation of the same snapshot.
 * Parameters: $1 lexemes, $2 prefix flags, $3 label bits.
 */
const FREQUENCIES = `SELECT (SELECT sum(n) FROM skill_search_generation)::text AS generation,
  (SELECT count(*) FROM skills) AS n, ARRAY(
    SELECT CASE WHEN q.prefix THEN (SELECT count(DISTINCT t.skill_seq) FROM skill_terms t
        WHERE t.lexeme >= q.lexeme AND t.lexeme <= q.lexeme || chr(1114111) AND starts_with(t.lexeme, q.lexeme)
          AND (q.labels = 0 OR t.labels & q.labels <> 0))
      ELSE (SELECT count(*) FROM skill_terms t
        WHERE t.lexeme = q.lexeme AND (q.labels = 0 OR t.labels & q.labels <> 0)) END
    FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
    ORDER BY q.i) AS df`;

/**
 * The distinct lexemes of `skill_terms` starting with $1, in order: one index probe per lexeme (a
 * skip scan), however many rows each has.
 */
const PREFIX_LEXEMES = `WITH RECURSIVE e(lexeme) AS (
    (SELECT lexeme FROM skill_terms WHERE lexeme >= $1 AND lexeme <= $1 || chr(1114111) ORDER BY lexeme LIMIT 1)
    UNION ALL
    SELECT (SELECT t.lexeme FROM skill_terms t WHERE t.lexeme > e.lexeme AND t.lexeme <= $1 || chr(1114111)
      ORDER BY t.lexeme LIMIT 1)
    FROM e WHERE e.lexeme IS NOT NULL)
  SELECT lexeme FROM e WHERE lexeme IS NOT NULL AND starts_with(lexeme, $1)`;

/** The search generation: the sum of `skill_search_generation` (PostgreSQL migration 7). */
const GENERATION = 'SELECT sum(n)::text AS generation FROM skill_search_generation';

/**
 * The database's search generation now (a decimal string): the sum of `skill_search_generation`, which
 * every insert or delete of a skill and every change of its search vector raises.
 */
export async function readSearchGeneration(db: pg.Pool | pg.ClientBase): Promise<string> {
  const { rows } = await db.query<{ generation: string }>({
    name: 'skillport-search-generation',
    text: GENERATION,
  });
  return rows[0]?.generation ?? '0';
}

function keyOf(term: RankTerm): string {
  return `${term.prefix ? 1 : 0}${term.labels}:${term.lexeme}`;
}

/** Statistics counted in one search generation: the number of skills and per term (by {@link keyOf}). */
interface CountedState {
  generation: string;
  total: number;
  terms: Map<string, TermStats>;
}

/**
 * One process's memory of term statistics for `find` on PostgreSQL, valid while the database's
 * search generation (bumped by triggers on every change of a skill's search vector, PostgreSQL
 * migration 7) stays the same: a repeated query term costs one small read instead of counting its
 * rows. The generation is read in (or before) the snapshot the statistics are counted in, so a
 * change committed meanwhile makes the next read see a newer generation and count again.
 *
 * One read's statistics all come from one generation, whatever concurrent reads do meanwhile: the
 * kept terms of the generation it checked together with terms counted in that same generation, or
 * every term counted in one snapshot. (A read's kept terms are those of the state it checked: a
 * concurrent read that sees a newer generation replaces the state, it never empties it.)
 */
export class PostgresTermStats {
  private state: CountedState | null = null;

  /**
   * The number of skills and each term's statistics, from memory when the generation is unchanged.
   *
   * @param db - pool or client whose `search_path` reaches the store's schema
   * @param terms - from `buildRankTerms`
   * @param generation - the search generation, when the caller has just read it (see
   *   {@link readSearchGeneration}); read here otherwise
   * @returns the total number of stored skills and one entry per term, in order
   */
  async read(
    db: pg.Pool | pg.ClientBase,
    terms: readonly RankTerm[],
    generation?: string,
  ): Promise<{ total: number; stats: TermStats[] }> {
    let kept = this.state;
    if (kept !== null) {
      const current = generation ?? (await readSearchGeneration(db));
      if (current !== kept.generation) kept = null;
    }
    if (kept !== null) {
      const known = kept.terms;
      const missing = terms.filter((t) => !known.has(keyOf(t)));
      if (missing.length === 0)
        return { total: kept.total, stats: terms.map((t) => known.get(keyOf(t)) as TermStats) };
      const counted = await this.count(db, missing);
      if (counted.generation === kept.generation) {
        // Counted in the generation of the kept terms: one generation's statistics together.
        const fresh = new Map(missing.map((term, i) => [keyOf(term), counted.stats[i] as TermStats]));
        if (known.size + missing.length <= MAX_CACHED_TERMS) {
          for (const [key, stats] of fresh) known.set(key, stats);
        } else if (this.state === kept) {
          // Full: start over with this read's new terms.
          this.state = { generation: kept.generation, total: kept.total, terms: new Map(fresh) };
        }
        return {
          total: kept.total,
          stats: terms.map((t) => fresh.get(keyOf(t)) ?? (known.get(keyOf(t)) as TermStats)),
        };
      }
      // A change committed since the check above: count every term in one snapshot.
    }
    const counted = await this.count(db, terms);
    const state: CountedState = {
      generation: counted.generation,
      total: counted.total,
      terms: new Map(terms.map((term, i) => [keyOf(term), counted.stats[i] as TermStats])),
    };
    // The newest generation seen is kept (an older one, counted by a read that started earlier, is not).
    if (this.state === null || BigInt(state.generation) >= BigInt(this.state.generation)) this.state = state;
    return { total: counted.total, stats: counted.stats };
  }

  /** Counts `terms` in one snapshot, with its generation; prefix expansions read after it. */
  private async count(
    db: pg.Pool | pg.ClientBase,
    terms: readonly RankTerm[],
  ): Promise<{ generation: string; total: number; stats: TermStats[] }> {
    const { rows } = await db.query<{ generation: string; n: string; df: string[] }>({
      name: 'skillport-term-frequencies',
      text: FREQUENCIES,
      values: [terms.map((t) => t.lexeme), terms.map((t) => t.prefix), terms.map((t) => t.labels)],
    });
    const stats = await Promise.all(
      terms.map(async (term, i): Promise<TermStats> => {
        const df = Number(rows[0]?.df[i] ?? 0);
        if (!term.prefix) return { df, lexemes: [term.lexeme] };
        // No match and no rows to weigh (a term limited to some fields still weighs its other rows).
        if (df === 0 && term.labels === 0) return { df, lexemes: [] };
        const expanded = await db.query<{ lexeme: string }>({
          name: 'skillport-prefix-lexemes',
          text: PREFIX_LEXEMES,
          values: [term.lexeme],
        });
        return { df, lexemes: expanded.rows.map((row) => row.lexeme) };
      }),
    );
    return { generation: rows[0]?.generation ?? '0', total: Number(rows[0]?.n ?? 0), stats };
  }
}
