/**
 * A worker thread of the SQLite store that answers numbered calls (the database thread and the
 * search reader threads): it says `ready` (or `failed`) once it has opened the database, then
 * answers each call by its id. A thread that errors or exits fails every call still waiting.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../workers/thread-entry.js';
import { rebuildError, type SerializedError } from '../../workers/thread-errors.js';

/**
 * Young generation of each store thread's V8 heap, MiB. Without a limit a thread's young generation
 * grows to V8's default (up to 32 MiB resident per thread under load); what these threads allocate
 * per call (rows, result arrays) dies young and is small, so a tighter young generation costs no
 * measurable CPU per `find` or `get` and keeps each thread's heap near its live size.
 */
export const STORE_THREAD_YOUNG_GENERATION_MB = 8;

/** The result of call `id`: its value, or the error it threw. */
export type CallResult<Value> =
  | { type: 'result'; id: number; ok: true; value: Value }
  | { type: 'result'; id: number; ok: false; error: SerializedError };

/**
 * What such a thread posts: its ready message, a failure to start, the result of call `id`, or the
 * results of several calls in one message (`results`, in the order they were settled: one message
 * per group commit instead of one per write).
 */
export type CallThreadReply<Ready extends { type: 'ready' }, Value> =
  | Ready
  | { type: 'failed'; error: SerializedError }
  | CallResult<Value>
  | { type: 'results'; results: CallResult<Value>[] };

/** A started thread and the calls waiting for its answer, by id. */
export interface CallThread<Value> {
  worker: Worker;
  pending: Map<number, { resolve: (value: Value) => void; reject: (error: unknown) => void }>;
  /** True once the thread has exited (a new one must be started for further calls). */
  exited: boolean;
}

/**
 * Starts the thread of entry module `entryName` (beside this module) and waits for its ready message.
 *
 * @param entryName - module name without extension, e.g. `sqlite-thread-entry`
 * @param data - its `workerData`
 * @param what - how an exit is named in the error, e.g. `The database thread`
 * @returns the thread and its ready message
 * @throws the thread's own start failure, its error, or an exit (`code` `SKILLPORT_STORE_THREAD_EXIT`)
 */
export function startCallThread<Ready extends { type: 'ready' }, Value>(
  entryName: string,
  data: unknown,
  what: string,
): Promise<{ thread: CallThread<Value>; ready: Ready }> {
  const entry = threadEntry(import.meta.url, entryName, data);
  const worker = new Worker(entry.url, {
    workerData: entry.workerData,
    resourceLimits: { maxYoungGenerationSizeMb: STORE_THREAD_YOUNG_GENERATION_MB },
    ...(entry.execArgv !== undefined ? { execArgv: entry.execArgv } : {}),
  });
  const thread: CallThread<Value> = { worker, pending: new Map(), exited: false };
  const failAll = (error: unknown): void => {
    for (const waiter of thread.pending.values()) waiter.reject(error);
    thread.pending.clear();
  };
  const settle = (message: CallResult<Value>): void => {
    const waiter = thread.pending.get(message.id);
    if (waiter === undefined) return;
    thread.pending.delete(message.id);
    if (message.ok) waiter.resolve(message.value);
    else waiter.reject(rebuildError(message.error));
  };
  return new Promise((resolve, reject) => {
    let started = false;
    worker.on('message', (message: CallThreadReply<Ready, Value>) => {
      if (message.type === 'ready') {
        started = true;
        resolve({ thread, ready: message as Ready });
      } else if (message.type === 'failed') {
        reject(rebuildError(message.error));
        void worker.terminate();
      } else if (message.type === 'result') {
        settle(message);
      } else if (message.type === 'results') {
        for (const result of message.results) settle(result);
      }
    });
    worker.on('error', (error) => {
      if (!started) reject(error);
      failAll(error);
    });
    worker.on('exit', (code) => {
      thread.exited = true;
      const error = Object.assign(new Error(`${what} stopped (exit code ${code})`), {
        code: 'SKILLPORT_STORE_THREAD_EXIT',
      });
      if (!started) reject(error);
      failAll(error);
    });
  });
}
