/**
 * A search reader thread of the SQLite store (see `search-readers.ts`): a read-only connection of
 * its own on which `find` runs, each query in a fresh read transaction. A query that meets
 * `SQLITE_BUSY` (a reader can, briefly, while the log is being reset) is retried with backoff until
 * its deadline.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StateResults, searchSkillsAnswer, TermCache } from '../../search/sqlite-search.js';
import { serializeError } from '../../workers/thread-errors.js';
import { attemptUntil } from './busy-retry.js';
import { type Connection, openConnection } from './connection.js';
import type { SearchReaderCall, SearchReaderData, SearchReaderReply } from './search-readers.js';
import { VectorCache } from './vector-ops.js';

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
// Answers of queries asked again before the next commit (the hits are posted, so never changed).
const results = new StateResults();

async function run(call: SearchReaderCall): Promise<void> {
  const open = conn;
  if (open === null) return;
  const [accountId, rootUris, query, options] = call.args;
  const outcome = await attemptUntil(
    () =>
      open.db
        .transaction(() =>
          searchSkillsAnswer(
            open,
            accountId,
            rootUris,
            query,
            options.limit,
            options.semantic === undefined ? undefined : { query: options.semantic, cache: vectors },
            terms,
            { results },
          ),
        )
        .deferred(),
    call.deadline,
  );
  port?.postMessage({ type: 'result', id: call.id, ...outcome } satisfies SearchReaderReply);
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
