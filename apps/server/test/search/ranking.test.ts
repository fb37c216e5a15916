import { describe, expect, it } from 'vitest';
import { findSuperLinearRung } from '../../../../scripts/test-support/linear-growth.js';
import {
  candidateBudget,
  parseSearchQuery,
  rankCandidates,
  type SearchCandidate,
  SHORT_FIELDS,
  toSearchHit,
} from '../../src/search/ranking.js';
import {
  LEXICAL_MATCH_FLOOR,
  NAME_MATCH_BOOST,
  normaliseScore,
  SEARCH_FIELDS,
} from '../../src/search/score.js';
import type { SkillRecord } from '../../src/store/types.js';

const USER = 'viking://user/u1/skills';
const AGENT = 'viking://agent/skills';

function candidate(key: number, name: string, rootUri: string, lexical: number): SearchCandidate<number> {
  return { key, name, rootUri, lexical };
}

function skill(name: string, fields: Partial<SkillRecord> = {}): SkillRecord {
  return {
    id: `id-${name}`,
    accountId: 'a',
    rootUri: AGENT,
    name,
    revision: 'r',
    overview: null,
    createdAt: 0,
    updatedAt: 0,
    description: '',
    tags: [],
    allowedTools: [],
    frontmatter: {},
    body: '',
    sourceMetadata: null,
    ...fields,
  };
}

describe('parseSearchQuery', () => {
  it.each([
    ['Search Web', ['search', 'web'], SEARCH_FIELDS, true, ['search web', 'search-web']],
    ['the', ['the'], SHORT_FIELDS, false, ['the']],
    ['pdf to', ['pdf'], SEARCH_FIELDS, true, ['pdf to', 'pdf-to']],
    ['go', ['go'], SEARCH_FIELDS, false, ['go']],
    ['--', [], SEARCH_FIELDS, false, ['--']],
  ] as const)('%j', (query, tokens, fields, prefixLast, nameKeys) => {
    const parsed = parseSearchQuery(query);
    expect(parsed.tokens).toEqual(tokens);
    expect(parsed.fields).toEqual(fields);
    expect(parsed.prefixLast).toBe(prefixLast);
    expect(parsed.nameKeys).toEqual(nameKeys);
  });
});

describe('rankCandidates', () => {
  const query = parseSearchQuery('pdf');

  it('adds the floor to lexical hits and the boost to exact-name hits, best first', () => {
    const ranked = rankCandidates(
      query,
      [candidate(1, 'reader', AGENT, 3), candidate(2, 'pdf', AGENT, 1), candidate(3, 'other', AGENT, 5)],
      [AGENT],
      10,
    );
    expect(ranked.map((hit) => [hit.key, hit.raw, hit.matchReason])).toEqual([
      [2, 1 + LEXICAL_MATCH_FLOOR + NAME_MATCH_BOOST, 'name'],
      [3, 5 + LEXICAL_MATCH_FLOOR, 'lexical'],
      [1, 3 + LEXICAL_MATCH_FLOOR, 'lexical'],
    ]);
  });

  it('a skill found only by its name gets the boost alone', () => {
    const [hit] = rankCandidates(query, [candidate(7, 'PDF', AGENT, 0)], [AGENT], 10);
    expect(hit?.raw).toBe(NAME_MATCH_BOOST);
    expect(hit?.matchReason).toBe('name');
  });

  it('keeps a key once, with its best lexical relevance', () => {
    const ranked = rankCandidates(
      query,
      [candidate(1, 'pdf', AGENT, 0), candidate(1, 'pdf', AGENT, 2)],
      [AGENT],
      10,
    );
    expect(ranked).toHaveLength(1);
    expect(ranked[0]?.raw).toBe(2 + LEXICAL_MATCH_FLOOR + NAME_MATCH_BOOST);
  });

  it('keeps a name held by several roots once, from the earliest root, even when the later copy ranks higher', () => {
    const ranked = rankCandidates(
      parseSearchQuery('tool'),
      [candidate(1, 'x', AGENT, 9), candidate(2, 'x', USER, 1), candidate(3, 'y', AGENT, 4)],
      [USER, AGENT],
      10,
    );
    expect(ranked.map((hit) => [hit.key, hit.rootUri])).toEqual([
      [3, AGENT],
      [2, USER],
    ]);
  });

  it('breaks ties by root order, then name', () => {
    const ranked = rankCandidates(
      parseSearchQuery('tool'),
      [candidate(1, 'b', AGENT, 2), candidate(2, 'c', USER, 2), candidate(3, 'a', AGENT, 2)],
      [USER, AGENT],
      10,
    );
    expect(ranked.map((hit) => hit.name)).toEqual(['c', 'a', 'b']);
  });

  it('cuts to the limit (floored) and gives nothing for a limit of 0', () => {
    const many = Array.from({ length: 5 }, (_, i) => candidate(i, `s${i}`, AGENT, i + 1));
    expect(rankCandidates(query, many, [AGENT], 2.9).map((hit) => hit.key)).toEqual([4, 3]);
    expect(rankCandidates(query, many, [AGENT], 0)).toEqual([]);
  });

  it('asks engines for limit × roots candidates', () => {
    expect(candidateBudget(10, 2)).toBe(20);
  });
});

