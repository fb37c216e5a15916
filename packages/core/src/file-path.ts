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
