import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataRecord } from '../../src/archive/archive-format.js';
import { sha256Hex } from '../../src/store/revision.js';
import type { ClaimedTask, SkillWrite, Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { makeWrite, openTempStore, TEST_CLAIM, text, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

let clock = 1_000_000;
/** Claims the next task with the test lease; fails the test when none is runnable. */
async function claim(store: Store, at: number): Promise<ClaimedTask> {
  const task = await store.claimTask(at, TEST_CLAIM);
  if (task === null) throw new Error('expected a runnable task');
  return task;
}

function setup(): { store: Store; reopen: () => Store } {
  clock = 1_000_000;
  const temp = openTempStore({ now: () => clock });
  cleanup = temp.cleanup;
  return { store: temp.store, reopen: temp.reopen };
}

describe(`${TEST_ENGINE} store: tasks`, () => {
  it('enqueues a pending task with the write and runs it to completion with the overview', async () => {
    const { store } = setup();
    const put = await store.putSkill(makeWrite({ name: 'job' }));
    const pending = await store.getTask('acme', 'alice', put.taskId);
    expect(pending).toMatchObject({
      status: 'pending',
      type: 'add_skill',
      skillId: put.skill.id,
      revision: put.skill.revision,
      attempts: 0,
    });
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 1,
      processing: 0,
      completed: 0,
      failed: 0,
    });

    const claimed = await store.claimTask(clock, TEST_CLAIM);
    expect(claimed).toMatchObject({
      id: put.taskId,
      status: 'running',
      attempts: 1,
      leaseOwner: TEST_CLAIM.owner,
      leaseExpiresAt: clock + TEST_CLAIM.leaseMs,
    });
    if (claimed === null) throw new Error('no task');
    expect(await store.claimTask(clock, TEST_CLAIM)).toBeNull();
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 0,
      processing: 1,
      completed: 0,
      failed: 0,
    });

    expect(
      await store.completeTask(claimed.lease, {
        overview: '# job overview\n',
        revision: put.skill.revision,
        result: { ok: 1 },
      }),
    ).toBe(true);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      result: { ok: 1 },
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    const skill = await store.getSkill('acme', USER_ROOT, 'job');
    expect(skill?.overview).toBe('# job overview\n');
    expect(skill?.revision).toBe(put.skill.revision);
    const overview = await store.readFile(put.skill.id, '.overview.md');
    expect(overview).toMatchObject({ kind: 'summary', size: 15 });
    expect(text(overview?.content)).toBe('# job overview\n');
    expect(await store.completeTask(claimed.lease, { overview: 'again', result: {} })).toBe(false);
    expect(text((await store.readFile(put.skill.id, '.overview.md'))?.content)).toBe('# job overview\n');
  });

  it('does not write an overview computed for an older revision', async () => {
    const { store } = setup();
    const first = await store.putSkill(makeWrite({ name: 'race' }));
    const task = await claim(store, clock);
    await store.putSkill(makeWrite({ name: 'race', description: 'newer' }));
    await store.completeTask(task.lease, { overview: 'stale', revision: first.skill.revision, result: {} });
    expect((await store.getSkill('acme', USER_ROOT, 'race'))?.overview).toBeNull();
    expect(await store.readFile(first.skill.id, '.overview.md')).toBeNull();
    expect((await store.getTask('acme', 'alice', first.taskId))?.status).toBe('completed');
  });

  it('keeps the overview when the same files are written again, drops it when they change', async () => {
    const { store } = setup();
    const first = await store.putSkill(makeWrite({ name: 'same' }));
    const task = await claim(store, clock);
    await store.completeTask(task.lease, { overview: 'ov', revision: first.skill.revision, result: {} });
    await store.putSkill(makeWrite({ name: 'same' }));
    expect((await store.getSkill('acme', USER_ROOT, 'same'))?.overview).toBe('ov');
    expect(await store.readFile(first.skill.id, '.overview.md')).not.toBeNull();
    await store.putSkill(makeWrite({ name: 'same', body: 'changed' }));
    expect((await store.getSkill('acme', USER_ROOT, 'same'))?.overview).toBeNull();
    expect(await store.readFile(first.skill.id, '.overview.md')).toBeNull();
  });

  it('stores an overview processed at write time with the write and records its task completed', async () => {
    const { store } = setup();
    const write = (body: string, overview: string) =>
      store.putSkill({
        ...makeWrite({ name: 'inline', body }),
        processed: { overview, result: { overview_bytes: overview.length, indexed: true } },
      });
    const put = await write('# inline\n\nDoes things.\n', '# inline\n\nZanzibarquokka summary\n');
    expect(put.skill.overview).toBe('# inline\n\nZanzibarquokka summary\n');
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'completed',
      attempts: 1,
      revision: put.skill.revision,
      result: { revision: put.skill.revision, overview_bytes: 33, indexed: true },
      leaseOwner: null,
    });
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 0,
      processing: 0,
      completed: 1,
      failed: 0,
    });
    expect(await store.claimTask(clock, TEST_CLAIM)).toBeNull();
    const stored = await store.getSkill('acme', USER_ROOT, 'inline');
    expect(stored?.overview).toBe('# inline\n\nZanzibarquokka summary\n');
    const file = await store.readFile(put.skill.id, '.overview.md');
    expect(file).toMatchObject({ kind: 'summary', size: 33 });
    expect(new TextDecoder().decode(file?.content)).toBe('# inline\n\nZanzibarquokka summary\n');
    // The search row holds the overview: a word found only there finds the skill.
    const hits = await store.search('acme', [USER_ROOT], 'zanzibarquokka', { limit: 5 });
    expect(hits.map((hit) => hit.skill.name)).toEqual(['inline']);
    // The revision is the files' (the overview is not part of it): the same files without an
    // overview get the same revision.
    const plain = await store.putSkill(makeWrite({ name: 'inline', body: '# inline\n\nDoes things.\n' }));
    expect(plain.skill.revision).toBe(put.skill.revision);

    // A new version with its own overview replaces the previous one, whose content goes.
    const next = await write('# inline\n\nDoes more.\n', '# inline\n\nSecond summary\n');
    expect((await store.getSkill('acme', USER_ROOT, 'inline'))?.overview).toBe(
      '# inline\n\nSecond summary\n',
    );
    expect((await store.search('acme', [USER_ROOT], 'zanzibarquokka', { limit: 5 })).length).toBe(0);
    expect((await store.readBlobs([sha256Hex('# inline\n\nZanzibarquokka summary\n')])).size).toBe(0);
    expect((await store.getTask('acme', 'alice', next.taskId))?.status).toBe('completed');
    // A later write without one drops the overview of the changed files, as ever.
    await store.putSkill(makeWrite({ name: 'inline', body: 'changed' }));
    expect((await store.getSkill('acme', USER_ROOT, 'inline'))?.overview).toBeNull();
    expect(await store.readFile(put.skill.id, '.overview.md')).toBeNull();
    expect((await store.readBlobs([sha256Hex('# inline\n\nSecond summary\n')])).size).toBe(0);
  });

  it('retries with a future run time, then fails for good', async () => {
    const { store } = setup();
    const put = await store.putSkill(makeWrite({ name: 'flaky' }));
    const task = await claim(store, clock);
    expect(await store.failTask(task.lease, 'boom 1', clock + 1000)).toBe(true);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'pending',
      error: 'boom 1',
      runAt: clock + 1000,
      attempts: 1,
    });
    expect(await store.claimTask(clock + 999, TEST_CLAIM)).toBeNull();
    const retry = await claim(store, clock + 1000);
    expect(retry).toMatchObject({ id: put.taskId, attempts: 2 });
    expect(await store.failTask(task.lease, 'stale holder', null)).toBe(false);
    expect(await store.failTask(retry.lease, 'boom 2', null)).toBe(true);
    expect(await store.getTask('acme', 'alice', put.taskId)).toMatchObject({
      status: 'failed',
      error: 'boom 2',
    });
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 0,
      processing: 0,
      completed: 0,
      failed: 1,
    });
    expect(await store.claimTask(clock + 10_000_000, TEST_CLAIM)).toBeNull();
  });

  it('claims the oldest runnable task first', async () => {
    const { store } = setup();
    const a = await store.putSkill(makeWrite({ name: 'a' }));
    clock += 1;
    const b = await store.putSkill(makeWrite({ name: 'b' }));
    expect((await store.claimTask(clock, TEST_CLAIM))?.id).toBe(a.taskId);
    expect((await store.claimTask(clock, TEST_CLAIM))?.id).toBe(b.taskId);
  });

  it('takes over a task whose lease ran out, across reopen (its process died)', async () => {
    const { store, reopen } = setup();
    const put = await store.putSkill(makeWrite({ name: 'crash' }));
    const dead = await store.claimTask(clock, { owner: 'dead', leaseMs: 1000 });
    await store.close();
    const next = reopen();
    expect(await next.claimTask(clock + 999, TEST_CLAIM)).toBeNull();
    const taken = await claim(next, clock + 1000);
    expect(taken).toMatchObject({ id: put.taskId, attempts: 2, leaseOwner: TEST_CLAIM.owner });
    expect(await next.completeTask(dead?.lease ?? taken.lease, { overview: 'x', result: {} })).toBe(
      dead === null,
    );
  });

  it('ends the leases of the owners named gone, and only those', async () => {
    const { store } = setup();
    const a = await store.putSkill(makeWrite({ name: 'held-a' }));
    const b = await store.putSkill(makeWrite({ name: 'held-b' }));
    await store.claimTask(clock, { owner: 'gone', leaseMs: 60_000 });
    await store.claimTask(clock, { owner: 'alive', leaseMs: 60_000 });
    const asked: string[] = [];
    const ended = await store.expireLeases((owner) => {
      asked.push(owner);
      return owner === 'gone';
    }, clock + 1);
    expect(ended).toBe(1);
    expect(asked.sort()).toEqual(['alive', 'gone']);
    const taken = await claim(store, clock + 1);
    expect(taken).toMatchObject({ id: a.taskId, attempts: 2 });
    expect(await store.claimTask(clock + 1, TEST_CLAIM)).toBeNull();
    expect((await store.getTask('acme', 'alice', b.taskId))?.leaseOwner).toBe('alive');
  });

  it('never hands one task to two connections on the same file', async () => {
    const { store, reopen } = setup();
    const other = reopen();
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add((await store.putSkill(makeWrite({ name: `t-${i}` }))).taskId);
    const claimed: string[] = [];
    for (;;) {
      const [a, b] = await Promise.all([
        store.claimTask(clock, TEST_CLAIM),
        other.claimTask(clock, TEST_CLAIM),
      ]);
      for (const task of [a, b]) if (task) claimed.push(task.id);
      if (!a && !b) break;
    }
    expect(claimed).toHaveLength(30);
    expect(new Set(claimed)).toEqual(ids);
  });

  it('scopes tasks and counts to their owner, and narrows counts to task ids', async () => {
    const { store } = setup();
    const mine = await store.putSkill(makeWrite({ name: 'mine' }));
    const theirs = await store.putSkill(
      makeWrite({ name: 'theirs', task: { type: 'add_skill', userId: 'bob' } }),
    );
    expect(await store.getTask('acme', 'bob', mine.taskId)).toBeNull();
    expect(await store.getTask('other', 'alice', mine.taskId)).toBeNull();
    expect((await store.getTask('acme', 'bob', theirs.taskId))?.userId).toBe('bob');
    expect((await store.queueCounts('acme', 'alice')).pending).toBe(1);
    expect(await store.queueCounts('acme', 'alice', { taskIds: [theirs.taskId] })).toEqual({
      pending: 0,
      processing: 0,
      completed: 0,
      failed: 0,
    });
    expect((await store.queueCounts('acme', 'alice', { taskIds: [mine.taskId] })).pending).toBe(1);
  });

  it('tells watchers of tasks settled here: completed, failed for good, cancelled — not a retry', async () => {
    const { store } = setup();
    let calls = 0;
    const watch = store.watchTasks(() => {
      calls++;
    });
    if (TEST_ENGINE === 'postgres') {
      // Once its notification connection listens, the store tells watchers to re-check (once).
      await vi.waitFor(() => expect(watch.shared).toBe(true), { timeout: 20_000, interval: 20 });
      expect(calls).toBe(1);
      calls = 0;
    }
    const a = await store.putSkill(makeWrite({ name: 'watch-a' }));
    await store.putSkill(makeWrite({ name: 'watch-b' }));
    const c = await store.putSkill(makeWrite({ name: 'watch-c' }));

    const first = await claim(store, clock);
    expect(first.id).toBe(a.taskId);
    expect(await store.failTask(first.lease, 'try again', clock + 1)).toBe(true);
    expect(calls).toBe(0);
    expect(await store.cancelTask('acme', 'alice', c.taskId, clock)).toMatchObject({ outcome: 'cancelled' });
    expect(calls).toBeGreaterThanOrEqual(1);
    let before = calls;
    const second = await claim(store, clock + 1);
    expect(await store.completeTask(second.lease, { overview: 'o', result: {} })).toBe(true);
    expect(calls).toBeGreaterThan(before);
    before = calls;
    const third = await claim(store, clock + 1);
    expect(await store.failTask(third.lease, 'gave up', null)).toBe(true);
    expect(calls).toBeGreaterThan(before);

    watch.close();
    watch.close();
    const after = calls;
    const d = await store.putSkill(makeWrite({ name: 'watch-d' }));
    expect(await store.cancelTask('acme', 'alice', d.taskId, clock)).toMatchObject({ outcome: 'cancelled' });
    expect(calls).toBe(after);
    if (TEST_ENGINE === 'sqlite') expect(watch.shared).toBe(false);
  });

  it.runIf(TEST_ENGINE === 'postgres')(
    'tells watchers of tasks another process settles on the same database (LISTEN/NOTIFY)',
    async () => {
      const { store, reopen } = setup();
      const other = reopen();
      let heard: () => void = () => {};
      const settled = new Promise<void>((resolve) => {
        heard = resolve;
      });
      const watch = store.watchTasks(() => heard());
      await vi.waitFor(() => expect(watch.shared).toBe(true), { timeout: 20_000, interval: 20 });
      const put = await other.putSkill(makeWrite({ name: 'elsewhere' }));
      const task = await claim(other, clock);
      expect(await other.completeTask(task.lease, { overview: 'o', result: {} })).toBe(true);
      // Only the notification can resolve this: `store` itself settled nothing.
      await settled;
      expect((await store.getTask('acme', 'alice', put.taskId))?.status).toBe('completed');
      watch.close();
    },
  );

  it('completes a task of a deleted skill as a no-op', async () => {
    const { store } = setup();
    const put = await store.putSkill(makeWrite({ name: 'deleted' }));
    await store.deleteSkill('acme', USER_ROOT, 'deleted');
    const task = await claim(store, clock);
    await store.completeTask(task.lease, {
      overview: 'x',
      revision: put.skill.revision,
      result: { skipped: true },
    });
    expect((await store.getTask('acme', 'alice', put.taskId))?.status).toBe('completed');
    expect(await store.getSkill('acme', USER_ROOT, 'deleted')).toBeNull();
  });
});

