/**
 * The verdict on a prepared skill before it is sent: the same validator and options the server's
 * add applies (`@skillport/core`, profile `openviking`, the upload's folder name when the server
 * will see one), plus the add-time name rule, which add enforces although validate only warns.
 */
import { normalizeSkillName, type SkillIssue, validateSkill } from '@skillport/core';
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

const NAME_RULES = new Set(['name_allowed_characters', 'name_max_length']);

/**
 * Validates a prepared skill as the server's add will.
 *
 * @param prepared - the skill
 * @param expectedName - on update, the name the content must keep
 */
export function checkSkill(
  prepared: Pick<PreparedSkill, 'skillMd' | 'folderName' | 'kind'>,
  expectedName?: string,
): SkillCheck {
  // The server sees a folder name only in an uploaded zip whose SKILL.md sits in a top folder; a
  // folder picked here is zipped with SKILL.md at the archive root.
  const dirName = prepared.kind === 'zip' ? prepared.folderName : null;
  const result = validateSkill(prepared.skillMd, { profile: 'openviking', ...(dirName ? { dirName } : {}) });
  const errors = [...result.errors];
  let warnings = [...result.warnings];
  if (result.name !== null && errors.length === 0) {
    try {
      const name = normalizeSkillName(result.name);
      if (expectedName !== undefined && name !== expectedName) {
        const at = warnings.find((w) => w.field === 'name') ?? result.errors.find((w) => w.field === 'name');
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
    } catch (error) {
      // Add refuses this name: its warnings become errors here, as add would answer.
      const promoted = warnings.filter((w) => NAME_RULES.has(w.rule));
      warnings = warnings.filter((w) => !NAME_RULES.has(w.rule));
      if (promoted.length > 0) errors.push(...promoted.map((w) => ({ ...w, severity: 'error' as const })));
      else
        errors.push({
          rule: 'name_invalid',
          severity: 'error',
          field: 'name',
          message: (error as Error).message,
        });
    }
  }
  return { name: result.name, description: result.description, tags: result.tags, errors, warnings };
}
