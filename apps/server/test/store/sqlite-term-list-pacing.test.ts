// Pacing of the SQLite per-term lists' upkeep (`term-list-pacing.ts`): steps run back to back while
// the database thread is idle and rest for their share while requests come. Counted, not timed: the
// pacer on a clock of the test's own, and the threaded store's pacer counting idle and paced steps
// on a real file, with real threads, while the test makes calls or makes none.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadedSqliteStore, termListPacingOf } from '../../src/store/sqlite/sqlite-thread.js';
import {
  StoreCallActivity,
  TERM_LIST_DUTY,
  TERM_LIST_IDLE_MS,
  TermListPacer,
} from '../../src/store/sqlite/term-list-pacing.js';
import type { Store } from '../../src/store/types.js';
import { makeWrite, USER_ROOT } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A pacer on a clock the test moves. */
function pacerOn(activity: StoreCallActivity | undefined) {
  const clock = { at: 1_000 };
  const pacer = new TermListPacer(activity, () => clock.at);
  /** A step of `workUs` estimated µs that took `wallMs`, the clock moved past it. */
  const step = (workUs: number, wallMs: number): void => {
    clock.at += wallMs;
    pacer.stepped(workUs, wallMs);
  };
  return { clock, pacer, step };
}

/** Rest after a step of cost `costMs` while requests come. */
const pacedRest = (costMs: number) => costMs * (1 / TERM_LIST_DUTY - 1);

describe('TermListPacer', () => {
  it('never counts the thread idle without activity counts (a store on the requests thread)', () => {
    const { clock, pacer, step } = pacerOn(undefined);
    expect(pacer.restBeforeStep()).toBe(0);
    step(4_000, 2);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(2), 9);
    clock.at += 10 * TERM_LIST_IDLE_MS;
    step(4_000, 2);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(2), 9);
    expect(pacer.counts).toEqual({ idle: 0, paced: 3 });
  });

  it('runs steps back to back once no call came for the idle time, paced again from the next call', () => {
    const activity = new StoreCallActivity();
    const { clock, pacer, step } = pacerOn(activity);
    // Steps right after the pacer started: not idle yet.
    pacer.restBeforeStep();
    step(4_000, 2);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(2), 9);
    clock.at += TERM_LIST_IDLE_MS;
    step(4_000, 2);
    for (let i = 0; i < 5; i++) {
      expect(pacer.restBeforeStep()).toBe(0);
      step(4_000, 2);
    }
    expect(pacer.counts).toEqual({ idle: 5, paced: 2 });
    // A call answered at once (no call in flight): paced from the next step on.
    activity.touch();
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(2), 9);
    step(4_000, 2);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(2), 9);
    expect(pacer.counts).toEqual({ idle: 5, paced: 4 });
    // A call waiting for its answer keeps the steps paced however long it waits.
    activity.begin();
    clock.at += 10 * TERM_LIST_IDLE_MS;
    step(4_000, 2);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(2), 9);
    activity.end();
    clock.at += TERM_LIST_IDLE_MS;
    step(4_000, 2);
    expect(pacer.restBeforeStep()).toBe(0);
    expect(pacer.counts).toEqual({ idle: 6, paced: 5 });
  });

  it('prices a step stretched by another thread as an undisturbed step of the same work, never below its wall time', () => {
    const { pacer, step } = pacerOn(undefined);
    // Undisturbed steps: 1 ms per 4,000 estimated µs.
    for (let i = 0; i < 16; i++) {
      pacer.restBeforeStep();
      step(4_000, 1);
    }
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(1), 9);
    // The same work stretched to 3 ms (the checkpointer's I/O): the rest of a 1 ms step, not 3.
    step(4_000, 3);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(1), 9);
    // Half the work: half the rest.
    step(2_000, 1.5);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(0.5), 9);
    // Stretched to 10 ms: the rest is at least the step's own wall time (at most half the thread).
    step(4_000, 10);
    expect(pacer.restBeforeStep()).toBeCloseTo(10, 9);
    // A step faster than the estimates' price: its own wall time.
    step(4_000, 0.5);
    expect(pacer.restBeforeStep()).toBeCloseTo(pacedRest(0.5), 9);
  });

  it('counts calls made on another thread through the shared slots', async () => {
    const activity = new StoreCallActivity();
    const worker = new Worker(
      `const { workerData } = require('node:worker_threads');
       const slots = new Int32Array(workerData, 0, 2);
       for (let i = 0; i < 1000; i++) { Atomics.add(slots, 0, 1); Atomics.add(slots, 1, 1); Atomics.sub(slots, 1, 1); }
       Atomics.add(slots, 1, 1);`,
      { eval: true, workerData: activity.buffer },
    );
    await new Promise((resolve) => worker.once('exit', resolve));
    expect(activity.made()).toBe(1000);
    expect(activity.inFlight()).toBe(1);
  });
});

