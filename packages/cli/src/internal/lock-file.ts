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
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
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
    parsed = JSON.parse(text);
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