/** A write of skill `name` by `user` of `account`, whose job is a waiting write's when `interactive`. */
function writeBy(account: string, user: string, name: string, interactive = false): SkillWrite {
  return makeWrite({
    name,
    accountId: account,
    rootUri: `viking://user/${user}/skills`,
    task: { type: 'add_skill', userId: user, ...(interactive ? { interactive: true } : {}) },
  });
}

describe(`${TEST_ENGINE} store: fair order of jobs`, () => {
  /** Claims and completes every runnable task; returns their ids in claim order. */
  async function drain(store: Store): Promise<string[]> {
    const order: string[] = [];
    for (let task = await store.claimTask(clock, TEST_CLAIM); task !== null; ) {
      order.push(task.id);
      expect(await store.completeTask(task.lease, { overview: null, result: {} })).toBe(true);
      task = await store.claimTask(clock, TEST_CLAIM);
    }
    return order;
  }

  it("runs waiting writes and other users' jobs before one user's backlog, which still completes once", async () => {
    const { store } = setup();
    const backlog: string[] = [];
    for (let i = 0; i < 12; i++)
      backlog.push((await store.putSkill(writeBy('acme', 'alice', `bulk-${i}`))).taskId);
    // Three of the backlog's jobs run; the round under way is the fourth job's.
    for (let i = 0; i < 3; i++) {
      const task = await claim(store, clock);
      expect(task.id).toBe(backlog[i]);
      await store.completeTask(task.lease, { overview: null, result: {} });
    }
    const bob = (await store.putSkill(writeBy('acme', 'bob', 'bob-skill'))).taskId;
    const carolWaits = (await store.putSkill(writeBy('globex', 'carol', 'carol-skill', true))).taskId;
    const aliceWaits = (await store.putSkill(writeBy('acme', 'alice', 'alice-skill', true))).taskId;

    // The round under way: its waiting writes in enqueue order, then one job of each other lane.
    expect(await drain(store)).toEqual([carolWaits, aliceWaits, backlog[3], bob, ...backlog.slice(4)]);
    expect(await store.queueCounts('acme', 'alice')).toEqual({
      pending: 0,
      processing: 0,
      completed: 13,
      failed: 0,
    });
    expect(await store.queueCounts('acme', 'bob')).toMatchObject({ pending: 0, completed: 1 });
    expect(await store.queueCounts('globex', 'carol')).toMatchObject({ pending: 0, completed: 1 });
    // The API's answers are unchanged: the task of a waiting write is an `add_skill` like any other.
    expect(await store.getTask('acme', 'alice', aliceWaits)).toMatchObject({
      type: 'add_skill',
      status: 'completed',
      attempts: 1,
    });
  });

  it("interleaves two users' backlogs a job of each per round, each in its own enqueue order", async () => {
    const { store } = setup();
    const alice: string[] = [];
    const bob: string[] = [];
    for (let i = 0; i < 4; i++) alice.push((await store.putSkill(writeBy('acme', 'alice', `a-${i}`))).taskId);
    for (let i = 0; i < 4; i++) bob.push((await store.putSkill(writeBy('globex', 'bob', `b-${i}`))).taskId);
    // A user's writes that wait have a lane of their own: many of them take a round each as well.
    const waits: string[] = [];
    for (let i = 0; i < 2; i++)
      waits.push((await store.putSkill(writeBy('acme', 'alice', `w-${i}`, true))).taskId);
    expect(await drain(store)).toEqual([
      waits[0],
      alice[0],
      bob[0],
      waits[1],
      alice[1],
      bob[1],
      alice[2],
      bob[2],
      alice[3],
      bob[3],
    ]);
  });

  it("puts an imported backlog in the fair order, each user's in archive order, its retries first", async () => {
    const { store } = setup();
    const task = (id: string, user: string, attempts = 0): DataRecord => ({
      type: 'task',
      id,
      account_id: 'acme',
      user_id: user,
      task_type: 'add_skill',
      status: 'pending',
      skill_id: `skill-${id}`,
      revision: 'r',
      attempts,
      run_at: clock,
      result: null,
      error: null,
      created_at: clock,
      updated_at: clock,
    });
    async function* records(): AsyncIterable<DataRecord> {
      for (const id of ['a0', 'a1', 'a2', 'a3']) yield task(id, 'alice');
      yield task('b0', 'bob');
      yield task('b1', 'bob');
      // A job that was running at export time.
      yield task('a-running', 'alice', 1);
    }
    await store.importRecords(records());
    expect(await drain(store)).toEqual(['a-running', 'a0', 'b0', 'a1', 'b1', 'a2', 'a3']);
  });

  it('runs a due retry and a released task before new jobs, and a retry not yet due after them', async () => {
    const { store } = setup();
    const first = await store.putSkill(writeBy('acme', 'alice', 'flaky'));
    const second = await store.putSkill(writeBy('acme', 'alice', 'steady'));
    const failed = await claim(store, clock);
    expect(failed.id).toBe(first.taskId);
    await store.failTask(failed.lease, 'boom', clock + 1000);
    const released = await claim(store, clock);
    expect(released.id).toBe(second.taskId);
    expect(await store.releaseTask(released.lease)).toBe(true);
    const third = await store.putSkill(writeBy('acme', 'bob', 'other'));
    // Released: runnable now, ahead of the new job of bob; the retry waits for its time.
    expect((await claim(store, clock)).id).toBe(second.taskId);
    clock += 1000;
    expect((await claim(store, clock)).id).toBe(first.taskId);
    expect((await claim(store, clock)).id).toBe(third.taskId);
  });
});

