import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
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

  // SQLite keeps per-root counts since schema version 2; PostgreSQL counts at read time.
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
