/**
 * `zipSkillDir`: packs a skill folder into a deterministic zip with SKILL.md at the archive root —
 * the upload format of the temp-upload route.
 */
import { type Zippable, zipSync } from 'fflate';
import { SkillportError } from '../errors.js';
import { skillPathConflict } from '../file-path.js';
import { DEFAULT_SKILL_UPLOAD_PATH_DEPTH, skillUploadPathProblem } from '../upload-path.js';
import { collectSkillFiles, readCollectedFiles } from './internal/collect-skill-files.js';
import { DEFAULT_SKILL_DIR_LIMITS, type SkillDirOptions, type SkippedEntry } from './skill-dir-options.js';

/** Options of {@link zipSkillDir}: the walk limits of {@link SkillDirOptions} plus compression. */
export interface ZipSkillDirOptions extends SkillDirOptions {
  /** Deflate level 0 (store) to 9. Default 6. */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /**
   * Called once for each entry left out of the archive (a symlink, an entry escaping the folder, an
   * ignored name, a special file), in walk order, before the archive is returned — so a caller can
   * tell its user which files were not uploaded and why.
   */
  onSkipped?: (entry: SkippedEntry) => void;
  /**
   * Most segments of a file's path, folders and file name: the server's `max_path_depth` (`GET
   * /api/v1/system/limits`, setting `SKILLPORT_MAX_PATH_DEPTH`). Default 16, a default server's.
   * A deeper file is refused as the server refuses it (`too_deep`); unless `maxDepth` is given,
   * folders are walked this deep (16 at least).
   */
  maxPathDepth?: number | undefined;
}

/** "Version made by" host of every entry: 3 = Unix, so readers take `attrs` as a Unix mode. */
const UNIX_HOST = 3;
/** External attributes of an entry: a regular file's Unix mode in the high 16 bits, 755 or 644. */
const EXECUTABLE_ATTRS = (0o100755 << 16) >>> 0;
const REGULAR_ATTRS = (0o100644 << 16) >>> 0;

/** Fixed timestamp of every entry (1980-01-01, the zip epoch), so equal folders give equal bytes. */
const ZIP_EPOCH = new Date(1980, 0, 1, 0, 0, 0);

/**
 * Zips a skill folder: `SKILL.md` first, at the archive root, then every auxiliary file at its
 * relative POSIX path in sorted order (a root file with a purely numeric name, like `2024`, is
 * written before SKILL.md: the zip writer orders entries as object keys). Timestamps are fixed, so the same folder always gives the same
 * bytes. Every entry carries a Unix mode (host 3 in "version made by"): 755 for a file its owner may
 * execute (a `scripts/run.sh` of mode 755 or 700), 644 for any other — the one distinction git keeps,
 * and the one the server stores as the file's `executable` flag. Nothing is executable on Windows.
 * Follows the rules of {@link loadSkillDir}: symlinks, entries escaping the folder and ignored
 * names are left out. Every file's path must be one the server's add takes (`skillUploadPathProblem`
 * of `@skillport/core`): no name Windows cannot create (`aux.py`, `notes: draft.md`, `draft.`), no
 * name over 255 bytes in UTF-8, no backslash or control character, no deeper than `maxPathDepth`.
 *
 * @param dir - path of the skill folder (relative paths resolve against `process.cwd()`)
 * @param options - walk limits (`maxFiles` 1000, `maxTotalBytes` 64 MiB, `maxDepth` 16 folders,
 *   `ignore`), `maxPathDepth` (16 path segments, a default server's `max_path_depth`), `level`
 *   (deflate level, default 6) and `onSkipped` (told of every entry left out)
 * @returns the zip archive bytes
 * @throws SkillportError `NOT_FOUND` (no folder or no SKILL.md), `INVALID_ARGUMENT` (not a folder,
 *   SKILL.md is a symlink; a file path the server refuses, with the server's message and `details
 *   {field: 'path', path, reason}`, `reason` that of `skillUploadPathProblem` such as `windows_name`
 *   or `too_deep` — a folder nested past `maxDepth` and `maxPathDepth` is `too_deep` too, naming the
 *   folder; or two paths that are one file or folder on macOS and Windows, like `Ref.md` and
 *   `ref.md`, which a server refuses as 400 `path_conflict`: `details {reason: 'path_conflict', path,
 *   other}`), `PAYLOAD_TOO_LARGE` (a limit exceeded)
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { zipSkillDir } from '@skillport/core/node';
 * await writeFile('my-skill.zip', await zipSkillDir('./skills/my-skill'));
 * ```
 * @see the OpenAPI document: `POST /api/v1/resources/temp_upload`, `POST /api/v1/skills` (temp_file_id: root holds SKILL.md)
 */
