/**
 * Concurrent writes of one account on PostgreSQL queue on each other only inside their commits: a
 * write that has done all its work but not committed (its skill row, file rows, search terms, stored
 * bytes and unnumbered change row written) holds nothing another write of the account needs, and the
 * account's change-feed counter row is taken by a deferred trigger inside COMMIT, together with the
 * second quota and skill-limit check (schema version 14). Before, the counter was taken by a statement
 * of its own before the commit, and held across that round trip, the re-check's and the commit's.
 * Runs in the `postgres` vitest project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/store/postgres/connection.js';
import { commitLimitError, prepareWrite, putSkillTx } from '../../src/store/postgres/skill-writes.js';
import type { SkillWrite, Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore, postgresUrl, schemaFor } from '../helpers/engine.js';
import { makeWrite, USER_ROOT } from '../store/helpers.js';

let dataDir: string;
let store: Store;
let pool: pg.Pool;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-write-queue-'));
  store = openEngineStore(dataDir);
  await store.ensureAccount('acme');
  await store.ensureUser('acme', 'alice');
  // A skill of the account written and committed first, so the account's rows exist.
  await store.putSkill(makeWrite({ name: 'first' }));
  pool = createPool({ url: postgresUrl() }, [schemaFor(dataDir), 'public'], 3);
});

afterAll(async () => {
  await store.close();
  await pool.end();
  await dropEngineData(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The statements of the backends queued behind the backend `holder` (waiting on a lock it holds, or
 * on one held by a backend queued behind it), polled until there are `count`.
 */
