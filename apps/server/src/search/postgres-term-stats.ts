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
 * Characters of kept postings (skills and rank runs as text, ~7 per row read) before the memory of
 * postings starts over: ~16 MB of one-byte strings, the rows `find` read of ~3,000 lexemes at 100,000
 * skills (most are a prefix's short lists, read to their end).
 */
const MAX_KEPT_POSTINGS_CHARS = 16_000_000;

/**
 * Skills kept by {@link PostgresTermStats.keepScope} (where a skill is, ~150 bytes: the entry, its
 * name; account and root strings are shared) and {@link PostgresTermStats.keepOutside} (a skill
 * outside one caller's scope, ~40 bytes) before that memory starts over: at most ~8 MB.
 */
const MAX_KEPT_SCOPES = 50_000;

/** Where a skill is: its account and root, its name, and its key as the driver gave it (`seq`). */
export interface KeptScope {
  seq: number;
  account: string;
  root: string;
  name: string;
}

/**
 * One lexeme's best rows of `skill_terms` as `find` reads them (`search/postgres-search.ts`): the
 * skills as comma-separated text, their ranks as runs (`rank count`, comma-separated), how many rows,
 * the lowest rank (null when none).
 */
export interface KeptPostings {
  seqs: string | null;
  ranks: string | null;
  count: number;
  last: number | null;
}

/**
 * A prefix's less frequent lexemes are probed skill by skill against its most frequent one's rows
 * when they have at most 1/16 as many rows; else both lists are read and joined. (A probe costs a few
 * index pages; reading and sorting a row of the largest list, about a twentieth of that.) Written
 * into `skill_term_frequencies` (PostgreSQL migrations 15, 16 and 17) as a literal: changing it takes a
 * migration.
 */
export const PROBE_RATIO = 16;

/**
 * In one snapshot: the search generation, the number of skills (the sum of `skill_root_counts`,
 * PostgreSQL migration 8) and per term its lexemes and document frequency, by
 * `skill_term_frequencies` (PostgreSQL migrations 15, 16 and 17: a plpgsql function whose one
 * statement is planned once per connection; as a prepared statement of its own it was planned again
 * on every call).
 * Parameters: $1 lexemes, $2 prefix flags, $3 label bits.
 *
 * - A prefix's lexemes: the distinct lexemes of `skill_terms` starting with it, one index probe each
 *   (a skip scan), however many rows each has.
 * - A lexeme's frequency under a term's labels: the sum of its rows of `skill_term_counts` (migration
 *   9) whose label set meets the term's (all with labels 0): at most 64 rows per label set and number
 *   of characters shared.
 * - A prefix of at most 8 characters matching any field (labels 0): the sum of the counts of the
 *   lexemes starting with it whose lexeme shares fewer characters than the prefix has with the
 *   skill's lexeme before it (migration 17): a skill's lexemes starting with the prefix come one after
 *   another in code-point order, and only the first of them does, so each skill is counted once.
 * - Any other prefix standing for several lexemes matches the skills of any: the frequency of the
 *   most frequent one (from the counts) plus the skills of the others, counted once each, that it
 *   does not match.
 *   When the others have at most 1/{@link PROBE_RATIO} of its rows, that is a primary-key probe per
 *   skill of the others, each skill listed once (migration 16: one holding several of them was
 *   probed for each). `OFFSET 0` keeps the `NOT EXISTS` a probe per skill: as a join, the planner
 *   read and sorted every row of the largest lexeme, ~10 ms for a word in half the skills. Else an
 *   anti-join of the rows of both, which costs less than that many probes.
 *
 * Returns `generation`, `n`, `df` (per term, in order) and `lexemes` (each term's, in term then
 * code-point order) with `terms` (the position of each, from 1).
 */
const FREQUENCIES =
  'SELECT generation, n, df, lexemes, terms FROM skill_term_frequencies($1::text[], $2::boolean[], $3::int[])';

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
  /** Postings read in one search generation, by depth and lexeme, with their size in characters. */
  private postings: { generation: string; rows: Map<string, KeptPostings>; chars: number } | null = null;
  /**
   * Skills' account, root and name by `seq`, and per caller's scope (account and roots) skills known
   * to be outside it, learnt in one search generation; `size` counts both.
   */
  private scopes: {
    generation: string;
    bySeq: Map<number, KeptScope>;
    outside: Map<string, Set<number>>;
    strings: Map<string, string>;
    size: number;
  } | null = null;

  /**
   * Where skill `seq` is, when this process read it in search generation `generation`: `outside` when
   * it was found outside scope `scope` (see {@link keepOutside}), undefined when unknown. Every insert
   * and delete of a skill raises the generation, and a skill's account, root and name never change,
   * so in that generation the skill is there with these.
   */
  keptScope(generation: string, scope: string, seq: number): KeptScope | 'outside' | undefined {
    const kept = this.scopes;
    if (kept === null || kept.generation !== generation) return undefined;
    return kept.bySeq.get(seq) ?? (kept.outside.get(scope)?.has(seq) ? 'outside' : undefined);
  }

  /**
   * Keeps skill `seq`'s account, root and name, read in search generation `generation` (read by the
   * caller before the row was).
   */
  keepScope(generation: string, seq: number, account: string, root: string, name: string): void {
    const kept = this.scopesOf(generation);
    if (kept === null) return;
    const shared = (text: string): string => {
      const known = kept.strings.get(text);
      if (known !== undefined) return known;
      kept.strings.set(text, text);
      return text;
    };
    kept.bySeq.set(Number(seq), { seq, account: shared(account), root: shared(root), name });
    kept.size++;
  }

  /**
   * Keeps that skill `seq` is outside `scope` (a caller's account and roots, as the caller spells
   * them): in search generation `generation`, no skill of that key is in that account and roots.
   */
  keepOutside(generation: string, scope: string, seq: number): void {
    const kept = this.scopesOf(generation);
    if (kept === null) return;
    let seqs = kept.outside.get(scope);
    if (seqs === undefined) {
      seqs = new Set();
      kept.outside.set(scope, seqs);
    }
    seqs.add(seq);
    kept.size++;
  }

  /**
   * The memory of where skills are, for search generation `generation`: that of an older generation
   * is dropped, a full one ({@link MAX_KEPT_SCOPES}) starts over; null for an older generation than
   * the one kept.
   */
  private scopesOf(generation: string) {
    const kept = this.scopes;
    if (kept !== null && kept.generation === generation && kept.size < MAX_KEPT_SCOPES) return kept;
    if (kept !== null && BigInt(generation) < BigInt(kept.generation)) return null;
    this.scopes = { generation, bySeq: new Map(), outside: new Map(), strings: new Map(), size: 0 };
    return this.scopes;
  }

  /**
   * A lexeme's best `depth` rows as read in search generation `generation`, when this process read
   * them in that generation (a repeated word of another query costs no read).
   */
  keptPostings(generation: string, depth: number, lexeme: string): KeptPostings | undefined {
    const kept = this.postings;
    return kept !== null && kept.generation === generation ? kept.rows.get(`${depth} ${lexeme}`) : undefined;
  }

  /**
   * Keeps a lexeme's best `depth` rows, read in search generation `generation` (read by the caller
   * before the rows were): memory of an older generation is dropped, and a full memory starts over.
   */
  keepPostings(generation: string, depth: number, lexeme: string, rows: KeptPostings): void {
    let kept = this.postings;
    const size = (rows.seqs?.length ?? 0) + (rows.ranks?.length ?? 0) + lexeme.length;
    if (kept === null || kept.generation !== generation || kept.chars + size > MAX_KEPT_POSTINGS_CHARS) {
      if (kept !== null && BigInt(generation) < BigInt(kept.generation)) return;
      kept = { generation, rows: new Map(), chars: 0 };
      this.postings = kept;
    }
    const key = `${depth} ${lexeme}`;
    const before = kept.rows.get(key);
    if (before !== undefined)
      kept.chars -= (before.seqs?.length ?? 0) + (before.ranks?.length ?? 0) + lexeme.length;
    kept.rows.set(key, rows);
    kept.chars += size;
  }

  /**
   * The number of skills and each term's statistics, from memory when the generation is unchanged.
   *
   * @param db - pool or client whose `search_path` reaches the store's schema
   * @param terms - from `buildRankTerms`
   * @param generation - the search generation, when the caller has just read it (see
   *   {@link readSearchGeneration}); read here otherwise
   * @returns the total number of stored skills, one entry per term, in order, and the search
   *   generation they were counted in
   */
  async read(
    db: pg.Pool | pg.ClientBase,
    terms: readonly RankTerm[],
    generation?: string,
  ): Promise<{ total: number; stats: TermStats[]; generation: string }> {
    let kept = this.state;
    if (kept !== null) {
      const current = generation ?? (await readSearchGeneration(db));
      if (current !== kept.generation) kept = null;
    }
    if (kept !== null) {
      const known = kept.terms;
      const missing = terms.filter((t) => !known.has(keyOf(t)));
      if (missing.length === 0)
        return {
          total: kept.total,
          stats: terms.map((t) => known.get(keyOf(t)) as TermStats),
          generation: kept.generation,
        };
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
          generation: kept.generation,
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
    return { total: counted.total, stats: counted.stats, generation: counted.generation };
  }

  /** Counts `terms` and expands their prefixes, in one snapshot, with its generation. */
  private async count(
    db: pg.Pool | pg.ClientBase,
    terms: readonly RankTerm[],
  ): Promise<{ generation: string; total: number; stats: TermStats[] }> {
    const { rows } = await db.query<{
      generation: string;
      n: string;
      df: string[];
      lexemes: string[];
      terms: number[];
    }>({
      name: 'skillport-term-frequencies',
      text: FREQUENCIES,
      values: [terms.map((t) => t.lexeme), terms.map((t) => t.prefix), terms.map((t) => t.labels)],
    });
    const row = rows[0];
    const stats: TermStats[] = terms.map((_, i) => ({ df: Number(row?.df[i] ?? 0), lexemes: [] }));
    const lexemes = row?.lexemes ?? [];
    const at = row?.terms ?? [];
    for (let k = 0; k < lexemes.length; k++) stats[(at[k] ?? 1) - 1]?.lexemes.push(lexemes[k] as string);
    return { generation: row?.generation ?? '0', total: Number(row?.n ?? 0), stats };
  }
}
