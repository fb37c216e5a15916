/**
 * The WAL checkpointer thread of the server's SQLite store (see `wal-checkpointer.ts`): a connection
 * of its own that copies committed WAL frames into the database file, so the syncs of a checkpoint
 * block this thread instead of the database thread. It loads better-sqlite3 and nothing of the store.
 */

import { statSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type {
  CheckpointerData,
  CheckpointerMessage,
  CheckpointerReply,
  CheckpointStats,
} from './wal-checkpointer.js';

const port = parentPort;
if (port === null) throw new Error('wal-checkpointer-entry runs only as a worker thread');
const settings = (workerData as { data: CheckpointerData }).data;

let db: Database.Database | null = null;
try {
  db = new Database(settings.file, { fileMustExist: true });
  // The syncs of a checkpoint follow this connection's setting: as the writer's, so a checkpoint here
  // is as durable as one the writer ran (NORMAL and FULL both sync the WAL, then the database file).
  db.pragma(`synchronous = ${settings.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
  // A checkpoint copies frames through a buffer of its own, not the page cache.
  db.pragma('cache_size = -64');
  db.pragma(`busy_timeout = ${settings.restartBusyMs}`);
  port.postMessage({ type: 'ready' } satisfies CheckpointerReply);
} catch (error) {
  port.postMessage({ type: 'failed', message: (error as Error).message } satisfies CheckpointerReply);
}

const stats: Omit<CheckpointStats, 'restarts'> = {
  passive: 0,
  restart: 0,
  busy: 0,
  errors: 0,
  maxLogFrames: 0,
  lastLogFrames: 0,
  caughtUp: false,
};
/** Frames the last checkpoint copied (all of them when it caught up). */
let lastCheckpointed = 0;
let seenVersion = -1;
let lastCheckpointAt = 0;
let walBytesAtCheckpoint = 0;
/** WAL growth that triggers a checkpoint before `intervalMs`: frames of a 24-byte header and a page. */
const growthBytes = settings.growthPages * (24 + 4096);
const walFile = `${settings.file}-wal`;
/** Size of the WAL file, bytes (0 when missing): its high-water mark, since a WAL started over is reused. */
function walSize(): number {
  // stat opens no file: closing a descriptor of a database file would drop SQLite's locks on it.
  return statSync(walFile, { throwIfNoEntry: false })?.size ?? 0;
}
/**
 * WAL size from which the next RESTART is tried: after one gave up waiting for a reader, only once
 * the WAL grew by another `restartPages` (a RESTART holds new writes while it waits, so it is not
 * repeated at every poll while a reader keeps its snapshot).
 */
let restartFrom = settings.restartPages;

/** One poll: a PASSIVE checkpoint when another connection committed since the last one, RESTART past the escalation size. */
function tick(): void {
  const open = db;
  if (open === null) return;
  try {
    const version = open.pragma('data_version', { simple: true }) as number;
    if (version === seenVersion) return;
    // Commits arrived: checkpoint them once `intervalMs` passed since the last checkpoint (a page
    // the next writes dirty again is then copied once for all of them), or at once when the WAL file
    // grew by `growthPages` since then (writes faster than the interval lets the WAL take).
    const walBytes = walSize();
    if (Date.now() - lastCheckpointAt < settings.intervalMs && walBytes - walBytesAtCheckpoint < growthBytes)
      return;
    seenVersion = version;
    lastCheckpointAt = Date.now();
    walBytesAtCheckpoint = walBytes;
    let row = (
      open.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[]
    )[0];
    stats.passive++;
    if (row === undefined) return;
    stats.maxLogFrames = Math.max(stats.maxLogFrames, row.log);
    stats.lastLogFrames = row.log;
    lastCheckpointed = row.checkpointed;
    if (row.log < settings.restartPages) restartFrom = settings.restartPages;
    // A reader on an old snapshot keeps frames from being copied, or (all copied) keeps the writer
    // from starting the WAL over: past the escalation size, RESTART waits (this connection's busy
    // timeout, with new writes held meanwhile) for those readers, so the next commit starts the WAL over.
    if (row.log >= restartFrom) {
      row = (open.pragma('wal_checkpoint(RESTART)') as (typeof row)[])[0] ?? row;
      lastCheckpointed = row.checkpointed;
      stats.restart++;
      if (row.busy !== 0) {
        stats.busy++;
        restartFrom = row.log + settings.restartPages;
      }
      // The frames this one could not copy are taken at the next poll, even without a new commit.
      seenVersion = -1;
    } else if (row.checkpointed < row.log) seenVersion = -1;
  } catch {
    // SQLITE_BUSY (another checkpoint, e.g. a backup tool's) or a transient I/O error: the next poll
    // tries again; the writer's own auto-checkpoint bounds the WAL meanwhile.
    stats.errors++;
    seenVersion = -1;
  }
}

const timer = setInterval(tick, settings.pollMs);

port.on('message', (message: CheckpointerMessage) => {
  if (message.type === 'stats') {
    let caughtUp = false;
    try {
      caughtUp =
        db !== null &&
        db.pragma('data_version', { simple: true }) === seenVersion &&
        lastCheckpointed === stats.lastLogFrames;
    } catch {
      caughtUp = false;
    }
    port.postMessage({ type: 'stats', stats: { ...stats, caughtUp } } satisfies CheckpointerReply);
    return;
  }
  clearInterval(timer);
  db?.close();
  db = null;
  port.postMessage({ type: 'closed' } satisfies CheckpointerReply);
  port.close();
});
