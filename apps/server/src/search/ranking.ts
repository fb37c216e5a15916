import { toKebabCase } from '@skillport/core/base';
import type { SearchHit, SearchHitSkill } from '../store/types.js';
import { matchFields } from './field-match.js';
import { MIN_PREFIX_LENGTH, onlyStopWords, STOP_WORDS, tokenizeQuery } from './fts-query.js';
import {
  LEXICAL_MATCH_FLOOR,
  NAME_MATCH_BOOST,
  normaliseScore,
  SEARCH_FIELDS,
  type SearchField,
} from './score.js';
import { buildSearchDocument } from './search-document.js';

/**
 * The engine-neutral half of `find`. Each store engine only produces *candidates* — skills of the
 * caller's roots with the engine's lexical relevance, plus skills whose name is the query — and this
 * module turns them into hits the same way for every engine:
 *
 * 1. {@link parseSearchQuery}: tokens, searched fields, whether the last token is a prefix, and the
 *    names an exact-name hit would have. The engine builds its own query from these.
 * 2. {@link rankCandidates}: lexical hits get {@link LEXICAL_MATCH_FLOOR} added, semantic relevance
 *    (`semantic.ts`, on the same scale) is added to it, exact-name hits get
 *    {@link NAME_MATCH_BOOST}; sorted by relevance, then root order, then name; a name present in
 *    several roots is kept once, from the earliest root in `rootUris` (the root `get` would read);
 *    cut to `limit`.
 * 3. {@link toSearchHit}: with the skill's listed fields loaded by the engine (and its overview when
 *    asked), the score normalised to [0, 1) ({@link normaliseScore}), `matchedFields`
 *    ({@link matchFields}: what decides the level; a skill found only by name has `['name']`) and
 *    `matchReason`.
 *
 * An engine's lexical relevance must be on the scale of FTS5's negated BM25 with the weights of
 * `FIELD_WEIGHTS` (typically 0–15 for real queries, strong multi-field hits 3–10), so the floor,
 * boost and half point mean the same on every engine.
 */

/** Fields searched when the query has only stop words (`the`, `how to`): not overview and body. */
export const SHORT_FIELDS: readonly SearchField[] = ['name', 'tags', 'description'];

/** A `find` query, parsed once and shared by candidate generation and ranking. */
export interface SearchQuery {
  /** Tokens from `tokenizeQuery` (possibly empty: then there are no hits). */
  tokens: string[];
  /** The fields to search: {@link SHORT_FIELDS} for a query of stop words only, else all fields. */
  fields: readonly SearchField[];
  /** Whether the last token also matches as a prefix (≥ `MIN_PREFIX_LENGTH` characters, not a stop word). */
  prefixLast: boolean;
  /** Lower-cased names that make a skill an exact-name hit: the trimmed query and its kebab-case form. */
  nameKeys: string[];
  /**
   * Index terms the engine searched for misspelt query words (`search/typo.ts`); `matchedFields`
   * counts a word starting with one as a match. Empty or absent when there were none.
   */
  corrections?: string[];
}

/**
 * Parses a `find` query.
 *
 * @param query - raw user text
 * @returns the parsed query; `tokens` empty when the text has no letters or digits
 * @example
 * ```ts
 * parseSearchQuery('Search Web').nameKeys; // ['search web', 'search-web']
 * ```
 */
export function parseSearchQuery(query: string): SearchQuery {
  const tokens = tokenizeQuery(query);
  const fields = onlyStopWords(tokens) ? SHORT_FIELDS : SEARCH_FIELDS;
  const last = tokens[tokens.length - 1] ?? '';
  const prefixLast = Array.from(last).length >= MIN_PREFIX_LENGTH && !STOP_WORDS.has(last);
  const trimmed = query.trim().toLowerCase();
  const kebab = toKebabCase(query);
  // No name holds a NUL character (and PostgreSQL text cannot): a key with one could match nothing.
  const nameKeys = [...new Set([trimmed, kebab].filter((key) => key !== '' && !key.includes('\u0000')))];
  return { tokens, fields, prefixLast, nameKeys };
}

/**
 * How many lexical candidates an engine should produce: enough that each root can fill `limit` after
 * de-duplication across roots.
 *
 * @param limit - the caller's limit (already ≥ 0)
 * @param rootCount - number of roots searched
 */
export function candidateBudget(limit: number, rootCount: number): number {
  return limit * rootCount;
}

/** One skill an engine found, before ranking. `K` is the engine's row key. */
export interface SearchCandidate<K> {
  key: K;
  name: string;
  rootUri: string;
  /** The engine's lexical relevance (BM25 scale, > 0 for a match); 0 when found only by its name or meaning. */
  lexical: number;
  /** Semantic relevance from `semanticMatches` (same scale, > 0 for a match); absent or 0 = none. */
  semantic?: number;
}

/** A candidate kept by {@link rankCandidates}, with its combined relevance. */
export interface RankedCandidate<K> extends SearchCandidate<K> {
  /** Lexical relevance plus floor and boost; normalised by `normaliseScore` for the client. */
  raw: number;
  matchReason: SearchHit['matchReason'];
}

