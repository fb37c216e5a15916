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
 * Should the thread die (an uncaught error, its heap limit), `onError` hears of it once and a new
 * thread starts after {@link CHECKPOINTER_RESTART_MS}, doubling at each death in a row up to
 * {@link CHECKPOINTER_RESTART_MAX_MS} (back to the first delay once a thread ran that long).
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
/** Delay before a dead checkpointer thread is started again, ms (doubling at each death in a row). */
export const CHECKPOINTER_RESTART_MS = 1_000;
/** Longest delay before a restart, ms; a thread that ran this long resets the delay. */
export const CHECKPOINTER_RESTART_MAX_MS = 60_000;

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
  /**
   * Threads started again after one died, since {@link startWalCheckpointer}; the other counts are
   * those of the running thread.
   */
  restarts: number;
}

/** A message to the checkpointer thread. */
export type CheckpointerMessage = { type: 'stats' } | { type: 'close' };
/** A message from the checkpointer thread. */
export type CheckpointerReply =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'stats'; stats: Omit<CheckpointStats, 'restarts'> }
  | { type: 'closed' };

/** A running checkpointer. */
export interface WalCheckpointer {
  /**
   * Its counts so far; while a dead thread waits for its restart, once the new thread runs.
   * @throws when it was closed, or a restarted thread could not open the file and none runs
   */
  stats(): Promise<CheckpointStats>;
  /** Stops polling (a checkpoint in progress finishes first) and closes its connection; no restart after it. */
  close(): Promise<void>;
  /** The running thread (diagnostics and tests: terminating it is a death like any other); null between a death and the restart. */
  readonly worker: Worker | null;
}

/** Options of {@link startWalCheckpointer}. */
export type WalCheckpointerOptions = { file: string } & Partial<Omit<CheckpointerData, 'file'>> & {
    /**
     * Told once per death of the thread: what it died of (its uncaught error, or its exit code), and
     * in how many ms a new one starts. Default: nothing is said.
     */
    onError?: (error: Error, restartInMs: number) => void;
    /** First delay before a restart, ms (default {@link CHECKPOINTER_RESTART_MS}). */
    restartMs?: number;
    /** Longest delay before a restart, ms (default {@link CHECKPOINTER_RESTART_MAX_MS}). */
    restartMaxMs?: number;
  };

/** One started thread: its worker and the replies it owes, in order. */
interface CheckpointerThread {
  worker: Worker;
  exited: boolean;
  /** The error it died of, if it threw one. */
  error: Error | null;
  startedAt: number;
  next(): Promise<CheckpointerReply | null>;
}

function spawnCheckpointer(
  data: CheckpointerData,
  onExit: (thread: CheckpointerThread) => void,
): CheckpointerThread {
  const entry = threadEntry(import.meta.url, 'wal-checkpointer-entry', data);
  const worker = new Worker(entry.url, {
    workerData: entry.workerData,
    // It allocates a few objects per poll: the smallest heap V8 runs well with.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    ...(entry.execArgv !== undefined ? { execArgv: entry.execArgv } : {}),
  });
  const waiters: ((reply: CheckpointerReply | null) => void)[] = [];
  const thread: CheckpointerThread = {
    worker,
    exited: false,
    error: null,
    startedAt: performance.now(),
    next: () => (thread.exited ? Promise.resolve(null) : new Promise((resolve) => waiters.push(resolve))),
  };
  worker.on('message', (reply: CheckpointerReply) => waiters.shift()?.(reply));
  worker.on('error', (error) => {
    thread.error = error;
  });
  worker.on('exit', (code) => {
    thread.exited = true;
    thread.error ??= new Error(`The WAL checkpointer thread exited with code ${code}`);
    for (const waiter of waiters.splice(0)) waiter(null);
    onExit(thread);
  });
  return thread;
}

/**
 * Starts the checkpointer thread on `file` and waits until its connection is open; a thread that
 * dies later is started again (see this module's comment).
 *
 * @param options - `file` (an existing database in WAL mode), `synchronous` (the writer's, default
 *   `NORMAL`), `pollMs` (default {@link CHECKPOINT_POLL_MS}), `intervalMs` (default
 *   {@link CHECKPOINT_INTERVAL_MS}), `growthPages` (default {@link CHECKPOINT_GROWTH_PAGES}), `restartPages` (default
 *   {@link CHECKPOINT_RESTART_PAGES}), `restartBusyMs` (default {@link CHECKPOINT_RESTART_BUSY_MS}),
 *   `onError`, `restartMs` and `restartMaxMs` (see {@link WalCheckpointerOptions})
 * @returns the checkpointer
 * @throws Error when the first thread cannot open the file
 */