describe('threaded SQLite store: per-term list upkeep pacing', () => {
  async function openStore(): Promise<Store> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pacing-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = await createThreadedSqliteStore({ dataDir: dir, searchThreads: 1 });
    cleanups.push(() => store.close());
    for (let i = 0; i < 40; i++) {
      await store.putSkill(
        makeWrite({
          name: `paced-${i}`,
          description: `Paced skill ${i} for upkeep counting`,
          body: `# Paced ${i}\n\n${'Tokens and more words to list. '.repeat(40)}\n`,
        }),
      );
    }
    return store;
  }

  /** One upkeep step of the smallest budget (the lists' build, not the index merge). */
  const upkeepStep = (store: Store) => store.compactSearchIndex(1, { merge: false });

  it('runs steps idle while no call comes, and paced while calls come (gets, finds, writes)', async () => {
    const store = await openStore();
    const counts = termListPacingOf(store);
    expect(counts).toBeDefined();
    const before = await counts?.();
    // Calls that come with each step: every one of those steps is paced.
    const calls: Array<() => Promise<unknown>> = [
      () => store.getSkill('acme', USER_ROOT, 'paced-1'),
      () => store.search('acme', [USER_ROOT], 'paced tokens', { limit: 5 }),
      () => store.putSkill(makeWrite({ name: 'paced-written', description: 'Written while paced' })),
      () => store.listSkills('acme', USER_ROOT, { limit: 10 }),
    ];
    for (const make of calls) {
      const [, more] = await Promise.all([make(), upkeepStep(store)]);
      expect(more).toBe(true);
      await make();
      expect(await upkeepStep(store)).toBe(true);
    }
    const paced = await counts?.();
    expect((paced?.paced ?? 0) - (before?.paced ?? 0)).toBe(calls.length * 2);
    expect(paced?.idle).toBe(before?.idle);
    // No call for longer than the idle time: the next steps run back to back.
    await new Promise((resolve) => setTimeout(resolve, 2 * TERM_LIST_IDLE_MS));
    for (let i = 0; i < 10; i++) expect(await upkeepStep(store)).toBe(true);
    const idle = await counts?.();
    expect((idle?.idle ?? 0) - (paced?.idle ?? 0)).toBe(10);
    expect(idle?.paced).toBe(paced?.paced);
    // A request again: the step after it is paced.
    await store.getSkill('acme', USER_ROOT, 'paced-2');
    expect(await upkeepStep(store)).toBe(true);
    const after = await counts?.();
    expect((after?.paced ?? 0) - (idle?.paced ?? 0)).toBe(1);
    expect(after?.idle).toBe(idle?.idle);
    // The build still ends (and covers every skill) whichever way its steps ran.
    while (await store.compactSearchIndex(64)) {}
    const hits = await store.search('acme', [USER_ROOT], 'paced', { limit: 100 });
    expect(hits.length).toBe(41);
  });
});
