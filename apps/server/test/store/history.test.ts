/**
 * History retention, freeing file contents, and the change feed of the store (both engines; the
 * SQLite file's own upkeep only on SQLite).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/store/revision.js';
import type { RetentionPolicy, Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, downgradeSchema, makeWrite, openTempStore, TEST_CLAIM, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A store whose clock the test moves. */
function setup() {
  let clock = 1_000_000;
  const temp = openTempStore({ now: () => clock });
  cleanup = temp.cleanup;
  return {
    ...temp,
    tick(ms = 1000) {
      clock += ms;
      return clock;
    },
    get now() {
      return clock;
    },
  };
}

const DAY = 24 * 60 * 60 * 1000;
const key = (name: string, rootUri = USER_ROOT) => ({ accountId: 'acme', rootUri, name });

async function version(
  store: Store,
  name: string,
  n: number,
  extra: Record<string, string | Uint8Array> = {},
) {
  return store.putSkill(makeWrite({ name, body: `# ${name}\n\nVersion ${n}.\n` }, extra));
}

/** Runs the processing job of `taskId` with the given overview (claiming the tasks queued before it). */
async function finishTask(store: Store, taskId: string, overview: string, revision: string): Promise<void> {
  for (;;) {
    const claimed = await store.claimTask(Date.now() + 1_000_000_000, TEST_CLAIM);
    if (claimed === null) throw new Error(`task ${taskId} was not queued`);
    const mine = claimed.id === taskId;
    await store.completeTask(claimed.lease, { overview: mine ? overview : null, revision, result: {} });
    if (mine) return;
  }
}

/** Bytes of every file in the folder (the database, its WAL and shared-memory files). */
function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);
}

