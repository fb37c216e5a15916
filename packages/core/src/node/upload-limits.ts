/**
 * The upload limits of a Skillport server (`GET /api/v1/system/limits`) and the verdict on a zipped
 * skill folder under them, computed as the server's add computes it, so a local check (the CLI's
 * `skills validate`, or `add-skill` before uploading) refuses exactly what the server would refuse.
 */
import { unzipSync } from 'fflate';
import { DEFAULT_SKILL_UPLOAD_PATH_DEPTH } from '../upload-path.js';

/**
 * The limits a zipped skill folder meets on add, by their `GET /api/v1/system/limits` names (bytes
 * and counts), with the server setting of each in `settings`.
 */
export interface SkillUploadLimits {
  /** Largest upload, bytes (`SKILLPORT_MAX_UPLOAD_BYTES`, default 25 MiB). */
  max_upload_bytes: number;
  /** Most entries in an uploaded zip (`SKILLPORT_MAX_ZIP_ENTRIES`, default 1000). */
  max_zip_entries: number;
  /** Most bytes once unzipped (`SKILLPORT_MAX_UNCOMPRESSED_BYTES`, default 64 MiB). */
  max_uncompressed_bytes: number;
  /**
   * Highest compression ratio of an entry or of the whole zip, checked once it unzips to 1 MiB or
   * more (`SKILLPORT_MAX_COMPRESSION_RATIO`, default 200: more reads as a zip bomb).
   */
  max_compression_ratio: number;
  /** Most files a skill keeps, SKILL.md and `.abstract.md` included (`SKILLPORT_MAX_FILES_PER_SKILL`, default 500). */
  max_files_per_skill: number;
  /** Largest SKILL.md, bytes (`SKILLPORT_MAX_SKILL_MD_BYTES`, default 1 MiB). */
  max_skill_md_bytes: number;
  /**
   * Most segments of an uploaded file's path, folders and file name (`SKILLPORT_MAX_PATH_DEPTH`,
   * default 16): deeper paths are refused as `too_deep` (see `skillUploadPathProblem` of
   * `@skillport/core`, which `zipSkillDir` and the CLI's `skills validate` apply).
   */
  max_path_depth: number;
  /** The server setting (environment variable) behind each limit, by limit name. */
  settings: Record<string, string>;
}

/** The limits of a server started with default settings (the defaults of the server README). */
export const DEFAULT_UPLOAD_LIMITS: Readonly<SkillUploadLimits> = Object.freeze({
  max_upload_bytes: 25 * 1024 * 1024,
  max_zip_entries: 1000,
  max_uncompressed_bytes: 64 * 1024 * 1024,
  max_compression_ratio: 200,
  max_files_per_skill: 500,
  max_skill_md_bytes: 1024 * 1024,
  max_path_depth: DEFAULT_SKILL_UPLOAD_PATH_DEPTH,
  settings: Object.freeze({
    max_upload_bytes: 'SKILLPORT_MAX_UPLOAD_BYTES',
    max_zip_entries: 'SKILLPORT_MAX_ZIP_ENTRIES',
    max_uncompressed_bytes: 'SKILLPORT_MAX_UNCOMPRESSED_BYTES',
    max_compression_ratio: 'SKILLPORT_MAX_COMPRESSION_RATIO',
    max_files_per_skill: 'SKILLPORT_MAX_FILES_PER_SKILL',
    max_skill_md_bytes: 'SKILLPORT_MAX_SKILL_MD_BYTES',
    max_path_depth: 'SKILLPORT_MAX_PATH_DEPTH',
  }) as Record<string, string>,
});

/** Below this many unzipped bytes the compression ratio is not checked (as on the server). */
export const COMPRESSION_RATIO_FLOOR_BYTES = 1024 * 1024;

/** Why a zipped skill folder would be refused: the limit, its setting, and a sentence naming both. */
export interface UploadLimitProblem {
  /**
   * The limit passed, by its `GET /api/v1/system/limits` name (e.g. `max_compression_ratio`); never
   * `max_path_depth`, which the path rule checks (`skillUploadPathProblem`).
   */
  limit: Exclude<keyof SkillUploadLimits, 'settings' | 'max_path_depth'>;
  /** The server setting that raises it (e.g. `SKILLPORT_MAX_COMPRESSION_RATIO`). */
  setting: string;
  /** The value of the limit. */
  value: number;
  /** The entry concerned, when one is. */
  path?: string;
  /** A sentence naming what was found, the limit and the setting. */
  message: string;
}

