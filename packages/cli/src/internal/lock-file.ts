/**
 * `skillport-lock.json`: what `skillport install` put where, pinned to a revision with every file's
 * sha-256, so `skillport install` with no names reproduces the same bytes (and `--frozen` proves it).
 *
 * Format, version 1 (a JSON object; keys sorted, two-space indent, trailing newline, so it diffs well):
 *
 * ```json
 * {
 *   "lockfileVersion": 1,
 *   "skills": {
 *     "release-notes": {
 *       "server": "http://127.0.0.1:1933",
 *       "root_uri": "viking://user/default/skills",
 *       "name": "release-notes",
 *       "revision": "<64 hex: the skill's revision on the server>",
 *       "folders": [".claude/skills", ".cursor/skills"],
 *       "files": [
 *         { "path": "SKILL.md", "sha256": "<64 hex>", "size": 812 },
 *         { "path": "scripts/run.sh", "sha256": "<64 hex>", "size": 96, "executable": true }
 *       ]
 *     }
 *   }
 * }
 * ```
 *
 * - `server` — the registry's base URL (never an API key); `root_uri` — the skill root it came from;
 *   `revision` — the pinned revision (`GET /api/v1/skills/{name}?revision=`).
 * - `folders` — the skills folders it was installed into, relative to the project root (or starting
 *   with `~/` in the user lock of `--global`); the skill lives in `<folder>/<name>/`.
 * - `files` — every file written (SKILL.md and auxiliary files; the server's generated `.abstract.md`
 *   and `.overview.md` are not installed), sorted by path, with its sha-256 and size in bytes, and
 *   `"executable": true` on an executable file (written with mode 755 on POSIX systems; the key is
 *   absent on any other file, so a lock without executable files reads as before).
 *
 * A reader refuses a `lockfileVersion` it does not know, naming the file and the versions it reads,
 * and a file path or project folder that would leave the skill folder or the project (`..`, absolute).
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { makeFolder } from './folder.js';
import { CliError } from './io.js';
import { isSafeRelativePath } from './skill-folder.js';

/** Name of the project lock file. */
export const LOCK_FILE_NAME = 'skillport-lock.json';

/** The lock file version this build writes and reads. */
export const LOCK_FILE_VERSION = 1;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected 64 lowercase hex characters');

const LockedFileSchema = z.strictObject({
  path: z.string().refine(isSafeRelativePath, 'expected a relative path without ".", ".." or empty segments'),
  sha256,
  size: z.number().int().nonnegative(),
  executable: z.literal(true).optional(),
});

const LockedSkillSchema = z.strictObject({
  server: z.string().url(),
  root_uri: z.string().min(1),
  name: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected a skill name'),
  revision: sha256,
  folders: z.array(
    z.string().refine(
      // A project lock comes with the project (a clone, a pull request): its folders stay inside it.
      // `~/…` folders are only in the user's own lock (XDG_CONFIG_HOME may lie outside the home folder).
      (f) => (f.startsWith('~/') && f.length > 2) || isSafeRelativePath(f),
      'expected a folder inside the project (or ~/…), without ".", ".." or empty segments',
    ),
  ),
  files: z.array(LockedFileSchema).min(1),
});

const LockFileSchema = z.strictObject({
  lockfileVersion: z.literal(LOCK_FILE_VERSION),
  skills: z.record(z.string(), LockedSkillSchema),
});

/** One file of a locked skill. */
export type LockedFile = z.infer<typeof LockedFileSchema>;
/** One locked skill. */
export type LockedSkill = z.infer<typeof LockedSkillSchema>;
/** The whole lock file. */
export type LockFile = z.infer<typeof LockFileSchema>;

/** An empty lock. */
export function emptyLock(): LockFile {
  return { lockfileVersion: LOCK_FILE_VERSION, skills: {} };
}

/**
 * Reads a lock file.
 *
 * @returns the lock, or null when the file does not exist
 * @throws CliError naming the file for unreadable JSON, an unknown version or a malformed entry
 */
export async function readLock(file: string): Promise<LockFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // A byte order mark, as Windows editors and PowerShell 5 save UTF-8, is not part of the JSON.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(
      `${file} is not valid JSON (${(error as Error).message}); restore it from version control`,
    );
  }
  const version = (parsed as { lockfileVersion?: unknown } | null)?.lockfileVersion;
  if (version !== LOCK_FILE_VERSION) {
    throw new CliError(
      `${file} has lockfileVersion ${JSON.stringify(version)}; this skillport reads version ${LOCK_FILE_VERSION}` +
        (typeof version === 'number' && version > LOCK_FILE_VERSION ? ' (upgrade skillport)' : ''),
    );
  }
  const result = LockFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? issue.path.join('.') : '';
    throw new CliError(`${file} is malformed at ${where || 'the top level'}: ${issue?.message ?? 'invalid'}`);
  }
  for (const [key, entry] of Object.entries(result.data.skills)) {
    if (key !== entry.name) throw new CliError(`${file}: the entry "${key}" names the skill "${entry.name}"`);
  }
  return result.data;
}

