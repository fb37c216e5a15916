/**
 * The database thread of the server's SQLite store: it owns the connection and runs the calls the
 * HTTP thread posts (see `sqlite-thread.ts`). A call that meets a lock held by another connection
 * waits a few milliseconds inside SQLite, then is retried asynchronously with backoff until its
 * deadline, while the calls behind it (reads, other writes) keep running; past the deadline it
 * fails with `SQLITE_BUSY`, which the HTTP layer answers 503 `UNAVAILABLE` with `Retry-After`.
 *
 * Group commit: `putSkill` and `putTempUpload` calls that arrive together (posted while the thread was
 * busy) run in one transaction, a savepoint each (`writeGroupOf`), so concurrent adds and folder adds
 * (an upload, then a write) share one commit. Each is
 * answered after that commit (one message carries the group's answers), so an acknowledged write is
 * as durable as a write committed alone; a refused one is answered with its own error. While calls wait to be grouped, every call arriving
 * behind them waits too, so calls still run in the order they were posted.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../../workers/thread-errors.js';
import type { SkillJsonRead, SkillWrite, Store } from '../types.js';
import { attemptUntil } from './busy-retry.js';
import type { CallResult } from './call-thread.js';
import {
  createSqliteStore,
  type GroupedWrite,
  type GroupOutcome,
  termListPacerOf,
  threadWritersOf,
} from './create-sqlite-store.js';
import type { SqliteThreadCall, SqliteThreadData, SqliteThreadReply } from './sqlite-thread.js';
import { StoreCallActivity } from './term-list-pacing.js';

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
    ...(settings.walAutocheckpointPages !== undefined
      ? { walAutocheckpointPages: settings.walAutocheckpointPages }
      : {}),
    ...(settings.activity !== undefined ? { activity: new StoreCallActivity(settings.activity) } : {}),
  });
  port.postMessage({ type: 'ready', description: store.description } satisfies SqliteThreadReply);
} catch (error) {
  port.postMessage({ type: 'failed', error: serializeError(error) } satisfies SqliteThreadReply);
}

/**
 * Runs one call. `expireLeases` takes a function, which cannot cross threads: the calling thread
 * asks for the lease owners first (`leaseOwners`), decides, then names the gone ones (`expireLeaseOwners`).
 * `termListPacing` answers the counts of the per-term lists' pacer (`termListPacingOf`).
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
  if (call.method === 'termListPacing') return { ...termListPacerOf(open)?.counts };
  if (call.method === 'putSkill') {
    const writers = threadWritersOf(open);
    // Answered with a PutSkillReply: the calling thread holds the rest of the record (sqlite-thread.ts).
    if (writers !== undefined) return writers.putSkill(call.args[0] as SkillWrite);
  }
  const method = (open as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[call.method];
  if (typeof method !== 'function') throw new Error(`Store has no method ${call.method}`);
  return method.apply(open, call.args);
}

/**
 * The buffers a result hands over instead of copying: the JSON bytes of `readSkillJson` (moved when they
 * own their memory, else first copied out of the shared pool Node allocates small buffers from).
 */
function transferOf(call: SqliteThreadCall, outcome: { ok: boolean; value?: unknown }): ArrayBuffer[] {
  if (call.method !== 'readSkillJson' || !outcome.ok) return [];
  const read = outcome.value as SkillJsonRead | null;
  if (read === null || !('json' in read)) return [];
  let json = read.json;
  if (json.byteOffset !== 0 || json.byteLength !== json.buffer.byteLength) {
    json = new Uint8Array(json);
    read.json = json;
  }
  return [json.buffer as ArrayBuffer];
}

async function run(call: SqliteThreadCall): Promise<void> {
  const open = store;
  if (open === null) return;
  const outcome = await attemptUntil(() => invoke(open, call), call.deadline);
  port?.postMessage(
    { type: 'result', id: call.id, ...outcome } satisfies SqliteThreadReply,
    transferOf(call, outcome),
  );
}

/** The result message of one call of a group. */
function resultOf(call: SqliteThreadCall, outcome: GroupOutcome<unknown>): CallResult<unknown> {
  return outcome.ok
    ? { type: 'result', id: call.id, ok: true, value: outcome.value }
    : { type: 'result', id: call.id, ok: false, error: serializeError(outcome.error) };
}

/** The write calls that join a group commit (see `writeGroupOf`; a `putSkill` answers a `PutSkillReply`). */
const GROUPED = new Set(['putSkill', 'putTempUpload']);

/** Write calls in one transaction; when it commits nothing, each runs alone (lock retries included). */
function runGroup(calls: SqliteThreadCall[]): void {
  const group = store === null ? undefined : threadWritersOf(store)?.group;
  let outcomes: GroupOutcome<unknown>[] | undefined;
  if (group !== undefined) {
    try {
      outcomes = group(calls.map((call) => ({ method: call.method, args: call.args }) as GroupedWrite));
    } catch {
      outcomes = undefined;
    }
  }
  if (outcomes === undefined) {
    for (const call of calls) void run(call);
    return;
  }
  // One message answers the whole group (a message costs both threads far more than its bytes).
  const settled = outcomes;
  port?.postMessage({
    type: 'results',
    results: calls.map((call, i) => resultOf(call, settled[i] as GroupOutcome<unknown>)),
  } satisfies SqliteThreadReply);
}

/** Calls that arrived while a write waits for the others of its group, in arrival order. */
let waiting: SqliteThreadCall[] = [];

/** Runs the waiting calls in order, each run of two or more consecutive grouped writes as one group. */
function flush(): void {
  const calls = waiting;
  waiting = [];
  let i = 0;
  while (i < calls.length) {
    let end = i;
    while (end < calls.length && GROUPED.has(calls[end]?.method as string)) end++;
    if (end - i >= 2) runGroup(calls.slice(i, end));
    else if (end > i) void run(calls[i] as SqliteThreadCall);
    if (end < calls.length) void run(calls[end] as SqliteThreadCall);
    i = end + 1;
  }
}

port.on('message', (call: SqliteThreadCall) => {
  if (waiting.length === 0 && !GROUPED.has(call.method)) {
    void run(call);
    return;
  }
  // The messages posted while this thread was busy are delivered in one turn of its event loop: the
  // writes among them are grouped once they are all here.
  waiting.push(call);
  if (waiting.length === 1) setImmediate(flush);
});
