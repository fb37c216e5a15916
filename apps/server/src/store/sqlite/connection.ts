import Database from 'better-sqlite3';

/** How hard SQLite syncs commits to disk. */
export type SqliteSynchronous = 'NORMAL' | 'FULL';

/**
 * Page cache per connection, MiB (the database thread's; search readers and the change-token
 * connection ask for less). At 100,000 skills a get at level 2 read 8.5 pages from the operating
 * system's file cache with 8 MiB against 7.4 with 16 MiB, for the same CPU within noise, and the
 * cache is full there: each MiB is a MiB of the server's memory.
 */
export const DEFAULT_CACHE_SIZE_MB = 8;

/**
 * WAL frames (4 KiB pages) a commit lets accumulate before it checkpoints them into the database
 * file (`wal_autocheckpoint`; SQLite's default is 1,000). A skill write dirties ~40 pages, most of
 * them index pages the next writes dirty again: with SQLite's default a checkpoint ran every ~25
 * adds and copied many of the same pages each time; at 10,000 it runs every ~250 and each page it
 * copies stands for more writes (~130 µs less CPU per add, measured in groups of 3 at 2,000 skills).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * This connection's `total_changes()` (`c`) and `data_version` (`v`, moved by other connections'
 * commits), read from the WAL index in shared memory: equal values mean the database is unchanged.
 */
export const CHANGE_PROBE =
  'SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v';

/**
 * The store's change token, `epoch.n` of `change_counter` (schema version 16): it moves with every
 * write to a table an answer reads, not with search-index upkeep (see `migrations.ts`).
 *
 * @throws on a database error, or a file before schema version 16 (no `change_counter` row)
 */
export function readChangeCounter(conn: Connection): string {
  const token = conn.stmt("SELECT epoch || '.' || n FROM change_counter WHERE id = 1").pluck().get();
  if (typeof token !== 'string') throw new Error('change_counter has no row');
  return token;
}

/** An open database plus a cache of prepared statements keyed by SQL text. */
export interface Connection {
  db: Database.Database;
  /** Returns the prepared statement for `sql`, preparing it once. */
  stmt(sql: string): Database.Statement;
}

/**
 * Opens (creating if needed) the SQLite file with the server's pragmas:
 *
 * - `auto_vacuum = INCREMENTAL` (new files): pages freed by deletions can be handed back to the
 *   operating system (`PRAGMA incremental_vacuum`, run after retention frees file contents), so
 *   deleting big skills shrinks the data folder instead of leaving free pages inside the file.
 * - `journal_mode = WAL`: readers never block the writer, and a commit is one append to the WAL.
 * - `wal_autocheckpoint` = {@link WAL_AUTOCHECKPOINT_PAGES}: the WAL file (`skillport.db-wal`) grows
 *   to ~40 MiB before a commit copies it back into the database file (it is reused from its start
 *   afterwards, not shrunk). Durability does not depend on it: a commit is in the WAL either way.
 * - `synchronous = NORMAL` (default): in WAL mode a commit is written to the WAL file before
 *   `COMMIT` returns, and only checkpoints are fsynced. A transaction that returned is therefore in
 *   the operating system's page cache and survives a crash or SIGKILL of the *process* (what the
 *   server promises for an acknowledged write); it is not guaranteed to survive a power loss or
 *   kernel crash. Pass `FULL` to fsync the WAL on every commit when that matters more than write
 *   throughput.
 * - `busy_timeout = 5000` ms: a second connection (another process, a backup tool) waits for the
 *   write lock instead of failing at once with `SQLITE_BUSY`.
 * - `foreign_keys = ON`: file rows cannot outlive their skill nor point at a missing blob.
 * - `cache_size` = 8 MiB of page cache (default, {@link DEFAULT_CACHE_SIZE_MB}; `cacheSizeMb`): the
 *   b-tree interior pages and the hot rows stay in memory, the rest is read from the operating
 *   system's file cache (a `get` costs the same CPU with 8, 16 or 64 MiB at 100,000 skills, while
 *   the cache, full there, is memory of the server's). The cache fills only as pages are read, so a
 *   small registry costs little memory.
 *
 * @param filename - path of the database file
 * @param options - `synchronous` (default `NORMAL`), `busyTimeoutMs` (default 5000), `cacheSizeMb`
 *   (page cache per connection in MiB, default 8), `readonly` (an existing file, read only: the
 *   file's own journal mode and settings apply), `walAutocheckpointPages` (default
 *   {@link WAL_AUTOCHECKPOINT_PAGES}; the threaded store passes a larger backstop, its checkpoints
 *   run in a thread of their own: see `wal-checkpointer.ts`)
 * @returns the connection
 * @throws Error from better-sqlite3 when the file cannot be opened
 */
export function openConnection(
  filename: string,
  options: {
    synchronous?: SqliteSynchronous;
    busyTimeoutMs?: number;
    cacheSizeMb?: number;
    /** Open an existing file for reading only (no pragma that writes). */
    readonly?: boolean;
    /** `wal_autocheckpoint` in pages (default {@link WAL_AUTOCHECKPOINT_PAGES}). */
    walAutocheckpointPages?: number;
  } = {},
): Connection {
  const db = new Database(filename, options.readonly === true ? { readonly: true, fileMustExist: true } : {});
  if (options.readonly !== true) {
    // Before any table exists (a new file) this makes freed pages returnable to the OS; an older file
    // is converted by `createSqliteStore` (see `enableIncrementalVacuum`).
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
    db.pragma(
      `wal_autocheckpoint = ${Math.max(0, Math.floor(options.walAutocheckpointPages ?? WAL_AUTOCHECKPOINT_PAGES))}`,
    );
  }
  db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
  db.pragma('foreign_keys = ON');
  db.pragma(`cache_size = -${Math.max(1, Math.floor(options.cacheSizeMb ?? DEFAULT_CACHE_SIZE_MB)) * 1024}`);
  const cache = new Map<string, Database.Statement>();
  return {
    db,
    stmt(sql) {
      let statement = cache.get(sql);
      if (statement === undefined) {
        statement = db.prepare(sql);
        cache.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * Turns on `auto_vacuum = INCREMENTAL` for a database created without it: the mode of an existing
 * file changes only through a full `VACUUM` (a rewrite of the file: about a second per 100 MB, once).
 * New files get the mode from {@link openConnection} and need nothing here.
 *
 * @param db - an open connection with no transaction in progress
 * @returns true when the file was converted now
 */
export function enableIncrementalVacuum(db: Database.Database): boolean {
  const mode = db.pragma('auto_vacuum', { simple: true }) as number;
  if (mode === 2) return false;
  db.pragma('auto_vacuum = INCREMENTAL');
  try {
    db.exec('VACUUM');
  } catch (error) {
    // Another process holds the file (a second server on the same data folder): the conversion
    // waits for an open that has the file to itself; until then freed pages stay inside the file.
    if (
      (error as { code?: string }).code?.startsWith('SQLITE_BUSY') ||
      (error as { code?: string }).code?.startsWith('SQLITE_LOCKED')
    )
      return false;
    throw error;
  }
  return true;
}
