import { describe, expect, it } from 'vitest';
import { normaliseVector } from '../../src/embeddings/embedder.js';
import { parseSearchQuery, rankCandidates } from '../../src/search/ranking.js';
import { normaliseScore } from '../../src/search/score.js';
import { SEMANTIC_SCALE, semanticMatches } from '../../src/search/semantic.js';

/** Deterministic pseudo-random unit vectors (unrelated texts), plus one planted near the query. */
function crowd(n: number, dim: number, seed: number): Float32Array[] {
  let x = seed;
  const next = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x / 2 ** 32 - 0.5;
  };
  return Array.from({ length: n }, () => normaliseVector(Array.from({ length: dim }, next)));
}

function blend(a: Float32Array, b: Float32Array, weight: number): Float32Array {
  return normaliseVector(Array.from(a, (v, i) => weight * v + (1 - weight) * (b[i] as number)));
}

const entries = (vectors: Float32Array[]) =>
  vectors.map((vector, key) => ({ key, name: `s${key}`, rootUri: 'r', vector }));

describe('semanticMatches', () => {
  const [query, ...others] = crowd(2001, 64, 7) as [Float32Array, ...Float32Array[]];

  it('finds nothing for a query unrelated to every skill (the closest is only chance)', () => {
    const matches = semanticMatches(query, entries(others), 10);
    // Whatever passes the chance level does so narrowly: far below a solid hit.
    for (const m of matches) expect(normaliseScore(m.semantic)).toBeLessThan(0.15);
  });

  it('scores a skill that stands out well above the crowd, best first', () => {
    const related = blend(query, others[0] as Float32Array, 0.6);
    const somewhat = blend(query, others[1] as Float32Array, 0.35);
    const matches = semanticMatches(query, entries([related, somewhat, ...others.slice(2)]), 10);
    expect(matches[0]?.key).toBe(0);
    expect(normaliseScore(matches[0]?.semantic ?? 0)).toBeGreaterThan(0.5);
    if (matches[1]) expect(matches[1].semantic).toBeLessThan(matches[0]?.semantic ?? 0);
  });

  it('does not depend on the model baseline: shifting every similarity changes nothing', () => {
    // Same geometry with a shared component (as models whose unrelated texts score 0.7 have).
    const shared = crowd(1, 64, 99)[0] as Float32Array;
    const lift = (v: Float32Array) => blend(v, shared, 0.5);
    const related = blend(query, others[0] as Float32Array, 0.6);
    const plain = semanticMatches(query, entries([related, ...others.slice(1, 500)]), 3);
    const lifted = semanticMatches(
      lift(query),
      entries([lift(related), ...others.slice(1, 500).map(lift)]),
      3,
    );
    expect(lifted[0]?.key).toBe(plain[0]?.key);
    expect(lifted[0]?.cosine).toBeGreaterThan(plain[0]?.cosine ?? 1);
  });

  it('skips vectors of another dimension and returns nothing for an empty scope or limit 0', () => {
    expect(semanticMatches(query, entries([new Float32Array(3)]), 5)).toEqual([]);
    expect(semanticMatches(query, [], 5)).toEqual([]);
    expect(semanticMatches(query, entries(others), 0)).toEqual([]);
  });
});

describe('rankCandidates with semantic relevance', () => {
  const query = parseSearchQuery('pick winners');
  it('adds the two signals and names the reason', () => {
    const ranked = rankCandidates(
      query,
      [
        { key: 1, name: 'words-only', rootUri: 'r', lexical: 3 },
        { key: 2, name: 'meaning-only', rootUri: 'r', lexical: 0, semantic: 2 * SEMANTIC_SCALE },
        { key: 3, name: 'both', rootUri: 'r', lexical: 3 },
        { key: 3, name: 'both', rootUri: 'r', lexical: 0, semantic: 1 },
      ],
      ['r'],
      10,
    );
    expect(ranked.map((r) => [r.name, r.matchReason])).toEqual([
      ['meaning-only', 'semantic'],
      ['both', 'hybrid'],
      ['words-only', 'lexical'],
    ]);
    expect(ranked.find((r) => r.name === 'both')?.raw).toBeCloseTo(3 + 0.5 + 1);
  });

  it('a name hit stays a name hit when meaning matches too', () => {
    const ranked = rankCandidates(
      parseSearchQuery('meaning-only'),
      [{ key: 2, name: 'meaning-only', rootUri: 'r', lexical: 0, semantic: 3 }],
      ['r'],
      10,
    );
    expect(ranked[0]).toMatchObject({ matchReason: 'name', raw: 43 });
  });
});
