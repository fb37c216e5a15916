import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { postgresQuery, setSchemaVersion, TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, downgradeSchema, makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function totals(store: Store): Promise<number[]> {
  const roots: Array<[string, string]> = [
    ['acme', USER_ROOT],
    ['acme', AGENT_ROOT],
    ['other', USER_ROOT],
  ];
  return Promise.all(
    roots.map(async ([account, root]) => (await store.listSkills(account, root, { limit: 0 })).total),
  );
}

type Step = (store: Store) => Promise<unknown>;

describe(`${TEST_ENGINE} store: list totals`, () => {
  it.each<[string, Step[], number[]]>([
    ['empty store', [], [0, 0, 0]],
    ['one add', [(s) => s.putSkill(makeWrite({ name: 'a' }))], [1, 0, 0]],
    [
      'a replacement does not count twice',
      [
        (s) => s.putSkill(makeWrite({ name: 'a' })),
        (s) => s.putSkill(makeWrite({ name: 'a', body: 'v2\n' })),
      ],
      [1, 0, 0],
    ],
    [
      'roots and accounts are counted apart',
      [
        (s) => s.putSkill(makeWrite({ name: 'a' })),
        (s) => s.putSkill(makeWrite({ name: 'a', rootUri: AGENT_ROOT })),
        (s) => s.putSkill(makeWrite({ name: 'b', rootUri: AGENT_ROOT })),
        (s) => s.putSkill(makeWrite({ name: 'a', accountId: 'other' })),
      ],
      [1, 2, 1],
    ],
    [
      'a delete counts down, a missing delete does not',
      [
        (s) => s.putSkill(makeWrite({ name: 'a' })),
        (s) => s.putSkill(makeWrite({ name: 'b' })),
        (s) => s.deleteSkill('acme', USER_ROOT, 'a'),
        (s) => s.deleteSkill('acme', USER_ROOT, 'a'),
      ],
      [1, 0, 0],
    ],
    [
      'add after delete',
      [
        (s) => s.putSkill(makeWrite({ name: 'a' })),
        (s) => s.deleteSkill('acme', USER_ROOT, 'a'),
        (s) => s.putSkill(makeWrite({ name: 'a' })),
      ],
      [1, 0, 0],
    ],
  ])('%s', async (_label, steps, expected) => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    for (const step of steps) await step(temp.store);
    expect(await totals(temp.store)).toEqual(expected);
  });

  // SQLite keeps per-root counts since schema version 2, PostgreSQL since version 8.
  it.skipIf(TEST_ENGINE !== 'sqlite')('backfills the counts when an older database is migrated', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    for (const name of ['a', 'b', 'c']) await temp.store.putSkill(makeWrite({ name }));
    await temp.store.putSkill(makeWrite({ name: 'a', rootUri: AGENT_ROOT }));
    await temp.store.close();
    // Back to schema version 1: no counts table, no triggers.
    const db = new Database(path.join(temp.dataDir, 'skillport.db'));
    downgradeSchema(db, 1);
    db.exec(`DROP TRIGGER skills_count_insert; DROP TRIGGER skills_count_delete;
      DROP TRIGGER skills_count_move; DROP TABLE skill_counts;`);
    db.close();
    const reopened = temp.reopen();
    expect(await totals(reopened)).toEqual([3, 1, 0]);
    await reopened.putSkill(makeWrite({ name: 'd' }));
    expect(await totals(reopened)).toEqual([4, 1, 0]);
  });

  it.skipIf(TEST_ENGINE !== 'postgres')(
    'backfills the counts when an older PostgreSQL schema is migrated',
    async () => {
      const temp = openTempStore();
      cleanup = temp.cleanup;
      for (const name of ['a', 'b', 'c']) await temp.store.putSkill(makeWrite({ name }));
      await temp.store.putSkill(makeWrite({ name: 'a', rootUri: AGENT_ROOT }));
      await temp.store.close();
      // Back to schema version 7: no counts table, no triggers (nor version 9's term counts; the
      // search-terms trigger that keeps them is replaced when version 9 runs again).
      await postgresQuery(
        temp.dataDir,
        `DROP TRIGGER skill_root_counts_added ON skills; DROP TRIGGER skill_root_counts_moved ON skills;
         DROP TRIGGER skill_root_counts_gone ON skills; DROP FUNCTION skill_root_counts_sync();
         DROP TABLE skill_root_counts; DROP TABLE skill_term_counts; DROP TABLE skill_term_count_deltas`,
      );
      await setSchemaVersion(temp.dataDir, 7);
      const reopened = temp.reopen();
      expect(await totals(reopened)).toEqual([3, 1, 0]);
      await reopened.putSkill(makeWrite({ name: 'd' }));
      await reopened.deleteSkill('acme', AGENT_ROOT, 'a');
      expect(await totals(reopened)).toEqual([4, 0, 0]);
    },
  );

  it.skipIf(TEST_ENGINE !== 'postgres')(
    'PostgreSQL: a skill moved to another root or account is counted there',
    async () => {
      const temp = openTempStore();
      cleanup = temp.cleanup;
      for (const name of ['a', 'b', 'c']) await temp.store.putSkill(makeWrite({ name }));
      await postgresQuery(temp.dataDir, `UPDATE skills SET root_uri = $1 WHERE name = 'a'`, [AGENT_ROOT]);
      await postgresQuery(
        temp.dataDir,
        `INSERT INTO accounts (id, created_at) VALUES ('other', 0) ON CONFLICT DO NOTHING`,
      );
      await postgresQuery(temp.dataDir, `UPDATE skills SET account_id = 'other' WHERE name = 'b'`);
      expect(await totals(temp.store)).toEqual([1, 1, 1]);
      await temp.store.deleteSkill('acme', USER_ROOT, 'c');
      await temp.store.deleteSkill('other', USER_ROOT, 'b');
      await temp.store.deleteSkill('acme', AGENT_ROOT, 'a');
      expect(await totals(temp.store)).toEqual([0, 0, 0]);
    },
  );

  it('counts every add of many concurrent ones', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        temp.store.putSkill(makeWrite({ name: `s${i}`, rootUri: i % 4 === 0 ? AGENT_ROOT : USER_ROOT })),
      ),
    );
    expect(await totals(temp.store)).toEqual([30, 10, 0]);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => temp.store.deleteSkill('acme', USER_ROOT, `s${i * 4 + 1}`)),
    );
    expect(await totals(temp.store)).toEqual([20, 10, 0]);
  });

  it('summary listings carry only the listing fields', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.putSkill(
      makeWrite({ name: 'a', tags: ['t'], allowedTools: ['Read'], sourceMetadata: { from: 'x' } }),
    );
    const [full] = (await temp.store.listSkills('acme', USER_ROOT, { limit: 5 })).skills;
    const [summary] = (await temp.store.listSkills('acme', USER_ROOT, { limit: 5, summary: true })).skills;
    expect(full?.body).not.toBe('');
    expect(summary).toEqual({
      ...full,
      body: '',
      frontmatter: {},
      overview: null,
      sourceMetadata: null,
    });
  });
});