describe(`${TEST_ENGINE} store: history and retention`, () => {
  it('records who wrote each revision, newest first, and keeps it after a delete', async () => {
    const s = setup();
    await version(s.store, 'a', 1);
    s.tick();
    await s.store.putSkill({
      ...makeWrite({ name: 'a', body: 'v2' }),
      task: { type: 'update_skill', userId: 'bob' },
    });
    const history = await s.store.listRevisions('acme', USER_ROOT, 'a');
    expect(history.map((h) => h.createdBy)).toEqual(['bob', 'alice']);
    expect(history[0]?.supersededAt).toBeNull();
    expect(history[1]?.supersededAt).toBe(s.now);
    s.tick();
    await s.store.deleteSkill('acme', USER_ROOT, 'a');
    const after = await s.store.listRevisions('acme', USER_ROOT, 'a');
    expect(after).toHaveLength(2);
    expect(after[0]?.supersededAt).toBe(s.now);
  });

  it.each<[string, RetentionPolicy, number]>([
    ['the last 3', { keepLast: 3, keepForMs: 0 }, 3],
    ['the last 1', { keepLast: 1, keepForMs: 0 }, 1],
    ['everything superseded within 2.5 days', { keepLast: 1, keepForMs: 2.5 * DAY }, 3],
    ['the last 4 or 1 day, whichever keeps more', { keepLast: 4, keepForMs: DAY }, 4],
    [
      'all (no count limit, kept forever)',
      { keepLast: Number.POSITIVE_INFINITY, keepForMs: Number.POSITIVE_INFINITY },
      6,
    ],
    ['at most 4, though 10 days would keep every one', { keepLast: 2, keepForMs: 10 * DAY, keepMost: 4 }, 4],
    [
      'at most 3, though kept forever by time',
      { keepLast: 1, keepForMs: Number.POSITIVE_INFINITY, keepMost: 3 },
      3,
    ],
  ])('keeps %s', async (_label, policy, kept) => {
    const s = setup();
    // Six versions, one a day; version 6 is current.
    for (let n = 1; n <= 6; n++) {
      await version(s.store, 'a', n);
      s.tick(DAY);
    }
    const result = await s.store.pruneHistory(policy, s.now, { scope: key('a') });
    const history = await s.store.listRevisions('acme', USER_ROOT, 'a');
    expect(history).toHaveLength(kept);
    expect(result.revisions).toBe(6 - kept);
    // The newest ones are the ones kept, the current one always among them.
    expect(history[0]?.supersededAt).toBeNull();
    const live = await s.store.getSkill('acme', USER_ROOT, 'a');
    expect(history[0]?.revision).toBe(live?.revision);
  });

  it("a write reports the skill's history entries, the new one and a deleted predecessor's included", async () => {
    const s = setup();
    expect((await version(s.store, 'counted', 1)).revisions).toBe(1);
    expect((await version(s.store, 'counted', 2)).revisions).toBe(2);
    expect((await version(s.store, 'other', 1)).revisions).toBe(1);
    // The same files again: no new version, so no new history entry.
    expect((await version(s.store, 'counted', 2)).revisions).toBe(2);
    await s.store.deleteSkill('acme', USER_ROOT, 'counted');
    s.tick();
    expect((await version(s.store, 'counted', 4)).revisions).toBe(3);
    await s.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, s.tick(), { scope: key('counted') });
    expect((await version(s.store, 'counted', 5)).revisions).toBe(2);
  });

  it('a scoped prune touches only that skill; a sweep covers every skill, in batches', async () => {
    const s = setup();
    for (let n = 1; n <= 3; n++) {
      await version(s.store, 'a', n);
      await version(s.store, 'b', n);
      await s.store.putSkill({ ...makeWrite({ name: 'c', body: `${n}` }), rootUri: AGENT_ROOT });
      s.tick();
    }
    const policy = { keepLast: 1, keepForMs: 0 };
    expect((await s.store.pruneHistory(policy, s.now, { scope: key('a') })).revisions).toBe(2);
    expect(await s.store.listRevisions('acme', USER_ROOT, 'b')).toHaveLength(3);
    const first = await s.store.pruneHistory(policy, s.now, { maxRevisions: 3 });
    expect(first).toMatchObject({ revisions: 3, more: true });
    const second = await s.store.pruneHistory(policy, s.now, { maxRevisions: 3 });
    expect(second).toMatchObject({ revisions: 1, more: false });
    for (const [name, root] of [
      ['a', USER_ROOT],
      ['b', USER_ROOT],
      ['c', AGENT_ROOT],
    ] as const) {
      expect(await s.store.listRevisions('acme', root, name)).toHaveLength(1);
    }
  });

  it("a deleted skill's history is kept for keepForMs after the deletion, whatever keepLast says", async () => {
    const s = setup();
    await version(s.store, 'gone', 1);
    await version(s.store, 'gone', 2);
    s.tick(DAY);
    await s.store.deleteSkill('acme', USER_ROOT, 'gone');
    const policy = { keepLast: 10, keepForMs: 7 * DAY };
    expect((await s.store.pruneHistory(policy, s.tick(6 * DAY))).revisions).toBe(0);
    expect(await s.store.listRevisions('acme', USER_ROOT, 'gone')).toHaveLength(2);
    expect((await s.store.pruneHistory(policy, s.tick(2 * DAY))).revisions).toBe(2);
    expect(await s.store.listRevisions('acme', USER_ROOT, 'gone')).toEqual([]);
  });

  it('frees a content as soon as no kept revision and no live file uses it, and only then', async () => {
    const s = setup();
    const shared = 'shared helper\n';
    const first = 'only in version 1\n';
    await version(s.store, 'a', 1, { 'lib/shared.txt': shared, 'lib/first.txt': first });
    await version(s.store, 'b', 1, { 'lib/shared.txt': shared });
    await version(s.store, 'a', 2, { 'lib/shared.txt': shared });
    const hashes = [sha256Hex(shared), sha256Hex(first)];
    expect((await s.store.readBlobs(hashes)).size).toBe(2);
    const result = await s.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, s.now, { scope: key('a') });
    expect(result).toMatchObject({ revisions: 1 });
    // `first` went with version 1; `shared` is still used by a's current version and by b.
    const left = await s.store.readBlobs(hashes);
    expect([...left.keys()]).toEqual([sha256Hex(shared)]);
    expect(result.bytes).toBeGreaterThanOrEqual(first.length);
    await s.store.deleteSkill('acme', USER_ROOT, 'a');
    await s.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, s.tick(), { scope: key('a') });
    expect((await s.store.readBlobs(hashes)).size).toBe(1); // b still uses it
    await s.store.deleteSkill('acme', USER_ROOT, 'b');
    await s.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, s.tick());
    expect((await s.store.readBlobs(hashes)).size).toBe(0);
  });

  it('an overview replaced by a new version or a new job run does not outlive it', async () => {
    const s = setup();
    const written = await version(s.store, 'a', 1);
    await finishTask(s.store, written.taskId, 'overview one', written.skill.revision);
    const again = await version(s.store, 'a', 2);
    await finishTask(s.store, again.taskId, 'overview two', again.skill.revision);
    expect((await s.store.readBlobs([sha256Hex('overview one')])).size).toBe(0);
    expect((await s.store.readBlobs([sha256Hex('overview two')])).size).toBe(1);
    await s.store.deleteSkill('acme', USER_ROOT, 'a');
    expect((await s.store.readBlobs([sha256Hex('overview two')])).size).toBe(0);
  });

  // PostgreSQL returns the space of deleted rows through (auto)vacuum, not at once.
  it.skipIf(TEST_ENGINE !== 'sqlite')(
    'deleting big skills and pruning their history shrinks the data folder (pages go back to the OS)',
    async () => {
      const s = setup();
      const big = () => randomBytes(3 * 1024 * 1024); // incompressible: 3 MiB on disk each
      for (const name of ['big-1', 'big-2', 'big-3', 'big-4']) {
        await version(s.store, name, 1, { 'data/blob.bin': big() });
      }
      await version(s.store, 'small', 1);
      // A sweep with nothing to prune still checkpoints: the contents now sit in the database file.
      await s.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, s.now);
      const before = folderBytes(s.dataDir);
      expect(before).toBeGreaterThan(12 * 1024 * 1024);
      for (const name of ['big-1', 'big-2', 'big-3', 'big-4'])
        await s.store.deleteSkill('acme', USER_ROOT, name);
      const result = await s.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, s.tick());
      expect(result.blobs).toBe(8); // each skill's SKILL.md and data/blob.bin
      expect(result.bytes).toBeGreaterThan(4 * 3 * 1024 * 1024);
      const after = folderBytes(s.dataDir);
      expect(before - after).toBeGreaterThan(11 * 1024 * 1024);
      expect(after).toBeLessThan(2 * 1024 * 1024);
      expect(await s.store.getSkill('acme', USER_ROOT, 'small')).not.toBeNull();
    },
  );
});

