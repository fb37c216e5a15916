/**
 * The rule for the path of a file a skill upload writes (an entry of an uploaded zip, a file of a
 * folder `zipSkillDir` packs): the server's add refuses a skill holding any path it breaks (400
 * `INVALID_ARGUMENT`, `details.reason` one of {@link SkillUploadPathProblem.reason}), and the CLI's
 * `skills validate`, `add-skill` and `zipSkillDir` check the same rule before uploading, so a client
 * never calls valid what the server refuses. Stricter than {@link skillFilePathProblem} (the path a
 * request may name to read a file): every file so accepted can be written back to disk on Linux,
 * macOS and Windows. Runtime-neutral, linear in the path, allocation-free for long names.
 *
 * @see the OpenAPI document: `POST /api/v1/skills` (400 `details.reason`)
 */

import { SKILL_FILE_PATH_MAX_LENGTH } from './file-path.js';

/**
 * Most path segments (folders and the file name) of an uploaded file: a server's default
 * `max_path_depth` (`SKILLPORT_MAX_PATH_DEPTH`).
 */
export const DEFAULT_SKILL_UPLOAD_PATH_DEPTH = 16;

/** Longest file or folder name, in UTF-8 bytes: what ext4 and APFS hold (NTFS holds 255 UTF-16 units). */
const MAX_SEGMENT_BYTES = 255;
const DRIVE_LETTER = /^[A-Za-z]:/;
// Control characters (C0, DEL) are not allowed in a stored file name.
const CONTROL = /[\u0000-\u001f\u007f]/;
// Characters Windows refuses in a file or folder name.
const WINDOWS_CHARACTER = /[<>:"|?*]/;
// Device names Windows reserves in every folder, with any extension too (`con.txt`), any case.
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/** Why the server's add would refuse the path of an uploaded file. */
export interface SkillUploadPathProblem {
  /**
   * The server's `details.reason`: `empty`, `control_character`, `backslash`, `absolute`,
   * `drive_letter`, `traversal` (a `..` segment), `empty_segment` (`.` or an empty segment),
   * `segment_too_long` (a name over 255 bytes in UTF-8), `windows_name` (a name Windows cannot
   * create), `too_deep` (more segments than the depth limit) or `too_long` (more characters than
   * the file route reads, `SKILL_FILE_PATH_MAX_LENGTH`).
   */
  reason:
    | 'empty'
    | 'control_character'
    | 'backslash'
    | 'absolute'
    | 'drive_letter'
    | 'traversal'
    | 'empty_segment'
    | 'segment_too_long'
    | 'windows_name'
    | 'too_deep'
    | 'too_long';
  /**
   * The server's error message, word for word, e.g. `Unsafe file path "aux.py": "aux.py" is a device
   * name Windows reserves in every folder (con, prn, aux, nul, com1–9, lpt1–9, with any extension)`.
   */
  message: string;
}

/** Options of {@link skillUploadPathProblem}. */
export interface SkillUploadPathOptions {
  /**
   * Most segments of the path, the file name included: the server's `max_path_depth` from `GET
   * /api/v1/system/limits` (`SKILLPORT_MAX_PATH_DEPTH`). Default
   * {@link DEFAULT_SKILL_UPLOAD_PATH_DEPTH} (16).
   */
  maxDepth?: number | undefined;
  /**
   * The name as the upload spells it, when `path` was derived from it (a zip entry written with `\`,
   * read as `/`): the message names it, with `(read as "<path>")`. Default `path`.
   */
  written?: string | undefined;
}

/**
 * Checks the path of a file a skill upload writes, relative to the archive or skill folder and
 * `/`-separated (a trailing `/`, as a zip's folder entries have, is ignored). In the order checked,
 * a path is refused when it is:
 *
 * - empty (`empty`);
 * - holding a control character, C0 or DEL, NUL included (`control_character`);
 * - holding a backslash (`backslash`; a zip reader reads `\` as `/` first, so only a file name with
 *   a real backslash meets it);
 * - absolute, starting with `/` (`absolute`), or starting with a drive letter, `C:` (`drive_letter`);
 * - then, segment by segment: a `..` segment (`traversal`); a `.` or empty segment (`empty_segment`);
 *   a file or folder name over 255 bytes in UTF-8, what ext4 and APFS hold: 255 ASCII letters but
 *   85 CJK characters (`segment_too_long`); a name Windows cannot create — a character of
 *   `< > : " | ? *`, a trailing dot or space, or a device name Windows reserves in every folder
 *   (`con`, `prn`, `aux`, `nul`, `com0`–`com9`, `lpt0`–`lpt9`, also with `¹²³`), in any case and with
 *   any extension (`aux.py`, `COM1.txt`) (`windows_name`);
 * - nested deeper than `maxDepth` segments, the file name included (`too_deep`);
 * - longer than {@link SKILL_FILE_PATH_MAX_LENGTH} (1,024) characters, the longest path
 *   `GET /api/v1/skills/{name}/files/{path}` (and so `skillport install`) reads (`too_long`).
 *
 * The first rule broken is the one reported, as the server reports it.
 *
 * @param path - e.g. `scripts/run.py`
 * @param options - `maxDepth` (default 16, a server's default `max_path_depth`) and `written` (the
 *   name as the upload spells it; default `path`)
 * @returns null when the server takes the path, otherwise `{reason, message}`: the server's
 *   `details.reason` and its message
 * @example
 * ```ts
 * skillUploadPathProblem('scripts/run.py'); // null
 * skillUploadPathProblem('aux.py')?.reason; // 'windows_name'
 * skillUploadPathProblem('notes: draft.md')?.reason; // 'windows_name'
 * skillUploadPathProblem('a/b/c.md', { maxDepth: 2 })?.message; // 'Unsafe file path "a/b/c.md": nested 3 levels deep; the limit is 2'
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (400 `INVALID_ARGUMENT`, `details.reason`)
 */
export function skillUploadPathProblem(
  path: string,
  options: SkillUploadPathOptions = {},
): SkillUploadPathProblem | null {
  const maxDepth = options.maxDepth ?? DEFAULT_SKILL_UPLOAD_PATH_DEPTH;
  const written = options.written ?? path;
  const problem = (reason: SkillUploadPathProblem['reason'], why: string): SkillUploadPathProblem => {
    const read = written === path ? '' : ` (read as ${JSON.stringify(path.slice(0, 200))})`;
    return { reason, message: `Unsafe file path ${JSON.stringify(written.slice(0, 200))}${read}: ${why}` };
  };
  const p = path.endsWith('/') ? path.slice(0, -1) : path;
  if (p.length === 0) return problem('empty', 'the path is empty');
  if (CONTROL.test(p))
    return problem('control_character', 'control characters (NUL included) are not allowed');
  if (p.includes('\\')) return problem('backslash', 'backslashes are not allowed (use `/`)');
  if (p.startsWith('/')) return problem('absolute', 'absolute paths are not allowed');
  if (DRIVE_LETTER.test(p)) return problem('drive_letter', 'drive letters are not allowed');
  let segments = 0;
  for (let start = 0; start <= p.length; segments++) {
    const slash = p.indexOf('/', start);
    const end = slash < 0 ? p.length : slash;
    const segment = p.slice(start, end);
    start = end + 1;
    if (segment === '..') return problem('traversal', '`..` segments are not allowed');
    if (segment === '.' || segment === '')
      return problem('empty_segment', '`.` and empty segments are not allowed');
    // UTF-8 never takes fewer bytes than UTF-16 units: a long segment is refused without counting.
    if (segment.length > MAX_SEGMENT_BYTES || utf8ByteLength(segment) > MAX_SEGMENT_BYTES) {
      return problem(
        'segment_too_long',
        `a file or folder name is longer than ${MAX_SEGMENT_BYTES} bytes in UTF-8, more than file systems hold ` +
          `(${utf8ByteLength(segment)} bytes: ${JSON.stringify(segment.slice(0, 40))}…)`,
      );
    }
    const windows = windowsNameProblem(segment);
    if (windows !== null) return problem('windows_name', `${JSON.stringify(segment)} ${windows}`);
  }
  if (segments > maxDepth) {
    return problem('too_deep', `nested ${segments} levels deep; the limit is ${maxDepth}`);
  }
  // Sixteen names of 255 bytes pass the rules above; a stored file the file route cannot read back
  // could not be installed.
  if (p.length > SKILL_FILE_PATH_MAX_LENGTH) {
    return problem(
      'too_long',
      `the path is ${p.length} characters long; the limit is ${SKILL_FILE_PATH_MAX_LENGTH}, the longest path a skill's files are read back by`,
    );
  }
  return null;
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

/**
 * Bytes of a string in UTF-8, counted without encoding it: a lone surrogate counts 3 (it is written
 * as U+FFFD), as `TextEncoder` and Node's `Buffer.byteLength` count it.
 */
function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
