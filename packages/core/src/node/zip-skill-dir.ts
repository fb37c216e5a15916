/**
 * `zipSkillDir`: packs a skill folder into a deterministic zip with SKILL.md at the archive root —
 * the upload format of the temp-upload route.
 */
import { type Zippable, zipSync } from 'fflate';
import { SkillportError } from '../errors.js';
import { skillPathConflict } from '../file-path.js';
import { collectSkillFiles, readCollectedFiles } from './internal/collect-skill-files.js';
import type { SkillDirOptions, SkippedEntry } from './skill-dir-options.js';

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
 * names are left out.
 *
 * @param dir - path of the skill folder (relative paths resolve against `process.cwd()`)
 * @param options - walk limits (`maxFiles` 1000, `maxTotalBytes` 64 MiB, `maxDepth` 16, `ignore`)
 *   `level` (deflate level, default 6) and `onSkipped` (told of every entry left out)
 * @returns the zip archive bytes
 * @throws SkillportError `NOT_FOUND` (no folder or no SKILL.md), `INVALID_ARGUMENT` (not a folder,
 *   SKILL.md is a symlink; or two paths that are one file or folder on macOS and Windows, like
 *   `Ref.md` and `ref.md`, which a server refuses as 400 `path_conflict`: `details {reason:
 *   'path_conflict', path, other}`), `PAYLOAD_TOO_LARGE` (a limit exceeded)
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { zipSkillDir } from '@skillport/core/node';
 * await writeFile('my-skill.zip', await zipSkillDir('./skills/my-skill'));
 * ```
 * @see the OpenAPI document: `POST /api/v1/resources/temp_upload`, `POST /api/v1/skills` (temp_file_id: root holds SKILL.md)
 */
export async function zipSkillDir(dir: string, options: ZipSkillDirOptions = {}): Promise<Uint8Array> {
  const collected = await collectSkillFiles(dir, options);
  if (options.onSkipped) for (const entry of collected.skipped) options.onSkipped(entry);
  const all = [collected.skillMd, ...collected.files];
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
