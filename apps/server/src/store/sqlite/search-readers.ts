/**
 * Search reader threads of the server's SQLite store. `find` is the costliest read (scoring every
 * matching row of the search index), and the database thread runs one call at a time: with it
 * there, concurrent finds queued behind each other and behind writes on one core. Each reader
 * thread has a read-only connection of its own; in WAL mode readers never wait for the writer nor
 * for each other, so concurrent finds run on every core while the database thread writes.
 *
 * Every query runs in a fresh read transaction, which sees every transaction committed before it
 * began: a find started after a write was acknowledged sees that write. Each reader keeps its own
 * copy of what `searchSkills` caches (the live vectors of the semantic half, vocabulary slices
 * for typo tolerance), so results are those of the database thread.
 */
import { availableParallelism } from 'node:os';
import type { SearchHit, Store } from '../types.js';
import { type CallThread, type CallThreadReply, startCallThread } from './call-thread.js';

/**
 * Default number of search reader threads: one per core the process may use, at most 4
 * (`SKILLPORT_SEARCH_THREADS`; 0 runs `find` in the database thread).
 */
export function defaultSearchThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
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

/** A `Store.search` call posted to a reader thread. */
export interface SearchReaderCall {
  id: number;
  args: Parameters<Store['search']>;
  /** Epoch ms after which a query still meeting `SQLITE_BUSY` fails. */
  deadline: number;
}

/** A message from a reader thread. */
export type SearchReaderReply = CallThreadReply<{ type: 'ready' }, SearchHit[]>;

type Reader = CallThread<SearchHit[]>;

function startReader(data: SearchReaderData): Promise<Reader> {
  return startCallThread<{ type: 'ready' }, SearchHit[]>(
    'search-reader-entry',
    data,
    'A search reader thread',
  ).then(({ thread }) => thread);
}

/** Reader threads serving `Store.search`; see the module comment. */
export interface SearchReaders {
  search: Store['search'];
  /** Stops the threads (pending queries fail). */
  close(): Promise<void>;
}

/**
 * Starts `threads` reader threads on the database file and waits until each has opened it.
 *
 * @param data - see {@link SearchReaderData}
 * @param threads - number of threads (≥ 1)
 * @param busyTimeoutMs - longest time a query is retried while it meets `SQLITE_BUSY`, ms
 * @returns the readers; a query goes to the thread with the fewest queries in flight, and a thread
 *   that died is started again by the next query given to it
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

  /** The slot with the fewest queries in flight (a slot being restarted counts as busy). */
  const pick = (): number => {
    let best = 0;
    let bestLoad = Number.POSITIVE_INFINITY;
    loaded.forEach((reader, i) => {
      const load = reader === null ? count : reader.pending.size;
      if (load < bestLoad) {
        best = i;
        bestLoad = load;
      }
    });
    return best;
  };

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
    async search(...args) {
      if (closed) {
        throw Object.assign(new Error('The database connection is not open (store closed)'), {
          code: 'SKILLPORT_STORE_CLOSED',
        });
      }
      const reader = await readerAt(pick());
      const id = nextId++;
      return new Promise<SearchHit[]>((resolve, reject) => {
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
