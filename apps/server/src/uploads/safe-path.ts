/**
 * Rules for the relative path of a file inside a skill folder (zip slip and friends).
 */
import { SkillportError } from '@skillport/core';

const DRIVE_LETTER = /^[A-Za-z]:/;
// Control characters (C0, DEL) are not allowed in a stored file name.
const CONTROL = /[\u0000-\u001f\u007f]/;
// Characters Windows refuses in a file or folder name.
const WINDOWS_CHARACTER = /[<>:"|?*]/;
// Device names Windows reserves in every folder, with any extension too (`con.txt`), any case.
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;
// Longest file or folder name, in UTF-8 bytes: what ext4 and APFS hold (NTFS holds 255 UTF-16
// units, never fewer characters), so a stored skill can be installed on any of them.
const MAX_SEGMENT_BYTES = 255;

function refuseWritten(path: string, reason: string, message: string, written = path): never {
  const read = written === path ? '' : ` (read as ${JSON.stringify(path.slice(0, 200))})`;
  throw new SkillportError(
    'INVALID_ARGUMENT',
    `Unsafe file path ${JSON.stringify(written.slice(0, 200))}${read}: ${message}`,
    {
      details: { field: 'path', path: written.slice(0, 500), reason },
    },
  );
}

/**
 * Checks a relative POSIX path of a skill file and returns it unchanged.
 * Refused: empty paths, absolute paths, drive letters, backslashes, `.`/`..`/empty segments,
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
  const refuse = (at: string, reason: string, message: string): never =>
    refuseWritten(at, reason, message, written);
  const p = path.endsWith('/') ? path.slice(0, -1) : path;
  if (p.length === 0) refuse(path, 'empty', 'the path is empty');
  if (CONTROL.test(p)) refuse(path, 'control_character', 'control characters (NUL included) are not allowed');
  if (p.includes('\\')) refuse(path, 'backslash', 'backslashes are not allowed (use `/`)');
  if (p.startsWith('/')) refuse(path, 'absolute', 'absolute paths are not allowed');
  if (DRIVE_LETTER.test(p)) refuse(path, 'drive_letter', 'drive letters are not allowed');
  const segments = p.split('/');
  for (const segment of segments) {
    if (segment === '..') refuse(path, 'traversal', '`..` segments are not allowed');
    if (segment === '.' || segment === '')
      refuse(path, 'empty_segment', '`.` and empty segments are not allowed');
    // UTF-8 never takes fewer bytes than UTF-16 units: a long segment is refused without counting.
    const bytes = segment.length > MAX_SEGMENT_BYTES ? segment.length : Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_SEGMENT_BYTES) {
      refuse(
        path,
        'segment_too_long',
        `a file or folder name is longer than ${MAX_SEGMENT_BYTES} bytes in UTF-8, more than file systems hold ` +
          `(${Buffer.byteLength(segment, 'utf8')} bytes: ${JSON.stringify(segment.slice(0, 40))}…)`,
      );
    }
    const windows = windowsNameProblem(segment);
    if (windows !== null) refuse(path, 'windows_name', `${JSON.stringify(segment)} ${windows}`);
  }
  if (segments.length > maxDepth) {
    refuse(path, 'too_deep', `nested ${segments.length} levels deep; the limit is ${maxDepth}`);
  }
  return p;
}

/** Why Windows cannot create a file or folder of this name, or null when it can. */
function windowsNameProblem(segment: string): string | null {
  const character = WINDOWS_CHARACTER.exec(segment);
  if (character !== null) {
    return `contains ${JSON.stringify(character[0])}, which Windows does not allow in a name (none of < > : " | ? *)`;
  }
  if (segment.endsWith('.') || segment.endsWith(' ')) {
    return 'ends with a dot or a space, which Windows drops from a name (it would be another file there)';
  }
  if (WINDOWS_DEVICE.test(segment)) {
    return 'is a device name Windows reserves in every folder (con, prn, aux, nul, com1–9, lpt1–9, with any extension)';
  }
  return null;
}
