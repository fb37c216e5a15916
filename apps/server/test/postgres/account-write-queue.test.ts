/**
 * Concurrent writes of one account on PostgreSQL queue on each other only at their ends: a write
 * that has done all its work but not committed (its skill row, file rows, search terms and stored
 * bytes written) holds the account's change-feed counter row, and another write of the account runs
 * its whole main statement meanwhile, waiting only where it takes that counter (the last statement
 * before its commit). Before, the counter was taken inside the main statement, and the account's one
 * `account_usage` row by its file rows' trigger, so the second write waited there, search-term
 * triggers and all. Runs in the `postgres` vitest project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../src/store/postgres/connection.js';
import { prepareWrite, putSkillTx } from '../../src/store/postgres/skill-writes.js';
import type { Store } from '../../src/store/types.js';
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

/** The statement a skillport backend of this database waits on a lock in (polled until one waits). */
async function waitingStatement(observer: pg.PoolClient): Promise<string> {
  for (;;) {
    const { rows } = await observer.query<{ query: string }>(
      `SELECT query FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'`,
    );
    if (rows[0] !== undefined) return rows[0].query;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('postgres: writes of one account', () => {
  it('wait for an uncommitted write of the account only at the change feed, after their own work', async () => {
    const holder = await pool.connect();
    const observer = await pool.connect();
    try {
      const held = makeWrite({ name: 'held', description: 'Written and not yet committed' });
      await holder.query('BEGIN');
      await putSkillTx(holder, held, Date.now(), await prepareWrite(held));

      // Another add of the same account, through the store (its own connection and transaction).
      const second = store.putSkill(
        makeWrite({ name: 'second', description: 'Queued behind the held write' }),
      );
      const waitsIn = await waitingStatement(observer);
      expect(waitsIn).toMatch(/^\s*WITH counter AS/);
      expect(waitsIn).not.toMatch(/INSERT INTO skills/);
      // Its main statement ran: its skill row and search terms are written (seen by its transaction only).

      await holder.query('COMMIT');
      const result = await second;
      expect(result.created).toBe(true);
      const feed = await store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 });
      // Feed order is commit order: the held write committed first.
      expect(feed.changes.map((e) => e.name)).toEqual(['first', 'held', 'second']);
      expect((await store.accountUsage('acme', Date.now())).skills).toBe(3);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
      observer.release();
    }
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
