// PostgreSQL find picks its batch cut-offs and reach with `kthLargest` (selection) where it sorted
// whole arrays before: it must give exactly what sorting best first and taking element k − 1 gives,
// ties and all, or a round would rank other candidates.
import { describe, expect, it } from 'vitest';
import { kthLargest } from '../../src/search/postgres-search.js';

/** What `kthLargest` replaces: sort best first, element `k − 1`, 0 when missing. */
function bySorting(values: readonly number[], k: number): number {
  return Float64Array.from(values).sort().reverse()[k - 1] ?? 0;
}

/** A deterministic generator (mulberry32), so a failure names its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('kthLargest', () => {
  it('is 0 for k outside 1..n', () => {
    expect(kthLargest(new Float64Array([]), 1)).toBe(0);
    expect(kthLargest(new Float64Array([3, 1]), 0)).toBe(0);
    expect(kthLargest(new Float64Array([3, 1]), 3)).toBe(0);
  });

  it('picks the k-th largest of small arrays', () => {
    expect(kthLargest(new Float64Array([5]), 1)).toBe(5);
    expect(kthLargest(new Float64Array([1, 5, 3]), 1)).toBe(5);
    expect(kthLargest(new Float64Array([1, 5, 3]), 2)).toBe(3);
    expect(kthLargest(new Float64Array([1, 5, 3]), 3)).toBe(1);
    expect(kthLargest(new Float64Array([2, 2, 2, 2]), 3)).toBe(2);
  });

  it('agrees with sorting on random arrays with many ties, sorted and reversed input', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const n = 1 + Math.floor(next() * 400);
      // Few distinct values (copies of one skill share a relevance), sometimes all distinct.
      const distinct = seed % 3 === 0 ? n : 1 + Math.floor(next() * 8);
      const values = Array.from({ length: n }, () => Math.floor(next() * distinct) * 0.37 + (seed % 5));
      const orders = [values, [...values].sort((a, b) => a - b), [...values].sort((a, b) => b - a)];
      for (const input of orders) {
        for (const k of [1, 2, Math.ceil(n / 2), n - 1, n, 1 + Math.floor(next() * n)]) {
          if (k < 1) continue;
          expect(kthLargest(Float64Array.from(input), k), `seed ${seed}, n ${n}, k ${k}`).toBe(
            bySorting(input, k),
          );
        }
      }
    }
  });
});
