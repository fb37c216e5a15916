import type pg from 'pg';
import type { PostgresVectorCache } from '../store/postgres/vector-ops.js';
import { SEARCH_HIT_COLUMNS, type SearchHitRow, toSearchSource } from '../store/sqlite/rows.js';
import type { SearchHit, SemanticQuery } from '../store/types.js';
import type { PostgresFindAnswers } from './postgres-find-answers.js';
import { PostgresTermStats, type TermStats } from './postgres-term-stats.js';
import { buildRankTerms, buildTsqueryTerms, type RankTerm } from './postgres-text.js';
import {
  candidateBudget,
  parseSearchQuery,
  type RankedCandidate,
  rankCandidates,
  type SearchCandidate,
  type SearchQuery,
  toSearchHit,
} from './ranking.js';
import { FIELD_WEIGHTS } from './score.js';
import { semanticMatches } from './semantic.js';

/**
 * `ts_rank` weights, in PostgreSQL's order `{D, C, B, A}`: body/overview, description, tags, name —
 * the ratios of `FIELD_WEIGHTS` (1 : 3 : 5 : 10).
 */
const RANK_WEIGHTS = [
  FIELD_WEIGHTS.body / FIELD_WEIGHTS.name,
  FIELD_WEIGHTS.description / FIELD_WEIGHTS.name,
  FIELD_WEIGHTS.tags / FIELD_WEIGHTS.name,
  1,
];

/**
 * Turns one term's `ts_rank` back into a field-weighted term frequency on FTS5's scale: one
 * occurrence in a name gives `FIELD_WEIGHTS.name` (10), one in a body 1. (`ts_rank` of a single term
 * is `weight / ζ(2)` for one occurrence, ζ(2) = π²/6 ≈ 1.6449, saturating with more.)
 */
const FREQUENCY_SCALE = FIELD_WEIGHTS.name * (Math.PI ** 2 / 6);

/** BM25's term-frequency saturation, as in FTS5. */
const BM25_K1 = 1.2;

/**
 * Names this similar to the query (pg_trgm `similarity`, 0–1) are candidates when the words found
 * fewer hits than asked: a typo in a name (`serch-web`) still finds the skill.
 */
const MIN_NAME_SIMILARITY = 0.4;
/** Longest text compared with names by trigram similarity, characters (see {@link similarityText}). */
const MAX_SIMILARITY_TEXT = 2048;

/**
 * The text a query's name similarity is computed from: lower case, NUL characters dropped (PostgreSQL
 * text cannot hold them; no name has one), each white-space separated word once (pg_trgm's similarity
 * depends only on the set of trigrams, which repeated words do not change); empty when that is still
 * longer than {@link MAX_SIMILARITY_TEXT} characters — pg_trgm would extract the trigrams of a
 * megabyte-long query for every name it compares, holding a connection for seconds.
 */
export function similarityText(query: string): string {
  const words = new Set(query.replaceAll('\u0000', '').toLowerCase().split(/\s+/u));
  words.delete('');
  const text = [...words].join(' ');
  return text.length > MAX_SIMILARITY_TEXT ? '' : text;
}

/** Lexical relevance of a name-similarity hit: `similarity × TRIGRAM_SCALE` (below a real word match in a name). */
const TRIGRAM_SCALE = 4;

/** Semantic candidates considered at least (a skill found by meaning and by words counts once). */
const SEMANTIC_CANDIDATES = 50;

/** A lexical candidate: the skill's key and its relevance. */
export interface KeyRow {
  seq: number;
  name: string;
  root_uri: string;
  lexical: number;
}

/**
 * For a query with a phrase (a CJK run of three or more characters; else {@link LEXICAL_BY_TERMS}):
 * BM25 over the weighted `tsvector`: per query term, its rarity (IDF, as FTS5 computes it: over every
 * stored skill) times its saturated field-weighted frequency, summed; the best `limit` matches in
 * scope. `skill_lexical_matches` (PostgreSQL migration 3) runs
 *
 * ```sql
 * SELECT s.seq, s.name, s.root_uri, sc.lexical FROM skills s
 *   CROSS JOIN LATERAL (SELECT sum(t.idf * (f.f * (k1 + 1)) / (f.f + k1)) AS lexical
 *     FROM unnest(terms, idfs) AS t(q, idf)
 *     CROSS JOIN LATERAL (SELECT ts_rank(weights, s.search, t.q) * scale AS f OFFSET 0) AS f) AS sc
 *   WHERE s.account_id = account AND s.root_uri = ANY(roots) AND s.search @@ query
 *   ORDER BY sc.lexical DESC, s.seq LIMIT max
 * ```
 *
 * with sequential scans off: the matches come from the GIN index, and only they have their
 * (TOASTed, compressed) `tsvector` read. `OFFSET 0` keeps `f` evaluated once per skill and term
 * (inlined, its `ts_rank`, one more read of the vector, would run twice). Parameters: $1 the OR of
 * the terms, $2 account, $3 roots, $4 limit, $5 the terms, $6 their IDFs, $7 `RANK_WEIGHTS`,
 * $8 `FREQUENCY_SCALE`, $9 `BM25_K1 + 1`, $10 `BM25_K1`.
 */
const LEXICAL = `SELECT seq, name, root_uri, lexical
  FROM skill_lexical_matches($1::tsquery, $2, $3::text[], $4, $5::tsquery[], $6::float8[], $7::float4[], $8, $9, $10)
  ORDER BY lexical DESC, seq`;

/**
 * The end shared by the statements ranking from `skill_terms`, after a `per_term` CTE of (`i`, `idf`,
 * `skill_seq`, `r`, `hit`): each skill's BM25 relevance summed over its terms in query order, kept when
 * one term hits, then joined to `skills` best first within the account and roots, cut to the limit.
 * Arguments are the statement's parameter numbers.
 */
function rankInScope(n: {
  scale: number;
  k1Plus1: number;
  k1: number;
  account: number;
  roots: number;
  limit: number;
}): string {
  return `per_skill AS (
    SELECT skill_seq, sum(idf * (f * $${n.k1Plus1}::float8) / (f + $${n.k1}::float8)) AS lexical
    FROM (SELECT skill_seq, idf, r::float8 * $${n.scale}::float8 AS f, hit FROM per_term ORDER BY skill_seq, i) AS f
    GROUP BY skill_seq HAVING bool_or(hit)
  )
  SELECT s.seq, s.name, s.root_uri, m.lexical
  FROM (SELECT skill_seq, lexical FROM per_skill ORDER BY lexical DESC, skill_seq) AS m
  JOIN skills s ON s.seq = m.skill_seq
  WHERE s.account_id = $${n.account} AND s.root_uri = ANY($${n.roots}::text[])
  ORDER BY m.lexical DESC, m.skill_seq LIMIT $${n.limit}`;
}

/**
 * The same matches and relevance as {@link LEXICAL}, read from `skill_terms` (PostgreSQL migration 4)
 * instead of the vectors: per query term, the rows of its lexeme (of every lexeme starting with it,
 * for a prefix) from the primary key alone; a term's `ts_rank` is its row's `rank` as `real`, for a
 * prefix its rows' summed as `ts_rank` sums them (in lexeme order, rounding to `real` after each:
 * `skill_rank_fold`); a skill is a match when one of its rows carries a label the term asks for
 * (`labels`, 0 = any); its relevance sums its terms in query order, as {@link LEXICAL} does. The
 * orders that make these sums exact come from sorted subqueries feeding plain aggregates grouped by
 * a prefix of the sort (so no sort runs in between; an aggregate's own `ORDER BY` sorts each group
 * apart: several times slower). The ranked matches are
 * joined to `skills` best first, so the scope check stops after `limit` rows in scope.
 * Parameters: $1 lexemes, $2 prefix flags, $3 label bits, $4 IDFs, $5 account, $6 roots, $7 limit,
 * $8 `FREQUENCY_SCALE`, $9 `BM25_K1 + 1`, $10 `BM25_K1`.
 */
