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

/**
 * One process's memory of term statistics for `find` on PostgreSQL, valid while the database's
 * search generation (bumped by triggers on every change of a skill's search vector, PostgreSQL
 * migration 7) stays the same: a repeated query term costs one small read instead of counting its
 * rows. The generation is read in (or before) the snapshot the statistics are counted in, so a
 * change committed meanwhile makes the next read see a newer generation and count again.
 */
export class PostgresTermStats {
  private generation: string | null = null;
  private total = 0;
  private readonly terms = new Map<string, TermStats>();

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
    if (this.generation !== null) {
      const current = generation ?? (await readSearchGeneration(db));
      if (current !== this.generation) this.forget();
    }
    let missing = terms.filter((t) => !this.terms.has(keyOf(t)));
    if (missing.length === 0)
      return { total: this.total, stats: terms.map((t) => this.terms.get(keyOf(t)) as TermStats) };
    let counted = await this.count(db, missing);
    if (this.generation !== null && counted.generation !== this.generation) {
      // A change committed since the check above: count every term in one snapshot.
      this.forget();
      missing = [...terms];
      counted = await this.count(db, missing);
    }
    if (this.terms.size + missing.length > MAX_CACHED_TERMS) this.forget();
    if (this.generation === null) {
      this.generation = counted.generation;
      this.total = counted.total;
    }
    for (const [i, term] of missing.entries()) this.terms.set(keyOf(term), counted.stats[i] as TermStats);
    const fresh = new Map(missing.map((term, i) => [keyOf(term), counted.stats[i] as TermStats]));
    return {
      total: counted.total,
      stats: terms.map((t) => fresh.get(keyOf(t)) ?? (this.terms.get(keyOf(t)) as TermStats)),
    };
  }

  private forget(): void {
    this.generation = null;
    this.terms.clear();
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