describe(`${TEST_ENGINE} store: temp uploads`, () => {
  const content = new TextEncoder().encode('zip bytes');
  it.each([
    { case: 'own account, in time', account: 'acme', at: 0, found: true },
    { case: 'another account', account: 'other', at: 0, found: false },
    { case: 'expired', account: 'acme', at: 60_000, found: false },
  ])('takes an upload: $case', async ({ account, at, found }) => {
    const { store } = setup();
    const id = await store.putTempUpload({
      accountId: 'acme',
      filename: 'x.zip',
      content,
      expiresAt: clock + 60_000,
    });
    expect(id).toMatch(/^tmp_[0-9a-f]{32}$/);
    const taken = await store.takeTempUpload(account, id, clock + at);
    expect(taken !== null).toBe(found);
    if (taken) expect(text(taken.content)).toBe('zip bytes');
  });

  it('is consumed once; another account cannot consume it', async () => {
    const { store } = setup();
    const id = await store.putTempUpload({
      accountId: 'acme',
      filename: 'x',
      content,
      expiresAt: clock + 1000,
    });
    expect(await store.takeTempUpload('other', id, clock)).toBeNull();
    expect(await store.takeTempUpload('acme', id, clock)).toMatchObject({ filename: 'x', accountId: 'acme' });
    expect(await store.takeTempUpload('acme', id, clock)).toBeNull();
    expect(await store.takeTempUpload('acme', 'tmp_unknown', clock)).toBeNull();
  });

  it('getTempUpload reads without using up (not for another account, not once expired)', async () => {
    const { store } = setup();
    const id = await store.putTempUpload({
      accountId: 'acme',
      filename: 'x',
      content,
      expiresAt: clock + 1000,
    });
    expect(await store.getTempUpload('other', id, clock)).toBeNull();
    expect(await store.getTempUpload('acme', id, clock + 1000)).toBeNull();
    for (let i = 0; i < 2; i++) {
      const read = await store.getTempUpload('acme', id, clock);
      expect(read).toMatchObject({ id, filename: 'x', accountId: 'acme' });
      if (read) expect(text(read.content)).toBe('zip bytes');
    }
    expect(await store.takeTempUpload('acme', id, clock)).not.toBeNull();
    expect(await store.getTempUpload('acme', id, clock)).toBeNull();
  });

  it('purges expired uploads only', async () => {
    const { store } = setup();
    await store.putTempUpload({ accountId: 'acme', filename: 'old', content, expiresAt: clock + 10 });
    const fresh = await store.putTempUpload({
      accountId: 'acme',
      filename: 'new',
      content,
      expiresAt: clock + 1000,
    });
    expect(await store.purgeExpiredUploads(clock + 10)).toBe(1);
    expect((await store.takeTempUpload('acme', fresh, clock + 20))?.filename).toBe('new');
  });
});