describe(`${TEST_ENGINE} store: change feed`, () => {
  it('lists the latest change of each skill in commit order; a rewritten skill moves to the end', async () => {
    const s = setup();
    await version(s.store, 'a', 1);
    await version(s.store, 'b', 1);
    await s.store.putSkill({ ...makeWrite({ name: 'c' }), rootUri: AGENT_ROOT });
    await version(s.store, 'a', 2);
    await s.store.deleteSkill('acme', USER_ROOT, 'b');
    const page = await s.store.listChanges('acme', [USER_ROOT, AGENT_ROOT], {
      afterSeq: 0,
      since: null,
      limit: 10,
    });
    expect(page.changes.map((c) => [c.name, c.deleted])).toEqual([
      ['c', false],
      ['a', false],
      ['b', true],
    ]);
    expect(page.more).toBe(false);
    const a = page.changes[1];
    expect(a?.skill?.revision).toBe(a?.revision);
    expect(page.changes[2]?.skill).toBeNull();
    // One root only; another account sees nothing.
    const agentOnly = await s.store.listChanges('acme', [AGENT_ROOT], {
      afterSeq: 0,
      since: null,
      limit: 10,
    });
    expect(agentOnly.changes.map((c) => c.name)).toEqual(['c']);
    expect(
      (await s.store.listChanges('other', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 })).changes,
    ).toEqual([]);
  });

  it('pages with lastSeq without missing a change made between pages', async () => {
    const s = setup();
    for (const name of ['a', 'b', 'c', 'd']) await version(s.store, name, 1);
    const roots = [USER_ROOT];
    const first = await s.store.listChanges('acme', roots, { afterSeq: 0, since: null, limit: 2 });
    expect(first.changes.map((c) => c.name)).toEqual(['a', 'b']);
    expect(first.more).toBe(true);
    await version(s.store, 'a', 2); // already read: comes again at the end
    await version(s.store, 'd', 2); // not read yet: moves behind, reported once
    const second = await s.store.listChanges('acme', roots, {
      afterSeq: first.lastSeq,
      since: null,
      limit: 2,
    });
    const third = await s.store.listChanges('acme', roots, {
      afterSeq: second.lastSeq,
      since: null,
      limit: 2,
    });
    expect([...second.changes, ...third.changes].map((c) => c.name)).toEqual(['c', 'a', 'd']);
    expect(third.more).toBe(false);
    const empty = await s.store.listChanges('acme', roots, {
      afterSeq: third.lastSeq,
      since: null,
      limit: 2,
    });
    expect(empty).toMatchObject({ changes: [], more: false, lastSeq: third.lastSeq });
  });

  it('since filters by change time; an empty page still advances to the latest position', async () => {
    const s = setup();
    await version(s.store, 'old', 1);
    const cut = s.tick(DAY);
    await version(s.store, 'new', 1);
    await s.store.putSkill({ ...makeWrite({ name: 'other-root' }), rootUri: AGENT_ROOT });
    const page = await s.store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: cut, limit: 10 });
    expect(page.changes.map((c) => c.name)).toEqual(['new']);
    const later = await s.store.listChanges('acme', [USER_ROOT], {
      afterSeq: 0,
      since: cut + DAY,
      limit: 10,
    });
    expect(later.changes).toEqual([]);
    expect(later.lastSeq).toBeGreaterThanOrEqual(page.lastSeq);
  });
});

