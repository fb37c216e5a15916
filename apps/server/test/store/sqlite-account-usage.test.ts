import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { downgradeSchema, makeWrite, openTempStore, TEST_CLAIM } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const bytes = (n: number, fill = 120) => new Uint8Array(n).fill(fill);

/** Per account: the kept total (`account_usage`) and the sum over the live files, computed afresh. */
function usage(file: string): { kept: Record<string, number>; summed: Record<string, number> } {
  const db = new Database(file, { readonly: true });
  try {
    const kept = Object.fromEntries(
      (
        db.prepare('SELECT account_id, stored_bytes FROM account_usage').all() as Array<{
          account_id: string;
          stored_bytes: number;
        }>
      )
        .filter((r) => r.stored_bytes !== 0)
        .map((r) => [r.account_id, r.stored_bytes]),
    );
    const summed = Object.fromEntries(
      (
        db
          .prepare(
            `SELECT s.account_id, SUM(f.size) AS n FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
             WHERE f.path <> '.overview.md' GROUP BY s.account_id`,
          )
          .all() as Array<{ account_id: string; n: number }>
      ).map((r) => [r.account_id, r.n]),
    );
    return { kept, summed };
  } finally {
    db.close();
  }
}

describe('sqlite store: stored bytes per account (schema version 10)', () => {
  it('keeps the sum of live file sizes through adds, replacements, overviews and deletes', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    const file = path.join(temp.dataDir, 'skillport.db');
    await store.putSkill(makeWrite({ name: 'alpha' }, { 'a.bin': bytes(5000) }));
    await store.putSkill(makeWrite({ name: 'beta' }, { 'b.bin': bytes(7000) }));
    await store.putSkill(makeWrite({ name: 'gamma', accountId: 'globex' }, { 'c.bin': bytes(900) }));
    let { kept, summed } = usage(file);
    expect(Object.keys(kept).sort()).toEqual(['acme', 'globex']);
    expect(kept).toEqual(summed);

    // Replaced with fewer, smaller files; the processing job's overview is not counted.
    await store.putSkill(makeWrite({ name: 'alpha' }, { 'a.bin': bytes(10) }));
    for (;;) {
      const task = await store.claimTask(Date.now(), TEST_CLAIM);
      if (task === null) break;
      await store.completeTask(task.lease, { overview: 'x'.repeat(3000), result: {} });
    }
    ({ kept, summed } = usage(file));
    expect(kept).toEqual(summed);

    await store.deleteSkill('acme', makeWrite({ name: 'beta' }).rootUri, 'beta');
    await store.deleteSkill('globex', makeWrite({ name: 'gamma' }).rootUri, 'gamma');
    ({ kept, summed } = usage(file));
    expect(kept).toEqual(summed);
    expect(Object.keys(kept)).toEqual(['acme']);
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(kept.acme);
  });

  it('fills the totals of a version 9 database on upgrade', async () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(10);
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.putSkill(makeWrite({ name: 'alpha' }, { 'a.bin': bytes(4000) }));
    await temp.store.putSkill(makeWrite({ name: 'beta', accountId: 'globex' }, { 'b.bin': bytes(60) }));
    const expected = (await temp.store.accountUsage('acme', 0)).storedBytes;
    await temp.store.close();
    const file = path.join(temp.dataDir, 'skillport.db');
    const db = new Database(file);
    downgradeSchema(db, 9);
    db.close();

    const store = temp.reopen();
    expect((await store.accountUsage('acme', 0)).storedBytes).toBe(expected);
    const { kept, summed } = usage(file);
    expect(kept).toEqual(summed);
    expect(Object.keys(kept).sort()).toEqual(['acme', 'globex']);
  });
});