describe('toSearchHit', () => {
  /** An overview reader that must not be called. */
  const noOverview = (): string | null => {
    throw new Error('the overview was read although a level-0 field matched');
  };

  it('normalises the score and lists matched fields in index order', () => {
    const query = parseSearchQuery('parsing pdfs billing');
    const [ranked] = rankCandidates(query, [candidate(1, 'billing', AGENT, 5)], [AGENT], 1);
    const hit = toSearchHit(
      query,
      ranked!,
      skill('billing', { description: 'Parses invoice PDFs', tags: ['pdf'], body: 'Invoices are parsed.' }),
      noOverview,
    );
    expect(hit.score).toBe(normaliseScore(5 + LEXICAL_MATCH_FLOOR));
    expect(hit.matchedFields).toEqual(['name', 'tags', 'description']);
    expect(hit.matchReason).toBe('lexical');
  });

  it('lists the overview only without a level-0 match, and never the body (level 2 either way)', () => {
    const query = parseSearchQuery('invoices');
    const [ranked] = rankCandidates(query, [candidate(1, 'billing', AGENT, 5)], [AGENT], 1);
    const bodyOnly = toSearchHit(
      query,
      ranked!,
      skill('billing', { body: 'Invoices are parsed.' }),
      () => null,
    );
    expect(bodyOnly.matchedFields).toEqual([]);
    let asked = 0;
    const overview = toSearchHit(query, ranked!, skill('billing', { body: 'Invoices are parsed.' }), () => {
      asked++;
      return 'Reads invoices.';
    });
    expect(overview.matchedFields).toEqual(['overview']);
    expect(asked).toBe(1);
    const described = toSearchHit(
      query,
      ranked!,
      skill('billing', { description: 'Sends invoices' }),
      noOverview,
    );
    expect(described.matchedFields).toEqual(['description']);
  });

  it('a query of stop words only does not look at the overview', () => {
    const query = parseSearchQuery('the');
    const [ranked] = rankCandidates(query, [candidate(1, 'billing', AGENT, 5)], [AGENT], 1);
    expect(toSearchHit(query, ranked!, skill('billing'), noOverview).matchedFields).toEqual([]);
  });

  // A letter outside the BMP is two code units: its second half alone is no letter, so every
  // occurrence of the word after one was taken for a word start and the word read to its end.
  it('reads a description of words with letters outside the BMP in linear time', () => {
    // Not a prefix search for `pdf` (that takes the first word start it finds): `pdf` is not the last word.
    const query = parseSearchQuery('pdf xylograph');
    const [ranked] = rankCandidates(query, [candidate(1, 'billing', AGENT, 5)], [AGENT], 1);
    const described = (n: number) => skill('billing', { description: `${'pdf\u{1D400}'.repeat(n / 5)} pdf` });
    const rung = findSuperLinearRung(
      (hit: SkillRecord) => toSearchHit(query, ranked!, hit, () => null),
      described,
      { from: 1024, to: 262_144 },
    );
    expect(rung).toBeNull();
    expect(toSearchHit(query, ranked!, described(1024), () => null).matchedFields).toEqual(['description']);
  });

  it('a word after a letter outside the BMP is part of that word, as in the index', () => {
    const query = parseSearchQuery('invoices');
    const [ranked] = rankCandidates(query, [candidate(1, 'billing', AGENT, 5)], [AGENT], 1);
    const glued = toSearchHit(
      query,
      ranked!,
      skill('billing', { description: 'Sends \u{1D400}invoices' }),
      () => null,
    );
    expect(glued.matchedFields).toEqual([]);
    const apart = toSearchHit(
      query,
      ranked!,
      skill('billing', { description: 'Sends \u{1D400} invoices' }),
      () => null,
    );
    expect(apart.matchedFields).toEqual(['description']);
  });

  it('an exact-name hit lists name first even when no indexed word matched', () => {
    const query = parseSearchQuery('My Tool!');
    const [ranked] = rankCandidates(query, [candidate(1, 'my-tool', AGENT, 0)], [AGENT], 1);
    const hit = toSearchHit(query, ranked!, skill('my-tool'), noOverview);
    expect(hit.matchReason).toBe('name');
    expect(hit.matchedFields[0]).toBe('name');
    expect(hit.score).toBeGreaterThan(0.88);
  });
});
