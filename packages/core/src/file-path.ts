/**
 * The rule for a file path inside a skill folder, as a request names it (`GET
 * /api/v1/skills/{name}/files/{path}`, the MCP `read_skill_file` tool and file resources): relative,
 * `/`-separated, 1–1024 characters, no empty, `.` or `..` segment, no backslash or control character
 * (NUL included). Clients check it before sending, so a path can never climb out of the skill.
 *
 * @see the OpenAPI document: `GET /api/v1/skills/{name}/files/{path}`
 */

/** Longest accepted file path, in characters. */
export const SKILL_FILE_PATH_MAX_LENGTH = 1024;

/** Why a file path was refused: `reason` is `length`, `characters` or `segment`. */
export interface SkillFilePathProblem {
  reason: 'length' | 'characters' | 'segment';
  /** A sentence fit for an error message, e.g. `File path "../x" has an empty, "." or ".." segment; …`. */
  message: string;
}

/**
 * Checks a requested file path against the rule above.
 *
 * @param path - e.g. `scripts/helper.py`
 * @returns `null` when the path is acceptable, otherwise the problem
 * @example
 * ```ts
 * skillFilePathProblem('scripts/run.py'); // null
 * skillFilePathProblem('../../observer/queue')?.reason; // 'segment'
 * ```
 */
export function skillFilePathProblem(path: string): SkillFilePathProblem | null {
  const problem = (reason: SkillFilePathProblem['reason'], why: string): SkillFilePathProblem => ({
    reason,
    message: `File path ${JSON.stringify(String(path).slice(0, 200))} ${why}; give a path relative to the skill folder, e.g. "docs/guide.md"`,
  });
  if (typeof path !== 'string' || path.length === 0 || path.length > SKILL_FILE_PATH_MAX_LENGTH)
    return problem('length', 'is empty or too long');
  if (/[\u0000-\u001f\u007f\\]/.test(path))
    return problem('characters', 'contains a backslash or control character');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      return problem('segment', 'has an empty, "." or ".." segment');
  }
  return null;
}

/** Two paths of one skill that a case-insensitive file system (macOS, Windows) cannot both hold. */
export interface SkillPathConflict {
  /** The later path of the two, in the order given. */
  path: string;
  /** The earlier path it collides with. */
  other: string;
  /**
   * `case`: the two differ only in letter case or Unicode normalization (one file on macOS and
   * Windows); `file_and_folder`: one is a file and, so compared, the folder of the other
   * (`docs` beside `docs/a.txt`, or `Docs` beside `docs/a.txt`).
   */
  kind: 'case' | 'file_and_folder';
  /** A sentence naming both paths, fit for an error message. */
  message: string;
}

/**
 * The first pair of file paths of one skill that could not both be written out to a folder on
 * macOS or Windows: two names equal after Unicode NFC normalization and lower-casing, or a file
 * whose path (so compared) is the folder of another. Add refuses such a skill (400 `path_conflict`
 * on a zip upload), so a client checks before uploading.
 *
 * @param paths - file paths relative to the skill folder, `/`-separated (SKILL.md included or not)
 * @returns the first conflict, or null
 * @example
 * ```ts
 * skillPathConflict(['SKILL.md', 'Ref.md', 'ref.md'])?.kind; // 'case'
 * skillPathConflict(['SKILL.md', 'docs', 'docs/a.txt'])?.kind; // 'file_and_folder'
 * ```
 * @see the OpenAPI document: `POST /api/v1/skills` (400 `details.reason` `path_conflict`)
 */
export function skillPathConflict(paths: Iterable<string>): SkillPathConflict | null {
  const fold = (p: string) => p.normalize('NFC').toLowerCase();
  const files = new Map<string, string>();
  const list: string[] = [];
  for (const path of paths) {
    const key = fold(path);
    const other = files.get(key);
    if (other !== undefined) {
      return {
        path,
        other,
        kind: 'case',
        message: `${JSON.stringify(other)} and ${JSON.stringify(path)} differ only in letter case or Unicode normalization: on macOS and Windows they are one file`,
      };
    }
    files.set(key, path);
    list.push(path);
  }
  for (const path of list) {
    const key = fold(path);
    for (let i = key.indexOf('/'); i > 0; i = key.indexOf('/', i + 1)) {
      const other = files.get(key.slice(0, i));
      if (other !== undefined) {
        return {
          path,
          other,
          kind: 'file_and_folder',
          message: `${JSON.stringify(other)} is both a file and the folder of ${JSON.stringify(path)}`,
        };
      }
    }
  }
  return null;
}
