import { afterEach, describe, expect, it } from 'vitest';
import { createJobRunner } from '../../src/jobs/job-runner.js';
import type { Store } from '../../src/store/types.js';
import { makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const WORDS = ['pdf', 'docker', 'search', 'summarize', 'invoice', 'deploy', 'review', 'calendar'];

async function fill(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const words = [WORDS[i % WORDS.length], WORDS[(i * 3 + 1) % WORDS.length]];
    await store.putSkill(
      makeWrite({
        name: `skill-${i}`,
        description: `Works with ${words.join(' and ')}`,
        body: `${words[0]}\n`,
      }),
    );
  }
}

async function compactAll(store: Store): Promise<number> {
  let steps = 0;
  while (await store.compactSearchIndex(8)) steps++;
  return steps;
}

const QUERIES = ['pdf', 'docker search', 'summ', 'invoice deploy review', 'skill-7'];

async function answers(store: Store) {
  return Promise.all(
    QUERIES.map(async (q) =>
      (await store.search('acme', [USER_ROOT], q, { limit: 10 })).map((h) => [h.skill.name, h.score]),
    ),
  );
}

describe('sqlite store: search index compaction', () => {
  it('merges the segments left by single writes, in steps, without changing any answer', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await fill(temp.store, 60);
    const before = await answers(temp.store);
    expect(before.every((hits) => hits.length > 0)).toBe(true);
    expect(await compactAll(temp.store)).toBeGreaterThan(0);
    expect(await temp.store.compactSearchIndex(8)).toBe(false);
    expect(await answers(temp.store)).toEqual(before);
  });

  it.each([
    ['a new skill', (s: Store) => s.putSkill(makeWrite({ name: 'late', body: 'pdf docker\n' }))],
    ['a delete', (s: Store) => s.deleteSkill('acme', USER_ROOT, 'skill-3')],
  ])('has work again after %s', async (_label, change) => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await fill(temp.store, 20);
    await compactAll(temp.store);
    await change(temp.store);
    const before = await answers(temp.store);
    expect(await compactAll(temp.store)).toBeGreaterThan(0);
    expect(await answers(temp.store)).toEqual(before);
  });

  it.each([
    ['compacts when idle', 64, false, false],
    ['can be told not to', 0, false, true],
    ['waits while writes keep coming', 64, true, true],
  ] as const)('an idle job runner %s', async (_label, pages, kicked, expectLeft) => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await fill(temp.store, 30);
    const runner = createJobRunner({
      store: temp.store,
      pollIntervalMs: 20,
      compactPagesPerStep: pages,
      compactQuietMs: 60_000,
    });
    await runner.start();
    if (kicked) runner.kick();
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const counts = await temp.store.queueCounts('acme', 'alice');
      if (counts.pending + counts.processing === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await runner.stop();
    expect(await temp.store.compactSearchIndex(8)).toBe(expectLeft);
  });
});