const LEXICAL_BY_TERMS = `WITH q AS (
    SELECT * FROM unnest($1::text[], $2::boolean[], $3::int[], $4::float8[]) WITH ORDINALITY AS q(lexeme, prefix, labels, idf, i)
  ), per_term AS (
    SELECT q.i, q.idf, t.skill_seq, t.rank::real AS r, q.labels = 0 OR t.labels & q.labels <> 0 AS hit
    FROM q JOIN skill_terms t ON t.lexeme = q.lexeme WHERE NOT q.prefix
    UNION ALL
    SELECT i, idf, skill_seq, CASE WHEN cardinality(ranks) = 1 THEN ranks[1]::real ELSE skill_rank_fold(ranks) END, hit
    FROM (SELECT i, max(idf) AS idf, skill_seq, array_agg(rank) AS ranks, bool_or(hit) AS hit
      FROM (SELECT q.i, q.idf, t.skill_seq, t.rank, q.labels = 0 OR t.labels & q.labels <> 0 AS hit
        FROM q JOIN skill_terms t ON t.lexeme >= q.lexeme AND t.lexeme <= q.lexeme || chr(1114111)
          AND starts_with(t.lexeme, q.lexeme)
        WHERE q.prefix ORDER BY q.i, t.skill_seq, t.lexeme) AS p
      GROUP BY i, skill_seq) AS folded
  ), ${rankInScope({ scale: 8, k1Plus1: 9, k1: 10, account: 5, roots: 6, limit: 7 })}`;

/**
 * Per lexeme ($1), its best `$2` rows of `skill_terms` by rank (`skill_terms_by_impact`, PostgreSQL
 * migration 7: an index-only scan that stops after `$2` rows): the skills best first as comma-separated
 * text, how many rows were read and the lowest rank read, and the ranks as runs — `rank count` per
 * distinct rank, best first, comma-separated: the rows read are best first and a lexeme's ranks take
 * few values, so each is written once (`float8` text is exact: the shortest that reads back the same;
 * text is far cheaper to read than arrays). One scan gives both: its rows, already in rank order,
 * are grouped by rank (the `ORDER BY` of the groups makes the grouping follow the scan's order, so
 * nothing is sorted), each group giving its run and its skills in scan order, then the groups are
 * joined best first. (Reading the runs in a second scan of the same rows cost ~40% more CPU;
 * pairing each row with the rank before it, `lag`, spooled every row through a window.)
 */
const TOP_POSTINGS = `SELECT l.n::int AS list, x.seqs, x.ranks, x.count, x.last
  FROM unnest($1::text[]) WITH ORDINALITY AS l(lexeme, n)
  CROSS JOIN LATERAL (SELECT string_agg(run.seqs, ',') AS seqs, string_agg(run.rank::text || ' ' || run.rows, ',') AS ranks,
      coalesce(sum(run.rows), 0)::int AS count, min(run.rank) AS last
    FROM (SELECT best.rank, count(*) AS rows, string_agg(best.skill_seq::text, ',') AS seqs
      FROM (SELECT t.skill_seq, t.rank FROM skill_terms t WHERE t.lexeme = l.lexeme
        ORDER BY t.rank DESC, t.skill_seq LIMIT $2) AS best
      GROUP BY best.rank ORDER BY best.rank DESC) AS run) AS x
  ORDER BY l.n`;

/**
 * {@link TOP_POSTINGS} from where an earlier read of each list stopped: per lexeme ($1), its next `$4`
 * rows after the row of rank $2 and skill $3 in the order of `skill_terms_by_impact` (rank best first,
 * then skill), the same columns. The index is entered at the stopping rank; rows of that rank up to
 * the skill already read are skipped by the filter.
 */
const TOP_POSTINGS_AFTER = `SELECT l.n::int AS list, x.seqs, x.ranks, x.count, x.last
  FROM unnest($1::text[], $2::float8[], $3::bigint[]) WITH ORDINALITY AS l(lexeme, after_rank, after_seq, n)
  CROSS JOIN LATERAL (SELECT string_agg(run.seqs, ',') AS seqs, string_agg(run.rank::text || ' ' || run.rows, ',') AS ranks,
      coalesce(sum(run.rows), 0)::int AS count, min(run.rank) AS last
    FROM (SELECT best.rank, count(*) AS rows, string_agg(best.skill_seq::text, ',') AS seqs
      FROM (SELECT t.skill_seq, t.rank FROM skill_terms t
        WHERE t.lexeme = l.lexeme AND t.rank <= l.after_rank AND (t.rank < l.after_rank OR t.skill_seq > l.after_seq)
        ORDER BY t.rank DESC, t.skill_seq LIMIT $4) AS best
      GROUP BY best.rank ORDER BY best.rank DESC) AS run) AS x
  ORDER BY l.n`;

/**
 * The process's memory of postings read ({@link PostgresTermStats.keptPostings}) and the search
 * generation of the find, which the rows read are kept under and looked up in.
 */
interface PostingsMemory {
  stats: PostgresTermStats;
  generation: string;
}

/**
 * A list's rows read so far ({@link TOP_POSTINGS}): skills as text, their ranks as runs (`rank count`,
 * comma-separated), how many, the lowest rank.
 */
interface PostingsRead {
  list: number;
  seqs: string | null;
  ranks: string | null;
  count: number;
  last: number | null;
}

/**
 * Each list's best `depth` rows: read from the start ({@link TOP_POSTINGS}) when `before` is null;
 * else `before` (each list's best `beforeDepth` rows, read by the round before) with, for each list
 * read to that depth, its following rows ({@link TOP_POSTINGS_AFTER}) appended; lists read to their
 * end are not read again. The rows of the two reads come from two snapshots, as every statement of a
 * find does: a find is exact for the registry it sees while no skill changes under it. With `memory`,
 * a lexeme's rows to a depth already read in the find's search generation are taken from it (no skill
 * changed since: the same rows), and the rows read are kept there.
 */
