/**
 * What a tool or resource names: a plain skill name, or a `viking://` URI of a skill or of a file in
 * one (as `find_skills`, `list_skills` and resources give them).
 */
import { parseVikingUri, skillFilePathProblem } from '@skillport/core';
import { McpInputError } from './errors.js';

/** Longest skill name or skill URI a tool argument or prompt name may be, in characters. */
export const MAX_SKILL_REF_CHARS = 300;

/** A skill, optionally in one root, optionally a file of it. */
export interface SkillRef {
  name: string;
  /** The root the URI named; absent for a plain name (user root, then agent root). */
  targetUri?: string;
  /** The file path a file URI named. */
  path?: string;
}

/**
 * Reads a skill name or a skill/file URI.
 *
 * @param value - `search-web`, `viking://agent/skills/search-web` or `viking://~/skills/search-web/SKILL.md`
 * @throws McpInputError for a URI naming a root only, or an ill-formed URI (`INVALID_URI`)
 */
export function parseSkillRef(value: string): SkillRef {
  const trimmed = value.trim();
  if (!/^viking:\/\//i.test(trimmed)) {
    if (trimmed === '.' || trimmed === '..' || /[/\\\u0000-\u001f\u007f]/.test(trimmed)) {
      throw new McpInputError(
        `${JSON.stringify(trimmed.slice(0, 80))} is not a skill name: give a name such as "search-web" or a viking:// URI`,
        'INVALID_ARGUMENT',
      );
    }
    return { name: trimmed };
  }
  let parsed: ReturnType<typeof parseVikingUri>;
  try {
    parsed = parseVikingUri(trimmed);
  } catch (error) {
    throw new McpInputError(error instanceof Error ? error.message : String(error), 'INVALID_URI');
  }
  if (parsed.skillName === null) {
    throw new McpInputError(
      `${trimmed} names a skill root, not a skill: give a skill name or a URI such as ${parsed.rootUri}/<name>`,
      'INVALID_URI',
    );
  }
  return {
    name: parsed.skillName,
    targetUri: parsed.rootUri,
    ...(parsed.path !== null ? { path: parsed.path } : {}),
  };
}

/**
 * Checks a file path inside a skill folder (the rule of `skillFilePathProblem` in @skillport/core:
 * no `..`, `.` or empty segment, no backslash or control character), so a file read can never reach
 * anything outside the skill.
 *
 * @returns the path unchanged
 * @throws McpInputError (`INVALID_ARGUMENT`) when the path breaks the rule
 */
export function checkSkillFilePath(path: string): string {
  const problem = skillFilePathProblem(path);
  if (problem !== null) throw new McpInputError(problem.message, 'INVALID_ARGUMENT');
  return path;
}
