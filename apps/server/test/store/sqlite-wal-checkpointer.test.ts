// WAL checkpoints of the threaded SQLite store run in a thread of their own (`wal-checkpointer.ts`):
// real database files, real threads. The WAL stays bounded under sustained writes, the writer's own
// auto-checkpoint never fires while the checkpointer keeps up, a reader on an old snapshot or a
// stopped checkpointer never fails a write, and the writer's backstop bounds the WAL without it.
import { mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadedSqliteStore, walCheckpointerOf } from '../../src/store/sqlite/sqlite-thread.js';
import {
  type CheckpointStats,
  startWalCheckpointer,
  type WalCheckpointer,
} from '../../src/store/sqlite/wal-checkpointer.js';
import type { Store } from '../../src/store/types.js';
import { makeWrite, USER_ROOT } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-ckpt-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** WAL frame: 24-byte header plus a 4 KiB page. */
const FRAME_BYTES = 24 + 4096;

/** Frames the WAL file has room for: its high-water mark (a WAL started over is reused, not shrunk). */
function walFrames(dir: string): number {
  return Math.floor(statSync(path.join(dir, 'skillport.db-wal')).size / FRAME_BYTES);
}

/** `count` adds, `concurrency` at a time (so group commits happen too); every one must be acknowledged. */
async function addSkills(
  store: Store,
  prefix: string,
  count: number,
  afterBatch?: () => Promise<unknown>,
  concurrency = 8,
): Promise<void> {
  for (let i = 0; i < count; i += concurrency) {
    const batch = [];
    for (let j = i; j < Math.min(count, i + concurrency); j++) {
      batch.push(
        store.putSkill(
          makeWrite({
            name: `${prefix}-${j}`,
            body: `# ${prefix} ${j}\n\n${'Steps and notes. '.repeat(60)}\n`,
          }),
        ),
      );
    }
    await Promise.all(batch);
    await afterBatch?.();
  }
}

