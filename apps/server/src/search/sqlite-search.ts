import { toKebabCase } from '@skillport/core';
import type { Connection } from '../store/sqlite/connection.js';
import { type SkillRow, toSkillRecord } from '../store/sqlite/rows.js';
import type { SearchHit } from '../store/types.js';
import { matchFields } from './field-match.js';
import {
  buildMatchExpression,
  MIN_PREFIX_LENGTH,
  onlyStopWords,
  STOP_WORDS,
  tokenizeQuery,
} from './fts-query.js';
import {
  FIELD_WEIGHTS,
  LEXICAL_MATCH_FLOOR,
  NAME_MATCH_BOOST,
  normaliseScore,
  SEARCH_FIELDS,
  type SearchField,
} from './score.js';
import { buildSearchDocument } from './search-document.js';

/** Fields searched when the query has only stop words. */
const SHORT_FIELDS: readonly SearchField[] = ['name', 'tags', 'description'];

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

/** The fast path reads this many times the needed candidates before filtering by account and root. */
const OVERFETCH = 4;

interface Candidate {
  seq: number;
  name: string;
  root_uri: string;
  raw: number;
}

/** Names a query would be an exact hit for: the trimmed query and its kebab-case form, lower-cased. */
function exactNameKeys(query: string): string[] {
  const trimmed = query.trim().toLowerCase();
  const kebab = toKebabCase(query);
  return [...new Set([trimmed, kebab].filter((key) => key !== ''))];
}

/** The best `needed` FTS hits within the caller's roots, in rank order (light rows: no body). */
function rankCandidates(
  conn: Connection,
  match: string,
  accountId: string,
  roots: string,
  needed: number,
): Candidate[] {
  const wanted = needed * OVERFETCH + 20;
  let order = conn.stmt(RANK_ALL).all(match, wanted) as Array<{ seq: number; raw: number }>;
  let keys = conn
    .stmt(KEYS_IN_SCOPE)
    .all(JSON.stringify(order.map((r) => r.seq)), accountId, roots) as Candidate[];
  if (keys.length < needed && order.length === wanted) {
    // Other accounts or roots crowd the top of the index: rank within the caller's scope exactly.
    order = conn.stmt(RANK_SCOPED).all(match, accountId, roots, needed) as Array<{
      seq: number;
      raw: number;
    }>;
    keys = conn
      .stmt(KEYS_IN_SCOPE)
      .all(JSON.stringify(order.map((r) => r.seq)), accountId, roots) as Candidate[];
  }
  const bySeq = new Map(keys.map((key) => [key.seq, key]));
  const result: Candidate[] = [];
  for (const { seq, raw } of order) {
    const key = bySeq.get(seq);
    if (key !== undefined && result.length < needed) result.push({ ...key, raw });
  }
  return result;
}

/**
 * `Store.search` on SQLite: FTS5 BM25 with field weights over the given roots of one account.
 *
 * 1. The query is tokenised and quoted (no FTS syntax reaches SQLite; an empty token list → no hits),
 *    stop words dropped, terms OR-ed, the last one also as a prefix. A query of stop words only
 *    searches name, tags and description (not overview and body). A run of Chinese, Japanese or
 *    Korean letters is the phrase of its bigrams, as the index stores such runs (`cjk-segment.ts`).
 * 2. Candidates: the best `limit × roots` FTS hits in the caller's scope, plus skills whose name
 *    equals the query.
 * 3. Lexical hits get {@link LEXICAL_MATCH_FLOOR}, exact-name hits {@link NAME_MATCH_BOOST}; scores
 *    are normalised by `s / (s + k)`;
 *    `matchedFields` comes from {@link matchFields} (a skill found only by name has `['name']`).
 * 4. A name present in several roots is kept once, from the earliest root in `rootUris` (the same
 *    root `get` would read), and the list is cut to `limit`.
 *
 * @returns hits, best first
 */
export function searchSkills(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  query: string,
  limit: number,
): SearchHit[] {
  const max = Math.max(0, Math.floor(limit));
  const tokens = tokenizeQuery(query);
  // A query of function words only ("the", "how to") would rank every body; search the short fields.
  const fields = onlyStopWords(tokens) ? SHORT_FIELDS : SEARCH_FIELDS;
  const match = buildMatchExpression(tokens, fields === SHORT_FIELDS ? { columns: SHORT_FIELDS } : {});
  if (match === null || max === 0 || rootUris.length === 0) return [];
  const roots = JSON.stringify(rootUris);
  const last = tokens[tokens.length - 1] ?? '';
  const prefixLast = Array.from(last).length >= MIN_PREFIX_LENGTH && !STOP_WORDS.has(last);

  const candidates = new Map<number, Candidate>();
  for (const candidate of rankCandidates(conn, match, accountId, roots, max * rootUris.length)) {
    candidates.set(candidate.seq, candidate);
  }
  const keys = exactNameKeys(query);
  for (const key of conn.stmt(KEYS_BY_NAME).all(accountId, JSON.stringify(keys), roots) as Candidate[]) {
    if (!candidates.has(key.seq)) candidates.set(key.seq, { ...key, raw: 0 });
  }

  const exact = new Set(keys);
  const rootOrder = new Map(rootUris.map((uri, i) => [uri, i]));
  const rank = (uri: string): number => rootOrder.get(uri) ?? rootUris.length;
  const scored = [...candidates.values()].map((candidate) => {
    const isName = exact.has(candidate.name.toLowerCase());
    const lexical = candidate.raw > 0 ? candidate.raw + LEXICAL_MATCH_FLOOR : 0;
    return { ...candidate, raw: lexical + (isName ? NAME_MATCH_BOOST : 0), isName };
  });
  scored.sort(
    (a, b) =>
      b.raw - a.raw ||
      rank(a.root_uri) - rank(b.root_uri) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );

  // De-duplicate by name: keep the copy from the earliest root.
  const preferred = new Map<string, (typeof scored)[number]>();
  for (const hit of scored) {
    const current = preferred.get(hit.name);
    if (current === undefined || rank(hit.root_uri) < rank(current.root_uri)) preferred.set(hit.name, hit);
  }
  const top = scored.filter((hit) => preferred.get(hit.name) === hit).slice(0, max);
  const rows = conn.stmt(ROWS_BY_SEQ).all(JSON.stringify(top.map((hit) => hit.seq))) as SkillRow[];
  const rowBySeq = new Map(rows.map((row) => [row.seq, row]));
  return top.flatMap((hit) => {
    const row = rowBySeq.get(hit.seq);
    if (row === undefined) return [];
    const skill = toSkillRecord(row);
    const matchedFields = matchFields(buildSearchDocument(skill), tokens, prefixLast, fields);
    if (hit.isName && !matchedFields.includes('name')) matchedFields.unshift('name');
    return [
      {
        skill,
        score: normaliseScore(hit.raw),
        matchedFields,
        matchReason: hit.isName ? ('name' as const) : ('lexical' as const),
      },
    ];
  });
}
