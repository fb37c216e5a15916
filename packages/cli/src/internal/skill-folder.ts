/**
 * Installed skill folders on disk: what one holds compared with what was installed, writing one
 * skill into its folders atomically and all or nothing (complete temporary folders renamed into
 * place, the previous ones kept aside until every folder is in place), and removing one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeFolder } from './folder.js';
import { CliError } from './io.js';

/**
 * A file as installed: path inside the skill folder, sha-256, size in bytes, and whether it is
 * executable (written with mode 755 on POSIX systems; absent or false: 644).
 */
export interface FileDigest {
  path: string;
  sha256: string;
  size: number;
  executable?: boolean | undefined;
}

/** Whether files get execute bits here: every system but Windows, whose files have no modes. */
const POSIX = process.platform !== 'win32';

/** How an installed folder compares with what was installed there. */
export type FolderState =
  | { kind: 'missing' }
  | { kind: 'intact' }
  /** Files changed, added or removed by hand (paths listed, at most a few shown by callers). */
  | { kind: 'modified'; changed: string[]; added: string[]; removed: string[] }
  /** Something other than a folder of regular files sits there (a symlink, a file). */
  | { kind: 'foreign'; reason: string };

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Whether `file` is a safe relative path inside a skill folder: non-empty, at most 1024 characters,
 * `/`-separated, no empty, `.` or `..` segment, no backslash or control character.
 */
export function isSafeRelativePath(file: string): boolean {
  return !(
    file === '' ||
    file.length > 1024 ||
    /[\u0000-\u001f\\]/.test(file) ||
    file.split('/').some((s) => s === '' || s === '.' || s === '..')
  );
}

/**
 * Checks a file path given by a server before it is written under a skills folder: relative,
 * `/`-separated, no empty, `.` or `..` segment, no backslash or control character.
 *
 * @throws CliError naming the skill and the path
 */
export function checkRelativePath(skill: string, file: string): string {
  if (!isSafeRelativePath(file)) {
    throw new CliError(
      `the server listed an unsafe file path ${JSON.stringify(file)} for ${skill}; nothing was written`,
    );
  }
  return file;
}

/** Every regular file under `dir`, relative `/` paths; symlinks and other special files are reported. */
async function walk(dir: string, prefix = ''): Promise<{ files: string[]; special: string[] }> {
  const files: string[] = [];
  const special: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      const inner = await walk(path.join(dir, entry.name), rel);
      files.push(...inner.files);
      special.push(...inner.special);
    } else if (entry.isFile()) {
      files.push(rel);
    } else {
      special.push(rel);
    }
  }
  return { files, special };
}

const CR = 13;
const LF = 10;

/** `bytes` with every CRLF turned into LF, or null when there is none (a lone CR is kept). */
function crlfToLf(bytes: Uint8Array): Uint8Array | null {
  let pairs = 0;
  for (let i = 1; i < bytes.length; i++) if (bytes[i] === LF && bytes[i - 1] === CR) pairs++;
  if (pairs === 0) return null;
  const out = new Uint8Array(bytes.length - pairs);
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === CR && bytes[i + 1] === LF) continue;
    out[j++] = bytes[i] as number;
  }
  return out;
}

/** `bytes` with every LF not already after a CR turned into CRLF, or null when there is none. */
function lfToCrlf(bytes: Uint8Array): Uint8Array | null {
  let lone = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === LF && bytes[i - 1] !== CR) lone++;
  if (lone === 0) return null;
  const out = new Uint8Array(bytes.length + lone);
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === LF && bytes[i - 1] !== CR) out[j++] = CR;
    out[j++] = bytes[i] as number;
  }
  return out;
}

/**
 * Whether `bytes` (a file as found in an installed folder) are the file installed there: the same
 * bytes, or — for a text file (no NUL byte, the test git uses) — the same bytes but for the line
 * endings git converts on checkout and commit with `core.autocrlf` (every LF as CRLF, or every CRLF
 * as LF). So a project checked out on Windows with `core.autocrlf=true` still reads as intact, while
 * the lock keeps the sha-256 of the bytes the server serves. Any other difference is an edit.
 */
function isInstalledFile(bytes: Uint8Array, digest: FileDigest): boolean {
  const same = (b: Uint8Array | null) =>
    b !== null && b.byteLength === digest.size && sha256Hex(b) === digest.sha256;
  if (same(bytes)) return true;
  if (bytes.includes(0)) return false;
  return same(crlfToLf(bytes)) || same(lfToCrlf(bytes));
}

/**
 * Compares the folder `dir` with the files that were installed there. A text file whose only
 * difference is its line endings (LF ↔ CRLF, as git's `core.autocrlf` converts them) counts as
 * unchanged.
 *
 * @param expected - the installed files (from the lock file), or null when nothing was recorded:
 *   then any existing folder is `foreign` (skillport did not put it there)
 */
