/**
 * Search reader threads of the server's SQLite store. `find` is the costliest read (scoring every
 * matching row of the search index), and the database thread runs one call at a time: with it
 * there, concurrent finds queued behind each other and behind writes on one core. Each reader
 * thread has a read-only connection of its own; in WAL mode readers never wait for the writer nor
 * for each other, so finds run while the database thread writes and, with several readers, beside
 * each other (one core is left to the thread that answers requests: {@link defaultSearchThreads}).
 *
 * Every query runs in a fresh read transaction, which sees every transaction committed before it
 * began: a find started after a write was acknowledged sees that write. Each reader keeps its own
 * copy of what `searchSkills` caches (the live vectors of the semantic half, vocabulary slices
 * for typo tolerance, the kept relevance of query words), so results are those of the database
 * thread. A query goes to the thread its text hashes to unless that thread is busier than another
 * ({@link pickReader}), so a word's relevance is mostly kept, and read, by one thread.
 */
import { availableParallelism } from 'node:os';
import type { SearchAnswer, Store } from '../types.js';
import { type CallThread, type CallThreadReply, startCallThread } from './call-thread.js';

/**
 * Default number of search reader threads (`SKILLPORT_SEARCH_THREADS`; 0 runs `find` in the
 * database thread): one per core the process may use but one, at least 1, at most 4 — the rule of
 * the worker pool. The thread that answers requests routes, authenticates and serialises every find
 * and needs a core of its own under load; a reader per core only made readers and that thread take
 * turns, while each reader holds its own V8 heap, its dropped list buffers, up to ~16 MB of kept word
 * relevance and a 4 MiB page cache. On 2 cores, one reader instead of two lowered the server's peak
 * at 100,000 skills by ~50–60 MB with the same CPU per find (see the server README).
 *
 * @param cores - cores the process may use (default `os.availableParallelism()`)
 * @returns `cores − 1`, clamped to 1–4
 */
export function defaultSearchThreads(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(4, Math.floor(cores) - 1));
}

/**
 * Queries a thread may have in flight beyond the least busy one and still be given a query whose
 * text it owns (see {@link pickReader}).
 */
const AFFINITY_SLACK = 1;

/**
 * The reader thread for a query: the thread its text hashes to (FNV-1a of the trimmed, lower-cased
 * text), unless that thread has more than {@link AFFINITY_SLACK} queries in flight beyond the least
 * busy one, which then takes it (the first of them). Each thread keeps the relevance of the words it
 * was asked (`PhraseScores`, up to ~16 MB) and reads a word into it on a repeated ask, so sending a
 * query to the same thread keeps most words in one thread instead of every thread, and warms it once.
 *
 * @param loads - queries in flight per thread (≥ 1 entry)
 * @param query - the query text
 * @returns the index of the thread
 */
export function pickReader(loads: readonly number[], query: string): number {
  let least = 0;
  for (let i = 1; i < loads.length; i++) if ((loads[i] as number) < (loads[least] as number)) least = i;
  if (loads.length === 1) return 0;
  const text = query.trim().toLowerCase();
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  const own = (hash >>> 0) % loads.length;
  return (loads[own] as number) <= (loads[least] as number) + AFFINITY_SLACK ? own : least;
}

/** What a reader thread is started with. */
export interface SearchReaderData {
  /** Path of the database file (it exists: the database thread has opened it). */
  file: string;
  /** SQLite's own busy wait per attempt, ms. */
  attemptBusyMs: number;
  /** Page cache of the reader's connection, MiB (default that of `openConnection`). */
  cacheSizeMb?: number;
}

/** A `Store.searchAnswer` call posted to a reader thread. */
export interface SearchReaderCall {
  id: number;
  args: Parameters<Store['searchAnswer']>;
  /** Epoch ms after which a query still meeting `SQLITE_BUSY` fails. */
  deadline: number;
}

/** A message from a reader thread. */
export type SearchReaderReply = CallThreadReply<{ type: 'ready' }, SearchAnswer>;

type Reader = CallThread<SearchAnswer>;

function startReader(data: SearchReaderData): Promise<Reader> {
  return startCallThread<{ type: 'ready' }, SearchAnswer>(
    'search-reader-entry',
    data,
    'A search reader thread',
  ).then(({ thread }) => thread);
}

/** Reader threads serving `Store.searchAnswer` (and so `Store.search`); see the module comment. */
export interface SearchReaders {
  searchAnswer: Store['searchAnswer'];
  /** Stops the threads (pending queries fail). */
  close(): Promise<void>;
}

/**
 * Starts `threads` reader threads on the database file and waits until each has opened it.
 *
 * @param data - see {@link SearchReaderData}
 * @param threads - number of threads (≥ 1)
 * @param busyTimeoutMs - longest time a query is retried while it meets `SQLITE_BUSY`, ms
 * @returns the readers; a query goes to its own thread unless another has fewer queries in flight
 *   (see {@link pickReader}), and a thread that died is started again by the next query given to it
 * @throws what opening the database read-only throws
 */
export async function startSearchReaders(
  data: SearchReaderData,
  threads: number,
  busyTimeoutMs: number,
): Promise<SearchReaders> {
  const count = Math.max(1, Math.floor(threads));
  const slots: Array<Promise<Reader>> = [];
  const settled = await Promise.allSettled(Array.from({ length: count }, () => startReader(data)));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(
      settled.map((s) => (s.status === 'fulfilled' ? s.value.worker.terminate() : undefined)),
    );
    throw failed.reason;
  }
  const loaded: Array<Reader | null> = [];
  for (const s of settled) {
    const reader = (s as PromiseFulfilledResult<Reader>).value;
    slots.push(Promise.resolve(reader));
    loaded.push(reader);
  }
  let nextId = 1;
  let closed = false;

  /** The slot for a query: see {@link pickReader} (a slot being restarted counts as busy). */
  const pick = (query: string): number =>
    pickReader(
      loaded.map((reader) => (reader === null ? count : reader.pending.size)),
      query,
    );

  const readerAt = async (i: number): Promise<Reader> => {
    let reader = await (slots[i] as Promise<Reader>);
    if (reader.exited && !closed) {
      loaded[i] = null;
      const restarted = startReader(data);
      slots[i] = restarted;
      reader = await restarted;
      loaded[i] = reader;
    }
    return reader;
  };

  return {
    async searchAnswer(...args) {
      if (closed) {
        throw Object.assign(new Error('The database connection is not open (store closed)'), {
          code: 'SKILLPORT_STORE_CLOSED',
        });
      }
      const reader = await readerAt(pick(args[2]));
      const id = nextId++;
      return new Promise<SearchAnswer>((resolve, reject) => {
        reader.pending.set(id, { resolve, reject });
        reader.worker.postMessage({
          id,
          args,
          deadline: Date.now() + busyTimeoutMs,
        } satisfies SearchReaderCall);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const readers = await Promise.allSettled(slots);
      await Promise.all(
        readers.map(async (s) => {
          if (s.status !== 'fulfilled' || s.value.exited) return;
          const { worker } = s.value;
          // The thread closes its connection and ends; a thread that does not is stopped.
          const exited = new Promise((resolve) => worker.once('exit', resolve));
          worker.postMessage({ type: 'close' });
          const timer = setTimeout(() => void worker.terminate(), 1000);
          await exited;
          clearTimeout(timer);
        }),
      );
    },
  };
}
