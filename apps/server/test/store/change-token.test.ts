/**
 * `Store.changeToken` and `listSkills({after})` on the engine under test: the token moves with every
 * commit — through this store or another connection to the same database (another replica) — and
 * stays put while nothing is written; a listing continues after a name.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadedSqliteStore } from '../../src/store/sqlite/sqlite-thread.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, makeWrite, openTempStore, TEST_CLAIM, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe(`${TEST_ENGINE} store: change token`, () => {
  it('stays the same without writes and changes after each commit, whoever made it', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    const other = temp.reopen();
    await store.ensureAccount('acme');
    // Reads leave the token as it is. On PostgreSQL the token is the cluster's snapshot, which a
    // commit of any other database of the cluster moves too (other test files share the cluster), so
    // the check is tried a few times: reads that moved it would fail every try.
    let steady = false;
    for (let tries = 0; tries < 5 && !steady; tries++) {
      const quiet = await store.changeToken();
      const again = await store.changeToken();
      await store.getSkill('acme', USER_ROOT, 'nothing');
      steady = again === quiet && (await store.changeToken()) === quiet;
    }
    expect(steady).toBe(true);
    const quiet = await store.changeToken();

    await store.putSkill(makeWrite({ name: 'one' }));
    const afterOwn = await store.changeToken();
    expect(afterOwn).not.toBe(quiet);

    // A commit through another connection (a second replica on the same database).
    const seenByOther = await other.changeToken();
    await other.putSkill(makeWrite({ name: 'two' }));
    expect(await store.changeToken()).not.toBe(afterOwn);
    expect(await other.changeToken()).not.toBe(seenByOther);

    // A revoked key is a commit like any other.
    const key = await other.createApiKey({
      accountId: 'acme',
      userId: 'alice',
      role: 'user',
      prefix: 'sk_test',
      hash: 'f'.repeat(64),
    });
    const beforeRevoke = await store.changeToken();
    await other.revokeApiKey(key.id);
    expect(await store.changeToken()).not.toBe(beforeRevoke);
  });

  it('lists after a name, in code-unit order', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const { store } = temp;
    for (const name of ['b-2', 'B-1', 'a_3', 'a-3', 'c']) await store.putSkill(makeWrite({ name }));
    const all = (await store.listSkills('acme', USER_ROOT, { limit: 10 })).skills.map((s) => s.name);
    expect(all).toEqual(['B-1', 'a-3', 'a_3', 'b-2', 'c']);
    const page = await store.listSkills('acme', USER_ROOT, { limit: 2, after: 'a-3', summary: true });
    expect(page.skills.map((s) => s.name)).toEqual(['a_3', 'b-2']);
    expect(page.total).toBe(5);
    expect((await store.listSkills('acme', USER_ROOT, { limit: 2, after: 'c' })).skills).toEqual([]);
  });
});

describe.runIf(TEST_ENGINE === 'sqlite')('sqlite store in its database thread: change token', () => {
  it('is read without the database thread and sees the thread’s commits and other connections’', async () => {
    const temp = openTempStore();
    const threaded = await createThreadedSqliteStore({ dataDir: temp.dataDir });
    cleanup = async () => {
      await threaded.close();
      await temp.cleanup();
    };
    await threaded.ensureAccount('acme');
    const first = await threaded.changeToken();
    expect(await threaded.changeToken()).toBe(first);
    await threaded.putSkill(makeWrite({ name: 'one' }));
    const second = await threaded.changeToken();
    expect(second).not.toBe(first);
    await temp.store.putSkill(makeWrite({ name: 'two' }));
    expect(await threaded.changeToken()).not.toBe(second);
  });
});

describe.runIf(TEST_ENGINE === 'sqlite')('sqlite store: change token and search-index upkeep', () => {
  /** Tables whose writes do not move the token: derived counters and search-index upkeep. */
  const UNCOUNTED = new Set([
    'account_usage',
    'change_counter',
    'search_term_build',
    'search_term_deltas',
    'search_term_lists',
    'skill_counts',
    'sqlite_sequence',
  ]);

  it('is moved by writes to every table an answer reads (each has its three triggers)', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.ensureAccount('acme');
    const db = new Database(path.join(temp.dataDir, 'skillport.db'), { readonly: true });
    try {
      const tables = (
        db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as Array<{
          name: string;
          sql: string;
        }>
      )
        // FTS5's tables (the index and its shadow tables) change with the `skills` row they index.
        .filter((t) => !t.name.startsWith('skills_fts') && !UNCOUNTED.has(t.name))
        .map((t) => t.name);
      expect(tables).toContain('skills');
      const triggers = db
        .prepare("SELECT tbl_name AS t, sql FROM sqlite_master WHERE type = 'trigger'")
        .all() as Array<{ t: string; sql: string }>;
      for (const table of tables) {
        const counting = triggers.filter((tr) => tr.t === table && /UPDATE change_counter/.test(tr.sql));
        const events = counting.map((tr) => /AFTER (INSERT|UPDATE|DELETE) ON/.exec(tr.sql)?.[1]).sort();
        expect({ table, events }).toEqual({ table, events: ['DELETE', 'INSERT', 'UPDATE'] });
      }
    } finally {
      db.close();
    }
  });

  it('stays the same across commits that only maintain the search index, here and in the database thread', async () => {
    const temp = openTempStore();
    const threaded = await createThreadedSqliteStore({ dataDir: temp.dataDir });
    cleanup = async () => {
      await threaded.close();
      await temp.cleanup();
    };
    const { store } = temp;
    for (let i = 0; i < 40; i++) {
      await store.putSkill(
        makeWrite({ name: `upkeep-${i}`, description: `Docker compose recipe ${i}`, body: `# Step ${i}\n` }),
      );
    }
    const token = await store.changeToken();
    const threadedToken = await threaded.changeToken();
    const db = new Database(path.join(temp.dataDir, 'skillport.db'), { readonly: true });
    try {
      const dataVersion = () => db.pragma('data_version', { simple: true }) as number;
      const before = dataVersion();
      // FTS5 merges and per-term list steps, each its own commit, until nothing is left to do.
      let steps = 0;
      while (await store.compactSearchIndex(8)) steps++;
      expect(steps).toBeGreaterThan(1);
      expect(dataVersion()).not.toBe(before);
      expect(db.prepare('SELECT covered FROM search_term_build').pluck().get()).not.toBeNull();
      expect(await store.changeToken()).toBe(token);
      expect(await threaded.changeToken()).toBe(threadedToken);
      // A write moves it again, on both.
      await store.deleteSkill('acme', USER_ROOT, 'upkeep-3');
      expect(await store.changeToken()).not.toBe(token);
      expect(await threaded.changeToken()).not.toBe(threadedToken);
    } finally {
      db.close();
    }
  });

  it('differs between two database files that saw the same number of writes', async () => {
    const one = openTempStore();
    const two = openTempStore();
    cleanup = async () => {
      await one.cleanup();
      await two.cleanup();
    };
    await one.store.putSkill(makeWrite({ name: 'same' }));
    await two.store.putSkill(makeWrite({ name: 'same' }));
    const [a, b] = [await one.store.changeToken(), await two.store.changeToken()];
    expect(a.split('.')[1]).toBe(b.split('.')[1]);
    expect(a).not.toBe(b);
  });
});

