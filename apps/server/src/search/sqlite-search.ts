import type { Connection } from '../store/sqlite/connection.js';
import { type SkillRow, toSkillRecord } from '../store/sqlite/rows.js';
import type { VectorCache } from '../store/sqlite/vector-ops.js';
import type { SearchHit, SemanticQuery } from '../store/types.js';
import { buildMatchExpression } from './fts-query.js';
import {
  candidateBudget,
  parseSearchQuery,
  rankCandidates,
  type SearchCandidate,
  SHORT_FIELDS,
  toSearchHit,
} from './ranking.js';
import { FIELD_WEIGHTS, SEARCH_FIELDS } from './score.js';
import { semanticMatches } from './semantic.js';
import { corrections, isCorrectable } from './typo.js';

const WEIGHTS = SEARCH_FIELDS.map((field) => FIELD_WEIGHTS[field]).join(', ');

/** Ranking over the whole index (no join): fast when the caller's roots hold most of the index. */
const RANK_ALL = `SELECT rowid AS seq, -bm25(skills_fts, ${WEIGHTS}) AS raw FROM skills_fts
  WHERE skills_fts MATCH ? ORDER BY raw DESC LIMIT ?`;

/** Ranking restricted to the caller's roots (join per match): exact, used when the fast path falls short. */
const RANK_SCOPED = `SELECT s.seq AS seq, -bm25(skills_fts, ${WEIGHTS}) AS raw
  FROM skills_fts JOIN skills s ON s.seq = skills_fts.rowid
  WHERE skills_fts MATCH ? AND s.account_id = ? AND s.root_uri IN (SELECT value FROM json_each(?))
  ORDER BY raw DESC LIMIT ?`;

/** Light rows (no body) of ranked candidates that lie in the caller's scope. */
const KEYS_IN_SCOPE = `SELECT s.seq, s.name, s.root_uri FROM json_each(?) AS j CROSS JOIN skills AS s ON s.seq = j.value
  WHERE s.account_id = ? AND s.root_uri IN (SELECT value FROM json_each(?))`;
// CROSS JOIN / INDEXED BY: by-rowid and by-name lookups, not a scan of the (account, root) index.

const KEYS_BY_NAME = `SELECT seq, name, root_uri FROM skills INDEXED BY skills_by_lower_name WHERE account_id = ?
  AND lower(name) IN (SELECT value FROM json_each(?)) AND root_uri IN (SELECT value FROM json_each(?))`;

const ROWS_BY_SEQ = 'SELECT * FROM skills WHERE seq IN (SELECT value FROM json_each(?))';

/** Whether any indexed text holds the word (`*`: as a prefix), through the index's own tokenizer. */
const KNOWN_TERM = 'SELECT 1 FROM skills_fts WHERE skills_fts MATCH ? LIMIT 1';
/** Index terms (stems) starting with a prefix, with the number of skills holding each. */
const TERMS_FROM = 'SELECT term, doc AS docs FROM skills_fts_vocab WHERE term >= ? AND term < ?';

/** How long a vocabulary slice is reused, ms (new words reach typo correction within this time). */
const TERM_CACHE_MS = 5 * 60_000;
/** Vocabulary slices kept. */
const TERM_CACHE_SLICES = 512;

/**
 * Slices of the index vocabulary by two-letter prefix, kept for {@link TERM_CACHE_MS}: reading a
 * slice counts the skills of each of its terms (a few ms at 10,000 skills), so repeated typos of
 * the same letters cost nothing.
 */
export class TermCache {
  /** The relevance of recent query phrases in each skill (valid while the database is unchanged). */
  readonly scores = new PhraseScores();
  private readonly slices = new Map<string, { at: number; terms: Array<{ term: string; docs: number }> }>();

  /** The terms starting with `prefix` (two letters). */
  slice(conn: Connection, prefix: string): Array<{ term: string; docs: number }> {
    const now = performance.now();
    const hit = this.slices.get(prefix);
    if (hit !== undefined && now - hit.at < TERM_CACHE_MS) return hit.terms;
    const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const terms = conn.stmt(TERMS_FROM).all(prefix, upper) as Array<{ term: string; docs: number }>;
    this.slices.delete(prefix);
    this.slices.set(prefix, { at: now, terms });
    if (this.slices.size > TERM_CACHE_SLICES) this.slices.delete(this.slices.keys().next().value as string);
    return terms;
  }
}