export async function readFolderState(
  dir: string,
  expected: readonly FileDigest[] | null,
): Promise<FolderState> {
  const info = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    // ENOTDIR: a part of the path is a file (`.gemini` where `.gemini/skills` belongs), so no folder.
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return null;
    throw error;
  });
  if (info === null) return { kind: 'missing' };
  if (info.isSymbolicLink()) return { kind: 'foreign', reason: 'it is a symbolic link' };
  if (!info.isDirectory()) return { kind: 'foreign', reason: 'it is not a folder' };
  if (expected === null) return { kind: 'foreign', reason: 'skillport did not install it' };
  const { files, special } = await walk(dir);
  if (special.length > 0) return { kind: 'modified', changed: [], added: special, removed: [] };
  const want = new Map(expected.map((f) => [f.path, f]));
  const changed: string[] = [];
  const added: string[] = [];
  for (const file of files) {
    const digest = want.get(file);
    if (digest === undefined) {
      added.push(file);
      continue;
    }
    want.delete(file);
    const full = path.join(dir, ...file.split('/'));
    const bytes = await readFile(full);
    if (!isInstalledFile(bytes, digest)) changed.push(file);
    // An executable file that lost its execute bit no longer works: changed. One made executable by
    // hand is left alone (as it would run either way).
    else if (POSIX && digest.executable === true && ((await stat(full)).mode & 0o100) === 0)
      changed.push(file);
  }
  const removed = [...want.keys()];
  if (changed.length + added.length + removed.length === 0) return { kind: 'intact' };
  return { kind: 'modified', changed, added, removed };
}

/** One line saying what differs, e.g. `SKILL.md changed; notes.txt added`. */
export function describeState(state: FolderState): string {
  if (state.kind === 'missing') return 'missing';
  if (state.kind === 'intact') return 'intact';
  if (state.kind === 'foreign') return state.reason;
  const parts: string[] = [];
  const list = (files: string[]) =>
    files.length <= 3 ? files.join(', ') : `${files.slice(0, 3).join(', ')} and ${files.length - 3} more`;
  if (state.changed.length > 0) parts.push(`${list(state.changed)} changed`);
  if (state.added.length > 0) parts.push(`${list(state.added)} added`);
  if (state.removed.length > 0) parts.push(`${list(state.removed)} removed`);
  return parts.join('; ');
}

/** One folder's part in {@link writeSkillFolders}: where its new files are, where its old one goes. */
interface Staged {
  /** The skill's folder: `<skills folder>/<name>`. */
  target: string;
  /** The new files, beside the skills folder (not inside it, so no agent sees a half-written skill). */
  temp: string;
  /** Where the previous folder waits while the others are swapped in, beside the skills folder too. */
  aside: string;
  /** Whether a previous folder was moved to `aside`. */
  movedAside: boolean;
}

/** How one folder came out of {@link writeSkillFolders}. */
export type FolderWrite =
  /** At the new files. */
  | { kind: 'written' }
  /** Its write or swap failed (`reason` says why, and that its previous state was kept). */
  | { kind: 'failed'; reason: string }
  /** Not touched: another folder failed before this one was swapped in. */
  | { kind: 'untouched' }
  /** Swapped in, then put back as it was because another folder failed. */
  | { kind: 'put-back' }
  /** Swapped in, and could not be put back after another folder failed: `reason` says where it is. */
  | { kind: 'not-put-back'; reason: string };

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes one folder's new files into a temporary folder beside its skills folder (created if
 * missing).
 *
 * @throws CliError naming the folder, after removing the temporary folder
 */
async function stage(
  skillsFolder: string,
  name: string,
  files: ReadonlyMap<string, Uint8Array>,
  executable: ReadonlySet<string>,
): Promise<Staged> {
  const target = path.join(skillsFolder, name);
  makeFolder(skillsFolder);
  const parent = path.dirname(skillsFolder);
  const tag = randomBytes(6).toString('hex');
  const staged: Staged = {
    target,
    temp: path.join(parent, `.skillport-tmp-${name}-${tag}`),
    aside: path.join(parent, `.skillport-old-${name}-${tag}`),
    movedAside: false,
  };
  try {
    await mkdir(staged.temp, { recursive: true });
    for (const [file, bytes] of files) {
      const full = path.join(staged.temp, ...file.split('/'));
      await mkdir(path.dirname(full), { recursive: true });
      await writeFile(full, bytes, { mode: POSIX && executable.has(file) ? 0o755 : 0o644 });
    }
  } catch (error) {
    await rm(staged.temp, { recursive: true, force: true });
    throw new CliError(`cannot write ${target}: ${message(error)}; the previous state was kept`);
  }
  return staged;
}

/**
 * Swaps a staged folder in: the previous folder (if any) moves aside, the new one into its place. On
 * failure the previous folder is moved back and the temporary folder removed.
 *
 * @throws CliError naming the folder and whether its previous state was kept
 */
