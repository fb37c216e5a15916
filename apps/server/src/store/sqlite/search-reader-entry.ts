/**
 * A search reader thread of the SQLite store (see `search-readers.ts`): a read-only connection of
 * its own on which `find` runs, each query in a fresh read transaction. A query that meets
 * `SQLITE_BUSY` (a reader can, briefly, while the log is being reset) is retried with backoff until
 * its deadline.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { searchSkills, TermCache } from '../../search/sqlite-search.js';
import { serializeError } from '../../workers/thread-errors.js';
import { type Connection, openConnection } from './connection.js';
import type { SearchReaderCall, SearchReaderData, SearchReaderReply } from './search-readers.js';
import { VectorCache } from './vector-ops.js';

const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED']);

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

const port = parentPort;
if (port === null) throw new Error('search-reader-entry runs only as a worker thread');
const settings = (workerData as { data: SearchReaderData }).data;

let conn: Connection | null = null;
try {
  conn = openConnection(settings.file, {
    readonly: true,
    busyTimeoutMs: settings.attemptBusyMs,
    ...(settings.cacheSizeMb !== undefined ? { cacheSizeMb: settings.cacheSizeMb } : {}),
  });
  port.postMessage({ type: 'ready' } satisfies SearchReaderReply);
} catch (error) {
  port.postMessage({ type: 'failed', error: serializeError(error) } satisfies SearchReaderReply);
}

// Per thread, as in the database thread: the live vectors (caught up before each semantic query)
// and slices of the vocabulary for typo tolerance.
const vectors = new VectorCache();
const terms = new TermCache();

async function run(call: SearchReaderCall): Promise<void> {
  const open = conn;
  if (open === null) return;
  const [accountId, rootUris, query, options] = call.args;
  let delay = 5;
  const started = Date.now();
  for (;;) {
    try {
      const value = open.db
        .transaction(() =>
          searchSkills(
            open,
            accountId,
            rootUris,
            query,
            options.limit,
            options.semantic === undefined ? undefined : { query: options.semantic, cache: vectors },
            terms,
          ),
        )
        .deferred();
      port?.postMessage({ type: 'result', id: call.id, ok: true, value } satisfies SearchReaderReply);
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
      } satisfies SearchReaderReply);
      return;
    }
  }
}

port.on('message', (message: SearchReaderCall | { type: 'close' }) => {
  if ('type' in message) {
    conn?.db.close();
    conn = null;
    port?.close();
    return;
  }
  void run(message);
});