const MIB = 1024 * 1024;
const size = (bytes: number) =>
  bytes >= MIB
    ? `${(bytes / MIB).toFixed(1)} MiB`
    : bytes >= 1024
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : `${bytes} bytes`;

/**
 * The first limit a zipped skill folder (as `zipSkillDir` makes it, and as `add` uploads it) passes,
 * or null when a server with `limits` accepts its size: zip size, entries, unzipped total, files per
 * skill, SKILL.md size, and the compression ratio of each entry and of the whole (checked from
 * 1 MiB unzipped, as the server's zip bomb guard does). Reads the zip's directory only.
 *
 * @param zip - the zip bytes
 * @param limits - the server's limits (`GET /api/v1/system/limits`), or {@link DEFAULT_UPLOAD_LIMITS}
 * @returns the problem, or null
 * @throws Error when `zip` is not a zip archive
 * @example
 * ```ts
 * const problem = checkSkillZip(await zipSkillDir('./my-skill'), DEFAULT_UPLOAD_LIMITS);
 * if (problem) console.error(problem.message);
 * ```
 */
export function checkSkillZip(zip: Uint8Array, limits: SkillUploadLimits): UploadLimitProblem | null {
  const problem = (limit: UploadLimitProblem['limit'], found: string, path?: string): UploadLimitProblem => {
    const setting = limits.settings[limit] ?? DEFAULT_UPLOAD_LIMITS.settings[limit] ?? limit;
    return {
      limit,
      setting,
      value: limits[limit],
      ...(path === undefined ? {} : { path }),
      message: `${found} (${limit} ${limits[limit]}, setting ${setting})`,
    };
  };
  if (zip.byteLength > limits.max_upload_bytes) {
    return problem(
      'max_upload_bytes',
      `the zipped folder is ${size(zip.byteLength)}, more than the largest upload (${size(limits.max_upload_bytes)})`,
    );
  }
  const entries: Array<{ name: string; size: number; compressed: number }> = [];
  unzipSync(zip, {
    filter: (file) => {
      entries.push({ name: file.name, size: file.originalSize, compressed: file.size });
      return false;
    },
  });
  if (entries.length > limits.max_zip_entries) {
    return problem(
      'max_zip_entries',
      `the zipped folder has ${entries.length} entries, more than ${limits.max_zip_entries}`,
    );
  }
  // The server keeps SKILL.md, the generated `.abstract.md` and every auxiliary file.
  if (entries.length + 1 > limits.max_files_per_skill) {
    return problem(
      'max_files_per_skill',
      `the skill has ${entries.length} files, more than the ${limits.max_files_per_skill - 1} a skill keeps besides its generated .abstract.md`,
    );
  }
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (total > limits.max_uncompressed_bytes) {
    return problem(
      'max_uncompressed_bytes',
      `its files add up to ${size(total)}, more than ${size(limits.max_uncompressed_bytes)} unzipped`,
    );
  }
  const skillMd = entries.find((e) => e.name === 'SKILL.md');
  if (skillMd !== undefined && skillMd.size > limits.max_skill_md_bytes) {
    return problem(
      'max_skill_md_bytes',
      `SKILL.md is ${size(skillMd.size)}, more than ${size(limits.max_skill_md_bytes)}`,
      'SKILL.md',
    );
  }
  const ratio = (unzipped: number, zipped: number) => unzipped / Math.max(zipped, 1);
  for (const entry of entries) {
    if (
      entry.size >= COMPRESSION_RATIO_FLOOR_BYTES &&
      ratio(entry.size, entry.compressed) > limits.max_compression_ratio
    ) {
      return problem(
        'max_compression_ratio',
        `${entry.name} (${size(entry.size)}) compresses ${Math.round(ratio(entry.size, entry.compressed))}:1, more ` +
          `than ${limits.max_compression_ratio}:1, which the server takes for a zip bomb`,
        entry.name,
      );
    }
  }
  const compressed = entries.reduce((sum, e) => sum + e.compressed, 0);
  if (total >= COMPRESSION_RATIO_FLOOR_BYTES && ratio(total, compressed) > limits.max_compression_ratio) {
    return problem(
      'max_compression_ratio',
      `the folder (${size(total)}) compresses ${Math.round(ratio(total, compressed))}:1, more than ` +
        `${limits.max_compression_ratio}:1, which the server takes for a zip bomb`,
    );
  }
  return null;
}