/**
 * Index terms to search besides the query's words, for each word that no indexed text contains and
 * that looks misspelt (see `search/typo.ts`): the closest terms sharing its first letter and either
 * its second or its third (a typo in the very first letters is not corrected).
 */
function typoCorrections(
  conn: Connection,
  terms: TermCache,
  tokens: readonly string[],
  prefixLast: boolean,
): string[] {
  const extra: string[] = [];
  tokens.forEach((token, index) => {
    if (!isCorrectable(token)) return;
    const asPrefix = prefixLast && index === tokens.length - 1;
    if (terms.scores.holds(conn, `"${token}"${asPrefix ? '*' : ''}`)) return;
    const prefixes = [...new Set([token.slice(0, 2), `${token[0]}${token[2]}`])];
    const vocabulary = prefixes.flatMap((prefix) => terms.slice(conn, prefix));
    for (const term of corrections(token, vocabulary)) {
      if (!tokens.includes(term) && !extra.includes(term)) extra.push(term);
    }
  });
  return extra;
}

/** The FTS5 expression OR-ing `phrases`, under a column filter when `columns` is given. */
function phraseQuery(phrases: readonly string[], columns: readonly string[] | undefined): string {
  const joined = phrases.join(' OR ');
  return columns === undefined ? joined : `{${columns.join(' ')}} : (${joined})`;
}

/** Semantic candidates considered at least (a skill found by meaning and by words counts once). */
const SEMANTIC_CANDIDATES = 50;

/** The fast path reads this many times the needed candidates before filtering by account and root. */
const OVERFETCH = 4;

interface KeyRow {
  seq: number;
  name: string;
  root_uri: string;
}

/** Every match of one phrase with the relevance `bm25()` gives it, by rowid. */
const PHRASE_SCORES = `SELECT rowid, -bm25(skills_fts, ${WEIGHTS}) FROM skills_fts WHERE skills_fts MATCH ?
  ORDER BY rowid`;
/** Changes by this connection and commits by others: equal values mean an unchanged database. */
const VERSION = 'SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v';

/** Matches (skill, relevance) kept per connection by {@link PhraseScores}: ~12 bytes each. */
export const MAX_CACHED_MATCHES = 1_000_000;

/** Phrases whose asks are counted per database state (see {@link PhraseScores.worthReading}). */
const PHRASE_CACHE_SEEN = 4096;

/**
 * The ask of a phrase, in one database state, at which its matches are read, unless the previous
 * state predicts enough asks: reading them costs about two exhaustive rankings (~1.9× measured at
 * 10,000 skills) and a ranking from them ~0.4×, so after three exhaustive asks the read is worth it
 * (the most it can lose, when the state ends right after, is under one ranking in four asks).
 */
const READ_AT_ASK = 4;

/**
 * Asks of a phrase in the previous database state from which its matches are read on its second ask
 * in this one (≥ 3.5 asks per state pay for a read on the second): under a steady trickle of writes
 * the previous state's asks predict this one's, so a phrase asked too rarely between two commits is
 * never read (find then costs what the exhaustive ranking costs) and one asked often is read early.
 */
const PREDICTED_ASKS = 4;

/** The matches of one phrase: skill seqs ascending and the relevance of the phrase in each. */
interface PhraseMatches {
  seqs: Int32Array;
  scores: Float64Array;
}

/**
 * The relevance of each query phrase in each skill holding it (and whether the index holds a query
 * word, for typo tolerance), kept while the database is unchanged
 * (this connection's `total_changes()` and `data_version`, which moves on another connection's
 * commit), at most {@link MAX_CACHED_MATCHES} matches (once full, further phrases are not kept).
 *
 * FTS5's `bm25()` is a sum over the query's phrases, in query order, of a term that depends only on
 * the phrase (its document frequency), the skill (its instances of the phrase, its length) and the
 * index (row count, average length): the term `bm25()` computes for a query of that phrase alone.
 * Adding the kept terms in query order therefore gives exactly the `bm25()` of the whole query, and a
 * query whose words were searched before costs a merge of their matches instead of scoring every
 * skill that holds a common word again.
 */
export class PhraseScores {
  private version = '';
  private matches = 0;
  private readonly byPhrase = new Map<string, PhraseMatches>();
  /** Asks of each phrase in this database state (see {@link PhraseScores.worthReading}). */
  private asks = new Map<string, number>();
  /** Asks of each phrase in the previous database state in which find ran on this connection. */
  private previous = new Map<string, number>();
  /** Whether the index holds a word (typo tolerance asks per query word), in this database state. */
  private readonly known = new Map<string, boolean>();