describe(`${TEST_ENGINE} store: accounts, users, keys`, () => {
  it('creates accounts and users idempotently', async () => {
    const { store } = setup();
    await store.ensureUser('acme', 'alice');
    await store.ensureUser('acme', 'alice');
    await store.ensureUser('acme', 'bob');
    await store.ensureAccount('zeta');
    expect(await store.listAccounts()).toEqual(['acme', 'zeta']);
    expect(await store.listUsers('acme')).toEqual(['alice', 'bob']);
    expect(await store.listUsers('zeta')).toEqual([]);
  });

  it('finds keys by hash only, never returns revoked keys, counts live keys', async () => {
    const { store } = setup();
    const key = await store.createApiKey({
      accountId: 'acme',
      userId: 'alice',
      role: 'admin',
      prefix: 'sk_ab',
      hash: 'h1',
    });
    await store.createApiKey({ accountId: 'zeta', userId: 'zed', role: 'user', prefix: 'sk_cd', hash: 'h2' });
    expect(key).toMatchObject({
      accountId: 'acme',
      userId: 'alice',
      role: 'admin',
      prefix: 'sk_ab',
      revokedAt: null,
    });
    expect(key).not.toHaveProperty('hash');
    expect((await store.findApiKeyByHash('h1'))?.id).toBe(key.id);
    expect(await store.findApiKeyByHash('sk_ab')).toBeNull();
    expect(await store.countApiKeys()).toBe(2);
    expect((await store.listApiKeys('acme')).map((k) => k.id)).toEqual([key.id]);
    expect(await store.revokeApiKey(key.id)).toBe(true);
    expect(await store.revokeApiKey(key.id)).toBe(false);
    expect(await store.findApiKeyByHash('h1')).toBeNull();
    expect(await store.countApiKeys()).toBe(1);
    expect((await store.listApiKeys()).find((k) => k.id === key.id)?.revokedAt).toBe(clock);
    await expect(
      store.createApiKey({ accountId: 'acme', userId: 'x', role: 'user', prefix: 'p', hash: 'h2' }),
    ).rejects.toThrow(/UNIQUE|duplicate key/);
  });
});