async function readPostings(
  db: pg.Pool | pg.ClientBase,
  lists: readonly PostingList[],
  depth: number,
  before: readonly PostingsRead[] | null,
  beforeDepth: number,
  memory?: PostingsMemory,
): Promise<PostingsRead[]> {
  // Keeps list `n`'s rows read to `depth` for later finds of this search generation.
  const keep = (n: number, rows: PostingsRead): void =>
    memory?.stats.keepPostings(memory.generation, depth, lists[n]?.lexeme ?? '', {
      seqs: rows.seqs,
      ranks: rows.ranks,
      count: rows.count,
      last: rows.last,
    });
  if (before === null) {
    const read: PostingsRead[] = new Array(lists.length);
    // Lists (by position from 0) not kept from an earlier find of this generation.
    const missing: number[] = [];
    for (const [n, list] of lists.entries()) {
      const kept = memory?.stats.keptPostings(memory.generation, depth, list.lexeme);
      if (kept === undefined) missing.push(n);
      else read[n] = { ...kept, list: n + 1 };
    }
    if (missing.length > 0) {
      const { rows } = await db.query<PostingsRead>({
        name: 'skillport-top-postings',
        text: TOP_POSTINGS,
        values: [missing.map((n) => lists[n]?.lexeme ?? ''), depth],
      });
      for (const row of rows) {
        const n = missing[row.list - 1] ?? 0;
        read[n] = { ...row, list: n + 1 };
        keep(n, row);
      }
    }
    return read;
  }
  const merged = before.slice();
  // Lists (by position from 0) with rows left after `beforeDepth`, and where their reading stopped.
  const more: number[] = [];
  const afterRanks: number[] = [];
  const afterSeqs: string[] = [];
  const at = new Map(before.map((row, k) => [row.list, k]));
  for (const row of before) {
    if (row.count < beforeDepth || row.seqs === null || row.last === null) continue;
    const kept = memory?.stats.keptPostings(memory.generation, depth, lists[row.list - 1]?.lexeme ?? '');
    const k = at.get(row.list);
    if (kept !== undefined && k !== undefined) {
      merged[k] = { ...kept, list: row.list };
      continue;
    }
    more.push(row.list - 1);
    afterRanks.push(row.last);
    afterSeqs.push(row.seqs.slice(row.seqs.lastIndexOf(',') + 1));
  }
  if (more.length === 0) return merged;
  const { rows } = await db.query<PostingsRead>({
    name: 'skillport-top-postings-after',
    text: TOP_POSTINGS_AFTER,
    values: [
      more.map((n) => lists[n]?.lexeme ?? ''),
      arrayLiteral(afterRanks),
      `{${afterSeqs.join(',')}}`,
      depth - beforeDepth,
    ],
  });
  for (const row of rows) {
    const n = more[row.list - 1] ?? 0;
    const k = at.get(n + 1);
    const old = k === undefined ? undefined : before[k];
    if (old === undefined || k === undefined) continue;
    const read =
      row.count === 0
        ? old
        : {
            list: n + 1,
            seqs: `${old.seqs},${row.seqs}`,
            ranks: `${old.ranks},${row.ranks}`,
            count: old.count + row.count,
            last: row.last,
          };
    merged[k] = read;
    keep(n, read);
  }
  return merged;
}

/**
 * Per lexeme ($1), its rows of the skills probed in it (pairs of a lexeme's position from 1, $2, and a
 * skill, $3, in `seq` order per lexeme): a primary-key lookup each, as comma-separated
 * `seq rank labels` text (`float8` text is exact); `list` is the lexeme's position. Lexemes without
 * such rows give no row. `skill_find_probed_rows` (PostgreSQL migration 20; 19 passed each lexeme's
 * skills as one array, which a generic plan made from a small registry's statistics filtered every row
 * of the lexeme by) runs
 *
 * ```sql
 * SELECT p.n, string_agg(t.skill_seq::text || ' ' || t.rank::text || ' ' || t.labels::text, ',')
 *   FROM unnest(lists, seqs) AS p(n, seq)
 *   CROSS JOIN LATERAL (SELECT t.skill_seq, t.rank, t.labels FROM skill_terms t
 *     WHERE t.lexeme = lexemes[p.n] AND t.skill_seq = p.seq) AS t
 *   GROUP BY p.n
 * ```
 *
 * under `force_generic_plan`, so each connection plans it once: as a prepared statement of its own it
 * was planned again on every call (a custom plan, knowing the arrays' sizes, always looked cheaper).
 */
const PROBED_ROWS = 'SELECT list, probed FROM skill_find_probed_rows($1::text[], $2::int[], $3::bigint[])';

/**
 * The first `$4` of the skills $1 (best first) in scope (account $2, roots $3), in that order, with
 * their name and root: the skills are looked up one by one in order, so the lookups stop once `$4`
 * are found.
 */
const IN_SCOPE = `SELECT s.seq, s.name, s.root_uri
  FROM (SELECT u.seq, u.o FROM unnest($1::bigint[]) WITH ORDINALITY AS u(seq, o) ORDER BY u.o) AS u
  JOIN skills s ON s.seq = u.seq
  WHERE s.account_id = $2 AND s.root_uri = ANY($3::text[])
  ORDER BY u.o LIMIT $4`;

/**
 * Rows read per lexeme in the first round at least, and `FIRST_DEPTH_PER_RESULT` per result asked,
 * and one per `SKILLS_PER_FIRST_ROW` stored skills (a lexeme's rows grow with the registry, and so do
 * the skills sharing one rank: copies of one SKILL.md).
 */
const FIRST_DEPTH = 64;
const FIRST_DEPTH_PER_RESULT = 4;
const SKILLS_PER_FIRST_ROW = 128;
/** How many times more rows per lexeme each further round reads. */
const DEPTH_GROWTH = 8;
/** Rounds before ranking every row instead. */
const MAX_ROUNDS = 2;
/** Lexemes (a prefix counts each lexeme it stands for) above which every row is ranked at once. */
const MAX_LISTS = 256;
/**
 * Candidates ranked in the first batch per result asked (those with the best upper estimates). At 4
 * rather than 2, a distinct find at 100,000 skills ranks in 1.4 statements instead of 2.15, for the
 * same PostgreSQL CPU (the larger first batch settles more rounds alone).
 */
const FIRST_RANKED_PER_RESULT = 4;
/** How many times larger each further batch of candidates ranked is. */
const BATCH_GROWTH = 4;
/** Relative margin between the `limit`-th relevance and the bound of unseen skills (float rounding). */
const BOUND_MARGIN = 1e-9;

/**
 * How `thresholdCandidates` ended, counted per process since start (for tests and profiling): settled
 * by the bound, settled because every row was read, or left to ranking every row; `pruned` counts
 * rounds that left candidates unranked because their rows read show they cannot enter; `deeper`
 * rounds that read deeper without ranking (their candidates' ranks read put none of the top above the
 * bound).
 */
export const thresholdOutcomes = { bound: 0, exhausted: 0, fallback: 0, pruned: 0, deeper: 0 };

/** BM25 contribution of one term (the formula of the queries, in the same order). */
function contribution(idf: number, rank: number): number {
  const f = rank * FREQUENCY_SCALE;
  return (idf * (f * (BM25_K1 + 1))) / (f + BM25_K1);
}

/** One lexeme a query term reads: the term's position and how it matches. */
interface PostingList {
  lexeme: string;
  i: number;
  prefix: boolean;
  labels: number;
}

/**
 * Relevance a skill can have at most, from per-term ranks: per term, the sum of its lexemes' ranks (as
 * `real`); a prefix's sum rounds to `real` after each lexeme (a relative 6e-8 per lexeme at most), so
 * it is raised by that much. Term `i`'s rank is `termRanks[offset + i]` (one candidate's row of a
 * round's rank table, without a subarray per candidate).
 */
function upperRelevance(
  terms: readonly RankTerm[],
  stats: readonly TermStats[],
  idfs: readonly number[],
  termRanks: ArrayLike<number>,
  offset = 0,
): number {
  let total = 0;
  for (let i = 0; i < terms.length; i++) {
    let rank = termRanks[offset + i] ?? 0;
    if (rank <= 0) continue;
    if (terms[i]?.prefix) rank *= 1 + ((stats[i]?.lexemes.length ?? 0) + 1) * 1e-7;
    total += contribution(idfs[i] ?? 0, rank);
  }
  return total * (1 + BOUND_MARGIN);
}