  /** Matches kept now (skill and relevance pairs, all phrases). */
  get size(): number {
    return this.matches;
  }

  /** Forgets everything when the database changed since the last call. */
  sync(conn: Connection): void {
    const { c, v } = conn.stmt(VERSION).get() as { c: number; v: number };
    const version = `${v}.${c}`;
    if (version === this.version) return;
    this.version = version;
    this.byPhrase.clear();
    this.previous = this.asks;
    this.asks = new Map();
    this.known.clear();
    this.matches = 0;
  }

  /** Whether any indexed text holds `phrase` (an FTS5 expression), asked once per database state. */
  holds(conn: Connection, phrase: string): boolean {
    let known = this.known.get(phrase);
    if (known === undefined) {
      known = conn.stmt(KNOWN_TERM).get(phrase) !== undefined;
      if (this.known.size >= PHRASE_CACHE_SEEN) this.known.clear();
      this.known.set(phrase, known);
    }
    return known;
  }

  /**
   * Whether the query of `phrases` should be ranked from kept matches (and counts this ask of each
   * phrase): true when each phrase is kept, or is asked for the {@link READ_AT_ASK}th time in this
   * database state, or for the second time when it was asked at least {@link PREDICTED_ASKS} times
   * in the previous state. Reading a phrase's matches costs about two exhaustive rankings, so a
   * phrase asked rarely between two commits is left to the exhaustive ranking: find under a steady
   * trickle of writes costs no more than without kept matches.
   */
  worthReading(phrases: readonly string[]): boolean {
    let worth = true;
    for (const phrase of phrases) {
      // Counted while kept too: the next state's prediction.
      const asked = (this.asks.get(phrase) ?? 0) + 1;
      if (!this.asks.has(phrase) && this.asks.size >= PHRASE_CACHE_SEEN) this.asks.clear();
      this.asks.set(phrase, asked);
      if (this.byPhrase.has(phrase) || asked >= READ_AT_ASK) continue;
      if (asked >= 2 && (this.previous.get(phrase) ?? 0) >= PREDICTED_ASKS) continue;
      worth = false;
    }
    return worth;
  }

  /**
   * The matches of `phrase` (an FTS5 expression of one phrase, with its column filter), read once
   * per database state; null when they do not fit in the cache (nothing is dropped to make room).
   */
  get(conn: Connection, phrase: string): PhraseMatches | null {
    const hit = this.byPhrase.get(phrase);
    if (hit !== undefined) return hit;
    // Full: nothing is dropped (a cycle of queries larger than the cache would read on every ask).
    if (this.matches >= MAX_CACHED_MATCHES) return null;
    // Row by row into typed arrays (grown by doubling): reading all rows first would hold an array
    // per row, ~80 bytes each, for a word held by most of 100,000 skills, in every search reader.
    let seqs = new Int32Array(1024);
    let scores = new Float64Array(1024);
    let count = 0;
    const rows = conn.stmt(PHRASE_SCORES).raw(true).iterate(phrase) as IterableIterator<[number, number]>;
    for (const [seq, raw] of rows) {
      if (this.matches + count >= MAX_CACHED_MATCHES) return null;
      if (seq > 0x7fffffff || seq < 0) return null;
      if (count === seqs.length) {
        const moreSeqs = new Int32Array(count * 2);
        moreSeqs.set(seqs);
        seqs = moreSeqs;
        const moreScores = new Float64Array(count * 2);
        moreScores.set(scores);
        scores = moreScores;
      }
      seqs[count] = seq;
      scores[count] = raw;
      count++;
    }
    const matches = { seqs: seqs.slice(0, count), scores: scores.slice(0, count) };
    this.byPhrase.set(phrase, matches);
    this.matches += count;
    return matches;
  }
}

/**
 * The best `wanted` skills of the whole index for the query made of `phrases` (OR-ed), by relevance
 * then rowid — what `RANK_ALL` returns — from the phrases' kept matches; null when a phrase's matches
 * cannot be kept or a phrase is new (the caller then ranks exhaustively).
 */
