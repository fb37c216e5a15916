// Group commit of the SQLite store: several `putSkill` calls in one transaction, a savepoint each,
// so a refused write is refused alone and the others are committed together.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isSkillportError } from '@skillport/core';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSqliteStore,
  putSkillGroupOf,
  writeGroupOf,
} from '../../src/store/sqlite/create-sqlite-store.js';
import { createThreadedSqliteStore } from '../../src/store/sqlite/sqlite-thread.js';
import type { Store } from '../../src/store/types.js';
import { makeWrite, USER_ROOT } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-group-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function count(dir: string, sql: string): number {
  const db = new Database(path.join(dir, 'skillport.db'), { readonly: true });
  try {
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('sqlite store: group commit of putSkill', () => {
  it('commits the accepted writes together and refuses the others alone, changing nothing of theirs', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir });
    cleanups.push(() => store.close());
    const first = await store.putSkill(makeWrite({ name: 'existing' }));
    const group = putSkillGroupOf(store);
    expect(group).toBeDefined();
    const outcomes = (group as NonNullable<typeof group>)(
      [
        makeWrite({ name: 'alpha' }),
        makeWrite({ name: 'missing', mustExist: true }),
        makeWrite({ name: 'existing', description: 'Changed', ifMatch: ['not-the-revision'] }),
        makeWrite({ name: 'beta' }, { 'notes.md': 'notes' }),
        makeWrite({ name: 'quota' }, { 'big.bin': new Uint8Array(5000) }),
      ].map((w, i) => (i === 4 ? { ...w, quotaBytes: 100 } : w)),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, true, false]);
    const codes = outcomes.map((o) => (!o.ok && isSkillportError(o.error) ? o.error.code : null));
    expect(codes).toEqual([null, 'NOT_FOUND', 'CONFLICT', null, 'RESOURCE_EXHAUSTED']);

    expect(await store.getSkill('acme', USER_ROOT, 'alpha')).not.toBeNull();
    expect(await store.getSkill('acme', USER_ROOT, 'beta')).not.toBeNull();
    expect(await store.getSkill('acme', USER_ROOT, 'missing')).toBeNull();
    expect(await store.getSkill('acme', USER_ROOT, 'quota')).toBeNull();
    expect((await store.getSkill('acme', USER_ROOT, 'existing'))?.revision).toBe(first.skill.revision);
    // One task and one history entry per accepted write, none for the refused ones.
    expect(count(dir, 'SELECT count(*) AS n FROM tasks')).toBe(3);
    expect(count(dir, 'SELECT count(*) AS n FROM skill_revisions')).toBe(3);
    expect(count(dir, 'SELECT count(*) AS n FROM blobs WHERE size = 5000')).toBe(0);
    const hits = await store.search('acme', [USER_ROOT], 'alpha', { limit: 5 });
    expect(hits.map((h) => h.skill.name)).toContain('alpha');
  });

  it('indexes the writes of a group for search in one index segment: the last write of a skill, none refused', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir });
    cleanups.push(() => store.close());
    await store.putSkill(makeWrite({ name: 'seeded', description: 'Seeded before the group' }));
    const segments = () => count(dir, 'SELECT count(DISTINCT segid) AS n FROM skills_fts_idx');
    const before = segments();
    const group = putSkillGroupOf(store) as NonNullable<ReturnType<typeof putSkillGroupOf>>;
    const outcomes = group([
      makeWrite({ name: 'gamma', description: 'Grooms every zebra' }),
      makeWrite({ name: 'refused', description: 'Feeds the walrus', mustExist: true }),
      makeWrite({ name: 'delta', description: 'Counts each penguin' }),
      makeWrite({ name: 'delta', description: 'Counts each narwhal' }),
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, true]);
    // FTS5 writes a segment at each savepoint that holds index rows not yet written: rows written
    // inside the writes' savepoints would make three segments here.
    expect(segments()).toBe(before + 1);
    const find = async (query: string) =>
      (await store.search('acme', [USER_ROOT], query, { limit: 5 })).map((h) => h.skill.name);
    expect(await find('zebra')).toEqual(['gamma']);
    expect(await find('narwhal')).toEqual(['delta']);
    expect(await find('penguin')).toEqual([]);
    expect(await find('walrus')).toEqual([]);
    expect(await find('seeded')).toEqual(['seeded']);
  });

  it('groups temp uploads with writes (folder adds): in order, each refused alone, committed together', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir });
    cleanups.push(() => store.close());
    const expiresAt = Date.now() + 60_000;
    const upload = (filename: string, size: number) => ({
      accountId: 'acme',
      filename,
      content: new Uint8Array(size).fill(7),
      expiresAt,
    });
    const earlier = await store.putTempUpload(upload('earlier.zip', 10));
    const group = writeGroupOf(store) as NonNullable<ReturnType<typeof writeGroupOf>>;
    const outcomes = group([
      { method: 'putTempUpload', args: [upload('kept.zip', 20)] },
      { method: 'putSkill', args: [{ ...makeWrite({ name: 'from-upload' }), tempUploadId: earlier }] },
      { method: 'putTempUpload', args: [upload('too-big.zip', 5000), { quotaBytes: 100, now: Date.now() }] },
      { method: 'putSkill', args: [{ ...makeWrite({ name: 'reused' }), tempUploadId: earlier }] },
      { method: 'putSkill', args: [makeWrite({ name: 'plain' })] },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, true, false, false, true]);
    const codes = outcomes.map((o) => (!o.ok && isSkillportError(o.error) ? o.error.code : null));
    expect(codes).toEqual([null, null, 'RESOURCE_EXHAUSTED', 'NOT_FOUND', null]);
    const kept = outcomes[0] as { ok: true; value: string };
    expect(kept.value).toMatch(/^tmp_/);
    expect((await store.getTempUpload('acme', kept.value, Date.now()))?.filename).toBe('kept.zip');
    // The write of the group consumed the earlier upload; the later one found it gone.
    expect(await store.getTempUpload('acme', earlier, Date.now())).toBeNull();
    expect(count(dir, 'SELECT count(*) AS n FROM temp_uploads')).toBe(1);
    expect(await store.getSkill('acme', USER_ROOT, 'from-upload')).not.toBeNull();
    expect(await store.getSkill('acme', USER_ROOT, 'reused')).toBeNull();
    expect(await store.getSkill('acme', USER_ROOT, 'plain')).not.toBeNull();
  });

  it('throws and writes nothing when the transaction cannot start (another connection holds the lock)', () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir, busyTimeoutMs: 0 });
    cleanups.push(() => store.close());
    const other = new Database(path.join(dir, 'skillport.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const group = putSkillGroupOf(store) as NonNullable<ReturnType<typeof putSkillGroupOf>>;
      expect(() => group([makeWrite({ name: 'a' }), makeWrite({ name: 'b' })])).toThrow(/locked|busy/i);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(count(dir, 'SELECT count(*) AS n FROM skills')).toBe(0);
  });

  it('in the database thread: a burst of concurrent writes is answered write by write, in order with reads', async () => {
    const dir = tempDir();
    const store: Store = await createThreadedSqliteStore({ dataDir: dir });
    cleanups.push(() => store.close());
    const names = Array.from({ length: 40 }, (_, i) => `burst-${i}`);
    // Posted in one go: the writes arrive together (one group), the reads behind them.
    const puts = names.map((name, i) =>
      store.putSkill(i % 10 === 7 ? makeWrite({ name, mustExist: true }) : makeWrite({ name })),
    );
    const gets = names.map((name) => store.getSkill('acme', USER_ROOT, name));
    const [written, read] = await Promise.all([Promise.allSettled(puts), Promise.all(gets)]);
    for (const [i, name] of names.entries()) {
      if (i % 10 === 7) {
        expect(written[i]?.status, name).toBe('rejected');
        expect(read[i], name).toBeNull();
      } else {
        expect(written[i]?.status, name).toBe('fulfilled');
        // Posted after its write, the read runs after it.
        expect(read[i]?.name, name).toBe(name);
      }
    }
    expect(count(dir, 'SELECT count(*) AS n FROM tasks')).toBe(36);
  });

  it('in the database thread: a write answers the record as stored, alone and in a group, a kept overview included', async () => {
    const dir = tempDir();
    const store: Store = await createThreadedSqliteStore({ dataDir: dir });
    cleanups.push(() => store.close());
    // Values JSON does not keep (stored as JSON: Infinity becomes null, undefined goes) and nesting.
    const odd = (name: string) =>
      makeWrite({
        name,
        tags: ['pdf', 'forms'],
        allowedTools: ['Read'],
        frontmatter: { name, limits: { max: Number.POSITIVE_INFINITY, gone: undefined }, list: [1, 'two'] },
        sourceMetadata: { origin: 'bench', nested: { n: Number.NaN } },
        processed: { overview: `# ${name}\n\nOverview.\n`, result: { indexed: true } },
      });
    const alone = await store.putSkill(odd('alone'));
    // Posted in one go: one group.
    const grouped = await Promise.all(
      [odd('first'), odd('second'), odd('third')].map((w) => store.putSkill(w)),
    );
    // The same files again and no overview given: the revision is unchanged, the overview kept.
    const { processed: _given, ...unprocessed } = odd('alone');
    const again = await store.putSkill(unprocessed);
    for (const put of [alone, ...grouped]) {
      const { name } = put.skill;
      expect(put.created, name).toBe(true);
      expect(put.revisions, name).toBe(1);
      expect(put.skill.frontmatter, name).toEqual({ name, limits: { max: null }, list: [1, 'two'] });
      expect(put.skill.sourceMetadata, name).toEqual({ origin: 'bench', nested: { n: null } });
    }
    for (const put of [...grouped, again]) {
      expect(put.skill).toEqual(await store.getSkill('acme', USER_ROOT, put.skill.name));
    }
    expect(again.created).toBe(false);
    expect(again.skill.revision).toBe(alone.skill.revision);
    expect(again.skill.overview).toBe('# alone\n\nOverview.\n');
    expect({ ...alone.skill, updatedAt: 0 }).toEqual({ ...again.skill, updatedAt: 0 });
  });

  it('in the database thread: uploads and writes posted together are answered each with its own result, in order', async () => {
    const dir = tempDir();
    const store: Store = await createThreadedSqliteStore({ dataDir: dir });
    cleanups.push(() => store.close());
    const expiresAt = Date.now() + 60_000;
    const earlier = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        store.putTempUpload({
          accountId: 'acme',
          filename: `e${i}.zip`,
          content: new Uint8Array(8),
          expiresAt,
        }),
      ),
    );
    // Posted in one go: uploads interleaved with writes consuming the earlier uploads.
    const uploads = earlier.map((_, i) =>
      store.putTempUpload({
        accountId: 'acme',
        filename: `n${i}.zip`,
        content: new Uint8Array(8),
        expiresAt,
      }),
    );
    const puts = earlier.map((id, i) =>
      store.putSkill({ ...makeWrite({ name: `folder-${i}` }), tempUploadId: i === 3 ? 'tmp_missing' : id }),
    );
    const reads = earlier.map((id) => store.getTempUpload('acme', id, Date.now()));
    const [ids, written, read] = await Promise.all([
      Promise.all(uploads),
      Promise.allSettled(puts),
      Promise.all(reads),
    ]);
    expect(new Set(ids).size).toBe(8);
    for (const id of ids)
      expect((await store.getTempUpload('acme', id, Date.now()))?.content.byteLength).toBe(8);
    expect(written.map((w) => w.status)).toEqual(earlier.map((_, i) => (i === 3 ? 'rejected' : 'fulfilled')));
    // Posted after the writes, each read sees its upload consumed unless its write was refused.
    expect(read.map((r) => r !== null)).toEqual(earlier.map((_, i) => i === 3));
    expect(count(dir, 'SELECT count(*) AS n FROM skills')).toBe(7);
  });

  it('in the database thread: writes posted while another connection holds the lock wait for it and all land', async () => {
    const dir = tempDir();
    const store: Store = await createThreadedSqliteStore({ dataDir: dir, busyTimeoutMs: 10_000 });
    cleanups.push(() => store.close());
    const other = new Database(path.join(dir, 'skillport.db'));
    other.exec('BEGIN IMMEDIATE');
    const writes = Array.from({ length: 6 }, (_, i) => store.putSkill(makeWrite({ name: `locked-${i}` })));
    await new Promise((resolve) => setTimeout(resolve, 200));
    other.exec('ROLLBACK');
    other.close();
    const results = await Promise.all(writes);
    expect(results.every((r) => r.created)).toBe(true);
    expect(count(dir, 'SELECT count(*) AS n FROM skills')).toBe(6);
  });
});
