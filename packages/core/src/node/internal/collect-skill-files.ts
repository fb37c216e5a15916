/**
 * Walks a skill folder for upload: SKILL.md at the root, auxiliary files recursively, symlinks and
 * anything whose real path escapes the folder skipped and reported, bounded by file count, total size
 * and depth. Shared by `loadSkillDir` and `zipSkillDir` so both apply the same rules.
 */
import { lstat, readdir, readFile, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { SkillportError } from '../../errors.js';
import { DEFAULT_SKILL_DIR_LIMITS, type SkillDirOptions, type SkippedEntry } from '../skill-dir-options.js';
import { mapConcurrent } from './concurrency.js';
import { describeFsError, fsErrorCode, isInside, toPosixRelative } from './paths.js';

/** One file found in a skill folder. */
export interface CollectedFile {
  /** POSIX path relative to the skill folder. */
  path: string;
  absolutePath: string;
  size: number;
  /**
   * Whether the file's owner may execute it (mode bit 0o100, the one bit git keeps: 755 vs 644);
   * always false on Windows, whose file modes carry no execute bit.
   */
  executable: boolean;
}

/** What a walk found: the resolved folder, SKILL.md, auxiliary files (sorted) and skipped entries. */
export interface CollectedSkillDir {
  root: string;
  skillMd: CollectedFile;
  files: CollectedFile[];
  skipped: SkippedEntry[];
}

/**
 * Whether a file mode (as `fs.Stats.mode` gives it) makes a file executable here: the owner's
 * execute bit, as git decides between 755 and 644. False on Windows, where modes carry no such bit.
 */
export function isExecutableMode(mode: number): boolean {
  return process.platform !== 'win32' && (mode & 0o100) !== 0;
}

function limitError(limit: string, max: number, actual: number, where: string): SkillportError {
  return new SkillportError(
    'PAYLOAD_TOO_LARGE',
    `Skill folder exceeds ${limit} (${max}): ${actual} at ${where}; raise the ${limit} option or remove files`,
    { details: { limit, max, actual, path: where } },
  );
}

/** Resolves and checks the folder itself; throws NOT_FOUND / INVALID_ARGUMENT. */
async function resolveRoot(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  let resolved: string;
  try {
    resolved = await realpath(absolute);
  } catch (error) {
    throw new SkillportError('NOT_FOUND', `Skill folder not found: ${absolute} (${describeFsError(error)})`, {
      details: { path: absolute },
      cause: error,
    });
  }
  const info = await stat(resolved);
  if (!info.isDirectory()) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Not a folder: ${absolute}; expected a skill folder holding SKILL.md, e.g. ./my-skill/`,
      { details: { path: absolute } },
    );
  }
  return resolved;
}

async function describeSymlink(root: string, absolute: string, rel: string): Promise<SkippedEntry> {
  let target = '';
  try {
    target = await readlink(absolute);
    const real = await realpath(absolute);
    if (!isInside(root, real)) {
      return {
        path: rel,
        reason: 'outside_root',
        message: `symlink to ${target} resolves outside the skill folder; not followed`,
      };
    }
  } catch (error) {
    return {
      path: rel,
      reason: 'symlink',
      message: `dangling symlink (${describeFsError(error)}); not followed`,
    };
  }
  return { path: rel, reason: 'symlink', message: `symlink to ${target}; symlinks are not followed` };
}

/**
 * Walks `dir` and returns SKILL.md plus every auxiliary file, sorted by path (code-unit order).
 *
 * @throws SkillportError NOT_FOUND (no folder, no SKILL.md), INVALID_ARGUMENT (not a folder, SKILL.md
 * not a regular file), PAYLOAD_TOO_LARGE (a limit exceeded)
 */
/**
 * The ignore list as a function of an entry name: exact names, `prefix*` and `*suffix` patterns.
 * @returns the first pattern that matches, or undefined
 */
function ignoreMatcher(patterns: readonly string[]): (name: string) => string | undefined {
  return (name) =>
    patterns.find((p) =>
      p.endsWith('*')
        ? name.startsWith(p.slice(0, -1))
        : p.startsWith('*')
          ? name.endsWith(p.slice(1))
          : name === p,
    );
}

export async function collectSkillFiles(
  dir: string,
  options: SkillDirOptions = {},
): Promise<CollectedSkillDir> {
  const maxFiles = options.maxFiles ?? DEFAULT_SKILL_DIR_LIMITS.maxFiles;
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_SKILL_DIR_LIMITS.maxTotalBytes;
  const maxDepth = options.maxDepth ?? DEFAULT_SKILL_DIR_LIMITS.maxDepth;
  const ignored = ignoreMatcher(options.ignore ?? DEFAULT_SKILL_DIR_LIMITS.ignore);
  const root = await resolveRoot(dir);

  const files: CollectedFile[] = [];
  const skipped: SkippedEntry[] = [];
  let skillMd: CollectedFile | undefined;
  let totalBytes = 0;

  const walk = async (folder: string, depth: number): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subfolders: string[] = [];
    for (const entry of entries) {
      const absolute = path.join(folder, entry.name);
      const rel = toPosixRelative(root, absolute);
      const pattern = ignored(entry.name);
      if (pattern !== undefined) {
        skipped.push({
          path: rel,
          reason: 'ignored',
          message: `${entry.name} matches "${pattern}" of the ignore list`,
        });
      } else if (entry.isSymbolicLink()) {
        skipped.push(await describeSymlink(root, absolute, rel));
      } else if (entry.isDirectory()) {
        if (depth + 1 > maxDepth) throw limitError('maxDepth', maxDepth, depth + 1, rel);
        subfolders.push(absolute);
      } else if (entry.isFile()) {
        const info = await lstat(absolute);
        const size = info.size;
        const executable = isExecutableMode(info.mode);
        totalBytes += size;
        if (totalBytes > maxTotalBytes) throw limitError('maxTotalBytes', maxTotalBytes, totalBytes, rel);
        if (depth === 0 && entry.name === 'SKILL.md') {
          skillMd = { path: rel, absolutePath: absolute, size, executable };
        } else {
          files.push({ path: rel, absolutePath: absolute, size, executable });
          if (files.length > maxFiles) throw limitError('maxFiles', maxFiles, files.length, rel);
        }
      } else {
        skipped.push({ path: rel, reason: 'not_a_file', message: 'not a regular file or folder; skipped' });
      }
    }
    for (const sub of subfolders) await walk(sub, depth + 1);
  };
  await walk(root, 0);

  if (skillMd === undefined) {
    const linked = skipped.find((entry) => entry.path === 'SKILL.md');
    if (linked) {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        `SKILL.md in ${root} is a symlink (${linked.message}); replace it with the file itself`,
        { details: { path: path.join(root, 'SKILL.md'), reason: linked.reason } },
      );
    }
    const lower = files.find((file) => file.path.toLowerCase() === 'skill.md');
    const hint = lower ? ` (found ${lower.path}; the name must be exactly SKILL.md)` : '';
    throw new SkillportError(
      'NOT_FOUND',
      `No SKILL.md at the root of ${root}${hint}; a skill folder looks like my-skill/SKILL.md`,
      { details: { path: path.join(root, 'SKILL.md') } },
    );
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { root, skillMd, files, skipped };
}

/**
 * Reads the content of collected files, a few at a time.
 *
 * @throws SkillportError PROCESSING_ERROR when a file vanished or became unreadable meanwhile
 */
export async function readCollectedFiles(files: readonly CollectedFile[]): Promise<Uint8Array[]> {
  return mapConcurrent(files, 16, async (file) => {
    try {
      const buffer = await readFile(file.absolutePath);
      return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    } catch (error) {
      throw new SkillportError(
        'PROCESSING_ERROR',
        `Cannot read ${file.absolutePath}: ${describeFsError(error)} (${fsErrorCode(error) ?? 'error'})`,
        { details: { path: file.absolutePath }, cause: error },
      );
    }
  });
}