/** A round's postings as read: per list whether every row was read, and the lowest rank read. */
interface RoundRead {
  /** The candidate skills (every skill read), in order of first reading. */
  seqs: number[];
  /** Per candidate, the relevance it can have at most ({@link upperRelevance} of its rank bounds). */
  uppers: Float64Array;
  /**
   * Per candidate, about the relevance it has at least: from the ranks read of it alone (a list where it
   * was not read adds nothing). An estimate (not rounded down), to judge whether a round can settle.
   */
  lowers: Float64Array;
  exhausted: boolean[];
  /** Per list, the lowest rank read; 0 when every row was read. */
  lowest: number[];
  /** The relevance a skill read in no list can have at most. */
  bound: number;
  /**
   * The rows read, per candidate: `first[c]` is the index of its first row (−1 none), `next[r]` the
   * row after `r` of the same candidate (−1 none); row `r` was read in list `list[r]` (from 0) with
   * rank `rank[r]` (the stored `float8`, not rounded).
   */
  read: { first: Int32Array; next: Int32Array; list: Int32Array; rank: Float64Array };
}

/**
 * Reads a round's postings ({@link TOP_POSTINGS} rows): the candidates and, per candidate, what the
 * rows read tell of its relevance at most — per list, its rank when read there, else the list's
 * lowest rank read (0 for a list read to its end: the skill is not in it).
 */
function readRound(
  terms: readonly RankTerm[],
  stats: readonly TermStats[],
  idfs: readonly number[],
  lists: readonly PostingList[],
  rows: ReadonlyArray<{
    list: number;
    seqs: string | null;
    ranks: string | null;
    count: number;
    last: number | null;
  }>,
  depth: number,
): RoundRead {
  const exhausted = lists.map(() => true);
  const lowest = lists.map(() => 0);
  let read = 0;
  for (const row of rows) {
    read += row.count;
    if (row.count >= depth) {
      exhausted[row.list - 1] = false;
      lowest[row.list - 1] = Number(row.last);
    }
  }
  // Per term, the rank of a skill read in none of its lists at most.
  const unseen = terms.map(() => 0);
  for (const [n, list] of lists.entries())
    unseen[list.i] = (unseen[list.i] ?? 0) + Math.fround(lowest[n] ?? 0);
  const width = terms.length;
  const ranks = new Float64Array(read * width);
  const known = new Float64Array(read * width);
  const seqs: number[] = [];
  const first = new Int32Array(read).fill(-1);
  const next = new Int32Array(read);
  const listOf = new Int32Array(read);
  const rankOf = new Float64Array(read);
  let entries = 0;
  // Candidate of each seq: an open-addressing table (linear probing) of candidate index + 1, 0 empty,
  // at most half full; cheaper than a `Map` for the tens of thousands of rows a deep round reads.
  const bits = Math.max(4, Math.ceil(Math.log2(read * 2 + 1)));
  const mask = (1 << bits) - 1;
  const slots = new Int32Array(mask + 1);
  for (const row of rows) {
    const text = row.seqs ?? '';
    if (text === '') continue;
    const n = row.list - 1;
    const i = lists[n]?.i ?? 0;
    const floor = Math.fround(lowest[n] ?? 0);
    // `seqs` are decimal integers; `ranks` are runs, `rank count` each, in the rows' order (best
    // first; many rows share a rank): each distinct rank is parsed once.
    const rankText = row.ranks ?? '';
    let at = 0;
    let run = 0;
    let exact = 0;
    let rank = 0;
    let seq = 0;
    for (let p = 0; p <= text.length; p++) {
      const code = p < text.length ? text.charCodeAt(p) : 44;
      if (code !== 44) {
        seq = seq * 10 + (code - 48);
        continue;
      }
      if (run === 0 && at < rankText.length) {
        const space = rankText.indexOf(' ', at);
        const comma = rankText.indexOf(',', space);
        const stop = comma === -1 ? rankText.length : comma;
        exact = Number(rankText.slice(at, space));
        rank = Math.fround(exact);
        run = Number(rankText.slice(space + 1, stop));
        at = stop + 1;
      }
      run--;
      let h = Math.imul(seq | 0, -1640531535) >>> (32 - bits);
      let c = -1;
      for (;;) {
        const slot = slots[h] ?? 0;
        if (slot === 0) {
          c = seqs.length;
          slots[h] = c + 1;
          seqs.push(seq);
          for (let t = 0; t < width; t++) ranks[c * width + t] = unseen[t] ?? 0;
          break;
        }
        if (seqs[slot - 1] === seq) {
          c = slot - 1;
          break;
        }
        h = (h + 1) & mask;
      }
      listOf[entries] = n;
      rankOf[entries] = exact;
      next[entries] = first[c] ?? -1;
      first[c] = entries++;
      const slot = c * width + i;
      ranks[slot] = (ranks[slot] ?? 0) + rank - floor;
      known[slot] = (known[slot] ?? 0) + rank;
      seq = 0;
    }
  }
  // Each candidate's upper bound, and its lower estimate from the ranks read of it alone.
  // (`upperRelevance`'s arithmetic, with each term's IDF and prefix allowance looked up once.)
  const uppers = new Float64Array(seqs.length);
  const lowers = new Float64Array(seqs.length);
  const idfOf = new Float64Array(width);
  const allowance = new Float64Array(width);
  for (let i = 0; i < width; i++) {
    idfOf[i] = idfs[i] ?? 0;
    allowance[i] = terms[i]?.prefix ? 1 + ((stats[i]?.lexemes.length ?? 0) + 1) * 1e-7 : 0;
  }
  for (let c = 0; c < seqs.length; c++) {
    let upper = 0;
    let lower = 0;
    for (let i = 0, at = c * width; i < width; i++, at++) {
      let rank = ranks[at] ?? 0;
      if (rank > 0) {
        const scale = allowance[i] ?? 0;
        if (scale !== 0) rank *= scale;
        upper += contribution(idfOf[i] ?? 0, rank);
      }
      const seen = known[at] ?? 0;
      if (seen > 0) lower += contribution(idfOf[i] ?? 0, seen);
    }
    uppers[c] = upper * (1 + BOUND_MARGIN);
    lowers[c] = lower;
  }
  return {
    seqs,
    uppers,
    lowers,
    exhausted,
    lowest,
    bound: upperRelevance(terms, stats, idfs, unseen),
    read: { first, next, list: listOf, rank: rankOf },
  };
}

/**
 * The `k`-th largest of `values` (1-based; 0 when there are fewer than `k`): what sorting best first
 * and taking element `k − 1` gives, by selection (Hoare's quickselect, linear on average) instead of
 * a full sort. Reorders `values` (pass a scratch copy).
 */
export function kthLargest(values: Float64Array, k: number): number {
  const n = values.length;
  if (k < 1 || k > n) return 0;
  const target = n - k;
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const pivot = values[lo + ((hi - lo) >>> 1)] ?? 0;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] ?? 0) < pivot) i++;
      while ((values[j] ?? 0) > pivot) j--;
      if (i <= j) {
        const swap = values[i] ?? 0;
        values[i] = values[j] ?? 0;
        values[j] = swap;
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break;
  }
  return values[target] ?? 0;
}

/**
 * A PostgreSQL array literal of numbers (`{1,2.5}`): each in JavaScript's shortest form that reads
 * back the same (so a `float8` is passed exactly).
 */
function arrayLiteral(values: readonly number[]): string {
  return `{${values.join(',')}}`;
}

/** Row order of the ranking statements: relevance, best first, then `seq`. */
function byRelevance(a: KeyRow, b: KeyRow): number {
  return Number(b.lexical) - Number(a.lexical) || Number(a.seq) - Number(b.seq);
}

