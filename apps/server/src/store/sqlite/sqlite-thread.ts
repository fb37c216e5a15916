/**
 * The server's SQLite store, run in a database thread of its own. better-sqlite3 is synchronous: on
 * the HTTP thread, every statement — writing a large skill with its files and search row, or
 * waiting for a lock another process holds — would stop every other request for its duration.
 * Here the HTTP thread posts calls and awaits replies, so it keeps answering (`/health` within
 * milliseconds) whatever the database is doing; the only statements it runs itself are short reads
 * on a read-only connection that never waits for a lock (API keys, a revision check, the get of a
 * small skill: see `HTTP_THREAD_READ_BOUND`).
 *
 * Semantics are those of {@link createSqliteStore} (same transactions, same results; file contents
 * come back as `Uint8Array`s). A call waiting for a lock held by another connection fails with
 * `SQLITE_BUSY` after `busyTimeoutMs` (503 `UNAVAILABLE` with `Retry-After` over HTTP); the thread
 * serves other calls meanwhile. File contents marked with `handOver` are moved to the thread, not
 * copied. If the thread dies, pending calls fail and the next call starts a
 * new one. `exportRecords` and `importRecords` stream through a connection of the calling thread
 * (they are for `skillport db`, not request paths).
 */
import path from 'node:path';
import { movableBuffer } from '../movable.js';
import { createTaskSignal } from '../task-signal.js';
import type { SkillWrite, Store } from '../types.js';
import { countApiKeys, findApiKeyByHash } from './account-ops.js';
import { type CallThread, type CallThreadReply, startCallThread } from './call-thread.js';
import { openConnection, type SqliteSynchronous } from './connection.js';
import { createSqliteStore, readChangeToken } from './create-sqlite-store.js';
import { defaultSearchThreads, type SearchReaders, startSearchReaders } from './search-readers.js';
import { type ReadBound, readSkillJsonWithin, readSkillRevision } from './skill-view.js';
import { type PutSkillReply, writeResultFromReply } from './skill-writes.js';
import { StoreCallActivity, type TermListPacingCounts } from './term-list-pacing.js';
import { startWalCheckpointer, WAL_BACKSTOP_PAGES, type WalCheckpointer } from './wal-checkpointer.js';

const checkpointers = new WeakMap<Store, WalCheckpointer>();
const pacingCounts = new WeakMap<Store, () => Promise<TermListPacingCounts>>();

/**
 * The counts of the per-term lists' pacer in the database thread of a store from
 * {@link createThreadedSqliteStore}: steps started while the thread was idle and while requests came
 * (see `term-list-pacing.ts`). Asking is not counted as a request.
 *
 * @returns a function answering the counts, or undefined for any other store
 */
export function termListPacingOf(store: Store): (() => Promise<TermListPacingCounts>) | undefined {
  return pacingCounts.get(store);
}

/**
 * The WAL checkpointer of a store from {@link createThreadedSqliteStore} (its counts, for tests and
 * diagnostics); undefined for any other store or when checkpoints are left to the writer.
 */
export function walCheckpointerOf(store: Store): WalCheckpointer | undefined {
  return checkpointers.get(store);
}

/** Options of {@link createThreadedSqliteStore}. */
export interface ThreadedSqliteStoreOptions {
  /** Folder holding the database (created if missing). */
  dataDir: string;
  /** File name inside `dataDir`; default `skillport.db`. */
  filename?: string;
  /** `NORMAL` (default) or `FULL` (`SKILLPORT_SQLITE_SYNCHRONOUS`); see `openConnection`. */
  synchronous?: SqliteSynchronous;
  /**
   * Longest wait of one call for a lock held by another connection, ms (`SKILLPORT_SQLITE_BUSY_TIMEOUT_MS`,
   * default 5000); then it fails with `SQLITE_BUSY`.
   */
  busyTimeoutMs?: number;
  /**
   * Threads that run `find`, each on a read-only connection of its own, so finds never wait behind
   * writes (`SKILLPORT_SEARCH_THREADS`; default one per core but one, 1 to 4: see
   * `defaultSearchThreads`; 0 = `find` runs in the database thread). See `search-readers.ts`.
   */
  searchThreads?: number;
  /**
   * When the search reader threads start: once this promise settles (`startServer` passes one that
   * settles when the server listens, so a server's first find does not wait for them), or, without
   * it, with the first `find`. Either way a start that fails is retried by the next `find`, which
   * reports the failure.
   */
  searchThreadsStartAfter?: Promise<unknown>;
  /**
   * WAL checkpoints (see `wal-checkpointer.ts`): by default a thread of their own runs them and the
   * writer's auto-checkpoint is a backstop at `backstopPages` (default `WAL_BACKSTOP_PAGES`, 40,000
   * pages); `pollMs`, `intervalMs`, `growthPages`, `restartPages` and `restartBusyMs` tune that thread,
   * `restartMs` and `restartMaxMs` its restarts after a death. `false` leaves checkpoints
   * to the writer at `WAL_AUTOCHECKPOINT_PAGES` (10,000), as an in-process store does.
   */
  checkpoints?:
    | false
    | {
        pollMs?: number;
        intervalMs?: number;
        growthPages?: number;
        restartPages?: number;
        restartBusyMs?: number;
        backstopPages?: number;
        /** First delay before a dead checkpointer thread is started again, ms (default 1,000, doubling). */
        restartMs?: number;
        /** Longest such delay, ms (default 60,000). */
        restartMaxMs?: number;
      };
  /**
   * Told once per death of the WAL checkpointer thread (what it died of, and in how many ms a new
   * one starts: 1 s, doubling at each death in a row up to 60 s). Default: nothing is said.
   */
  onCheckpointerError?: (error: Error, restartInMs: number) => void;
}

