/**
 * A delete and a write of one account, on skills of the same shard (`seq % 64`), take the shard's
 * rows in the same order on PostgreSQL, so they never deadlock: the skill root's count row, then the
 * search generation row, then the search-term counts and the account's stored-bytes row, and the
 * change-feed counter last. Before, a delete took its `account_usage` row first (its file rows go
 * before the skill row) and the count and generation rows after, the opposite of an add or update:
 * each could hold what the other wanted, and PostgreSQL broke the cycle after `deadlock_timeout`
 * (1 s) by failing one of them (retried by the store: a stall).
 *
 * The interleaving is forced with explicit transactions on separate connections: a third one holds
 * the shard's generation row, so the write stops on it (with the count row taken, for an add), the
 * delete starts meanwhile, and then the generation row is let go. Runs in the `postgres` project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/store/postgres/connection.js';
import { deleteSkillTx, prepareWrite, putSkillTx } from '../../src/store/postgres/skill-writes.js';
import type { SkillWrite, Store } from '../../src/store/types.js';
import {
  dropEngineData,
  openEngineStore,
  postgresTermCountDrift,
  postgresUrl,
  schemaFor,
} from '../helpers/engine.js';
import { makeWrite, USER_ROOT } from '../store/helpers.js';

let dataDir: string;
let store: Store;
let pool: pg.Pool;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-lock-order-'));
  store = openEngineStore(dataDir);
  await store.ensureAccount('acme');
  await store.ensureUser('acme', 'alice');
  pool = createPool({ url: postgresUrl() }, [schemaFor(dataDir), 'public'], 5);
});

afterAll(async () => {
  await store.close();
  await pool.end();
  await dropEngineData(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

/** The `seq` of a stored skill of the test root. */
async function seqOf(name: string): Promise<number> {
  const { rows } = await pool.query<{ seq: number }>(
    'SELECT seq FROM skills WHERE account_id = $1 AND root_uri = $2 AND name = $3',
    ['acme', USER_ROOT, name],
  );
  const seq = rows[0]?.seq;
  if (seq === undefined) throw new Error(`no skill ${name}`);
  return Number(seq);
}

/** Makes the next skill inserted get the `seq` `next`. */
async function nextSeqWillBe(next: number): Promise<void> {
  await pool.query(`SELECT setval(pg_get_serial_sequence('skills', 'seq'), $1::bigint - 1)`, [next]);
}