/**
 * Ranks candidates: combined relevance, sort, de-duplication across roots, cut to `limit`.
 * A key given twice counts once (its best lexical relevance).
 *
 * @param query - from {@link parseSearchQuery}
 * @param candidates - lexical hits and exact-name hits of the caller's roots, in any order
 * @param rootUris - the roots searched, in priority order (earlier wins for a name held twice)
 * @param limit - maximum number of hits (floored; ≤ 0 gives none)
 * @returns the hits to return, best first; ties by root order, then name
 */
export function rankCandidates<K>(
  query: SearchQuery,
  candidates: Iterable<SearchCandidate<K>>,
  rootUris: readonly string[],
  limit: number,
): RankedCandidate<K>[] {
  const max = Math.max(0, Math.floor(limit));
  if (max === 0) return [];
  const byKey = new Map<K, SearchCandidate<K>>();
  for (const candidate of candidates) {
    const seen = byKey.get(candidate.key);
    if (seen === undefined) {
      byKey.set(candidate.key, candidate);
      continue;
    }
    // The same skill from the lexical and the semantic side: keep the best of each signal.
    byKey.set(candidate.key, {
      ...seen,
      lexical: Math.max(seen.lexical, candidate.lexical),
      semantic: Math.max(seen.semantic ?? 0, candidate.semantic ?? 0),
    });
  }
  const exact = new Set(query.nameKeys);
  const rootOrder = new Map(rootUris.map((uri, i) => [uri, i]));
  const rank = (uri: string): number => rootOrder.get(uri) ?? rootUris.length;
  const scored = [...byKey.values()].map((candidate): RankedCandidate<K> => {
    const isName = exact.has(candidate.name.toLowerCase());
    const lexical = candidate.lexical > 0 ? candidate.lexical + LEXICAL_MATCH_FLOOR : 0;
    const semantic = Math.max(0, candidate.semantic ?? 0);
    const matchReason: SearchHit['matchReason'] = isName
      ? 'name'
      : lexical > 0 && semantic > 0
        ? 'hybrid'
        : semantic > 0
          ? 'semantic'
          : 'lexical';
    return {
      ...candidate,
      raw: lexical + semantic + (isName ? NAME_MATCH_BOOST : 0),
      matchReason,
    };
  });
  scored.sort(
    (a, b) =>
      b.raw - a.raw || rank(a.rootUri) - rank(b.rootUri) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  // De-duplicate by name: keep the copy from the earliest root, at that copy's own rank.
  const preferred = new Map<string, RankedCandidate<K>>();
  for (const hit of scored) {
    const current = preferred.get(hit.name);
    if (current === undefined || rank(hit.rootUri) < rank(current.rootUri)) preferred.set(hit.name, hit);
  }
  return scored.filter((hit) => preferred.get(hit.name) === hit).slice(0, max);
}

/** The fields of level 0 (see {@link toSearchHit}). */
const LEVEL_0_FIELDS: readonly SearchField[] = ['name', 'tags', 'description'];

/**
 * The hit returned to the client for a ranked candidate, once the engine has loaded its skill.
 *
 * `matchedFields` lists what decides a find result's `level` (the lowest level among the matched
 * fields, capped at 2): the matched fields of level 0 (name, tags, description), else `overview`
 * (level 1) when the overview matched; never `body` (level 2, the level of a hit without a match
 * of a lower level anyway). So the overview is asked for (`overviewOf`) only for a hit without a
 * level-0 match, and no body is read.
 *
 * @param query - from {@link parseSearchQuery}
 * @param ranked - from {@link rankCandidates}
 * @param skill - the hit's skill fields
 * @param overviewOf - the skill's L1 overview (null before the processing job wrote it), called at
 *   most once, only when no level-0 field matched
 * @returns score in [0, 1), matched fields in index order (see above), match reason
 */
export function toSearchHit(
  query: SearchQuery,
  ranked: RankedCandidate<unknown>,
  skill: SearchHitSkill,
  overviewOf: () => string | null,
): SearchHit {
  const doc = buildSearchDocument({ ...skill, overview: null, body: '' });
  const corrections = query.corrections ?? [];
  const fields = query.fields.filter((field) => field !== 'body');
  const low = fields.filter((field) => LEVEL_0_FIELDS.includes(field));
  const matchedFields: string[] = matchFields(doc, query.tokens, query.prefixLast, low, corrections);
  if (ranked.matchReason === 'name' && !matchedFields.includes('name')) matchedFields.unshift('name');
  if (matchedFields.length === 0 && fields.includes('overview')) {
    const overview = overviewOf();
    if (overview !== null && overview !== '') {
      doc.overview = overview;
      matchedFields.push(...matchFields(doc, query.tokens, query.prefixLast, ['overview'], corrections));
    }
  }
  return {
    skill: {
      name: skill.name,
      rootUri: skill.rootUri,
      description: skill.description,
      tags: skill.tags,
      allowedTools: skill.allowedTools,
      revision: skill.revision,
      updatedAt: skill.updatedAt,
    },
    score: normaliseScore(ranked.raw),
    matchedFields,
    matchReason: ranked.matchReason,
  };
}