/** What the database thread is started with. */
export interface SqliteThreadData {
  dataDir: string;
  filename?: string;
  synchronous?: SqliteSynchronous;
  /** SQLite's own busy wait per attempt, ms (short: the thread stays free for other calls). */
  attemptBusyMs: number;
  /** The writer's `wal_autocheckpoint`, pages (default `WAL_AUTOCHECKPOINT_PAGES`). */
  walAutocheckpointPages?: number;
  /** The slots of the store's {@link StoreCallActivity} (counted here, read by the database thread). */
  activity?: SharedArrayBuffer;
}

/** A call posted to the database thread. */
export interface SqliteThreadCall {
  id: number;
  method: string;
  args: unknown[];
  /** Epoch ms after which a call still waiting for a lock fails. */
  deadline: number;
}

/** A message from the database thread. */
export type SqliteThreadReply = CallThreadReply<{ type: 'ready'; description: string }, unknown>;

/** Store methods that run in the database thread. */
const THREAD_METHODS = [
  'migrate',
  'checkReady',
  'putSkill',
  'getSkill',
  'getSkillById',
  'listRevisions',
  'listSkills',
  'readSkillView',
  'readSkillJson',
  'readSkillRevision',
  'listFiles',
  'readFile',
  'deleteSkill',
  'search',
  'searchAnswer',
  'putSkillVector',
  'skillsNeedingVectors',
  'claimTask',
  'renewTaskLease',
  'completeTask',
  'compactSearchIndex',
  'failTask',
  'releaseTask',
  'getTask',
  'queueCounts',
  'purgeFinishedTasks',
  'putTempUpload',
  'accountUsage',
  'takeTempUpload',
  'getTempUpload',
  'releaseTempUpload',
  'purgeExpiredUploads',
  'reserveIdempotencyKey',
  'finishIdempotencyKey',
  'releaseIdempotencyKey',
  'purgeIdempotencyKeys',
  'ensureAccount',
  'ensureUser',
  'listAccounts',
  'listUsers',
  'createApiKey',
  'findApiKeyByHash',
  'listApiKeys',
  'revokeApiKey',
  'countApiKeys',
  'readBlobs',
  'pruneHistory',
  'listChanges',
  'skillsVersion',
  'listTasks',
  'cancelTask',
] as const satisfies ReadonlyArray<keyof Store>;

/** Methods handled in this thread; with {@link THREAD_METHODS}, every method of `Store`. */
type LocalMember =
  | 'description'
  | 'close'
  | 'changeToken'
  | 'exportRecords'
  | 'importRecords'
  | 'expireLeases'
  | 'watchTasks';
/** Store methods the database thread does not serve yet (must be none). */
type UnservedStoreMethods = Exclude<keyof Store, (typeof THREAD_METHODS)[number] | LocalMember>;
// A new Store method fails to compile here, naming it: add it to THREAD_METHODS (arguments and
// results must be structured-cloneable; a method taking a function is handled like expireLeases).
const unserved: { [M in UnservedStoreMethods]: `add ${M} to THREAD_METHODS in sqlite-thread.ts` } = {};
void unserved;

const ATTEMPT_BUSY_MS = 20;