/** The lock as written: skills by name, folders and files sorted, fixed key order. */
function normalize(lock: LockFile): LockFile {
  const skills: Record<string, LockedSkill> = {};
  for (const name of Object.keys(lock.skills).sort()) {
    const entry = lock.skills[name] as LockedSkill;
    skills[name] = {
      server: entry.server,
      root_uri: entry.root_uri,
      name: entry.name,
      revision: entry.revision,
      folders: [...new Set(entry.folders)].sort(),
      files: [...entry.files]
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .map((f) =>
          f.executable === true
            ? { path: f.path, sha256: f.sha256, size: f.size, executable: true as const }
            : { path: f.path, sha256: f.sha256, size: f.size },
        ),
    };
  }
  return { lockfileVersion: LOCK_FILE_VERSION, skills };
}

/** The text of a lock file (deterministic: the same lock always gives the same bytes). */
export function renderLock(lock: LockFile): string {
  return `${JSON.stringify(normalize(lock), null, 2)}\n`;
}

/** Writes a lock file atomically (temporary file, then rename); creates its folder. */
export async function writeLock(file: string, lock: LockFile): Promise<void> {
  makeFolder(path.dirname(file));
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, renderLock(lock));
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw new CliError(`cannot write ${file}: ${(error as Error).message}`);
  }
}

/** How long a command waits for another one's hold on the lock file before giving up, in ms. */
const HOLD_WAIT_MS = 30_000;
/** A hold older than this (ms) is left over from a process that died while saving: it is removed. */
const HOLD_STALE_MS = 15_000;

/** Whether a process of this machine with that id is running. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the exclusive hold on a lock file: `<file>.hold`, created only if absent, holding
 * `<pid> <host>`, for the few milliseconds a save takes. A hold whose process is gone (same host), or
 * older than 15 s, is removed and taken.
 *
 * @returns a function that gives the hold back
 * @throws CliError after waiting 30 s for a live hold, naming the file to delete if no skillport runs
 */
async function takeHold(file: string): Promise<() => Promise<void>> {
  const hold = `${file}.hold`;
  const deadline = Date.now() + HOLD_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(hold, 'wx');
      try {
        await handle.writeFile(`${process.pid} ${os.hostname()}\n`);
      } finally {
        await handle.close();
      }
      return () => rm(hold, { force: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') makeFolder(path.dirname(file));
      else if (code !== 'EEXIST') throw new CliError(`cannot write ${hold}: ${(error as Error).message}`);
    }
    const [owner, since] = await Promise.all([
      readFile(hold, 'utf8').catch(() => ''),
      stat(hold).then(
        (s) => s.mtimeMs,
        () => null,
      ),
    ]);
    if (since === null) continue; // given back meanwhile
    const [pidText, host] = owner.trim().split(' ');
    const pid = Number(pidText);
    const dead = host === os.hostname() && Number.isInteger(pid) && pid > 0 && !processAlive(pid);
    if (dead || Date.now() - since > HOLD_STALE_MS) {
      await rm(hold, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new CliError(
        `${file} is being saved by another skillport (process ${pidText || '?'}${host ? ` on ${host}` : ''}) ` +
          `for more than ${HOLD_WAIT_MS / 1000} s; if no skillport is running, delete ${hold} and run the command again`,
      );
    }
    await sleep(Math.min(10 + attempt * 10, 100));
  }
}

/** The text an entry is written as, for telling whether a command changed it. */
function entryText(entry: LockedSkill | undefined): string {
  return entry === undefined ? '' : renderLock({ lockfileVersion: LOCK_FILE_VERSION, skills: { e: entry } });
}

/**
 * Saves what a command changed in a lock file while other skillport commands may be changing it too
 * (two `skillport install` in one project at once). Under an exclusive hold (`<file>.hold`) it reads
 * the file again, applies every skill whose entry differs between `base` (the lock as the command
 * read it) and `lock` (as the command leaves it) — added, changed, or removed when absent from
 * `lock` — and writes the result atomically ({@link writeLock}). Skills changed by the others since
 * `base` was read are kept; a skill changed by both gets this command's entry.
 *
 * @returns the lock as written (what the file now lists)
 * @throws CliError when the file cannot be read or written, or the hold is not given back in 30 s
 */
export async function saveLock(file: string, base: LockFile, lock: LockFile): Promise<LockFile> {
  const giveBack = await takeHold(file);
  try {
    const current = (await readLock(file)) ?? emptyLock();
    for (const name of new Set([...Object.keys(base.skills), ...Object.keys(lock.skills)])) {
      const mine = lock.skills[name];
      if (entryText(mine) === entryText(base.skills[name])) continue;
      if (mine === undefined) delete current.skills[name];
      else current.skills[name] = mine;
    }
    await writeLock(file, current);
    return current;
  } finally {
    await giveBack();
  }
}
