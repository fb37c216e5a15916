import { toKebabCase } from '@skillport/core';
import type { Connection } from '../store/sqlite/connection.js';
import { type SkillRow, toSkillRecord } from '../store/sqlite/rows.js';
import type { SearchHit } from '../store/types.js';
import { buildMatchExpression, tokenizeQuery } from './fts-query.js';
import { FIELD_WEIGHTS, NAME_MATCH_BOOST, normaliseScore, SEARCH_FIELDS, type SearchField } from './score.js';

const WEIGHTS = SEARCH_FIELDS.map((field) => FIELD_WEIGHTS[field]).join(', ');

/** Per-field BM25 (weight 1 on that field, 0 elsewhere): negative exactly when the field matched. */
const FIELD_PROBES = SEARCH_FIELDS.map(
  (field, i) =>
    `bm25(skills_fts, ${SEARCH_FIELDS.map((_, j) => (i === j ? 1 : 0)).join(', ')}) AS m_${field}`,
).join(', ');

interface CandidateRow extends SkillRow {
  raw: number;
}

interface FieldRow {
  rowid: number;
  raw: number;
  m_name: number;
  m_tags: number;
  m_description: number;
  m_overview: number;
  m_body: number;
}

/** Names a query would be an exact hit for: the trimmed query and its kebab-case form, lower-cased. */
function exactNameKeys(query: string): string[] {
  const trimmed = query.trim().toLowerCase();
  const kebab = toKebabCase(query);
  return [...new Set([trimmed, kebab].filter((key) => key !== ''))];
}

/**
 * `Store.search` on SQLite: FTS5 BM25 with field weights over the given roots of one account.
 *
 * 1. The query is tokenised and quoted (no FTS syntax reaches SQLite; an empty token list → no hits),
 *    terms OR-ed, the last one also as a prefix.
 * 2. Candidates: the best `limit × roots` FTS hits, plus skills whose name equals the query.
 * 3. Per-field BM25 probes on the candidates give `matchedFields`; exact-name hits get
 *    {@link NAME_MATCH_BOOST}; scores are normalised by `s / (s + k)`.
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
  const match = buildMatchExpression(tokens);
  if (match === null || max === 0 || rootUris.length === 0) return [];
  const roots = JSON.stringify(rootUris);

  const candidates = conn
    .stmt(
      `SELECT s.*, -bm25(skills_fts, ${WEIGHTS}) AS raw FROM skills_fts JOIN skills s ON s.seq = skills_fts.rowid
       WHERE skills_fts MATCH ? AND s.account_id = ? AND s.root_uri IN (SELECT value FROM json_each(?))
       ORDER BY raw DESC LIMIT ?`,
    )
    .all(match, accountId, roots, max * rootUris.length) as CandidateRow[];

  const keys = exactNameKeys(query);
  const byName = conn
    .stmt(
      `SELECT s.*, 0 AS raw FROM skills s WHERE s.account_id = ? AND lower(s.name) IN (SELECT value FROM json_each(?))
         AND s.root_uri IN (SELECT value FROM json_each(?))`,
    )
    .all(accountId, JSON.stringify(keys), roots) as CandidateRow[];
  const bySeq = new Map<number, CandidateRow>(candidates.map((row) => [row.seq, row]));
  for (const row of byName) if (!bySeq.has(row.seq)) bySeq.set(row.seq, row);

  const probes = new Map<number, FieldRow>();
  if (bySeq.size > 0) {
    const rows = conn
      .stmt(
        `SELECT rowid, -bm25(skills_fts, ${WEIGHTS}) AS raw, ${FIELD_PROBES} FROM skills_fts
         WHERE skills_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
      )
      .all(match, JSON.stringify([...bySeq.keys()])) as FieldRow[];
    for (const row of rows) probes.set(row.rowid, row);
  }

  const exact = new Set(keys);
  const scored = [...bySeq.values()].map((row) => {
    const probe = probes.get(row.seq);
    const isName = exact.has(row.name.toLowerCase());
    const raw = (probe?.raw ?? row.raw) + (isName ? NAME_MATCH_BOOST : 0);
    const matchedFields: SearchField[] =
      probe === undefined ? [] : SEARCH_FIELDS.filter((f) => probe[`m_${f}`] < 0);
    if (isName && !matchedFields.includes('name')) matchedFields.unshift('name');
    return { row, raw, matchedFields, isName };
  });
  const rootOrder = new Map(rootUris.map((uri, i) => [uri, i]));
  scored.sort(
    (a, b) =>
      b.raw - a.raw ||
      (rootOrder.get(a.row.root_uri) ?? 0) - (rootOrder.get(b.row.root_uri) ?? 0) ||
      (a.row.name < b.row.name ? -1 : a.row.name > b.row.name ? 1 : 0),
  );

  // De-duplicate by name: keep the copy from the earliest root.
  const preferred = new Map<string, (typeof scored)[number]>();
  for (const hit of scored) {
    const current = preferred.get(hit.row.name);
    if (
      current === undefined ||
      (rootOrder.get(hit.row.root_uri) ?? 0) < (rootOrder.get(current.row.root_uri) ?? 0)
    ) {
      preferred.set(hit.row.name, hit);
    }
  }
  return scored
    .filter((hit) => preferred.get(hit.row.name) === hit)
    .slice(0, max)
    .map((hit) => ({
      skill: toSkillRecord(hit.row),
      score: normaliseScore(hit.raw),
      matchedFields: hit.matchedFields,
      matchReason: hit.isName ? 'name' : 'lexical',
    }));
}
