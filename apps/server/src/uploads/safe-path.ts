/**
 * Rules for the relative path of a file inside a skill folder (zip slip and friends): the rule of
 * `skillUploadPathProblem` in @skillport/core, which clients check before uploading.
 */
import { SkillportError, skillUploadPathProblem } from '@skillport/core';

/**
 * Checks a relative POSIX path of a skill file and returns it unchanged.
 * Refused (the rule of `skillUploadPathProblem` in @skillport/core, which gives the reason and the
 * message): empty paths, absolute paths, drive letters, backslashes, `.`/`..`/empty segments,
 * control characters (NUL included), segments (file or folder names) over 255 bytes in UTF-8 (what
 * ext4 and APFS hold: 255 ASCII characters, 85 CJK ones), names Windows cannot create (a character of
 * `<>:"|?*`, a trailing `.` or space, a device name such as `con` or `com1.txt`), and nesting deeper
 * than `maxDepth`. Every file so passed can be written back to disk on Linux, macOS and Windows.
 *
 * @param path - the path as found in the upload (folder entries end with `/`, which is removed)
 * @param maxDepth - most path segments allowed (file name included)
 * @param written - the name as the upload spells it, when `path` was derived from it (a zip entry
 *   written with `\`): the refusal names it (default `path`)
 * @returns the path without a trailing `/`
 * @throws SkillportError `INVALID_ARGUMENT` with `details {field: 'path', path, reason}` (`path`: as written)
 */
export function checkSkillFilePath(path: string, maxDepth: number, written = path): string {
  const problem = skillUploadPathProblem(path, { maxDepth, written });
  if (problem !== null) {
    throw new SkillportError('INVALID_ARGUMENT', problem.message, {
      details: { field: 'path', path: written.slice(0, 500), reason: problem.reason },
    });
  }
  return path.endsWith('/') ? path.slice(0, -1) : path;
}