function rankFromPhrases(
  conn: Connection,
  cache: PhraseScores,
  phrases: readonly string[],
  wanted: number,
): Array<{ seq: number; raw: number }> | null {
  cache.sync(conn);
  if (!cache.worthReading(phrases)) return null;
  const lists: PhraseMatches[] = [];
  for (const phrase of phrases) {
    const list = cache.get(conn, phrase);
    if (list === null) return null;
    lists.push(list);
  }
  const at = new Array<number>(lists.length).fill(0);
  // Best first; ties keep the lower rowid first (it comes first and only a higher score displaces it).
  const top: Array<{ seq: number; raw: number }> = [];
  for (;;) {
    let seq = Number.POSITIVE_INFINITY;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i] as PhraseMatches;
      const j = at[i] as number;
      if (j < list.seqs.length && (list.seqs[j] as number) < seq) seq = list.seqs[j] as number;
    }
    if (seq === Number.POSITIVE_INFINITY) break;
    // In phrase order, as bm25() adds them (a phrase the skill lacks adds 0).
    let raw = 0;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i] as PhraseMatches;
      const j = at[i] as number;
      if (j < list.seqs.length && list.seqs[j] === seq) {
        raw += list.scores[j] as number;
        at[i] = j + 1;
      }
    }
    if (top.length === wanted && !(raw > (top[top.length - 1] as { raw: number }).raw)) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((top[mid] as { raw: number }).raw >= raw) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, { seq, raw });
    if (top.length > wanted) top.pop();
  }
  return top;
}

/**
 * The best `needed` FTS hits within the caller's roots, in rank order (light rows: no body).
 * `fromPhrases`, when given and not null, stands for the ranking of the whole index (`RANK_ALL`).
 */
function rankLexical(
  conn: Connection,
  match: string,
  accountId: string,
  roots: string,
  needed: number,
  fromPhrases?: (wanted: number) => Array<{ seq: number; raw: number }> | null,
): Array<SearchCandidate<number>> {
  const wanted = needed * OVERFETCH + 20;
  let order =
    fromPhrases?.(wanted) ?? (conn.stmt(RANK_ALL).all(match, wanted) as Array<{ seq: number; raw: number }>);
  // The first `needed` are usually all in scope: look the others up only when some are not.
  let keys = conn
    .stmt(KEYS_IN_SCOPE)
    .all(JSON.stringify(order.slice(0, needed).map((r) => r.seq)), accountId, roots) as KeyRow[];
  if (keys.length < needed && order.length > needed) {
    const more = conn
      .stmt(KEYS_IN_SCOPE)
      .all(JSON.stringify(order.slice(needed).map((r) => r.seq)), accountId, roots) as KeyRow[];
    keys = [...keys, ...more];
  }
  if (keys.length < needed && order.length === wanted) {
    // Other accounts or roots crowd the top of the index: rank within the caller's scope exactly.
    order = conn.stmt(RANK_SCOPED).all(match, accountId, roots, needed) as Array<{
      seq: number;
      raw: number;
    }>;
    keys = conn
      .stmt(KEYS_IN_SCOPE)
      .all(JSON.stringify(order.map((r) => r.seq)), accountId, roots) as KeyRow[];
  }
  const bySeq = new Map(keys.map((key) => [key.seq, key]));
  const result: Array<SearchCandidate<number>> = [];
  for (const { seq, raw } of order) {
    const key = bySeq.get(seq);
    if (key !== undefined && result.length < needed) {
      result.push({ key: seq, name: key.name, rootUri: key.root_uri, lexical: raw });
    }
  }
  return result;
}

/**
 * `Store.search` on SQLite: produces the candidates of `find` and leaves their ranking to the
 * engine-neutral `ranking.ts`.
 *
 * 1. The query is tokenised and quoted (no FTS syntax reaches SQLite; an empty token list → no hits),
 *    stop words dropped, terms OR-ed, the last one also as a prefix. A query of stop words only
 *    searches name, tags and description (not overview and body). A run of Chinese, Japanese or
 *    Korean letters is the phrase of its bigrams, as the index stores such runs (`cjk-segment.ts`).
 * 2. Candidates: the best `limit × roots` FTS hits in the caller's scope (lexical relevance: negated
 *    BM25 with `FIELD_WEIGHTS`), plus skills whose name equals the query. The ranking adds up the
 *    relevance of each query phrase kept from earlier queries ({@link PhraseScores}: the same
 *    `bm25()` values, so the same hits in the same order) while the database is unchanged.
 * 3. With a query vector: the caller's skills with a stored vector of the same model are scored by
 *    `semanticMatches` (brute-force cosine over the in-memory {@link VectorCache}): the lexical
 *    candidates (then the best 50) whose meaning agrees gain semantic relevance, and skills that
 *    stand out by meaning alone are candidates too.
 * 4. `rankCandidates` fuses, ranks, de-duplicates across roots and cuts to `limit`; the kept rows are
 *    read in full and turned into hits by `toSearchHit`.
 *
 * @param terms - the connection's caches (vocabulary slices, phrase relevance)
 * @param options - `exhaustive`: score every match (the ranking the pruned one must equal; tests)
 * @returns hits, best first
 */
