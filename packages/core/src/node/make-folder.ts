/**
 * Creating a folder and its missing parents, failing at once with a message that names the folder
 * and says why: Node 20's `mkdir(dir, {recursive: true})` never returns where a parent exists but
 * the file system refuses new folders with `ENOENT` (`/proc`), it retries the parent forever.
 *
 * Also `@skillport/core/node/make-folder`: this module alone (Node built-ins only), for threads that
 * must start small.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Options of {@link makeFolderSync}. */
export interface MakeFolderOptions {
  /** Permission bits of the folders it creates (before the umask); default `0o777`. */
  mode?: number;
}

/** The error {@link makeFolderSync} throws: a Node file system error naming the folder asked for. */
export type MakeFolderError = Error & {
  /** The file system's code: `ENOENT`, `ENOTDIR`, `EACCES`, `EPERM`, `EROFS`, `ENOSPC`… */
  code: string;
  /** `mkdir` or `stat`. */
  syscall: string;
  /** The path the failing call was about (the folder itself or one of its parents). */
  path: string;
  /** The folder asked for, absolute. */
  folder: string;
};

/**
 * Creates the folder `dir` and each missing parent, one `mkdir` a level, like
 * `mkdirSync(dir, {recursive: true})` but never looping: each failure is final.
 *
 * @param dir - the folder (a relative path is resolved against the working folder)
 * @param options - see {@link MakeFolderOptions}
 * @throws MakeFolderError when a part of the path is a file (`ENOTDIR`), a folder may not be created
 *   (`EACCES`, `EPERM`, `EROFS`, or `ENOENT` under a parent that exists, as in `/proc`), or the disk
 *   is full (`ENOSPC`); the message names the folder, the part that failed and why. Nothing it
 *   created before the failure is removed (they are empty folders).
 * @example
 * ```ts
 * makeFolderSync('./.skillport');            // creates it if missing
 * makeFolderSync('/proc/nope');              // throws: "cannot create the folder /proc/nope: /proc exists but does not allow new folders (ENOENT)"
 * ```
 */
export function makeFolderSync(dir: string, options: MakeFolderOptions = {}): void {
  const folder = path.resolve(dir);
  // The folders to create, deepest first: up to the first part of the path that exists.
  const missing: string[] = [];
  for (let at = folder; ; at = path.dirname(at)) {
    const kind = kindOf(folder, at);
    if (kind === 'folder') break;
    if (kind === 'file') {
      throw folderError(folder, 'stat', at, 'ENOTDIR', `${at} is a file, not a folder`);
    }
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at, options.mode === undefined ? {} : { mode: options.mode });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
      // Made meanwhile by someone else: fine when it is a folder.
      if (code === 'EEXIST' && kindOf(folder, at) === 'folder') continue;
      throw folderError(folder, 'mkdir', at, code, reason(at, code, error as Error));
    }
  }
}

/** What is at `at`: a folder, something else, or nothing. */
function kindOf(folder: string, at: string): 'folder' | 'file' | 'none' {
  try {
    return statSync(at).isDirectory() ? 'folder' : 'file';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
    if (code === 'ENOENT') return 'none';
    // ENOTDIR: a parent is a file; the walk up names it.
    if (code === 'ENOTDIR') return 'none';
    throw folderError(folder, 'stat', at, code, reason(at, code, error as Error));
  }
}

function reason(at: string, code: string, error: Error): string {
  const parent = path.dirname(at);
  switch (code) {
    case 'ENOENT':
      // The parent was just found or made: the file system itself refuses folders here.
      return `${parent} exists but does not allow new folders (ENOENT)`;
    case 'EACCES':
      return `permission denied to create ${at} (EACCES)`;
    case 'EPERM':
      return `creating ${at} is not permitted (EPERM)`;
    case 'EROFS':
      return `${parent} is on a read-only file system (EROFS)`;
    case 'ENOSPC':
      return `no space left on the device (ENOSPC)`;
    case 'ENOTDIR':
      return `a part of ${at} is a file, not a folder (ENOTDIR)`;
    default:
      return error.message;
  }
}

function folderError(
  folder: string,
  syscall: string,
  at: string,
  code: string,
  why: string,
): MakeFolderError {
  return Object.assign(new Error(`cannot create the folder ${folder}: ${why}`), {
    code,
    syscall,
    path: at,
    folder,
  });
}