/**
 * The best `budget` of a round's candidates `batch` (indices into `round.seqs`) in scope, with the
 * relevance {@link LEXICAL_BY_TERMS} gives them, to the last bit, best first (ties by `seq`).
 *
 * A candidate's row in a list comes from the round's reading when it was read there (for a term
 * matching any field: every row is a hit), else from a primary-key probe ({@link PROBED_ROWS}),
 * made only where a row can be: in a list not read to its end, or for a term with labels (whether its
 * row is a hit depends on its labels, not read). The arithmetic is then the statement's, in the same
 * order: per term, its lexemes' ranks (in code-point order, the lists' order) added and rounded to
 * `real` after each (`skill_rank_fold`; one lexeme: its rank as `real`), then each term's BM25
 * contribution in `float8`, summed in term order; a candidate is a match when one of its rows is a
 * hit. The matches are then looked up best first ({@link IN_SCOPE}) until `budget` are in scope;
 * with `memory`, those whose account, root and name an earlier find of the search generation read,
 * or that it found outside the same scope, are not looked up again, up to the first that is not kept
 * (so the order is the statement's).
 * (Passing the rows read back to the database to rank there cost more than the probes.)
 */
async function rankBatch(
  db: pg.Pool | pg.ClientBase,
  lists: readonly PostingList[],
  idfs: readonly number[],
  round: RoundRead,
  batch: readonly number[],
  accountId: string,
  roots: readonly string[],
  budget: number,
  memory?: PostingsMemory,
): Promise<KeyRow[]> {
  const { seqs, exhausted, read } = round;
  // In `seq` order: each lexeme's probes then walk its index in order (fewer pages touched).
  const sorted = batch.slice().sort((a, b) => (seqs[a] ?? 0) - (seqs[b] ?? 0));
  const width = lists.length;
  const probeSeqs: number[][] = lists.map(() => []);
  // `readIn[n] === k + 1` when candidate `sorted[k]` was read in list `n`.
  const readIn = new Int32Array(width);
  for (let k = 0; k < sorted.length; k++) {
    const c = sorted[k] ?? 0;
    for (let r = read.first[c] ?? -1; r !== -1; r = read.next[r] ?? -1) readIn[read.list[r] ?? 0] = k + 1;
    for (let n = 0; n < width; n++) {
      const wasRead = readIn[n] === k + 1;
      if ((lists[n]?.labels ?? 0) !== 0 ? wasRead || !exhausted[n] : !wasRead && !exhausted[n])
        probeSeqs[n]?.push(seqs[c] ?? 0);
    }
  }
  const probed: number[] = [];
  for (let n = 0; n < width; n++) if ((probeSeqs[n]?.length ?? 0) > 0) probed.push(n);
  // Each candidate's position in `sorted`, and its probed rows: `first[k]`, then `next[r]`; row `r` is
  // of list `rowList[r]`, with rank `rowRank[r]`, a hit when `rowHit[r]`.
  const at = new Map<number, number>();
  for (let k = 0; k < sorted.length; k++) at.set(seqs[sorted[k] ?? 0] ?? 0, k);
  const first = new Int32Array(sorted.length).fill(-1);
  const next: number[] = [];
  const rowList: number[] = [];
  const rowRank: number[] = [];
  const rowHit: boolean[] = [];
  if (probed.length > 0) {
    const { rows } = await db.query<{ list: number; probed: string }>({
      name: 'skillport-find-probed-rows',
      text: PROBED_ROWS,
      values: [
        probed.map((n) => lists[n]?.lexeme ?? ''),
        // Numbers as array literals: node-postgres would quote and escape each element.
        arrayLiteral(probed.flatMap((n, k) => (probeSeqs[n] ?? []).map(() => k + 1))),
        arrayLiteral(probed.flatMap((n) => probeSeqs[n] ?? [])),
      ],
    });
    for (const row of rows) {
      const n = probed[row.list - 1] ?? 0;
      const labels = lists[n]?.labels ?? 0;
      for (const entry of row.probed.split(',')) {
        const space = entry.indexOf(' ');
        const space2 = entry.indexOf(' ', space + 1);
        const k = at.get(Number(entry.slice(0, space)));
        if (k === undefined) continue;
        rowList.push(n);
        rowRank.push(Number(entry.slice(space + 1, space2)));
        rowHit.push(labels === 0 || (Number(entry.slice(space2 + 1)) & labels) !== 0);
        next.push(first[k] ?? -1);
        first[k] = rowList.length - 1;
      }
    }
  }
  // One candidate's rank per list (NaN: no row), filled from its rows and cleared after.
  const rankOf = new Float64Array(width).fill(Number.NaN);
  const terms = (lists[width - 1]?.i ?? 0) + 1;
  const termRank = new Float64Array(terms);
  const termHas = new Uint8Array(terms);
  const matches: Array<{ seq: number; lexical: number }> = [];
  for (let k = 0; k < sorted.length; k++) {
    const c = sorted[k] ?? 0;
    let hit = false;
    for (let r = read.first[c] ?? -1; r !== -1; r = read.next[r] ?? -1) {
      const n = read.list[r] ?? 0;
      if ((lists[n]?.labels ?? 0) !== 0) continue;
      rankOf[n] = read.rank[r] ?? 0;
      hit = true;
    }
    for (let r = first[k] ?? -1; r !== -1; r = next[r] ?? -1) {
      const n = rowList[r] ?? 0;
      rankOf[n] = rowRank[r] ?? 0;
      hit ||= rowHit[r] === true;
    }
    termRank.fill(0);
    termHas.fill(0);
    for (let n = 0; n < width; n++) {
      const rank = rankOf[n] ?? Number.NaN;
      if (Number.isNaN(rank)) continue;
      const i = lists[n]?.i ?? 0;
      termRank[i] = Math.fround((termRank[i] ?? 0) + rank);
      termHas[i] = 1;
      rankOf[n] = Number.NaN;
    }
    if (!hit) continue;
    let lexical = 0;
    for (let i = 0; i < terms; i++)
      if (termHas[i] === 1) lexical += contribution(idfs[i] ?? 0, termRank[i] ?? 0);
    matches.push({ seq: seqs[c] ?? 0, lexical });
  }
  if (matches.length === 0) return [];
  matches.sort((a, b) => b.lexical - a.lexical || a.seq - b.seq);
  // The matches whose place is kept from earlier finds of this search generation are decided here,
  // best first, up to the first that is not: it and the matches after it are looked up.
  const scope = memory === undefined ? '' : JSON.stringify([accountId, roots]);
  const found: KeyRow[] = [];
  let from = 0;
  for (; from < matches.length && found.length < budget; from++) {
    const match = matches[from];
    if (match === undefined) break;
    const kept = memory?.stats.keptScope(memory.generation, scope, match.seq);
    if (kept === undefined) break;
    if (kept !== 'outside' && kept.account === accountId && roots.includes(kept.root))
      found.push({ seq: kept.seq, name: kept.name, root_uri: kept.root, lexical: match.lexical });
  }
  if (found.length === budget || from === matches.length) return found;
  const rest = matches.slice(from);
  const wanted = budget - found.length;
  const { rows } = await db.query<{ seq: number; name: string; root_uri: string }>({
    name: 'skillport-find-in-scope',
    text: IN_SCOPE,
    values: [arrayLiteral(rest.map((m) => m.seq)), accountId, roots, wanted],
  });
  const relevance = new Map(rest.map((m) => [m.seq, m.lexical]));
  for (const row of rows) {
    const seq = Number(row.seq);
    memory?.stats.keepScope(memory.generation, row.seq, accountId, row.root_uri, row.name);
    found.push({ seq: row.seq, name: row.name, root_uri: row.root_uri, lexical: relevance.get(seq) ?? 0 });
  }
  if (memory !== undefined) {
    // The statement returns the first `wanted` in scope, in order: those it passed over before its
    // last row (all of them when it returned fewer) are outside the scope.
    const returned = new Set(rows.map((row) => Number(row.seq)));
    const last =
      rows.length < wanted ? rest.length : rest.findIndex((m) => m.seq === Number(rows.at(-1)?.seq));
    for (let k = 0; k < last; k++) {
      const seq = rest[k]?.seq ?? 0;
      if (!returned.has(seq)) memory.stats.keepOutside(memory.generation, scope, seq);
    }
  }
  return found;
}