/** Resolves once the backend `pid` waits on a lock (polled). */
async function waitsOnLock(observer: pg.PoolClient, pid: number): Promise<void> {
  for (;;) {
    const { rows } = await observer.query(
      'SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND wait_event_type = $2',
      [pid, 'Lock'],
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The deadlocks PostgreSQL has detected in this database, with every listed backend's counts flushed. */
async function deadlocks(observer: pg.PoolClient, clients: readonly pg.PoolClient[]): Promise<number> {
  for (const client of clients) await client.query('SELECT pg_stat_force_next_flush()');
  await observer.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await observer.query<{ n: string }>(
    'SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()',
  );
  return Number(rows[0]?.n);
}

async function pidOf(client: pg.PoolClient): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return rows[0]?.pid as number;
}

/**
 * Runs `write` and the delete of `doomed` in two explicit transactions: the write first, stopped on the
 * shard's generation row held by a third transaction; then the delete, until it waits too; then the
 * generation row is let go. Each transaction commits as soon as its work is done.
 *
 * @returns how each one ended, and the deadlocks PostgreSQL detected meanwhile
 */
async function interleave(
  write: SkillWrite,
  doomed: string,
  shard: number,
): Promise<{
  write: PromiseSettledResult<unknown>;
  remove: PromiseSettledResult<unknown>;
  deadlocks: number;
}> {
  const blocker = await pool.connect();
  const writer = await pool.connect();
  const deleter = await pool.connect();
  const observer = await pool.connect();
  try {
    const before = await deadlocks(observer, [writer, deleter]);
    const [writerPid, deleterPid] = [await pidOf(writer), await pidOf(deleter)];
    await blocker.query('BEGIN');
    await blocker.query('SELECT n FROM skill_search_generation WHERE shard = $1 FOR UPDATE', [shard]);

    const prepared = await prepareWrite(write);
    await writer.query('BEGIN');
    const writing = putSkillTx(writer, write, Date.now(), prepared).then(async (result) => {
      await writer.query('COMMIT');
      return result;
    });
    writing.catch(() => {});
    await waitsOnLock(observer, writerPid);

    await deleter.query('BEGIN');
    const removing = deleteSkillTx(deleter, 'acme', USER_ROOT, doomed, Date.now()).then(async (result) => {
      await deleter.query('COMMIT');
      return result;
    });
    removing.catch(() => {});
    await waitsOnLock(observer, deleterPid);

    await blocker.query('COMMIT');
    const [writeEnd, removeEnd] = await Promise.allSettled([writing, removing]);
    await writer.query('ROLLBACK').catch(() => {});
    await deleter.query('ROLLBACK').catch(() => {});
    return {
      write: writeEnd,
      remove: removeEnd,
      deadlocks: (await deadlocks(observer, [writer, deleter])) - before,
    };
  } finally {
    await blocker.query('ROLLBACK').catch(() => {});
    for (const client of [blocker, writer, deleter, observer]) client.release(true);
  }
}

/** The account's stored bytes summed from its live file rows (what `account_usage` must hold). */
async function countedBytes(): Promise<{ kept: number; counted: number }> {
  const { rows } = await pool.query<{ kept: string; counted: string }>(
    `SELECT (SELECT coalesce(sum(stored_bytes), 0) FROM account_usage WHERE account_id = 'acme')::text AS kept,
       (SELECT coalesce(sum(f.size), 0) FROM skill_files f JOIN skills s ON s.seq = f.skill_seq
        WHERE s.account_id = 'acme' AND f.path <> '.overview.md')::text AS counted`,
  );
  return { kept: Number(rows[0]?.kept), counted: Number(rows[0]?.counted) };
}

describe('postgres: lock order of a delete against a write of the same account and shard', () => {
  it('an add and a delete of the same shard both commit, with no deadlock', async () => {
    await store.putSkill(makeWrite({ name: 'add-doomed' }, { 'notes.txt': 'some bytes' }));
    const shardSeq = await seqOf('add-doomed');
    // The added skill lands in the doomed skill's shard (and root): the same count, generation and
    // stored-bytes rows.
    await nextSeqWillBe(shardSeq + 64);
    const added = makeWrite(
      { name: 'added', description: 'Added while add-doomed is deleted' },
      { 'x.txt': 'xyz' },
    );

    const ended = await interleave(added, 'add-doomed', shardSeq % 64);

    expect(ended.write.status === 'rejected' ? ended.write.reason : null).toBeNull();
    expect(ended.remove.status === 'rejected' ? ended.remove.reason : null).toBeNull();
    expect(ended.deadlocks).toBe(0);
    expect(await seqOf('added')).toBe(shardSeq + 64);
    expect(await store.getSkill('acme', USER_ROOT, 'add-doomed')).toBeNull();
    expect((await store.getSkill('acme', USER_ROOT, 'added'))?.description).toBe(
      'Added while add-doomed is deleted',
    );
    const bytes = await countedBytes();
    expect(bytes.kept).toBe(bytes.counted);
    expect((await store.accountUsage('acme', Date.now())).skills).toBe(1);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);
    // Both are in the change feed, in commit order (the add committed first).
    const feed = await store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 });
    expect(feed.changes.map((c) => [c.name, c.deleted])).toEqual([
      ['added', false],
      ['add-doomed', true],
    ]);
  });

  it('an update and a delete of the same shard both commit, with no deadlock', async () => {
    await store.putSkill(makeWrite({ name: 'updated', description: 'First version' }));
    const shardSeq = await seqOf('updated');
    await nextSeqWillBe(shardSeq + 64);
    await store.putSkill(makeWrite({ name: 'update-doomed' }, { 'notes.txt': 'more bytes' }));
    expect((await seqOf('update-doomed')) % 64).toBe(shardSeq % 64);
    const update = makeWrite(
      { name: 'updated', description: 'Second version, written while update-doomed is deleted' },
      { 'extra.txt': 'new file' },
    );

    const ended = await interleave(update, 'update-doomed', shardSeq % 64);

    expect(ended.write.status === 'rejected' ? ended.write.reason : null).toBeNull();
    expect(ended.remove.status === 'rejected' ? ended.remove.reason : null).toBeNull();
    expect(ended.deadlocks).toBe(0);
    expect(await store.getSkill('acme', USER_ROOT, 'update-doomed')).toBeNull();
    expect((await store.getSkill('acme', USER_ROOT, 'updated'))?.description).toBe(
      'Second version, written while update-doomed is deleted',
    );
    const bytes = await countedBytes();
    expect(bytes.kept).toBe(bytes.counted);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);
  });

  it("a delete waiting for its shard's count row has not taken the generation row yet", async () => {
    await store.putSkill(makeWrite({ name: 'order-doomed' }));
    const seq = await seqOf('order-doomed');
    const holder = await pool.connect();
    const deleter = await pool.connect();
    const observer = await pool.connect();
    try {
      // An add of the same root and shard between its count row and its generation row.
      await holder.query('BEGIN');
      await holder.query(
        'SELECT n FROM skill_root_counts WHERE account_id = $1 AND root_uri = $2 AND shard = $3 FOR UPDATE',
        ['acme', USER_ROOT, seq % 64],
      );
      const deleterPid = await pidOf(deleter);
      await deleter.query('BEGIN');
      const removing = deleteSkillTx(deleter, 'acme', USER_ROOT, 'order-doomed', Date.now());
      removing.catch(() => {});
      await waitsOnLock(observer, deleterPid);
      // The generation row is free: that add could take it and go on.
      await observer.query('BEGIN');
      const free = await observer.query(
        'SELECT n FROM skill_search_generation WHERE shard = $1 FOR UPDATE NOWAIT',
        [seq % 64],
      );
      expect(free.rowCount).toBe(1);
      await observer.query('ROLLBACK');
      await holder.query('COMMIT');
      expect(await removing).toBe(1);
      await deleter.query('COMMIT');
      expect(await store.getSkill('acme', USER_ROOT, 'order-doomed')).toBeNull();
    } finally {
      for (const client of [holder, deleter, observer]) {
        await client.query('ROLLBACK').catch(() => {});
        client.release(true);
      }
    }
  });
});
