/**
 * Checking a local skill folder or file against the server's limits (`GET /api/v1/system/limits`)
 * before it is uploaded, so an oversized skill is refused here, naming the server setting, instead of
 * after minutes of uploading.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { AsyncHTTPClient, SkillSource } from '@skillport/sdk-node';
import { isApiError } from '@skillport/sdk-node';
import { CliError } from './io.js';

/** The limits this check reads (a subset of the server's answer). */
export interface UploadLimits {
  max_upload_bytes: number;
  max_zip_entries: number;
  max_uncompressed_bytes: number;
  max_files_per_skill: number;
  /** Most segments of a file's path (absent from older servers: 16, the default). */
  max_path_depth?: number;
  settings: Record<string, string>;
  /** What add does with a name outside the name rule (absent from older servers: `strict`). */
  name_policy?: 'strict' | 'slug';
}

/** `12.5 MB` / `25 MiB`-style size for messages: bytes in binary units, one decimal. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0
    ? `${bytes} bytes`
    : `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * The server's limits, or `undefined` when the server predates the limits route (404): the upload then
 * goes ahead and the server's own 413 is the answer.
 * @throws the client's errors otherwise (the same the upload itself would meet).
 */
export async function fetchUploadLimits(client: AsyncHTTPClient): Promise<UploadLimits | undefined> {
  try {
    return await client.getLimits();
  } catch (error) {
    if (isApiError(error) && error.status === 404) return undefined;
    throw error;
  }
}

function setting(limits: UploadLimits, field: keyof UploadLimits, fallback: string): string {
  return limits.settings[field] ?? fallback;
}

function refuse(
  label: string,
  what: string,
  limits: UploadLimits,
  field: keyof UploadLimits,
  env: string,
): never {
  throw new CliError(
    `${label}: ${what}; nothing was uploaded. Make the skill smaller, or ask the server's operator to raise ` +
      `${setting(limits, field, env)}.`,
  );
}

/** A file of a local skill folder that was not uploaded: path inside the folder, reason, message. */
export interface SkippedFile {
  path: string;
  /** `symlink`, `outside_root`, `ignored`, `not_a_file` or `unreadable`. */
  reason: string;
  message: string;
}

/** What to hand to `addSkill`/`updateSkill`, and the files of a local folder left out of the upload. */
export interface CheckedUpload {
  source: SkillSource;
  filename?: string;
  /** Entries of a local folder that were not uploaded (empty for files, content and JSON). */
  skipped: SkippedFile[];
}

/**
 * For a folder the server would refuse as it is (`path_conflict` of `zipSkillDir`, or a file path
 * the server's path rule refuses): what to do.
 */
function nothingUploaded(error: unknown): string {
  const details = (error as { details?: { reason?: unknown; field?: unknown } } | null)?.details;
  if (details?.reason === 'path_conflict')
    return '; nothing was uploaded. Rename or remove one of the two (a server refuses the skill as it is).';
  if (details?.field === 'path' && typeof details.reason === 'string')
    return `; nothing was uploaded. Rename, move or remove it (a server refuses the skill as it is: ${details.reason}).`;
  return '';
}

/**
 * Reads a local skill source for upload and checks it against `limits`: a folder is zipped here (SKILL.md at
 * the archive root, symlinks left out, as the SDK does) with its file count and total size bounded by the
 * server's, then the archive size is checked; a file's size is checked before it is read.
 * @param local - absolute path of an existing file or folder
 * @param limits - the server's limits, or undefined (no limits route): a folder is zipped without them
 * @returns the source and the options to hand to `addSkill`/`updateSkill`, and the folder's entries
 *   left out of the upload (`skipped`)
 * @throws CliError naming the limit, the size found and the server setting (`SKILLPORT_MAX_UPLOAD_BYTES`, …)
 */