/**
 * The best `budget` lexical matches in scope, exactly as {@link LEXICAL_BY_TERMS} ranks them, reading
 * each lexeme's rows best first (a threshold algorithm): per round, the best `depth` rows of every
 * lexeme of the query give the candidate skills (a deeper round reads on from where the round before
 * stopped, {@link readPostings}). A skill not among them has, for every lexeme, a
 * rank at most the lowest rank read (none when every row was read), so its relevance is at most the
 * sum of those ranks' contributions (the bound); a candidate's, at most that with the ranks read of it
 * instead ({@link upperEstimates}). When fewer than `budget` candidates can end above the bound, the
 * round cannot settle and reads deeper at once. Otherwise the candidates are ranked exactly
 * ({@link rankBatch}), those with the best estimates first, then only the others whose
 * estimate reaches the `budget`-th relevance found. When the `budget`-th candidate is above the bound,
 * no other skill can enter and the candidates are the answer. Otherwise a deeper round; after
 * {@link MAX_ROUNDS}, null (the caller ranks every row).
 */
async function thresholdCandidates(
  db: pg.Pool | pg.ClientBase,
  terms: readonly RankTerm[],
  stats: readonly TermStats[],
  idfs: readonly number[],
  accountId: string,
  roots: readonly string[],
  budget: number,
  firstDepth: number,
  memory?: PostingsMemory,
): Promise<KeyRow[] | null> {
  const lists: PostingList[] = terms.flatMap((term, i) =>
    (stats[i]?.lexemes ?? []).map((lexeme) => ({ lexeme, i, prefix: term.prefix, labels: term.labels })),
  );
  if (lists.length === 0) return [];
  if (lists.length > MAX_LISTS || budget <= 0) {
    thresholdOutcomes.fallback++;
    return null;
  }
  const rank = (batch: readonly number[], round: RoundRead): Promise<KeyRow[]> =>
    rankBatch(db, lists, idfs, round, batch, accountId, roots, budget, memory);
  let depth = firstDepth;
  let postings: PostingsRead[] | null = null;
  for (let round = 0; round < MAX_ROUNDS; round++, depth *= DEPTH_GROWTH) {
    postings = await readPostings(db, lists, depth, postings, depth / DEPTH_GROWTH, memory);
    const reading = readRound(terms, stats, idfs, lists, postings, depth);
    const { seqs, uppers, lowers, exhausted, bound } = reading;
    const done = exhausted.every(Boolean);
    // Before the last round, a round whose `budget`-th candidate is not shown above the bound by the
    // ranks read of it reads deeper at once: ranking its candidates would most likely not settle, and
    // reading deeper costs less than ranking (the last round ranks whatever it read).
    if (!done && round < MAX_ROUNDS - 1) {
      const kthLower = kthLargest(lowers.slice(), budget);
      if (!(kthLower > bound)) {
        thresholdOutcomes.deeper++;
        continue;
      }
    }
    // Candidates are ranked exactly in batches, best upper estimate first, each batch larger; those
    // whose estimate is below the `budget`-th relevance found cannot enter and are dropped. The
    // `budget`-th relevance can end no higher than the `budget`-th of those found and of the best
    // estimates left: when that is not above the bound, the round cannot settle and reads deeper.
    let rows: KeyRow[] = [];
    // The candidates left (indices into `seqs`), in order: the first `count` of `left`, compacted in
    // place as candidates are dropped or taken into a batch (no array made per pass over them: a deep
    // round has tens of thousands).
    const left = new Int32Array(seqs.length);
    for (let c = 0; c < seqs.length; c++) left[c] = c;
    let count = seqs.length;
    let dropped = false;
    let settles = true;
    for (let size = budget * FIRST_RANKED_PER_RESULT; count > 0; size *= BATCH_GROWTH) {
      if (rows.length >= budget) {
        const kth = Number(rows[budget - 1]?.lexical);
        let kept = 0;
        for (let k = 0; k < count; k++) {
          const c = left[k] ?? 0;
          if ((uppers[c] ?? 0) >= kth) left[kept++] = c;
        }
        dropped ||= kept < count;
        count = kept;
        if (count === 0) break;
      }
      if (!done) {
        // The `budget`-th of the relevances found and of the estimates left.
        const reachable = new Float64Array(rows.length + count);
        for (let k = 0; k < rows.length; k++) reachable[k] = Number(rows[k]?.lexical);
        for (let k = 0; k < count; k++) reachable[rows.length + k] = uppers[left[k] ?? 0] ?? 0;
        const reach = kthLargest(reachable, budget);
        if (!(reach > bound)) {
          settles = false;
          break;
        }
      }
      const batch: number[] = [];
      if (count > size) {
        // The first batch: the best by the ranks read of them (likely the top, so the `budget`-th
        // relevance found is high at once and prunes the most); then the best upper estimates. The
        // batch: those above the `size`-th value, then the first of those at it (in `left`'s order)
        // up to `size`; the others stay in `left`, in order.
        const order = rows.length === 0 ? lowers : uppers;
        const values = new Float64Array(count);
        for (let k = 0; k < count; k++) values[k] = order[left[k] ?? 0] ?? 0;
        const cut = kthLargest(values, size);
        let above = 0;
        for (let k = 0; k < count; k++) if ((order[left[k] ?? 0] ?? 0) > cut) above++;
        let ties = size - above;
        const atCut: number[] = [];
        let kept = 0;
        for (let k = 0; k < count; k++) {
          const c = left[k] ?? 0;
          const value = order[c] ?? 0;
          if (value > cut) batch.push(c);
          else if (value === cut && ties > 0) {
            atCut.push(c);
            ties--;
          } else left[kept++] = c;
        }
        for (const c of atCut) batch.push(c);
        count = kept;
      } else {
        for (let k = 0; k < count; k++) batch.push(left[k] ?? 0);
        count = 0;
      }
      const ranked = await rank(batch, reading);
      rows = [...rows, ...ranked].sort(byRelevance).slice(0, budget);
    }
    if (dropped) thresholdOutcomes.pruned++;
    if (!settles) continue;
    if (done) {
      thresholdOutcomes.exhausted++;
      return rows;
    }
    if (rows.length < budget) continue;
    // Bound of an unseen skill: per term, its rank is at most the lowest read.
    const last = Number(rows[rows.length - 1]?.lexical);
    if (last > bound) {
      thresholdOutcomes.bound++;
      return rows;
    }
  }
  thresholdOutcomes.fallback++;
  return null;
}

/**
 * For a query with a phrase (`PostgresTermStats` otherwise): number of skills, and of skills
 * matching each term (document frequencies, for IDF), counted from the GIN index (`skill_document_frequencies`, migration 3: sequential scans off, as above).
 */
const FREQUENCIES = `SELECT (SELECT count(*) FROM skills) AS n, skill_document_frequencies($1::tsquery[]) AS df`;

