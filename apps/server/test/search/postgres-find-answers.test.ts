/**
 * The bounds of `PostgresFindAnswers` (a replica's kept find rankings): the hits kept in all, the
 * key length, and generations (a newer one empties the kept rankings; an older one is not kept).
 * Its correctness against a real database is in `test/postgres/find-answers.test.ts`.
 */
import { describe, expect, it } from 'vitest';
import { PostgresFindAnswers } from '../../src/search/postgres-find-answers.js';
import { parseSearchQuery, type RankedCandidate } from '../../src/search/ranking.js';

function ranking(generation: string, hits: number) {
  const top: Array<RankedCandidate<number>> = Array.from({ length: hits }, (_, i) => ({
    key: i,
    name: `skill-${i}`,
    rootUri: 'viking://agent/skills',
    lexical: 1,
    raw: 1,
    matchReason: 'lexical',
  }));
  return { generation, parsed: parseSearchQuery('deploy'), top };
}

describe('PostgresFindAnswers', () => {
  it('keeps at most 4,096 ranked hits (a ranking counting one more), dropping the oldest first', () => {
    const answers = new PostgresFindAnswers();
    for (let i = 0; i < 400; i++) answers.set(`q${i}`, ranking('7', 9));
    // 400 rankings of 10 each fit; the 410th pushes the first one out.
    expect(answers.size).toBe(400);
    for (let i = 400; i < 410; i++) answers.set(`q${i}`, ranking('7', 9));
    expect(answers.size).toBe(409);
    expect(answers.get('q0')).toBeUndefined();
    expect(answers.get('q1')?.top).toHaveLength(9);
    // Empty answers count too: they cannot grow without bound.
    for (let i = 0; i < 10_000; i++) answers.set(`empty${i}`, ranking('7', 0));
    expect(answers.size).toBe(4096);
    // One ranking larger than everything is not kept.
    answers.set('huge', ranking('7', 4096));
    expect(answers.get('huge')).toBeUndefined();
  });

  it('does not keep a ranking under a key longer than 2,048 characters', () => {
    const answers = new PostgresFindAnswers();
    answers.set('x'.repeat(2048), ranking('1', 3));
    answers.set('y'.repeat(2049), ranking('1', 3));
    expect(answers.get('x'.repeat(2048))).toBeDefined();
    expect(answers.get('y'.repeat(2049))).toBeUndefined();
  });

  it('empties on a newer generation and never keeps an older one', () => {
    const answers = new PostgresFindAnswers();
    answers.set('a', ranking('10', 2));
    answers.set('b', ranking('9', 2));
    expect(answers.get('b')).toBeUndefined();
    expect(answers.get('a')?.generation).toBe('10');
    answers.set('c', ranking('11', 2));
    expect(answers.get('a')).toBeUndefined();
    expect(answers.get('c')?.generation).toBe('11');
    expect(answers.size).toBe(1);
  });
});