export async function readCheckedUpload(
  local: string,
  label: string,
  limits: UploadLimits | undefined,
): Promise<CheckedUpload> {
  const info = await stat(local);
  if (limits === undefined) {
    // A server without the limits route: zipped here all the same, to know what is left out.
    if (!info.isDirectory()) return { source: local, skipped: [] };
    const { zipSkillDir } = await import('@skillport/core/node');
    const skipped: SkippedFile[] = [];
    try {
      const zip = await zipSkillDir(local, {
        onSkipped: ({ path, reason, message }) => skipped.push({ path, reason, message }),
      });
      return {
        source: new Blob([zip as Uint8Array<ArrayBuffer>]),
        filename: `${path.basename(local) || 'skill'}.zip`,
        skipped,
      };
    } catch (error) {
      throw new CliError(`${label}: ${(error as Error).message}${nothingUploaded(error)}`);
    }
  }
  if (!info.isDirectory()) {
    if (info.size > limits.max_upload_bytes) {
      refuse(
        label,
        `${formatBytes(info.size)}, more than the server takes in one upload (${formatBytes(limits.max_upload_bytes)})`,
        limits,
        'max_upload_bytes',
        'SKILLPORT_MAX_UPLOAD_BYTES',
      );
    }
    return { source: local, skipped: [] };
  }
  const { zipSkillDir } = await import('@skillport/core/node');
  // The server stores SKILL.md, the L0 abstract and the auxiliary files: two places are taken.
  const maxFiles = Math.max(0, Math.min(limits.max_files_per_skill - 2, limits.max_zip_entries - 1));
  let zip: Uint8Array;
  const skipped: SkippedFile[] = [];
  try {
    zip = await zipSkillDir(local, {
      maxFiles,
      maxTotalBytes: limits.max_uncompressed_bytes,
      maxPathDepth: limits.max_path_depth,
      onSkipped: ({ path, reason, message }) => skipped.push({ path, reason, message }),
    });
  } catch (error) {
    const details = (error as { code?: string; details?: { limit?: string; actual?: number } }).details;
    if ((error as { code?: string }).code === 'PAYLOAD_TOO_LARGE' && details?.limit === 'maxTotalBytes') {
      refuse(
        label,
        `its files add up to more than the server takes (${formatBytes(limits.max_uncompressed_bytes)} uncompressed)`,
        limits,
        'max_uncompressed_bytes',
        'SKILLPORT_MAX_UNCOMPRESSED_BYTES',
      );
    }
    if ((error as { code?: string }).code === 'PAYLOAD_TOO_LARGE' && details?.limit === 'maxFiles') {
      const byEntries = limits.max_zip_entries - 1 < limits.max_files_per_skill - 2;
      refuse(
        label,
        `more auxiliary files than the server keeps per skill (at most ${maxFiles} besides SKILL.md)`,
        limits,
        byEntries ? 'max_zip_entries' : 'max_files_per_skill',
        byEntries ? 'SKILLPORT_MAX_ZIP_ENTRIES' : 'SKILLPORT_MAX_FILES_PER_SKILL',
      );
    }
    throw new CliError(`${label}: ${(error as Error).message}${nothingUploaded(error)}`);
  }
  if (zip.byteLength > limits.max_upload_bytes) {
    refuse(
      label,
      `${formatBytes(zip.byteLength)} zipped, more than the server takes in one upload (${formatBytes(limits.max_upload_bytes)})`,
      limits,
      'max_upload_bytes',
      'SKILLPORT_MAX_UPLOAD_BYTES',
    );
  }
  // The rest of what the server's add checks (the zip bomb guard's compression ratio, SKILL.md size),
  // with the same function `skills validate` uses offline; limits an older server does not report
  // take their defaults.
  const { checkSkillZip, DEFAULT_UPLOAD_LIMITS } = await import('@skillport/core/node');
  const problem = checkSkillZip(zip, {
    ...DEFAULT_UPLOAD_LIMITS,
    ...limits,
    settings: { ...DEFAULT_UPLOAD_LIMITS.settings, ...limits.settings },
  });
  if (problem !== null) {
    throw new CliError(
      `${label}: ${problem.message}; nothing was uploaded. Make the skill smaller, or ask the server's ` +
        `operator to raise ${problem.setting}.`,
    );
  }
  return {
    source: new Blob([zip as Uint8Array<ArrayBuffer>]),
    filename: `${path.basename(local) || 'skill'}.zip`,
    skipped,
  };
}

/**
 * What to hand to `addSkill`/`updateSkill` for a resolved `<path|content>` argument: a local file or
 * folder is checked against the server's limits first (and a folder zipped here); content and JSON pass
 * through. Against a server without the limits route a folder is zipped here without limits (the
 * server's own 413 is then the answer). The entries of a folder left out (symlinks, ignored names)
 * come back in `skipped`.
 */
export async function checkedSource(
  client: AsyncHTTPClient,
  resolved: { source: SkillSource; label: string; local?: string | undefined },
): Promise<CheckedUpload> {
  if (resolved.local === undefined) return { source: resolved.source, skipped: [] };
  const limits = await fetchUploadLimits(client);
  return readCheckedUpload(resolved.local, resolved.label, limits);
}