/** FTS5's IDF: `ln((N − n + 0.5) / (n + 0.5))`, at least 1e-6 (a term in most documents still counts a little). */
function idf(total: number, matching: number): number {
  const value = Math.log((total - matching + 0.5) / (matching + 0.5));
  return value > 0 ? value : 1e-6;
}

const BY_NAME = `SELECT seq, name, root_uri, 0::float8 AS lexical FROM skills
  WHERE account_id = $1 AND lower(name) = ANY($2::text[]) AND root_uri = ANY($3::text[])`;

/**
 * {@link BY_NAME} and, in the same snapshot, the search generation: one row with a null `seq` when no
 * name is the query. A find that ranks with kept rankings reads both in one round trip.
 * `skill_find_named` (PostgreSQL migration 18) runs
 *
 * ```sql
 * SELECT g.generation, s.seq, s.name, s.root_uri
 *   FROM (SELECT sum(n)::text AS generation FROM skill_search_generation) AS g
 *   LEFT JOIN skills s ON s.account_id = account AND lower(s.name) = ANY(names) AND s.root_uri = ANY(roots)
 * ```
 *
 * under `force_generic_plan`, so each connection plans it once: as a prepared statement of its own it
 * was planned again on every call (its generic plan, the same index lookup, never looked cheaper than
 * a plan for the arrays at hand), which cost several times its run.
 */
const BY_NAME_AND_GENERATION = `SELECT generation, seq, name, root_uri, 0::float8 AS lexical
  FROM skill_find_named($1, $2::text[], $3::text[])`;

const BY_SIMILAR_NAME = `SELECT seq, name, root_uri, similarity(lower(name), $2) * $5 AS lexical FROM skills
  WHERE account_id = $1 AND root_uri = ANY($3::text[]) AND lower(name) % $2 AND similarity(lower(name), $2) >= $6
  ORDER BY lexical DESC, seq LIMIT $4`;

/**
 * The best `budget` lexical matches in scope, with BM25-scale relevance, best first (ties by `seq`).
 *
 * @param parsed - from `parseSearchQuery`
 * @param terms - `buildTsqueryTerms(parsed)` (not empty)
 * @param via - `terms` reads `skill_terms` best first and stops early ({@link thresholdCandidates};
 *   every row, {@link LEXICAL_BY_TERMS}, when that does not settle) unless the query has a phrase;
 *   `all-terms` always reads every row; `vectors` ranks the stored vectors ({@link LEXICAL}); all give
 *   the same rows (tests compare them)
 * @param termStats - the store's memory of document frequencies and of postings read, per search
 *   generation (a new one: count and read every time)
 * @param firstDepth - rows read per lexeme in the first round (default: 4 per result, one per 128
 *   stored skills, at least 64)
 * @param generation - the search generation just read by the caller, if it did (passed to `termStats`)
 */
export async function lexicalCandidates(
  db: pg.Pool | pg.ClientBase,
  parsed: SearchQuery,
  terms: string[],
  accountId: string,
  roots: string[],
  budget: number,
  via: 'terms' | 'all-terms' | 'vectors' = 'terms',
  termStats: PostgresTermStats = new PostgresTermStats(),
  firstDepth?: number,
  generation?: string,
): Promise<KeyRow[]> {
  const byTerms = via === 'vectors' ? null : buildRankTerms(parsed);
  if (byTerms !== null) {
    const { total, stats, generation: counted } = await termStats.read(db, byTerms, generation);
    const idfs = stats.map((s) => idf(total, s.df));
    if (via === 'terms') {
      const depth =
        firstDepth ??
        Math.max(FIRST_DEPTH, budget * FIRST_DEPTH_PER_RESULT, Math.ceil(total / SKILLS_PER_FIRST_ROW));
      const found = await thresholdCandidates(db, byTerms, stats, idfs, accountId, roots, budget, depth, {
        stats: termStats,
        generation: counted,
      });
      if (found !== null) return found;
    }
    // Unnamed, so planned for its parameters each time: as a prepared statement it may switch to a
    // generic plan, which ranked every row of "python data analysis" at 100,000 skills 3.5–5× slower.
    const { rows } = await db.query<KeyRow>({
      text: LEXICAL_BY_TERMS,
      values: [
        byTerms.map((t) => t.lexeme),
        byTerms.map((t) => t.prefix),
        byTerms.map((t) => t.labels),
        idfs,
        accountId,
        roots,
        budget,
        FREQUENCY_SCALE,
        BM25_K1 + 1,
        BM25_K1,
      ],
    });
    return rows;
  }
  const frequencies = await db.query<{ n: string; df: string[] }>({ text: FREQUENCIES, values: [terms] });
  const total = Number(frequencies.rows[0]?.n ?? 0);
  const idfs = (frequencies.rows[0]?.df ?? []).map((df) => idf(total, Number(df)));
  const { rows } = await db.query<KeyRow>(LEXICAL, [
    terms.join(' | '),
    accountId,
    roots,
    budget,
    terms,
    idfs,
    RANK_WEIGHTS,
    FREQUENCY_SCALE,
    BM25_K1 + 1,
    BM25_K1,
  ]);
  return rows;
}

/**
 * The caller's skills whose stored vector stands out for the query (`semanticMatches` over the
 * process's in-memory copy, caught up first), kept only when still in scope (the copy may lag a
 * delete by a moment).
 */
async function semanticCandidates(
  db: pg.Pool | pg.ClientBase,
  semantic: { query: SemanticQuery; cache: PostgresVectorCache },
  accountId: string,
  roots: string[],
  budget: number,
  lexicalKeys: ReadonlySet<number>,
): Promise<Array<SearchCandidate<number>>> {
  await semantic.cache.refresh(db);
  const scoped = semantic.cache.inScope(accountId, new Set(roots), semantic.query.model);
  const matches = semanticMatches(semantic.query.vector, scoped, Math.max(budget, SEMANTIC_CANDIDATES), {
    lexicalKeys,
    ...(semantic.query.semanticOnlyMinZ !== undefined
      ? { semanticOnlyMinZ: semantic.query.semanticOnlyMinZ }
      : {}),
  });
  if (matches.length === 0) return [];
  const { rows } = await db.query<{ seq: number }>(
    'SELECT seq FROM skills WHERE seq = ANY($1::bigint[]) AND account_id = $2 AND root_uri = ANY($3::text[])',
    [matches.map((m) => m.key), accountId, roots],
  );
  const live = new Set(rows.map((row) => row.seq));
  return matches
    .filter((m) => live.has(m.key))
    .map((m) => ({ key: m.key, name: m.name, rootUri: m.rootUri, lexical: 0, semantic: m.semantic }));
}

/**
 * The search generation and, in the same snapshot, the rows a kept ranking's hits show ($1 their
 * `seq`s): one row with a null `seq` when none is left. No overview: see {@link OVERVIEWS}.
 */
const KEPT_HITS = `SELECT g.generation, ${SEARCH_HIT_COLUMNS}
  FROM (SELECT sum(n)::text AS generation FROM skill_search_generation) AS g
  LEFT JOIN skills ON seq = ANY($1::bigint[])`;

/** The rows a ranking's hits show ($1 their `seq`s). No overview: see {@link OVERVIEWS}. */
const HITS = `SELECT ${SEARCH_HIT_COLUMNS} FROM skills WHERE seq = ANY($1::bigint[])`;

/**
 * The L1 overviews of the hits that need one ($1 their `seq`s): only a hit without a match in its
 * name, tags or description looks at its overview (`toSearchHit`), under 1% of hits, so the rows of
 * every hit are read without it (an overview is ~2 KB, most of a hit's row, to decompress and send)
 * and the few overviews needed in a second read.
 */
