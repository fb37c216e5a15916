/**
 * The database thread of the server's SQLite store: it owns the connection and runs the calls the
 * HTTP thread posts (see `sqlite-thread.ts`). A call that meets a lock held by another connection
 * waits a few milliseconds inside SQLite, then is retried asynchronously with backoff until its
 * deadline, while the calls behind it (reads, other writes) keep running; past the deadline it
 * fails with `SQLITE_BUSY`, which the HTTP layer answers 503 `UNAVAILABLE` with `Retry-After`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../../workers/thread-errors.js';
import type { Store } from '../types.js';
import { createSqliteStore } from './create-sqlite-store.js';
import type { SqliteThreadCall, SqliteThreadData, SqliteThreadReply } from './sqlite-thread.js';

const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED']);

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

const port = parentPort;
if (port === null) throw new Error('sqlite-thread-entry runs only as a worker thread');
const settings = (workerData as { data: SqliteThreadData }).data;

let store: Store | null = null;
try {
  store = createSqliteStore({
    dataDir: settings.dataDir,
    ...(settings.filename !== undefined ? { filename: settings.filename } : {}),
    ...(settings.synchronous !== undefined ? { synchronous: settings.synchronous } : {}),
    busyTimeoutMs: settings.attemptBusyMs,
  });
  port.postMessage({ type: 'ready', description: store.description } satisfies SqliteThreadReply);
} catch (error) {
  port.postMessage({ type: 'failed', error: serializeError(error) } satisfies SqliteThreadReply);
}

/**
 * Runs one call. `expireLeases` takes a function, which cannot cross threads: the calling thread
 * asks for the lease owners first (`leaseOwners`), decides, then names the gone ones (`expireLeaseOwners`).
 */
async function invoke(open: Store, call: SqliteThreadCall): Promise<unknown> {
  if (call.method === 'leaseOwners') {
    const owners: string[] = [];
    await open.expireLeases((owner) => {
      owners.push(owner);
      return false;
    }, call.args[0] as number);
    return owners;
  }
  if (call.method === 'expireLeaseOwners') {
    const gone = new Set(call.args[0] as string[]);
    return open.expireLeases((owner) => gone.has(owner), call.args[1] as number);
  }
  const method = (open as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[call.method];
  if (typeof method !== 'function') throw new Error(`Store has no method ${call.method}`);
  return method.apply(open, call.args);
}

async function run(call: SqliteThreadCall): Promise<void> {
  const open = store;
  if (open === null) return;
  let delay = 5;
  const started = Date.now();
  for (;;) {
    try {
      const value = await invoke(open, call);
      port?.postMessage({ type: 'result', id: call.id, ok: true, value } satisfies SqliteThreadReply);
      return;
    } catch (error) {
      if (isBusy(error) && Date.now() + delay < call.deadline) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 100);
        continue;
      }
      const serialized = serializeError(error);
      if (isBusy(error)) {
        serialized.message = `The database is locked by another connection (waited ${Date.now() - started} ms): ${serialized.message}`;
      }
      port?.postMessage({
        type: 'result',
        id: call.id,
        ok: false,
        error: serialized,
      } satisfies SqliteThreadReply);
      return;
    }
  }
}

port.on('message', (call: SqliteThreadCall) => {
  void run(call);
});