/**
 * The largest get read on the HTTP thread (see `readSkillJsonWithin`): 32 KiB of stored text and
 * contents, 64 files listed. A get of a typical skill (~12 KiB, a few files) costs the HTTP thread
 * ~110-160 µs of CPU that way, less than a call of the database thread costs it in messages, copies
 * and wake-ups alone; at the bound (escape-heavy text, 60 files) ~400 µs, the longest any request may
 * hold the HTTP thread for this. A get of all levels of 98.4% of 10,000 skills made from the large
 * corpus is within it (the rest hold a SKILL.md past ~30 KiB). A larger skill, whose read grows with
 * its size (~9 ms for 1 MB), is read in the database thread after a check of its stored sizes
 * (~25 µs), so no upload can make a get hold up the HTTP thread's other requests.
 */
export const HTTP_THREAD_READ_BOUND: ReadBound = { bytes: 32 * 1024, files: 64 };
/**
 * Page cache of each search reader's connection, MiB: the search index's hot pages. A find costs the
 * same CPU with 4, 8 or 32 MiB (at 10,000 and 100,000 skills: the postings of common words exceed
 * each and come from the operating system's file cache; at 100,000 skills in-process, one
 * connection, 2 MiB too), and each reader thread holds its own.
 */
const SEARCH_READER_CACHE_MB = 4;

/** Buffers to move rather than copy: the handed-over file contents of a `putSkill` (see `movable.ts`). */
function transferList(method: string, args: unknown[]): ArrayBuffer[] {
  if (method !== 'putSkill') return [];
  const buffers = new Set<ArrayBuffer>();
  for (const file of (args[0] as SkillWrite).files) {
    const buffer = movableBuffer(file.content);
    if (buffer !== null) buffers.add(buffer);
  }
  return [...buffers];
}

type Thread = CallThread<unknown>;

function startThread(data: SqliteThreadData): Promise<{ thread: Thread; description: string }> {
  return startCallThread<Extract<SqliteThreadReply, { type: 'ready' }>, unknown>(
    'sqlite-thread-entry',
    data,
    'The database thread',
  ).then(({ thread, ready }) => ({ thread, description: ready.description }));
}

/**
 * Opens the SQLite store in a database thread (migrating the file on open, as `createSqliteStore`).
 *
 * @param options - see {@link ThreadedSqliteStoreOptions}
 * @returns the store, once the thread has opened the database
 * @throws what opening the database throws (e.g. a schema written by a newer build)
 * @example
 * ```ts
 * const store = await createThreadedSqliteStore({ dataDir: './.skillport' });
 * await store.close();
 * ```
 */