describe.runIf(TEST_ENGINE === 'sqlite')('sqlite store in its database thread: API-key reads', () => {
  it('answers key counts and lookups on the HTTP thread’s reader, seeing every commit at once', async () => {
    const temp = openTempStore();
    const threaded = await createThreadedSqliteStore({ dataDir: temp.dataDir });
    cleanup = async () => {
      await threaded.close();
      await temp.cleanup();
    };
    const hash = 'e'.repeat(64);
    expect(await threaded.countApiKeys()).toBe(0);
    expect(await threaded.findApiKeyByHash(hash)).toBeNull();
    // Created through the database thread: seen by the very next read.
    const key = await threaded.createApiKey({
      accountId: 'acme',
      userId: 'alice',
      role: 'user',
      prefix: 'sk_test',
      hash,
    });
    expect(await threaded.countApiKeys()).toBe(1);
    expect(await threaded.findApiKeyByHash(hash)).toEqual(await temp.store.findApiKeyByHash(hash));
    expect((await threaded.findApiKeyByHash(hash))?.id).toBe(key.id);
    // Revoked through another connection (another replica): gone at once.
    await temp.store.revokeApiKey(key.id);
    expect(await threaded.findApiKeyByHash(hash)).toBeNull();
    expect(await threaded.countApiKeys()).toBe(0);
    // Once closed, the store says so as every other call does.
    await threaded.close();
    await expect(threaded.countApiKeys()).rejects.toThrow(/not open/);
    await expect(threaded.findApiKeyByHash(hash)).rejects.toThrow(/not open/);
  });
});

describe.runIf(TEST_ENGINE === 'sqlite')('sqlite store in its database thread: revision checks', () => {
  it('answers readSkillRevision on the HTTP thread’s reader, seeing every commit at once', async () => {
    const temp = openTempStore();
    const threaded = await createThreadedSqliteStore({ dataDir: temp.dataDir });
    cleanup = async () => {
      await threaded.close();
      await temp.cleanup();
    };
    const roots = [USER_ROOT, AGENT_ROOT];
    expect(await threaded.readSkillRevision('acme', roots, 'rev')).toBeNull();
    // Written through the database thread: seen by the very next check, in the root that holds it.
    await threaded.putSkill(makeWrite({ name: 'rev', rootUri: AGENT_ROOT }));
    const agent = await threaded.getSkill('acme', AGENT_ROOT, 'rev');
    expect(await threaded.readSkillRevision('acme', roots, 'rev')).toEqual({
      revision: agent?.revision,
      settled: false,
      stamp: null,
    });
    // Written through another connection (another replica) into the preferred root: seen at once.
    await temp.store.putSkill(makeWrite({ name: 'rev', body: 'user body\n' }));
    const user = await temp.store.getSkill('acme', USER_ROOT, 'rev');
    expect(await threaded.readSkillRevision('acme', roots, 'rev')).toEqual({
      revision: user?.revision,
      settled: false,
      stamp: null,
    });
    expect(await threaded.readSkillRevision('acme', [AGENT_ROOT], 'rev')).toEqual({
      revision: agent?.revision,
      settled: false,
      stamp: null,
    });
    // Settled once the overviews are written (by another connection); gone once deleted.
    for (;;) {
      const task = await temp.store.claimTask(Date.now() + 1000, TEST_CLAIM);
      if (task === null) break;
      await temp.store.completeTask(task.lease, { overview: 'the overview', result: {} });
    }
    const direct = await temp.store.readSkillRevision('acme', roots, 'rev');
    expect(direct?.stamp).toContain(user?.revision ?? '-');
    expect(await threaded.readSkillRevision('acme', roots, 'rev')).toEqual({
      revision: user?.revision,
      settled: true,
      stamp: direct?.stamp,
    });
    await threaded.deleteSkill('acme', USER_ROOT, 'rev');
    await threaded.deleteSkill('acme', AGENT_ROOT, 'rev');
    expect(await threaded.readSkillRevision('acme', roots, 'rev')).toBeNull();
    await threaded.close();
    await expect(threaded.readSkillRevision('acme', roots, 'rev')).rejects.toThrow(/not open/);
  });
});