export async function startWalCheckpointer(options: WalCheckpointerOptions): Promise<WalCheckpointer> {
  const data: CheckpointerData = {
    file: options.file,
    ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
    pollMs: options.pollMs ?? CHECKPOINT_POLL_MS,
    intervalMs: options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
    growthPages: options.growthPages ?? CHECKPOINT_GROWTH_PAGES,
    restartPages: options.restartPages ?? CHECKPOINT_RESTART_PAGES,
    restartBusyMs: options.restartBusyMs ?? CHECKPOINT_RESTART_BUSY_MS,
  };
  const firstDelay = Math.max(0, options.restartMs ?? CHECKPOINTER_RESTART_MS);
  const maxDelay = Math.max(firstDelay, options.restartMaxMs ?? CHECKPOINTER_RESTART_MAX_MS);
  let closed = false;
  let restarts = 0;
  let delay = firstDelay;
  let restartTimer: NodeJS.Timeout | undefined;
  /** The running thread, or (between a death and its restart) the promise of the next. */
  let current: CheckpointerThread | null = null;
  let upcoming: { promise: Promise<void>; resolve: () => void } | null = null;

  /** Starts a thread and waits for its ready message; null when it failed to start (already handled). */
  const start = async (): Promise<{ thread: CheckpointerThread; failure: string | null }> => {
    const thread = spawnCheckpointer(data, died);
    const reply = await thread.next();
    if (reply?.type === 'ready') return { thread, failure: null };
    const failure = reply?.type === 'failed' ? reply.message : (thread.error?.message ?? 'it exited');
    thread.error = new Error(`The WAL checkpointer thread did not start: ${failure}`);
    void thread.worker.terminate();
    return { thread, failure };
  };

  /** A thread exited: unless closing, or a failed start (handled by its starter), say so once and restart later. */
  function died(thread: CheckpointerThread): void {
    if (closed || thread !== current) return;
    current = null;
    // A thread that ran long enough was not part of a run of deaths: the delay starts over.
    if (performance.now() - thread.startedAt >= maxDelay) delay = firstDelay;
    scheduleRestart(thread.error ?? new Error('The WAL checkpointer thread exited'));
  }

  function scheduleRestart(error: Error): void {
    const wait = delay;
    delay = Math.min(maxDelay, Math.max(1, delay) * 2);
    if (upcoming === null) {
      let resolve = () => {};
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      upcoming = { promise, resolve };
    }
    try {
      options.onError?.(error, wait);
    } catch {
      // A listener's failure must not stop the restart.
    }
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      void restart();
    }, wait);
    restartTimer.unref();
  }

  async function restart(): Promise<void> {
    if (closed) return;
    const { thread, failure } = await start();
    if (closed) {
      if (failure === null) await stopThread(thread);
      upcoming?.resolve();
      upcoming = null;
      return;
    }
    if (failure !== null) {
      scheduleRestart(thread.error ?? new Error(failure));
      return;
    }
    restarts++;
    current = thread;
    upcoming?.resolve();
    upcoming = null;
    // It may have died between its ready message and now.
    if (thread.exited) died(thread);
  }

  async function stopThread(thread: CheckpointerThread): Promise<void> {
    if (thread.exited) return;
    const reply = thread.next();
    thread.worker.postMessage({ type: 'close' } satisfies CheckpointerMessage);
    await reply;
    await thread.worker.terminate();
  }

  const first = await start();
  if (first.failure !== null) throw first.thread.error;
  current = first.thread;
  if (first.thread.exited) died(first.thread);

  return {
    get worker() {
      return current?.worker ?? null;
    },
    async stats() {
      for (;;) {
        if (closed) throw new Error('The WAL checkpointer stopped: it was closed');
        const thread = current;
        if (thread === null) {
          if (upcoming === null) throw new Error('The WAL checkpointer thread stopped');
          await upcoming.promise;
          continue;
        }
        const reply = thread.next();
        thread.worker.postMessage({ type: 'stats' } satisfies CheckpointerMessage);
        const answer = await reply;
        // The thread died meanwhile: ask the next one.
        if (answer?.type !== 'stats') continue;
        return { ...answer.stats, restarts };
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      if (restartTimer !== undefined) clearTimeout(restartTimer);
      upcoming?.resolve();
      upcoming = null;
      const thread = current;
      current = null;
      if (thread !== null) await stopThread(thread);
    },
  };
}