export function searchSkills(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  query: string,
  limit: number,
  semantic?: { query: SemanticQuery; cache: VectorCache },
  terms: TermCache = new TermCache(),
  options: { exhaustive?: boolean } = {},
): SearchHit[] {
  const max = Math.max(0, Math.floor(limit));
  const asked = parseSearchQuery(query);
  terms.scores.sync(conn);
  // Misspelt words are searched with their likely corrections too (not for stop-word-only queries).
  const fixes =
    asked.fields === SHORT_FIELDS ? [] : typoCorrections(conn, terms, asked.tokens, asked.prefixLast);
  const parsed = fixes.length === 0 ? asked : { ...asked, corrections: fixes };
  const columns = asked.fields === SHORT_FIELDS ? SHORT_FIELDS : undefined;
  const original = buildMatchExpression(asked.tokens, columns === undefined ? {} : { columns });
  const match =
    original === null || fixes.length === 0
      ? original
      : `${original} OR ${fixes.map((term) => `"${term}"`).join(' OR ')}`;
  // The same expression phrase by phrase (each token alone, the last one maybe as a prefix).
  const phrases = [
    ...asked.tokens.map((token, i) =>
      String(buildMatchExpression([token], { prefixLast: i === asked.tokens.length - 1 })),
    ),
    ...fixes.map((term) => `"${term}"`),
  ];
  if ((match === null && semantic === undefined) || max === 0 || rootUris.length === 0) return [];
  const roots = JSON.stringify(rootUris);
  const budget = candidateBudget(max, rootUris.length);

  // With a query vector, more lexical candidates: their meaning may lift one into the top `limit`.
  const needed = semantic === undefined ? budget : Math.max(budget, SEMANTIC_CANDIDATES);
  const candidates: Array<SearchCandidate<number>> =
    match === null
      ? []
      : rankLexical(
          conn,
          match,
          accountId,
          roots,
          needed,
          // The kept phrase matches stand for the index's ranking when they add up to the same query.
          options.exhaustive === true || phraseQuery(phrases, columns) !== match
            ? undefined
            : (wanted) =>
                rankFromPhrases(
                  conn,
                  terms.scores,
                  phrases.map((phrase) => phraseQuery([phrase], columns)),
                  wanted,
                ),
        );
  if (semantic !== undefined) {
    semantic.cache.refresh(conn);
    const scoped = semantic.cache.inScope(accountId, new Set(rootUris), semantic.query.model);
    const matches = semanticMatches(semantic.query.vector, scoped, Math.max(budget, SEMANTIC_CANDIDATES), {
      lexicalKeys: new Set(candidates.map((c) => c.key)),
      ...(semantic.query.semanticOnlyMinZ !== undefined
        ? { semanticOnlyMinZ: semantic.query.semanticOnlyMinZ }
        : {}),
    });
    // The cache may lag a delete by a moment: keep only skills that are still in scope.
    const live = new Set(
      (
        conn.stmt(KEYS_IN_SCOPE).all(JSON.stringify(matches.map((m) => m.key)), accountId, roots) as KeyRow[]
      ).map((row) => row.seq),
    );
    for (const m of matches) {
      if (live.has(m.key))
        candidates.push({ key: m.key, name: m.name, rootUri: m.rootUri, lexical: 0, semantic: m.semantic });
    }
  }
  const named = conn.stmt(KEYS_BY_NAME).all(accountId, JSON.stringify(parsed.nameKeys), roots) as KeyRow[];
  for (const key of named)
    candidates.push({ key: key.seq, name: key.name, rootUri: key.root_uri, lexical: 0 });

  const top = rankCandidates(parsed, candidates, rootUris, max);
  const rows = conn.stmt(ROWS_BY_SEQ).all(JSON.stringify(top.map((hit) => hit.key))) as SkillRow[];
  const rowBySeq = new Map(rows.map((row) => [row.seq, row]));
  return top.flatMap((hit) => {
    const row = rowBySeq.get(hit.key);
    return row === undefined ? [] : [toSearchHit(parsed, hit, toSkillRecord(row))];
  });
}