async function swapIn(staged: Staged): Promise<void> {
  try {
    if ((await lstat(staged.target).catch(() => null)) !== null) {
      await rename(staged.target, staged.aside);
      staged.movedAside = true;
    }
    await rename(staged.temp, staged.target);
  } catch (error) {
    await rm(staged.temp, { recursive: true, force: true });
    let kept = 'the previous state was kept';
    if (staged.movedAside) {
      await rename(staged.aside, staged.target).then(
        () => {
          staged.movedAside = false;
        },
        (putBack: unknown) => {
          kept = `the previous folder could not be put back (${message(putBack)}): it is at ${staged.aside}`;
        },
      );
    }
    throw new CliError(`cannot write ${staged.target}: ${message(error)}; ${kept}`);
  }
}

/**
 * Puts back a folder already swapped in: the new folder moves out of the way (to the temporary
 * folder's free name) and is removed, the previous one (if any) moves back.
 *
 * @returns null, or why it could not be put back and where its previous folder is
 */
async function putBack(staged: Staged): Promise<string | null> {
  try {
    await rename(staged.target, staged.temp);
  } catch (error) {
    return (
      `${staged.target} was written and could not be put back (${message(error)})` +
      (staged.movedAside ? `; the previous folder is at ${staged.aside}` : '')
    );
  }
  if (staged.movedAside) {
    try {
      await rename(staged.aside, staged.target);
      staged.movedAside = false;
    } catch (error) {
      // Better the new files in place than no folder at all.
      const back = await rename(staged.temp, staged.target).then(
        () => 'it holds the new files',
        () => `the new files are at ${staged.temp}`,
      );
      return (
        `${staged.target} could not be put back (${message(error)}): ${back}; ` +
        `the previous folder is at ${staged.aside}`
      );
    }
  }
  await rm(staged.temp, { recursive: true, force: true });
  return null;
}

/**
 * Writes one skill into several skills folders, all or nothing: every folder's files go to a
 * temporary folder beside it first; only when all are written are they swapped in, each previous
 * folder kept aside until every swap succeeded. When a write or a swap fails, the folders already
 * swapped in are put back, so every folder holds either the new files or exactly what it held
 * before (bytes and modes). No rename replaces an existing folder (Windows refuses that), and no
 * temporary or previous folder is left behind unless putting one back fails (its outcome says where).
 *
 * Files in `executable` are written with mode 755 (as narrowed by the umask, like git's checkout),
 * the others with 644; nothing is made executable on Windows.
 *
 * @param skillsFolders - the agents' skills folders (each created if missing)
 * @param name - the skill's folder name
 * @param files - relative path → bytes (paths already checked)
 * @param executable - the paths of `files` to make executable (default none)
 * @returns one result per folder of `skillsFolders`, in order: all `written`, or one `failed` and
 *   the others `untouched`, `put-back` or (rarely) `not-put-back`
 */
export async function writeSkillFolders(
  skillsFolders: readonly string[],
  name: string,
  files: ReadonlyMap<string, Uint8Array>,
  executable: ReadonlySet<string> = new Set(),
): Promise<FolderWrite[]> {
  const results: FolderWrite[] = skillsFolders.map(() => ({ kind: 'untouched' }));
  const staged: Staged[] = [];
  const discard = async (from: number) => {
    for (const item of staged.slice(from)) await rm(item.temp, { recursive: true, force: true });
  };
  for (const [i, skillsFolder] of skillsFolders.entries()) {
    try {
      staged.push(await stage(skillsFolder, name, files, executable));
    } catch (error) {
      await discard(0);
      results[i] = { kind: 'failed', reason: message(error) };
      return results;
    }
  }
  for (const [i, item] of staged.entries()) {
    try {
      await swapIn(item);
    } catch (error) {
      results[i] = { kind: 'failed', reason: message(error) };
      await discard(i + 1);
      for (let j = i - 1; j >= 0; j--) {
        const failed = await putBack(staged[j] as Staged);
        results[j] = failed === null ? { kind: 'put-back' } : { kind: 'not-put-back', reason: failed };
      }
      return results;
    }
  }
  for (const [i, item] of staged.entries()) {
    results[i] = { kind: 'written' };
    if (item.movedAside) await rm(item.aside, { recursive: true, force: true }).catch(() => {});
  }
  return results;
}

/**
 * Writes a skill folder atomically (see {@link writeSkillFolders}, for one folder): the files go to
 * a temporary folder beside the skills folder, then it is renamed into place; an existing folder is
 * moved aside first and removed after. On any failure the previous folder is put back and the
 * temporary one removed.
 *
 * @param skillsFolder - the agent's skills folder (created if missing)
 * @throws CliError naming the folder and why it could not be written
 */
export async function writeSkillFolder(
  skillsFolder: string,
  name: string,
  files: ReadonlyMap<string, Uint8Array>,
  executable: ReadonlySet<string> = new Set(),
): Promise<void> {
  const [result] = await writeSkillFolders([skillsFolder], name, files, executable);
  if (result?.kind === 'failed' || result?.kind === 'not-put-back') throw new CliError(result.reason);
}

/** Removes an installed skill folder (a symlink is removed, not followed). */
export async function removeSkillFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
