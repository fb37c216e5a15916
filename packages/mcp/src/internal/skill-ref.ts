/**
 * What a tool or resource names: a plain skill name, or a `viking://` URI of a skill or of a file in
 * one (as `find_skills`, `list_skills` and resources give them).
 */
import { parseVikingUri } from '@skillport/core';
import { McpInputError } from './errors.js';

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
  if (!/^viking:\/\//i.test(trimmed)) return { name: trimmed };
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