describe.skipIf(TEST_ENGINE !== 'sqlite')('sqlite store: schema version 7 on an older file', () => {
  it('fills history references and the change feed, frees stray contents, turns on incremental vacuum', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    const written = await version(temp.store, 'kept', 1, { 'x.txt': 'x' });
    await finishTask(temp.store, written.taskId, 'ov', written.skill.revision);
    await version(temp.store, 'kept', 2, { 'x.txt': 'x' });
    await version(temp.store, 'gone', 1);
    await temp.store.deleteSkill('acme', USER_ROOT, 'gone');
    await temp.store.close();
    const file = path.join(temp.dataDir, 'skillport.db');
    const db = new Database(file);
    downgradeSchema(db, 6);
    // What a version 3 server left: the overview of version 1 still stored, no auto_vacuum.
    db.prepare('INSERT INTO blobs (sha256, size, content) VALUES (?, ?, ?)').run(
      sha256Hex('ov'),
      2,
      Buffer.from('ov'),
    );
    db.pragma('auto_vacuum = NONE');
    db.exec('VACUUM');
    expect(db.pragma('auto_vacuum', { simple: true })).toBe(0);
    db.close();

    const store = temp.reopen();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('auto_vacuum', { simple: true })).toBe(2);
    check.close();
    const feed = await store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 });
    expect(feed.changes.map((c) => [c.name, c.deleted])).toEqual([
      ['kept', false],
      ['gone', true],
    ]);
    expect((await store.readBlobs([sha256Hex('ov')])).size).toBe(0);
    const history = await store.listRevisions('acme', USER_ROOT, 'kept');
    expect(history.map((h) => h.createdBy)).toEqual([null, null]);
    // References were filled: pruning frees version 1's SKILL.md but keeps the shared x.txt.
    const v1 = history[1]?.manifest.find((f) => f.path === 'SKILL.md')?.sha256 as string;
    await store.pruneHistory({ keepLast: 1, keepForMs: 0 }, Date.now());
    expect((await store.readBlobs([v1, sha256Hex('x')])).size).toBe(1);
  });
});

describe(`${TEST_ENGINE} store: history through db export / import`, () => {
  it('keeps authors, keeps history contents alive for retention, and rebuilds the change feed', async () => {
    const a = setup();
    await version(a.store, 'kept', 1, { 'old.txt': 'only in version 1' });
    a.tick();
    await a.store.putSkill({
      ...makeWrite({ name: 'kept', body: 'v2' }),
      task: { type: 'update_skill', userId: 'bob' },
    });
    a.tick();
    await version(a.store, 'gone', 1);
    await a.store.deleteSkill('acme', USER_ROOT, 'gone');
    const b = openTempStore();
    const previous = cleanup;
    cleanup = async () => {
      await b.cleanup();
      await previous?.();
    };
    await b.store.importRecords(a.store.exportRecords());
    const history = await b.store.listRevisions('acme', USER_ROOT, 'kept');
    expect(history.map((h) => h.createdBy)).toEqual(['bob', 'alice']);
    const feed = await b.store.listChanges('acme', [USER_ROOT], { afterSeq: 0, since: null, limit: 10 });
    expect(feed.changes.map((c) => [c.name, c.deleted])).toEqual([
      ['kept', false],
      ['gone', true],
    ]);
    // Pruning in the imported store frees what only version 1 used, and nothing the live skill uses.
    await b.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, Date.now() + DAY);
    expect((await b.store.readBlobs([sha256Hex('only in version 1')])).size).toBe(0);
    const live = await b.store.getSkill('acme', USER_ROOT, 'kept');
    const files = await b.store.listFiles(live?.id as string, { withContent: true });
    expect(files.every((f) => f.content !== undefined && f.content.byteLength === f.size)).toBe(true);
  });
});