export async function createThreadedSqliteStore(options: ThreadedSqliteStoreOptions): Promise<Store> {
  // Every store call but the upkeep's own (`compactSearchIndex`) is counted, so the database thread
  // knows when requests come and paces the per-term lists' upkeep by it (term-list-pacing.ts).
  const activity = new StoreCallActivity();
  const data: SqliteThreadData = {
    dataDir: options.dataDir,
    ...(options.filename !== undefined ? { filename: options.filename } : {}),
    ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
    attemptBusyMs: ATTEMPT_BUSY_MS,
    activity: activity.buffer,
  };
  const checkpoints = options.checkpoints;
  if (checkpoints !== false) data.walAutocheckpointPages = checkpoints?.backstopPages ?? WAL_BACKSTOP_PAGES;
  const busyTimeoutMs = Math.max(0, options.busyTimeoutMs ?? 5000);
  const first = await startThread(data);
  const file = path.join(options.dataDir, options.filename ?? 'skillport.db');
  // Started once the database thread has created the file and put it in WAL mode. Should it fail to
  // open the file, the store does not open either (the writer's backstop alone would let the WAL grow
  // to ~160 MiB between checkpoints, each blocking the database thread).
  let checkpointer: WalCheckpointer | null = null;
  if (checkpoints !== false) {
    try {
      checkpointer = await startWalCheckpointer({
        file,
        ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
        ...(checkpoints?.pollMs !== undefined ? { pollMs: checkpoints.pollMs } : {}),
        ...(checkpoints?.intervalMs !== undefined ? { intervalMs: checkpoints.intervalMs } : {}),
        ...(checkpoints?.growthPages !== undefined ? { growthPages: checkpoints.growthPages } : {}),
        ...(checkpoints?.restartPages !== undefined ? { restartPages: checkpoints.restartPages } : {}),
        ...(checkpoints?.restartBusyMs !== undefined ? { restartBusyMs: checkpoints.restartBusyMs } : {}),
        ...(checkpoints?.restartMs !== undefined ? { restartMs: checkpoints.restartMs } : {}),
        ...(checkpoints?.restartMaxMs !== undefined ? { restartMaxMs: checkpoints.restartMaxMs } : {}),
        ...(options.onCheckpointerError !== undefined ? { onError: options.onCheckpointerError } : {}),
      });
    } catch (error) {
      await first.thread.worker.terminate();
      throw error;
    }
  }
  const searchThreads = Math.max(0, Math.floor(options.searchThreads ?? defaultSearchThreads()));
  // The reader threads start with the first find (a server that is never asked to find starts none)
  // or once `searchThreadsStartAfter` settles; should they fail to open the database, the find that
  // awaited them fails and the next one starts them again.
  let readers: Promise<SearchReaders> | null = null;
  const searchReaders = (): Promise<SearchReaders> => {
    if (readers !== null) return readers;
    const started = startSearchReaders(
      {
        file: path.join(options.dataDir, options.filename ?? 'skillport.db'),
        attemptBusyMs: ATTEMPT_BUSY_MS,
        cacheSizeMb: SEARCH_READER_CACHE_MB,
      },
      searchThreads,
      busyTimeoutMs,
    );
    readers = started;
    started.catch(() => {
      if (readers === started) readers = null;
    });
    return started;
  };
  let current: Promise<Thread> = Promise.resolve(first.thread);
  let nextId = 1;
  let closed = false;
  let local: Store | null = null;

  const threadNow = async (): Promise<Thread> => {
    let thread = await current;
    if (thread.exited && !closed) {
      current = startThread(data).then((started) => started.thread);
      thread = await current;
    }
    return thread;
  };

  const post = async (method: string, args: unknown[]): Promise<unknown> => {
    if (closed) {
      throw Object.assign(new Error('The database connection is not open (store closed)'), {
        code: 'SKILLPORT_STORE_CLOSED',
      });
    }
    const thread = await threadNow();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      thread.pending.set(id, { resolve, reject });
      const message: SqliteThreadCall = { id, method, args, deadline: Date.now() + busyTimeoutMs };
      thread.worker.postMessage(message, transferList(method, args));
    });
  };
  /** A call of the database thread, counted in {@link activity} until it is settled (but the upkeep's). */
  const call = async (method: string, args: unknown[]): Promise<unknown> => {
    if (method === 'compactSearchIndex') return post(method, args);
    activity.begin();
    try {
      return await post(method, args);
    } finally {
      activity.end();
    }
  };

  const localStore = (): Store => {
    local ??= createSqliteStore({
      dataDir: options.dataDir,
      ...(options.filename !== undefined ? { filename: options.filename } : {}),
      ...(options.synchronous !== undefined ? { synchronous: options.synchronous } : {}),
    });
    return local;
  };

  // The change token is read here, on a read-only connection of this thread: `data_version` is a
  // counter in the WAL index (shared memory), so reading it never waits for the database thread nor
  // for a lock, and it changes with every commit of any connection — the database thread's included;
  // only then is `change_counter` read (a WAL reader never waits for the writer either), so commits
  // of search-index upkeep cost one row read and leave the token as it was.
  const watcher = openConnection(path.join(options.dataDir, options.filename ?? 'skillport.db'), {
    readonly: true,
    busyTimeoutMs: 0,
    cacheSizeMb: 1,
  });

  const store: Record<string, unknown> = {
    description: first.description,
    async changeToken() {
      activity.touch();
      return readChangeToken(watcher, false);
    },
    async close() {
      if (closed) return;
      closed = true;
      await (await readers?.catch(() => null))?.close();
      // Before the database thread: its connection, closed last, checkpoints the WAL into the file
      // and removes it, as it always did.
      await checkpointer?.close();
      watcher.db.close();
      const thread = await current;
      if (!thread.exited) {
        const id = nextId++;
        await new Promise((resolve) => {
          thread.pending.set(id, { resolve, reject: resolve });
          thread.worker.postMessage({
            id,
            method: 'close',
            args: [],
            deadline: Date.now(),
          } satisfies SqliteThreadCall);
        });
        await thread.worker.terminate();
      }
      await local?.close();
    },
    async expireLeases(isGone: (owner: string) => boolean, now: number) {
      const owners = (await call('leaseOwners', [now])) as string[];
      const gone = owners.filter((owner) => isGone(owner));
      return gone.length === 0 ? 0 : call('expireLeaseOwners', [gone, now]);
    },
    exportRecords() {
      activity.touch();
      return localStore().exportRecords();
    },
    importRecords(records: Parameters<Store['importRecords']>[0]) {
      activity.touch();
      return localStore().importRecords(records);
    },
  };
  for (const method of THREAD_METHODS) store[method] = (...args: unknown[]) => call(method, args);
  if (searchThreads > 0 && options.searchThreadsStartAfter !== undefined) {
    const startEarly = (): void => {
      // A failure here is left to the next find (readers reset to null), which reports it.
      if (!closed) searchReaders().catch(() => {});
    };
    options.searchThreadsStartAfter.then(startEarly, startEarly);
  }
  if (searchThreads > 0) {
    // Counted like a call of the database thread: a find keeps a reader thread (a core) busy.
    const searchAnswer = async (...args: Parameters<Store['searchAnswer']>) => {
      if (closed) return call('searchAnswer', args) as ReturnType<Store['searchAnswer']>;
      activity.begin();
      try {
        return await (await searchReaders()).searchAnswer(...args);
      } finally {
        activity.end();
      }
    };
    store.searchAnswer = searchAnswer;
    store.search = async (...args: Parameters<Store['search']>) => (await searchAnswer(...args)).hits;
  }
  // The API-key reads of authentication (dev mode's "is there a key yet?", a key's record once the
  // change token moved) come with requests, and while skills are written every request after a commit
  // makes one; so does the revision check of a get with `If-None-Match` (a 304 needs no more). They are
  // index lookups: answered on the read-only connection of this thread (a WAL reader neither waits for
  // the writer nor for a lock: it sees every commit made before it starts), not posted to the database
  // thread and queued behind its writes. Should the read fail (the log being reset, the store
  // closing), the database thread answers as before.
  const readHere =
    <A extends unknown[], R>(
      method: 'countApiKeys' | 'findApiKeyByHash' | 'readSkillRevision',
      read: (...args: A) => R,
    ) =>
    async (...args: A): Promise<R> => {
      if (closed) return call(method, args) as Promise<R>;
      activity.touch();
      try {
        return read(...args);
      } catch {
        return call(method, args) as Promise<R>;
      }
    };
  // The database thread answers a write with what this thread does not hold (`PutSkillReply`); the
  // record is rebuilt from the write sent, as the row it wrote holds it.
  store.putSkill = async (write: SkillWrite) =>
    writeResultFromReply(write, (await call('putSkill', [write])) as PutSkillReply);
  store.countApiKeys = readHere('countApiKeys', () => countApiKeys(watcher));
  store.findApiKeyByHash = readHere('findApiKeyByHash', (hash: string) => findApiKeyByHash(watcher, hash));
  // A get's read too, when the skill is small enough to be read here in bounded time (see
  // HTTP_THREAD_READ_BOUND): a call of the database thread costs more CPU in messages, copies and
  // wake-ups than a small skill's read itself. A skill past the bound, one whose overview is still to
  // be rendered, or a read that fails here (SQLITE_BUSY: this connection never waits) is read there.
  store.readSkillJson = async (...args: Parameters<Store['readSkillJson']>) => {
    if (!closed) {
      activity.touch();
      try {
        const read = readSkillJsonWithin(watcher, ...args, HTTP_THREAD_READ_BOUND);
        if (read !== undefined) return read;
      } catch {
        // Answered by the database thread below.
      }
    }
    return call('readSkillJson', args) as ReturnType<Store['readSkillJson']>;
  };
  store.readSkillRevision = readHere(
    'readSkillRevision',
    (accountId: string, rootUris: readonly string[], name: string) =>
      readSkillRevision(watcher, accountId, rootUris, name),
  );
  // watchTasks takes a function: its listeners live here and hear of this store's own settlements.
  const settled = createTaskSignal();
  store.watchTasks = (listener: () => void) => settled.watch(listener, () => false);
  store.completeTask = async (...args: unknown[]) => {
    const completed = (await call('completeTask', args)) as boolean;
    if (completed) settled.notify();
    return completed;
  };
  store.failTask = async (...args: unknown[]) => {
    const failed = (await call('failTask', args)) as boolean;
    if (failed && args[2] === null) settled.notify();
    return failed;
  };
  store.cancelTask = async (...args: unknown[]) => {
    const outcome = (await call('cancelTask', args)) as Awaited<ReturnType<Store['cancelTask']>>;
    if (outcome?.outcome === 'cancelled') settled.notify();
    return outcome;
  };
  if (checkpointer !== null) checkpointers.set(store as unknown as Store, checkpointer);
  pacingCounts.set(
    store as unknown as Store,
    () => post('termListPacing', []) as Promise<TermListPacingCounts>,
  );
  return store as unknown as Store;
}
