/**
 * The verdict on a prepared skill before it is sent: the same validator and options the server's
 * add applies (`@skillport/core`, profile `openviking`, the upload's folder name when the server
 * will see one), judged under the server's name policy (`name_policy` of `GET /api/v1/system/limits`):
 * under `strict` a name add refuses is an error, under `slug` a warning naming the stored name.
 */
import {
  type NamePolicy,
  normalizeSkillName,
  type SkillIssue,
  storedSkillName,
  validateSkill,
} from '@skillport/core';
import type { PreparedSkill } from './skill-input.js';

/** The verdict shown on the add page. */
export interface SkillCheck {
  name: string | null;
  description: string | null;
  tags: string[];
  /** Issues that make the server refuse the skill. */
  errors: SkillIssue[];
  warnings: SkillIssue[];
}

/**
 * Validates a prepared skill as the server's add will.
 *
 * @param prepared - the skill
 * @param expectedName - on update, the name the content must keep
 * @param namePolicy - the server's name policy (default `strict`, the server default)
 */
export function checkSkill(
  prepared: Pick<PreparedSkill, 'skillMd' | 'folderName' | 'kind'>,
  expectedName?: string,
  namePolicy: NamePolicy = 'strict',
): SkillCheck {
  // The server sees a folder name only in an uploaded zip whose SKILL.md sits in a top folder; a
  // folder picked here is zipped with SKILL.md at the archive root.
  const dirName = prepared.kind === 'zip' ? prepared.folderName : null;
  const result = validateSkill(prepared.skillMd, {
    profile: 'openviking',
    namePolicy,
    ...(dirName ? { dirName } : {}),
  });
  const errors = [...result.errors];
  const warnings = [...result.warnings];
  if (result.name !== null && errors.length === 0) {
    // No error: the name keeps the rule, or (slug policy) is stored under its valid slug.
    const name = storedSkillName(result.name, namePolicy);
    if (name === null) {
      let message = `"name" ${JSON.stringify(result.name)} cannot be stored.`;
      try {
        normalizeSkillName(result.name);
      } catch (error) {
        message = (error as Error).message;
      }
      errors.push({ rule: 'name_invalid', severity: 'error', field: 'name', message });
    } else if (expectedName !== undefined && name !== expectedName) {
      const at = warnings.find((w) => w.field === 'name');
      errors.push({
        rule: 'name_unchanged',
        severity: 'error',
        field: 'name',
        message: `An update keeps the skill's name: this SKILL.md is named ${JSON.stringify(name)}, the skill is ${JSON.stringify(expectedName)}.`,
        ...(at?.line !== undefined ? { line: at.line } : {}),
        ...(at?.column !== undefined ? { column: at.column } : {}),
        fix: expectedName,
      });
    }
  }
  return { name: result.name, description: result.description, tags: result.tags, errors, warnings };
}
