/**
 * The error a failed open of the SQLite database is reported with: SQLite's own words ("unable to
 * open database file", "attempt to write a readonly database", "database or disk is full") name
 * neither the file nor the folder, so the operator is told which file and, when the file system says,
 * why (a folder in its place, a folder this process cannot write, a read-only mount, a full disk).
 */
import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import path from 'node:path';

/** SQLite result codes of an open that the file, its folder or their disk explain. */
const OPEN_FAILURE = /^SQLITE_(CANTOPEN|READONLY|PERM|FULL|IOERR|NOTADB|CORRUPT|AUTH)(_[A-Z_]+)?$/;

/** Why `fsPath` cannot be written by this process, from the file system, or null when it can. */
function notWritable(fsPath: string): string | null {
  try {
    accessSync(fsPath, constants.R_OK | constants.W_OK);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? 'unknown';
  }
}

/** True when the file system holding `dir` has no block left for this process (SQLite may say "disk I/O error"). */
function noSpaceLeft(dir: string): boolean {
  try {
    return statfsSync(dir).bavail === 0;
  } catch {
    return false;
  }
}

/** What the file system says of the database file and its folder, or null when nothing is amiss. */
function diagnose(file: string, code: string, sqliteMessage: string): string | null {
  const dir = path.dirname(file);
  if (code.startsWith('SQLITE_FULL') || /disk is full/i.test(sqliteMessage) || noSpaceLeft(dir)) {
    return `the disk holding ${dir} is full (opening writes to the database's write-ahead log); free space there, then start again`;
  }
  let isFolder = false;
  let exists = false;
  try {
    const stat = statSync(file);
    exists = true;
    isFolder = stat.isDirectory();
  } catch {
    // Missing: SQLite creates it, in the folder checked below.
  }
  if (isFolder) return `${file} is a folder, not a database file`;
  const user = process.getuid?.();
  const who = user === undefined ? 'this process' : `this process (user ${user})`;
  const folder = notWritable(dir);
  if (folder === 'EROFS') return `${dir} is on a read-only file system`;
  if (folder !== null) {
    return `the folder ${dir} is not writable by ${who}; SQLite writes the database and its -wal and -shm files there`;
  }
  if (exists) {
    const own = notWritable(file);
    if (own === 'EROFS') return `${file} is on a read-only file system`;
    if (own !== null) return `${file} is not readable and writable by ${who}`;
  }
  return null;
}

/**
 * The error to throw for `error`, met while opening (or first writing to) the SQLite database `file`:
 * for an open failure of the file, its folder or their disk (`SQLITE_CANTOPEN`, `SQLITE_READONLY`,
 * `SQLITE_FULL`, `SQLITE_NOTADB`, …), an Error whose message names the file and why, keeping
 * SQLite's `code` and the original as `cause`; any other error as it is.
 *
 * @param error - what the open threw
 * @param file - the database file's path
 * @returns the error to throw
 * @example throw openFailure(error, '/srv/skillport/skillport.db');
 * // "cannot open the SQLite database /srv/skillport/skillport.db: /srv/skillport is on a read-only file system (unable to open database file)"
 */
export function openFailure(error: unknown, file: string): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !OPEN_FAILURE.test(code)) return error;
  if (error.message.startsWith('cannot open the SQLite database ')) return error;
  const why = diagnose(file, code, error.message);
  const message =
    why === null
      ? `cannot open the SQLite database ${file}: ${error.message}`
      : `cannot open the SQLite database ${file}: ${why}${/disk is full|is a folder/.test(why) ? '' : ` (${error.message})`}`;
  return Object.assign(new Error(message, { cause: error }), { code });
}