const OVERVIEWS = 'SELECT seq, overview FROM skills WHERE seq = ANY($1::bigint[])';

/**
 * The hits of a ranking, from the rows read of them (a ranked skill without a row is left out); the
 * overviews of hits that need one are read then ({@link OVERVIEWS}), in a snapshot of their own: a
 * skill deleted meanwhile shows no overview match, one whose processing job wrote its overview
 * meanwhile is matched against the new one (as a find a moment later would).
 */
async function hitsOf(
  db: pg.Pool | pg.ClientBase,
  parsed: SearchQuery,
  top: ReadonlyArray<RankedCandidate<number>>,
  rows: readonly SearchHitRow[],
): Promise<SearchHit[]> {
  const bySeq = new Map<number, SearchHitRow>();
  for (const row of rows) if (row.seq !== null) bySeq.set(row.seq, row);
  // Hits whose overview `toSearchHit` asked for (`at`: their place in `hits`), made again once read.
  const needing: Array<{ at: number; hit: RankedCandidate<number>; row: SearchHitRow }> = [];
  const hits: SearchHit[] = [];
  for (const hit of top) {
    const row = bySeq.get(hit.key);
    if (row === undefined) continue;
    const at = hits.length;
    hits.push(
      toSearchHit(parsed, hit, toSearchSource(row), () => {
        needing.push({ at, hit, row });
        return null;
      }),
    );
  }
  if (needing.length === 0) return hits;
  const { rows: overviews } = await db.query<{ seq: number; overview: string | null }>({
    name: 'skillport-find-hit-overviews',
    text: OVERVIEWS,
    values: [needing.map(({ hit }) => hit.key)],
  });
  const overviewOf = new Map(overviews.map((row) => [Number(row.seq), row.overview]));
  for (const { at, hit, row } of needing) {
    hits[at] = toSearchHit(parsed, hit, toSearchSource(row), () => overviewOf.get(hit.key) ?? null);
  }
  return hits;
}

/**
 * `Store.search` on PostgreSQL: produces the candidates of `find`, ranked by the engine-neutral
 * `ranking.ts` exactly as on SQLite.
 *
 * 1. The query's tokens become a `tsquery` over the weighted `tsvector` (`postgres-text.ts`): words
 *    OR-ed, the last one also as a prefix, CJK runs as phrases of bigrams; a query of stop words only
 *    searches name, tags and description.
 * 2. Candidates: the best `limit × roots` matches in the caller's roots by BM25 over `ts_rank` with
 *    the field weights (per-term rows of `skill_terms` read best first, stopping once no unseen skill
 *    can enter, with document frequencies kept per search generation; the GIN index for phrases),
 *    plus skills whose name is the query; when these are fewer than `limit`,
 *    names similar to the query (`pg_trgm`, typo tolerance).
 * 3. With a query vector: the caller's skills with a stored vector of the same model are scored by
 *    `semanticMatches` (brute-force cosine over the process's in-memory copy of the vectors): the
 *    lexical candidates (then the best 50) whose meaning agrees gain semantic relevance, and skills
 *    that stand out by meaning alone are candidates too.
 * 4. `rankCandidates` fuses, ranks, de-duplicates across roots and cuts to `limit`; the kept rows are
 *    read (the columns a hit needs, and the overview) and turned into hits by `toSearchHit`.
 *
 * With `answers`, a lexical query asked again while the search generation is unchanged (no skill
 * added, deleted or re-indexed by any replica since) skips steps 1–4 but the row read: one statement
 * reads the generation and the kept hits' rows ({@link PostgresFindAnswers} says why that is exact).
 *
 * @param answers - the process's kept rankings (none: rank every time)
 * @returns hits, best first
 */
export async function searchSkillsPostgres(
  db: pg.Pool | pg.ClientBase,
  accountId: string,
  rootUris: readonly string[],
  query: string,
  limit: number,
  semantic?: { query: SemanticQuery; cache: PostgresVectorCache },
  termStats?: PostgresTermStats,
  answers?: PostgresFindAnswers,
): Promise<SearchHit[]> {
  const max = Math.max(0, Math.floor(limit));
  const answerKey =
    answers === undefined || semantic !== undefined
      ? null
      : JSON.stringify([accountId, rootUris, query, max]);
  const kept = answerKey === null ? undefined : answers?.get(answerKey);
  const parsed = kept?.parsed ?? parseSearchQuery(query);
  const terms = buildTsqueryTerms(parsed);
  if ((terms.length === 0 && semantic === undefined) || max === 0 || rootUris.length === 0) return [];
  // The generation this find ranks in (or after): read with the kept ranking's rows, else with the
  // skills whose name is the query.
  let generation: string | undefined;
  let namedFirst: KeyRow[] | undefined;
  if (kept !== undefined) {
    const { rows } = await db.query<SearchHitRow & { generation: string }>({
      name: 'skillport-find-kept-hits',
      text: KEPT_HITS,
      values: [kept.top.map((hit) => hit.key)],
    });
    generation = rows[0]?.generation;
    if (generation === kept.generation) return hitsOf(db, kept.parsed, kept.top, rows);
  } else if (answerKey !== null) {
    const { rows } = await db.query<KeyRow & { generation: string }>({
      name: 'skillport-find-named-generation',
      text: BY_NAME_AND_GENERATION,
      values: [accountId, parsed.nameKeys, [...rootUris]],
    });
    generation = rows[0]?.generation ?? '0';
    namedFirst = rows.filter((row) => row.seq !== null);
  }
  const roots = [...rootUris];
  const budget = candidateBudget(max, roots.length);
  const toCandidate = (row: KeyRow): SearchCandidate<number> => ({
    key: row.seq,
    name: row.name,
    rootUri: row.root_uri,
    lexical: Number(row.lexical),
  });
  // With a query vector, more lexical candidates: their meaning may lift one into the top `limit`.
  const [lexical, named] = await Promise.all([
    terms.length === 0
      ? []
      : lexicalCandidates(
          db,
          parsed,
          terms,
          accountId,
          roots,
          semantic === undefined ? budget : Math.max(budget, SEMANTIC_CANDIDATES),
          'terms',
          termStats,
          undefined,
          generation,
        ),
    namedFirst ??
      db.query<KeyRow>(BY_NAME, [accountId, parsed.nameKeys, roots]).then((result) => result.rows),
  ]);
  const meaning =
    semantic === undefined
      ? []
      : await semanticCandidates(
          db,
          semantic,
          accountId,
          roots,
          budget,
          new Set(lexical.map((row) => row.seq)),
        );
  const candidates = [...lexical.map(toCandidate), ...named.map(toCandidate), ...meaning];
  const typed = similarityText(query);
  if (new Set(candidates.map((c) => c.name)).size < max && typed !== '' && terms.length > 0) {
    const similar = await db.query<KeyRow>(BY_SIMILAR_NAME, [
      accountId,
      typed,
      roots,
      budget,
      TRIGRAM_SCALE,
      MIN_NAME_SIMILARITY,
    ]);
    candidates.push(...similar.rows.map(toCandidate));
  }
  const top = rankCandidates(parsed, candidates, rootUris, max);
  if (answers !== undefined && answerKey !== null && generation !== undefined) {
    answers.set(answerKey, { generation, parsed, top });
  }
  if (top.length === 0) return [];
  const { rows } = await db.query<SearchHitRow>({
    name: 'skillport-find-hits',
    text: HITS,
    values: [top.map((hit) => hit.key)],
  });
  return hitsOf(db, parsed, top, rows);
}