export async function zipSkillDir(dir: string, options: ZipSkillDirOptions = {}): Promise<Uint8Array> {
  const maxPathDepth = options.maxPathDepth ?? DEFAULT_SKILL_UPLOAD_PATH_DEPTH;
  // Folders are walked as deep as a file of `maxPathDepth` segments lies, and one level more, so a
  // file the server refuses as too deep is named as the server names it.
  const maxDepth = options.maxDepth ?? Math.max(DEFAULT_SKILL_DIR_LIMITS.maxDepth, maxPathDepth);
  const collected = await collectSkillFiles(dir, { ...options, maxDepth }).catch((error: unknown) => {
    throw tooDeepFolder(error, maxPathDepth) ?? error;
  });
  if (options.onSkipped) for (const entry of collected.skipped) options.onSkipped(entry);
  const all = [collected.skillMd, ...collected.files];
  // In the archive's order (SKILL.md, then by path), as the server's add checks the entries.
  for (const file of all) {
    const problem = skillUploadPathProblem(file.path, { maxDepth: maxPathDepth });
    if (problem !== null) throw unsafePath(problem.message, file.path, problem.reason);
  }
  // Refused before any file is read: the server would refuse the archive (see `skillPathConflict`).
  const conflict = skillPathConflict(all.map((file) => file.path));
  if (conflict !== null) {
    throw new SkillportError('INVALID_ARGUMENT', conflict.message, {
      details: { reason: 'path_conflict', path: conflict.path, other: conflict.other },
    });
  }
  const contents = await readCollectedFiles(all);
  const level = options.level ?? 6;
  const entries: Zippable = {};
  all.forEach((file, index) => {
    entries[file.path] = [
      contents[index] as Uint8Array,
      {
        level,
        mtime: ZIP_EPOCH,
        os: UNIX_HOST,
        attrs: file.executable ? EXECUTABLE_ATTRS : REGULAR_ATTRS,
      },
    ];
  });
  return zipSync(entries, { level, mtime: ZIP_EPOCH });
}

function unsafePath(message: string, path: string, reason: string): SkillportError {
  return new SkillportError('INVALID_ARGUMENT', message, {
    details: { field: 'path', path: path.slice(0, 500), reason },
  });
}

/**
 * The walk's `maxDepth` refusal of a folder, as the path rule's `too_deep` when the folder itself is
 * deeper than `maxPathDepth` (the server refuses every file in it); otherwise null (the caller's
 * own `maxDepth` was passed).
 */
function tooDeepFolder(error: unknown, maxPathDepth: number): SkillportError | null {
  const details = (error as { details?: { limit?: unknown; actual?: unknown; path?: unknown } }).details;
  if (details?.limit !== 'maxDepth' || typeof details.path !== 'string') return null;
  if (typeof details.actual !== 'number' || details.actual <= maxPathDepth) return null;
  const problem = skillUploadPathProblem(`${details.path}/`, { maxDepth: maxPathDepth });
  return problem === null ? null : unsafePath(problem.message, `${details.path}/`, problem.reason);
}
