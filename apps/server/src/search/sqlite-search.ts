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
    if (conn.stmt(KNOWN_TERM).get(`"${token}"${asPrefix ? '*' : ''}`) !== undefined) return;
    const prefixes = [...new Set([token.slice(0, 2), `${token[0]}${token[2]}`])];
    const vocabulary = prefixes.flatMap((prefix) => terms.slice(conn, prefix));
    for (const term of corrections(token, vocabulary)) {
      if (!tokens.includes(term) && !extra.includes(term)) extra.push(term);
    }
  });
  return extra;
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

/** The best `needed` FTS hits within the caller's roots, in rank order (light rows: no body). */
function rankLexical(
  conn: Connection,
  match: string,
  accountId: string,
  roots: string,
  needed: number,
): Array<SearchCandidate<number>> {
  const wanted = needed * OVERFETCH + 20;
  let order = conn.stmt(RANK_ALL).all(match, wanted) as Array<{ seq: number; raw: number }>;
  let keys = conn
    .stmt(KEYS_IN_SCOPE)
    .all(JSON.stringify(order.map((r) => r.seq)), accountId, roots) as KeyRow[];
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
 *    BM25 with `FIELD_WEIGHTS`), plus skills whose name equals the query.
 * 3. With a query vector: the caller's skills with a stored vector of the same model are scored by
 *    `semanticMatches` (brute-force cosine over the in-memory {@link VectorCache}): the lexical
 *    candidates (then the best 50) whose meaning agrees gain semantic relevance, and skills that
 *    stand out by meaning alone are candidates too.
 * 4. `rankCandidates` fuses, ranks, de-duplicates across roots and cuts to `limit`; the kept rows are
 *    read in full and turned into hits by `toSearchHit`.
 *
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
): SearchHit[] {
  const max = Math.max(0, Math.floor(limit));
  const asked = parseSearchQuery(query);
  // Misspelt words are searched with their likely corrections too (not for stop-word-only queries).
  const fixes =
    asked.fields === SHORT_FIELDS ? [] : typoCorrections(conn, terms, asked.tokens, asked.prefixLast);
  const parsed = fixes.length === 0 ? asked : { ...asked, corrections: fixes };
  const original = buildMatchExpression(
    asked.tokens,
    asked.fields === SHORT_FIELDS ? { columns: SHORT_FIELDS } : {},
  );
  const match =
    original === null || fixes.length === 0
      ? original
      : `${original} OR ${fixes.map((term) => `"${term}"`).join(' OR ')}`;
  if ((match === null && semantic === undefined) || max === 0 || rootUris.length === 0) return [];
  const roots = JSON.stringify(rootUris);
  const budget = candidateBudget(max, rootUris.length);

  // With a query vector, more lexical candidates: their meaning may lift one into the top `limit`.
  const candidates: Array<SearchCandidate<number>> =
    match === null
      ? []
      : rankLexical(
          conn,
          match,
          accountId,
          roots,
          semantic === undefined ? budget : Math.max(budget, SEMANTIC_CANDIDATES),
        );
  if (semantic !== undefined) {
    semantic.cache.refresh(conn);
    const scoped = semantic.cache.inScope(accountId, new Set(rootUris), semantic.query.model);
    const matches = semanticMatches(
      semantic.query.vector,
      (function* () {
        for (const entry of scoped) yield { ...entry, key: entry.seq };
      })(),
      Math.max(budget, SEMANTIC_CANDIDATES),
      {
        lexicalKeys: new Set(candidates.map((c) => c.key)),
        ...(semantic.query.semanticOnlyMinZ !== undefined
          ? { semanticOnlyMinZ: semantic.query.semanticOnlyMinZ }
          : {}),
      },
    );
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