/** Waits (polling, no deadline of its own: the test's timeout bounds it) until `ready(stats)`. */
async function waitFor(
  checkpointer: WalCheckpointer,
  ready: (stats: CheckpointStats) => boolean,
): Promise<CheckpointStats> {
  for (;;) {
    const stats = await checkpointer.stats();
    if (ready(stats)) return stats;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function openStore(
  dir: string,
  checkpoints: NonNullable<Parameters<typeof createThreadedSqliteStore>[0]['checkpoints']>,
) {
  const store = await createThreadedSqliteStore({ dataDir: dir, searchThreads: 0, checkpoints });
  cleanups.push(() => store.close());
  return store;
}

describe('sqlite store: WAL checkpoints in a thread of their own', () => {
  it('keeps the WAL bounded under sustained writes; the writer never reaches its backstop', async () => {
    const dir = tempDir();
    // 1,000 adds write ~10,000 frames: far below the backstop, the writer's auto-checkpoint never fires.
    const backstopPages = 100_000;
    const store = await openStore(dir, { pollMs: 5, intervalMs: 5, backstopPages });
    const checkpointer = walCheckpointerOf(store) as WalCheckpointer;
    expect(checkpointer).toBeDefined();
    // After each group of adds, until a checkpoint copied every frame (no reader holds an older
    // snapshot), so the writer starts the WAL over at its next commit.
    await addSkills(store, 'steady', 1_000, () => waitFor(checkpointer, (s) => s.caughtUp));
    const stats = await waitFor(checkpointer, (s) => s.lastLogFrames === 0 || s.passive > 0);
    expect(stats.passive).toBeGreaterThan(0);
    expect(stats.errors).toBe(0);
    // The writer checkpoints only at a commit that leaves the WAL at `backstopPages` or more: the
    // WAL never got there, so every checkpoint of this run (none ran in the database thread) was the
    // checkpointer's.
    expect(stats.maxLogFrames).toBeLessThan(backstopPages);
    // Without checkpoints the WAL would hold every frame of the run (~10,000); with them, about
    // those of one group of adds.
    expect(walFrames(dir)).toBeLessThan(1_000);
    const db = new Database(path.join(dir, 'skillport.db'), { readonly: true });
    cleanups.push(() => {
      db.close();
    });
    expect((db.prepare('SELECT count(*) AS n FROM skills').get() as { n: number }).n).toBe(1_000);
  });

  it('takes every write while a reader holds an old snapshot, and starts the WAL over once it ends', async () => {
    const dir = tempDir();
    const restartPages = 1_000;
    const store = await openStore(dir, {
      pollMs: 5,
      intervalMs: 5,
      restartPages,
      restartBusyMs: 20,
      backstopPages: 1_000_000,
    });
    const checkpointer = walCheckpointerOf(store) as WalCheckpointer;
    await store.putSkill(makeWrite({ name: 'first' }));
    const reader = new Database(path.join(dir, 'skillport.db'), { readonly: true });
    cleanups.push(() => {
      reader.close();
    });
    reader.exec('BEGIN');
    expect((reader.prepare('SELECT count(*) AS n FROM skills').get() as { n: number }).n).toBe(1);

    await addSkills(store, 'held', 200);
    // The reader's snapshot keeps the frames after it: the WAL grew past the escalation size, and the
    // RESTART checkpoints that waited for the reader gave up without failing a write.
    const held = await waitFor(checkpointer, (s) => s.busy > 0);
    expect(held.maxLogFrames).toBeGreaterThan(restartPages);
    expect((reader.prepare('SELECT count(*) AS n FROM skills').get() as { n: number }).n).toBe(1);

    reader.exec('COMMIT');
    // With the reader gone a checkpoint copies every frame, and the writer starts the WAL over at its
    // next write (SQLite does so as a write begins): keep writing until a checkpoint sees it.
    let after = await checkpointer.stats();
    let written = 0;
    while (after.lastLogFrames >= restartPages) {
      await store.putSkill(makeWrite({ name: `after-${written++}` }));
      after = await waitFor(checkpointer, (s) => s.passive > after.passive);
    }
    expect(after.lastLogFrames).toBeLessThan(restartPages);
    expect(await store.getSkill('acme', USER_ROOT, 'held-199')).not.toBeNull();
  });

  it('bounds the WAL by the writer backstop when the checkpointer has stopped', async () => {
    const dir = tempDir();
    const backstopPages = 600;
    const store = await openStore(dir, { pollMs: 5, intervalMs: 5, backstopPages });
    const checkpointer = walCheckpointerOf(store) as WalCheckpointer;
    await checkpointer.close();
    await expect(checkpointer.stats()).rejects.toThrow(/stopped/);
    await addSkills(store, 'alone', 300);
    // The writer checkpoints at the first commit that leaves the WAL at the backstop or beyond, and
    // starts it over at the next: the WAL is at most the backstop plus one group commit.
    expect(walFrames(dir)).toBeLessThan(backstopPages * 2);
    expect(await store.getSkill('acme', USER_ROOT, 'alone-299')).not.toBeNull();
  });

  it('says once that its thread died and starts a new one, which checkpoints again', async () => {
    const dir = tempDir();
    const deaths: Array<{ message: string; restartInMs: number }> = [];
    const store = await createThreadedSqliteStore({
      dataDir: dir,
      searchThreads: 0,
      checkpoints: { pollMs: 5, intervalMs: 5, restartMs: 10 },
      onCheckpointerError: (error, restartInMs) => deaths.push({ message: error.message, restartInMs }),
    });
    cleanups.push(() => store.close());
    const checkpointer = walCheckpointerOf(store) as WalCheckpointer;
    await addSkills(store, 'before', 20);
    await waitFor(checkpointer, (s) => s.passive > 0);
    await checkpointer.worker?.terminate();
    // stats() waits for the new thread; its counts start over.
    const restarted = await checkpointer.stats();
    expect(restarted.restarts).toBe(1);
    expect(deaths).toEqual([{ message: expect.stringMatching(/exited with code/), restartInMs: 10 }]);
    await addSkills(store, 'after', 20);
    const stats = await waitFor(checkpointer, (s) => s.passive > 0 && s.caughtUp);
    expect(stats.restarts).toBe(1);
    expect(stats.errors).toBe(0);
    expect(deaths).toHaveLength(1);
    expect(await store.getSkill('acme', USER_ROOT, 'after-19')).not.toBeNull();
  });

  it('backs off while a new thread cannot start, doubling its delay up to the longest, then restarts', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'skillport.db');
    const db = new Database(file);
    cleanups.push(() => {
      db.close();
    });
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (x)');
    const delays: number[] = [];
    let resolveFour = () => {};
    const four = new Promise<void>((resolve) => {
      resolveFour = resolve;
    });
    const checkpointer = await startWalCheckpointer({
      file,
      pollMs: 5,
      intervalMs: 5,
      restartMs: 5,
      restartMaxMs: 20,
      onError: (_error, restartInMs) => {
        delays.push(restartInMs);
        if (delays.length === 4) resolveFour();
      },
    });
    cleanups.push(() => checkpointer.close());
    // The file is gone while the thread dies: each new thread fails to open it.
    renameSync(file, `${file}.away`);
    await checkpointer.worker?.terminate();
    // stats() waits for a thread that runs.
    const stats = checkpointer.stats();
    await four;
    renameSync(`${file}.away`, file);
    const restarted = await stats;
    expect(restarted.restarts).toBe(1);
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 20]);
    db.prepare('INSERT INTO t VALUES (1)').run();
    const after = await waitFor(checkpointer, (s) => s.passive > 0);
    expect(after.restarts).toBe(1);
    await checkpointer.close();
    await expect(checkpointer.stats()).rejects.toThrow(/stopped/);
  });
});
