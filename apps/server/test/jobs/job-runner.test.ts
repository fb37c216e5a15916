import { hostname } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay } from '../../src/jobs/backoff.js';
import { createJobRunner, type JobRunner } from '../../src/jobs/job-runner.js';
import type { Store } from '../../src/store/types.js';
import { makeWrite, openTempStore, text, USER_ROOT } from '../store/helpers.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

function setup(): { store: Store; reopen: () => Store } {
  const temp = openTempStore();
  cleanups.push(temp.cleanup);
  return { store: temp.store, reopen: temp.reopen };
}

function track(runner: JobRunner): JobRunner {
  cleanups.push(() => runner.stop());
  return runner;
}

const quiet = () => {};

describe('backoffDelay', () => {
  it.each([
    [1, 100],
    [2, 200],
    [3, 400],
    [5, 1000],
    [60, 1000],
    [0, 100],
  ])('attempt %i → %i ms (base 100, cap 1000)', (attempt, expected) => {
    expect(backoffDelay(attempt, { baseMs: 100, maxMs: 1000 })).toBe(expected);
  });
});

describe('JobRunner', () => {
  it('waitFor recounts a draining queue at most once per 4× the last count, not after every job', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'performance'] });
    try {
      let pending = 1000;
      let counts = 0;
      let listener: () => void = () => {};
      // A queue whose count takes 50 ms of the store's time; one job settles every millisecond.
      const store = {
        watchTasks(fn: () => void) {
          listener = fn;
          return { shared: false, close() {} };
        },
        async queueCounts() {
          counts++;
          await new Promise<void>((resolve) => setTimeout(resolve, 50));
          return { pending, processing: 0, completed: 1000 - pending, failed: 0 };
        },
      } as unknown as Store;
      const runner = createJobRunner({ store, onError: quiet });
      const waited = runner.waitFor('acme', 'alice', { timeoutMs: 60_000 });
      while (pending > 0) {
        pending--;
        listener();
        await vi.advanceTimersByTimeAsync(1);
      }
      await vi.advanceTimersByTimeAsync(1000);
      expect(await waited).toMatchObject({ done: true, counts: { pending: 0 } });
      // Back to back (the old loop) it would count 1000 / 50 = 20 times; with the gap, 1000 / 250.
      expect(counts).toBeGreaterThanOrEqual(3);
      expect(counts).toBeLessThanOrEqual(7);
    } finally {
      vi.useRealTimers();
    }
  });

  it('kick(false) (a write completed with its task) wakes no worker; kick() does', async () => {
    const { store } = setup();
    let claims = 0;
    let idle: () => void = () => {};
    const counting: Store = Object.create(store);
    counting.claimTask = async (...args) => {
      claims++;
      const task = await store.claimTask(...args);
      if (task === null) idle();
      return task;
    };
    const runner = track(
      createJobRunner({ store: counting, pollIntervalMs: 60_000, compactPagesPerStep: 0, onError: quiet }),
    );
    const firstIdle = new Promise<void>((resolve) => {
      idle = resolve;
    });
    await runner.start();
    await firstIdle; // the worker found nothing and goes to sleep for 60 s
    for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    const before = claims;
    for (let i = 0; i < 5; i++) runner.kick(false);
    for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
    expect(claims).toBe(before);
    const put = await store.putSkill(makeWrite({ name: 'woken' }));
    runner.kick();
    const waited = await runner.waitFor('acme', 'alice', { taskIds: [put.taskId], timeoutMs: 5000 });
    expect(waited.done).toBe(true);
    expect(claims).toBeGreaterThan(before);
  });

  it('processes a write right after kick(): overview stored, indexed, task completed', async () => {
    const { store } = setup();
    const runner = track(createJobRunner({ store, pollIntervalMs: 60_000, onError: quiet }));
    await runner.start();
    const put = await store.putSkill(
      makeWrite({
        name: 'search-web',
        description: 'Search the web',
        body: '# search-web\n\n## Parameters\n\n- **query** (string) (required): Search query\n',
      }),
    );
    runner.kick();
    // Done within 5 s although the runner polls only every 60 s: kick() woke it.
    const waited = await runner.waitFor('acme', 'alice', { taskIds: [put.taskId], timeoutMs: 5000 });
    expect(waited).toEqual({ done: true, counts: { pending: 0, processing: 0, completed: 1, failed: 0 } });
    const task = await store.getTask('acme', 'alice', put.taskId);
    expect(task).toMatchObject({
      status: 'completed',
      attempts: 1,
      result: { revision: put.skill.revision, indexed: true },
    });
    const skill = await store.getSkill('acme', USER_ROOT, 'search-web');
    expect(skill?.overview).toContain('- **query** (string) (required): Search query');
    expect(text((await store.readFile(put.skill.id, '.overview.md'))?.content)).toBe(skill?.overview);
    expect(skill?.revision).toBe(put.skill.revision);
  });

  it('retries a failing summariser with backoff, then succeeds', async () => {
    const { store } = setup();
    let calls = 0;
    const errors: string[] = [];
    const runner = track(
      createJobRunner({
        store,
        pollIntervalMs: 5,
        backoff: { baseMs: 20, maxMs: 100 },
        summarize: () => {
          calls++;
          if (calls < 3) throw new Error(`transient ${calls}`);
          return 'third time lucky';
        },
        onError: (error) => errors.push((error as Error).message),
      }),
    );
    await runner.start();
    const put = await store.putSkill(makeWrite({ name: 'flaky' }));
    runner.kick();
    const waited = await runner.waitFor('acme', 'alice', { timeoutMs: 5000 });
    expect(waited.done).toBe(true);
    expect(calls).toBe(3);
    expect(errors).toEqual(['transient 1', 'transient 2']);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      attempts: 3,
      error: null,
    });
    expect((await store.getSkill('acme', USER_ROOT, 'flaky'))?.overview).toBe('third time lucky');
  });

  it('keeps the overview a write stored with its revision, leaving the job only its other work', async () => {
    const { store } = setup();
    const overview = 'Rendered with the write: charts from spreadsheets.';
    const put = await store.putSkill(makeWrite({ name: 'kept', processed: { overview, result: null } }));
    // Stored and indexed with the write; the task is left for the job.
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({ status: 'pending' });
    expect((await store.getSkill('acme', USER_ROOT, 'kept'))?.overview).toBe(overview);
    expect(
      (await store.search('acme', [USER_ROOT], 'spreadsheets', { limit: 5 })).map((h) => h.skill.name),
    ).toEqual(['kept']);
    const runner = createJobRunner({
      store,
      keepStoredOverview: true,
      summarize: () => {
        throw new Error('the stored overview is kept: nothing to render');
      },
      onError: quiet,
    });
    expect(await runner.runOnce()).toBe(true);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      result: {
        revision: put.skill.revision,
        overview_bytes: new TextEncoder().encode(overview).byteLength,
        indexed: true,
        attempt: 1,
      },
    });
    expect((await store.getSkill('acme', USER_ROOT, 'kept'))?.overview).toBe(overview);

    // Without the option (an LLM summariser) the job renders the overview again.
    const again = await store.putSkill(makeWrite({ name: 'kept', processed: { overview, result: null } }));
    const rendering = createJobRunner({ store, summarize: () => 'Rendered by the job.', onError: quiet });
    expect(await rendering.runOnce()).toBe(true);
    expect(await store.getTask('acme', 'alice', again.taskId)).toMatchObject({ status: 'completed' });
    expect((await store.getSkill('acme', USER_ROOT, 'kept'))?.overview).toBe('Rendered by the job.');
  });

  it('gives up after maxAttempts: task failed, skill still findable', async () => {
    const { store } = setup();
    const runner = track(
      createJobRunner({
        store,
        maxAttempts: 2,
        pollIntervalMs: 5,
        backoff: { baseMs: 10, maxMs: 10 },
        summarize: () => {
          throw new Error('always broken');
        },
        onError: quiet,
      }),
    );
    await runner.start();
    const put = await store.putSkill(makeWrite({ name: 'broken', description: 'Unlucky summariser' }));
    runner.kick();
    const waited = await runner.waitFor('acme', 'alice', { taskIds: [put.taskId], timeoutMs: 5000 });
    expect(waited).toEqual({ done: true, counts: { pending: 0, processing: 0, completed: 0, failed: 1 } });
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: 'Error: always broken',
    });
    const hits = await store.search('acme', [USER_ROOT], 'unlucky', { limit: 5 });
    expect(hits.map((h) => h.skill.name)).toEqual(['broken']);
  });

  it('waitFor through one replica returns when another replica completes the task', async () => {
    const { store, reopen } = setup();
    const other = reopen();
    // The waiting replica runs no jobs itself (never started); the other one does.
    const waiting = track(createJobRunner({ store, pollIntervalMs: 60_000, onError: quiet }));
    const working = track(createJobRunner({ store: other, pollIntervalMs: 60_000, onError: quiet }));
    const put = await store.putSkill(makeWrite({ name: 'across' }));
    const waited = waiting.waitFor('acme', 'alice', { taskIds: [put.taskId], timeoutMs: 20_000 });
    await working.start();
    working.kick();
    expect(await waited).toEqual({
      done: true,
      counts: { pending: 0, processing: 0, completed: 1, failed: 0 },
    });
  });

  it('waitFor times out with done=false while work is pending', async () => {
    const { store } = setup();
    const runner = track(createJobRunner({ store, onError: quiet }));
    await store.putSkill(makeWrite({ name: 'idle' }));
    const started = performance.now();
    const waited = await runner.waitFor('acme', 'alice', { timeoutMs: 150 });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(waited).toEqual({ done: false, counts: { pending: 1, processing: 0, completed: 0, failed: 0 } });
    expect(await runner.waitFor('acme', 'nobody', { timeoutMs: 0 })).toMatchObject({ done: true });
  });

  it('takes over a task left running by a dead process once its lease runs out', async () => {
    const { store, reopen } = setup();
    const put = await store.putSkill(makeWrite({ name: 'orphan' }));
    const dead = await store.claimTask(Date.now(), { owner: 'dead-process', leaseMs: 100 });
    expect(dead).toMatchObject({ id: put.taskId, status: 'running', leaseOwner: 'dead-process' });
    await store.close(); // the "crash": the task stays running in the file, its lease unrenewed
    const next = reopen();
    const runner = track(createJobRunner({ store: next, pollIntervalMs: 10, onError: quiet }));
    await runner.start();
    const waited = await runner.waitFor('acme', 'alice', { timeoutMs: 5000 });
    expect(waited.done).toBe(true);
    expect(await next.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      attempts: 2,
      result: { attempt: 2, indexed: true },
    });
  });

  it.each([
    { case: 'its replica id, after a restart', holder: 'replica-7', runner: 'replica-7', takenAtOnce: true },
    {
      case: 'a dead process of this host',
      holder: `${hostname()}:999999999:abcdef`,
      runner: undefined,
      takenAtOnce: true,
    },
    { case: 'another replica id', holder: 'replica-8', runner: 'replica-7', takenAtOnce: false },
    {
      case: 'a process of another host',
      holder: 'elsewhere:1:abcdef',
      runner: undefined,
      takenAtOnce: false,
    },
  ])(
    'at start takes back at once a task held by $case: $takenAtOnce',
    async ({ holder, runner, takenAtOnce }) => {
      const { store } = setup();
      const put = await store.putSkill(makeWrite({ name: 'restarted' }));
      expect(await store.claimTask(Date.now(), { owner: holder, leaseMs: 3_600_000 })).not.toBeNull();
      const restarted = track(
        createJobRunner({ store, pollIntervalMs: 5, onError: quiet, ...(runner ? { owner: runner } : {}) }),
      );
      await restarted.start();
      restarted.kick();
      const waited = await restarted.waitFor('acme', 'alice', {
        taskIds: [put.taskId],
        timeoutMs: takenAtOnce ? 5000 : 200,
      });
      expect(waited.done).toBe(takenAtOnce);
      expect((await store.getTask('acme', 'alice', put.taskId))?.status).toBe(
        takenAtOnce ? 'completed' : 'running',
      );
    },
  );

  it('renews the lease of a long task, so no other runner takes it over', async () => {
    const { store, reopen } = setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = track(
      createJobRunner({
        store,
        owner: 'slow',
        // Renewed every 150 ms: a loaded machine may delay that timer by up to a lease and a half
        // before a thief could claim the task (a 60 ms lease failed once when the suite ran at load 16).
        leaseMs: 450,
        pollIntervalMs: 5,
        summarize: async () => {
          await gate;
          return 'slow but sure';
        },
        onError: quiet,
      }),
    );
    const other = reopen();
    const put = await store.putSkill(makeWrite({ name: 'long' }));
    await slow.start();
    slow.kick();
    while ((await store.getTask('acme', 'alice', put.taskId))?.status !== 'running')
      await new Promise((r) => setTimeout(r, 5));
    // Several lease lengths pass; the holder keeps renewing, so the task is never claimable.
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 250));
      expect(await other.claimTask(Date.now(), { owner: 'thief', leaseMs: 1000 })).toBeNull();
    }
    release();
    expect((await slow.waitFor('acme', 'alice', { timeoutMs: 5000 })).done).toBe(true);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      attempts: 1,
    });
    expect((await store.getSkill('acme', USER_ROOT, 'long'))?.overview).toBe('slow but sure');
  });

  it('discards the result of a runner whose task was taken over (each effect once)', async () => {
    const { store, reopen } = setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const errors: string[] = [];
    const stalled = track(
      createJobRunner({
        store,
        owner: 'stalled',
        leaseMs: 60_000,
        pollIntervalMs: 5,
        summarize: async () => {
          await gate;
          return 'written by the stalled runner';
        },
        onError: (error) => errors.push((error as Error).message),
      }),
    );
    const put = await store.putSkill(makeWrite({ name: 'contended' }));
    await stalled.start();
    stalled.kick();
    while ((await store.getTask('acme', 'alice', put.taskId))?.status !== 'running')
      await new Promise((r) => setTimeout(r, 5));
    // Another replica, whose clock is past the stalled runner's lease, takes the task over.
    const other = reopen();
    const taken = await other.claimTask(Date.now() + 120_000, { owner: 'rescuer', leaseMs: 3_600_000 });
    expect(taken).toMatchObject({ id: put.taskId, attempts: 2, leaseOwner: 'rescuer' });
    release();
    while (
      (await store.getTask('acme', 'alice', put.taskId))?.leaseOwner !== 'rescuer' ||
      errors.length === 0
    )
      await new Promise((r) => setTimeout(r, 5));
    expect(errors.join('\n')).toMatch(/lease lost/);
    expect((await store.getSkill('acme', USER_ROOT, 'contended'))?.overview).toBeNull();
    if (taken === null) throw new Error('no task');
    expect(
      await other.completeTask(taken.lease, {
        overview: 'rescued',
        revision: put.skill.revision,
        result: {},
      }),
    ).toBe(true);
    expect((await store.getSkill('acme', USER_ROOT, 'contended'))?.overview).toBe('rescued');
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      attempts: 2,
    });
  });

  it('stop() releases a task still running after the grace period; another runner finishes it', async () => {
    const { store, reopen } = setup();
    let aborted = false;
    const stuck = createJobRunner({
      store,
      owner: 'stopping',
      pollIntervalMs: 5,
      shutdownGraceMs: 30,
      summarize: ({ signal }) =>
        new Promise<string>((_resolve, reject) => {
          signal?.addEventListener('abort', () => {
            aborted = true;
            reject(signal.reason);
          });
        }),
      onError: quiet,
    });
    const put = await store.putSkill(makeWrite({ name: 'released' }));
    await stuck.start();
    stuck.kick();
    while ((await store.getTask('acme', 'alice', put.taskId))?.status !== 'running')
      await new Promise((r) => setTimeout(r, 5));
    await stuck.stop();
    expect(aborted).toBe(true);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'pending',
      attempts: 0,
      leaseOwner: null,
      error: null,
    });
    const next = reopen();
    const successor = track(
      createJobRunner({ store: next, owner: 'successor', pollIntervalMs: 5, onError: quiet }),
    );
    await successor.start();
    successor.kick();
    expect((await successor.waitFor('acme', 'alice', { timeoutMs: 5000 })).done).toBe(true);
    expect(await next.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      attempts: 1,
    });
  });

  it('two runners on one file complete every task exactly once', async () => {
    const { store, reopen } = setup();
    const other = reopen();
    const calls = new Map<string, number>();
    const summarize = async ({ skill }: { skill: { name: string } }) => {
      calls.set(skill.name, (calls.get(skill.name) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 1));
      return `overview of ${skill.name}`;
    };
    const a = track(createJobRunner({ store, owner: 'a', pollIntervalMs: 5, summarize, onError: quiet }));
    const b = track(
      createJobRunner({ store: other, owner: 'b', pollIntervalMs: 5, summarize, onError: quiet }),
    );
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await store.putSkill(makeWrite({ name: `job-${i}` }))).taskId);
    await Promise.all([a.start(), b.start()]);
    a.kick();
    b.kick();
    expect((await b.waitFor('acme', 'alice', { timeoutMs: 10_000 })).done).toBe(true);
    expect([...calls.values()].every((n) => n === 1)).toBe(true);
    expect(calls.size).toBe(40);
    for (const id of ids) {
      expect(await store.getTask('acme', 'alice', id)).toMatchObject({ status: 'completed', attempts: 1 });
    }
  });

  it('skips tasks whose skill was deleted or superseded', async () => {
    const { store } = setup();
    const runner = track(createJobRunner({ store, onError: quiet }));
    const gone = await store.putSkill(makeWrite({ name: 'gone' }));
    await store.deleteSkill('acme', USER_ROOT, 'gone');
    const old = await store.putSkill(makeWrite({ name: 'moving' }));
    const latest = await store.putSkill(makeWrite({ name: 'moving', body: 'v2' }));
    while (await runner.runOnce()) {}
    expect((await store.getTask('acme', 'alice', gone.taskId))?.result).toEqual({ skipped: 'skill deleted' });
    expect((await store.getTask('acme', 'alice', old.taskId))?.result).toMatchObject({
      skipped: expect.any(String),
    });
    expect((await store.getTask('acme', 'alice', latest.taskId))?.result).toMatchObject({ indexed: true });
    expect((await store.getSkill('acme', USER_ROOT, 'moving'))?.overview).toContain('# moving — overview');
  });

  it('stop() lets the running task finish and ends waits', async () => {
    const { store } = setup();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runner = createJobRunner({
      store,
      pollIntervalMs: 5,
      summarize: async () => {
        await gate;
        return 'slow overview';
      },
      onError: quiet,
    });
    await runner.start();
    const put = await store.putSkill(makeWrite({ name: 'slow' }));
    runner.kick();
    while ((await store.getTask('acme', 'alice', put.taskId))?.status !== 'running')
      await new Promise((r) => setTimeout(r, 5));
    const waiting = runner.waitFor('acme', 'alice', { timeoutMs: 60_000 });
    const stopping = runner.stop();
    release();
    await stopping;
    expect((await store.getTask('acme', 'alice', put.taskId))?.status).toBe('completed');
    expect((await waiting).counts.completed).toBe(1);
    await expect(runner.start()).rejects.toThrow(/stopped/);
  });

  it('purges expired uploads periodically', async () => {
    const { store } = setup();
    await store.putTempUpload({
      accountId: 'acme',
      filename: 'x',
      content: new Uint8Array([1]),
      expiresAt: Date.now() - 1,
    });
    const fresh = await store.putTempUpload({
      accountId: 'acme',
      filename: 'y',
      content: new Uint8Array([2]),
      expiresAt: Date.now() + 60_000,
    });
    const runner = track(createJobRunner({ store, purgeIntervalMs: 10, onError: quiet }));
    await runner.start();
    await new Promise((r) => setTimeout(r, 60));
    expect(await store.purgeExpiredUploads(Date.now())).toBe(0);
    expect((await store.takeTempUpload('acme', fresh, Date.now()))?.filename).toBe('y');
  });

  it('deletes finished tasks after the retention period, keeps pending ones', async () => {
    const { store } = setup();
    const done = await store.putSkill(makeWrite({ name: 'done' }));
    const runner = track(createJobRunner({ store, pollIntervalMs: 5, onError: quiet }));
    await runner.start();
    runner.kick();
    expect((await runner.waitFor('acme', 'alice', { timeoutMs: 5000 })).done).toBe(true);
    await runner.stop();
    const pending = await store.putSkill(makeWrite({ name: 'pending' }));
    expect(await store.purgeFinishedTasks(Date.now() - 60_000)).toBe(0);
    expect(await store.purgeFinishedTasks(Date.now() + 1)).toBe(1);
    expect(await store.getTask('acme', 'alice', done.taskId)).toBeNull();
    expect((await store.getTask('acme', 'alice', pending.taskId))?.status).toBe('pending');

    const housekeeper = track(
      createJobRunner({ store, purgeIntervalMs: 10, taskRetentionMs: 0, onError: quiet }),
    );
    await housekeeper.start();
    housekeeper.kick();
    expect((await housekeeper.waitFor('acme', 'alice', { timeoutMs: 5000 })).done).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 0,
      processing: 0,
      completed: 0,
      failed: 0,
    });
  });
});