async function waitingStatement(observer: pg.PoolClient, holder: number, count: number): Promise<string[]> {
  for (;;) {
    const { rows } = await observer.query<{ pid: number; query: string; blockers: number[] }>(
      `SELECT pid, query, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity WHERE wait_event_type = 'Lock'`,
    );
    const queued = new Set([holder]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const row of rows) {
        if (!queued.has(row.pid) && row.blockers.some((pid) => queued.has(pid))) {
          queued.add(row.pid);
          grew = true;
        }
      }
    }
    const waiting = rows.filter((row) => queued.has(row.pid));
    if (waiting.length >= count) return waiting.map((row) => row.query.trim());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Runs `fn` while a transaction holds the account's change-feed counter row locked; `fn` gets a
 * connection to observe with and the holding backend's pid.
 */
async function holdingCounter<T>(fn: (observer: pg.PoolClient, holderPid: number) => Promise<T>): Promise<T> {
  const holder = await pool.connect();
  const observer = await pool.connect();
  try {
    await holder.query('BEGIN');
    const { rows } = await holder.query<{ pid: number }>(
      `SELECT pg_backend_pid() AS pid FROM skill_feed_counters WHERE account_id = 'acme' FOR UPDATE`,
    );
    return await fn(observer, rows[0]?.pid as number);
  } finally {
    await holder.query('ROLLBACK').catch(() => {});
    holder.release();
    observer.release();
  }
}

describe('postgres: writes of one account', () => {
  it('do not wait for an uncommitted write of the account; the feed is numbered in commit order', async () => {
    const holder = await pool.connect();
    try {
      const held = makeWrite({ name: 'held', description: 'Written and not yet committed' });
      await holder.query('BEGIN');
      await putSkillTx(holder, held, Date.now(), await prepareWrite(held));

      // Another add and a delete of the same account, through the store, commit meanwhile.
      await store.putSkill(makeWrite({ name: 'doomed', description: 'Deleted while held is open' }));
      const second = await store.putSkill(
        makeWrite({ name: 'second', description: 'Committed before the held write' }),
      );
      expect(second.created).toBe(true);
      expect(await store.deleteSkill('acme', USER_ROOT, 'doomed')).not.toBeNull();
      const before = await store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 });
      expect(before.changes.map((e) => [e.name, e.seq])).toEqual([
        ['first', 1],
        ['second', 3],
        ['doomed', 4],
      ]);

      await holder.query('COMMIT');
      // Feed order is commit order: the held write took the next position when it committed, after
      // every change a reader could have seen before it; a reader at `lastSeq` does not skip it.
      const after = await store.listChanges('acme', [USER_ROOT], {
        afterSeq: before.lastSeq,
        since: null,
        limit: 10,
      });
      expect(after.changes.map((e) => [e.name, e.seq])).toEqual([['held', 5]]);
      expect((await store.accountUsage('acme', Date.now())).skills).toBe(3);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
  });

  it("wait for the account's change-feed counter in their COMMIT only, after all their work", async () => {
    await store.putSkill(makeWrite({ name: 'gone', description: 'Deleted at a held counter' }));
    await holdingCounter(async (observer, holderPid) => {
      const queued = store.putSkill(makeWrite({ name: 'queued', description: 'Queued at its commit' }));
      const deleting = store.deleteSkill('acme', USER_ROOT, 'gone');
      expect(await waitingStatement(observer, holderPid, 2)).toEqual(['COMMIT', 'COMMIT']);
      return { queued, deleting };
    }).then(async ({ queued, deleting }) => {
      expect((await queued).created).toBe(true);
      expect(await deleting).not.toBeNull();
    });
    const feed = await store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 });
    const seqs = feed.changes.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(feed.changes.map((e) => e.name)).toEqual(expect.arrayContaining(['queued', 'gone']));
  });

  it('checks the quota again at the commit, against the writes committed meanwhile', async () => {
    const used = (await store.accountUsage('acme', Date.now())).storedBytes;
    // Contents of the same size, not the same (a write storing a blob another has stored uncommitted
    // waits for that one).
    const big = (name: string) => makeWrite({ name }, { 'data.bin': name.padEnd(4000, 'x') });
    const sizeOf = (write: SkillWrite) => write.files.reduce((sum, file) => sum + file.content.byteLength, 0);
    const size = sizeOf(big('early'));
    // Room for one of the two writes, not both.
    const quotaBytes = used + size + 1000;
    const late = { ...big('late'), quotaBytes };
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      // Fits when it writes: the other write is not there yet.
      await putSkillTx(holder, late, Date.now(), await prepareWrite(late));
      await store.putSkill({ ...big('early'), quotaBytes });
      const failed = await holder.query('COMMIT').then(
        () => null,
        (error: unknown) => error,
      );
      expect((failed as { code?: string } | null)?.code).toBe('SKQ01');
      const refusal = commitLimitError(failed, late);
      expect(refusal?.code).toBe('RESOURCE_EXHAUSTED');
      expect(refusal?.status).toBe(507);
      expect(refusal?.details).toEqual({
        reason: 'account_quota',
        limit: quotaBytes,
        used: used + size,
        size: sizeOf(late),
        setting: 'SKILLPORT_ACCOUNT_QUOTA_MB',
      });
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
    // Nothing of the refused write is kept: skill, bytes, feed position.
    expect(await store.getSkill('acme', USER_ROOT, 'late')).toBeNull();
    expect((await store.accountUsage('acme', Date.now())).storedBytes).toBe(used + size);
    const feed = await store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 100 });
    expect(feed.changes.map((e) => e.name)).not.toContain('late');
    expect(feed.lastSeq).toBe(Math.max(...feed.changes.map((e) => e.seq)));
  });

  it('checks the skill limit again at the commit, against the adds committed meanwhile', async () => {
    const skills = (await store.accountUsage('acme', Date.now())).skills;
    const maxSkills = skills + 1;
    const late = { ...makeWrite({ name: 'late-count' }), maxSkills };
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await putSkillTx(holder, late, Date.now(), await prepareWrite(late));
      await store.putSkill({ ...makeWrite({ name: 'early-count' }), maxSkills });
      const failed = await holder.query('COMMIT').then(
        () => null,
        (error: unknown) => error,
      );
      expect((failed as { code?: string } | null)?.code).toBe('SKL01');
      const refusal = commitLimitError(failed, late);
      expect(refusal?.status).toBe(403);
      expect(refusal?.details).toEqual({
        reason: 'account_skill_limit',
        limit: maxSkills,
        used: maxSkills,
        setting: 'SKILLPORT_ACCOUNT_MAX_SKILLS',
      });
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
    }
    expect(await store.getSkill('acme', USER_ROOT, 'late-count')).toBeNull();
    expect((await store.accountUsage('acme', Date.now())).skills).toBe(maxSkills);
    // Replacing a live skill passes at the limit (it is not a new one).
    await store.putSkill({ ...makeWrite({ name: 'early-count', description: 'Replaced' }), maxSkills });
  });

  it("keeps an account's stored bytes right across writes in different rows of account_usage", async () => {
    const before = (await store.accountUsage('acme', Date.now())).storedBytes;
    const write = makeWrite(
      { name: 'sized', body: `# sized\n\n${'x'.repeat(1000)}\n` },
      { 'notes.txt': 'abc' },
    );
    const size = write.files.reduce((sum, file) => sum + file.content.byteLength, 0);
    await store.putSkill(write);
    expect((await store.accountUsage('acme', Date.now())).storedBytes).toBe(before + size);
    await store.deleteSkill('acme', USER_ROOT, 'sized');
    expect((await store.accountUsage('acme', Date.now())).storedBytes).toBe(before);
    // The account's bytes are spread over several rows (one per skill `seq % 64`).
    const { rows } = await pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM account_usage WHERE account_id = 'acme'`,
    );
    expect(Number(rows[0]?.n)).toBeGreaterThan(1);
  });
});
