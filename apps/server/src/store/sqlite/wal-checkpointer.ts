/**
 * Checkpoints of the SQLite store's WAL, off the database thread. A checkpoint copies the frames
 * committed to the WAL (`skillport.db-wal`) into the database file and syncs both files; run by the
 * writer itself (`wal_autocheckpoint`) the two syncs blocked the database thread — every write and
 * every read queued on it — for tens of milliseconds every few dozen adds. Here a thread of its own,
 * on a connection of its own (64 KiB page cache, no store code), polls every `pollMs` and runs a
 * PASSIVE checkpoint (it never waits for a lock nor holds up a writer or a reader) when another
 * connection committed since its last one and `intervalMs` passed since then, or sooner when the WAL
 * file grew by `growthPages` frames. When the WAL holds `restartPages` frames or more (a reader
 * on an old snapshot kept frames from being copied, or the WAL from being started over), it runs a
 * RESTART checkpoint, which waits up to `restartBusyMs` for those readers (holding new writes as long;
 * after one gave up, the next waits until the WAL grew by another `restartPages`).
 * The writer keeps its own auto-checkpoint only as a backstop at a larger size
 * ({@link WAL_BACKSTOP_PAGES}), so a stalled checkpointer cannot let the WAL grow without bound.
 * Durability does not depend on checkpoints: a commit is in the WAL either way.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../workers/thread-entry.js';
import type { SqliteSynchronous } from './connection.js';

/** How often the checkpointer looks for new commits, ms. */
export const CHECKPOINT_POLL_MS = 50;
/**
 * Least time between two checkpoints, ms: a skill write dirties ~40 pages, mostly index pages the
 * next writes dirty again, so a checkpoint every few hundred adds copies each page once for many.
 */
export const CHECKPOINT_INTERVAL_MS = 250;
/** WAL file growth (frames) that triggers a checkpoint before {@link CHECKPOINT_INTERVAL_MS}: ~40 MiB. */
export const CHECKPOINT_GROWTH_PAGES = 10_000;
/** WAL frames (4 KiB pages) from which the checkpointer escalates to RESTART: ~80 MiB. */
export const CHECKPOINT_RESTART_PAGES = 20_000;
/** Longest wait of a RESTART checkpoint for readers of an old snapshot, ms. */
export const CHECKPOINT_RESTART_BUSY_MS = 50;
/**
 * The writer's `wal_autocheckpoint` while the checkpointer runs: a backstop only (~160 MiB of WAL),
 * reached when the checkpointer is stalled or gone.
 */
export const WAL_BACKSTOP_PAGES = 40_000;

/** What the checkpointer thread is started with. */
export interface CheckpointerData {
  /** Path of the database file (it exists, in WAL mode). */
  file: string;
  synchronous?: SqliteSynchronous;
  pollMs: number;
  intervalMs: number;
  growthPages: number;
  restartPages: number;
  restartBusyMs: number;
}

/** Counts since the checkpointer started. */
export interface CheckpointStats {
  /** PASSIVE checkpoints run. */
  passive: number;
  /** RESTART checkpoints run. */
  restart: number;
  /** RESTART checkpoints that gave up waiting for readers (`busy`). */
  busy: number;
  /** Checkpoints that failed (e.g. `SQLITE_BUSY` from another process's checkpoint); retried at the next poll. */
  errors: number;
  /** Largest WAL size seen by a checkpoint, in frames. */
  maxLogFrames: number;
  /** WAL size seen by the last checkpoint, in frames. */
  lastLogFrames: number;
  /** True when no commit came since the last checkpoint and it copied every frame. */
  caughtUp: boolean;
}

/** A message to the checkpointer thread. */
export type CheckpointerMessage = { type: 'stats' } | { type: 'close' };
/** A message from the checkpointer thread. */
export type CheckpointerReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'stats'; stats: CheckpointStats }
  | { type: 'closed' };

/** A running checkpointer. */
export interface WalCheckpointer {
  /** Its counts so far. @throws when the thread has stopped */
  stats(): Promise<CheckpointStats>;
  /** Stops polling (a checkpoint in progress finishes first) and closes its connection. */
  close(): Promise<void>;
}

/**
 * Starts the checkpointer thread on `file` and waits until its connection is open.
 *
 * @param options - `file` (an existing database in WAL mode), `synchronous` (the writer's, default
 *   `NORMAL`), `pollMs` (default {@link CHECKPOINT_POLL_MS}), `intervalMs` (default
 *   {@link CHECKPOINT_INTERVAL_MS}), `growthPages` (default {@link CHECKPOINT_GROWTH_PAGES}), `restartPages` (default
 *   {@link CHECKPOINT_RESTART_PAGES}), `restartBusyMs` (default {@link CHECKPOINT_RESTART_BUSY_MS})
 * @returns the checkpointer
 * @throws Error when the thread cannot open the file
 */
export function startWalCheckpointer(
  options: { file: string } & Partial<Omit<CheckpointerData, 'file'>>,
): Promise<WalCheckpointer> {
  const data: CheckpointerData = {
    file: options.file,
    ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
    pollMs: options.pollMs ?? CHECKPOINT_POLL_MS,
    intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
    growthPages: options.growthPages ?? CHECKPOINT_GROWTH_PAGES,
    restartPages: options.restartPages ?? CHECKPOINT_RESTART_PAGES,
    restartBusyMs: options.restartBusyMs ?? CHECKPOINT_RESTART_BUSY_MS,
  };
  const entry = threadEntry(import.meta.url, 'wal-checkpointer-entry', data);
  const worker = new Worker(entry.url, {
    workerData: entry.workerData,
    // It allocates a few objects per poll: the smallest heap V8 runs well with.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    ...(entry.execArgv !== undefined ? { execArgv: entry.execArgv } : {}),
  });
  let exited = false;
  const waiters: ((reply: CheckpointerReply | null) => void)[] = [];
  worker.on('message', (reply: CheckpointerReply) => waiters.shift()?.(reply));
  worker.on('error', () => {});
  worker.on('exit', () => {
    exited = true;
    for (const waiter of waiters.splice(0)) waiter(null);
  });
  const next = (): Promise<CheckpointerReply | null> =>
    exited ? Promise.resolve(null) : new Promise((resolve) => waiters.push(resolve));
  const checkpointer: WalCheckpointer = {
    async stats() {
      const reply = next();
      worker.postMessage({ type: 'stats' } satisfies CheckpointerMessage);
      const answer = await reply;
      if (answer?.type !== 'stats') throw new Error('The WAL checkpointer thread stopped');
      return answer.stats;
    },
    async close() {
      if (exited) return;
      const reply = next();
      worker.postMessage({ type: 'close' } satisfies CheckpointerMessage);
      await reply;
      await worker.terminate();
    },
  };
  return next().then((reply) => {
    if (reply?.type === 'ready') return checkpointer;
    void worker.terminate();
    throw new Error(
      `The WAL checkpointer thread did not start: ${reply?.type === 'failed' ? reply.message : 'it exited'}`,
    );
  });
}
