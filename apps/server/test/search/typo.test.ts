import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { corrections, editDistance, isCorrectable, maxEdits } from '../../src/search/typo.js';
import { makeWrite, openTempStore, USER_ROOT } from '../store/helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('editDistance', () => {
  it.each([
    ['transcirbe', 'transcribe', 1],
    ['qauntum', 'quantum', 1],
    ['kubernets', 'kubernetes', 1],
    ['survial', 'survival', 1],
    ['abc', 'abc', 0],
    ['', 'abc', 3],
  ])('%s ↔ %s = %i', (a, b, d) => {
    expect(editDistance(a, b, 3)).toBe(d);
  });

  it('stops at max + 1 and is symmetric', () => {
    expect(editDistance('aaaaaaaa', 'bbbbbbbb', 2)).toBe(3);
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        expect(editDistance(a, b, 20)).toBe(editDistance(b, a, 20));
        expect(editDistance(a, b, 20)).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });
});

describe('corrections', () => {
  const vocabulary = [
    { term: 'quantum', docs: 9 },
    { term: 'quantiz', docs: 4 },
    { term: 'surviv', docs: 3 },
    { term: 'prometheu', docs: 5 },
  ];
  it('proposes the closest index terms, then the most widespread', () => {
    expect(corrections('qauntum', vocabulary)).toEqual(['quantum']);
    expect(corrections('survial', vocabulary)).toEqual(['surviv']);
    expect(corrections('prometheous', vocabulary)).toEqual(['prometheu']);
    expect(corrections('zzzzzzz', vocabulary)).toEqual([]);
    // `nothing` cut to `noth` is too short to correct: `note` is not what was meant.
    expect(corrections('nothing', [{ term: 'note', docs: 50 }])).toEqual([]);
  });

  it('corrects only longer Latin words that are not stop words', () => {
    expect(maxEdits(4)).toBe(0);
    expect(maxEdits(5)).toBe(1);
    expect(maxEdits(8)).toBe(2);
    expect(isCorrectable('pdfs')).toBe(false);
    expect(isCorrectable('which')).toBe(false);
    expect(isCorrectable('检查小红书')).toBe(false);
    expect(isCorrectable('raffel')).toBe(true);
  });
});

describe('sqlite store: a misspelt distinctive word still finds its skill', () => {
  it.each([
    ['qauntum circuits', 'quantum-sim'],
    ['transcirbe recordings', 'transcriber'],
    ['raffel', 'raffle-picker'],
    ['prometheous config', 'metrics-alerts'],
  ])('%s → %s', async (query, name) => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    await store.putSkill(
      makeWrite({ name: 'quantum-sim', description: 'Simulate quantum circuits on a laptop' }),
    );
    await store.putSkill(
      makeWrite({ name: 'transcriber', description: 'Transcribe audio recordings to text' }),
    );
    await store.putSkill(makeWrite({ name: 'raffle-picker', description: 'Pick raffle winners at random' }));
    await store.putSkill(
      makeWrite({ name: 'metrics-alerts', description: 'Prometheus scraping and alerting' }),
    );
    await store.putSkill(
      makeWrite({ name: 'notes', description: 'Keep notes about circuits and recordings' }),
    );
    const hits = await store.search('acme', [USER_ROOT], query, { limit: 5 });
    expect(hits[0]?.skill.name).toBe(name);
    expect(hits[0]?.matchReason).toBe('lexical');
    expect(hits[0]?.matchedFields.length).toBeGreaterThan(0);
  });

  it('a correctly spelt word is not expanded, and unknown words with no near term find nothing', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.putSkill(makeWrite({ name: 'quantum-sim', description: 'Simulate quantum circuits' }));
    await temp.store.putSkill(makeWrite({ name: 'quantize', description: 'Quantize a model to 4 bits' }));
    const exact = await temp.store.search('acme', [USER_ROOT], 'quantum', { limit: 5 });
    expect(exact.map((h) => h.skill.name)).toEqual(['quantum-sim']);
    expect(await temp.store.search('acme', [USER_ROOT], 'xylophones', { limit: 5 })).toEqual([]);
  });
});
