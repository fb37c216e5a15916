/**
 * Profile `openviking` (the default): the rule table of `POST /api/v1/skills/validate` in the OpenAPI document.
 *
 * | rule | severity |
 * |---|---|
 * | name_required, description_required | error |
 * | name_matches_directory (folder name given) | warning; error if strict |
 * | name_max_length, name_allowed_characters, description_max_length | warning; error if strict |
 * | name_leading_hyphen, name_reserved_filename | warning; error if strict |
 * | body_max_lines (> 500) | warning, strict only |
 * | name_kebab_case, description_too_short | warning |
 *
 * @see the OpenAPI document: `POST /api/v1/skills/validate`
 */
import {
  checkAddNameRule,
  checkBodyLines,
  checkDescriptionLength,
  checkDirectory,
  checkKebabCase,
  checkPortableName,
  requireString,
} from './common-rules.js';
import type { RuleContext } from './rule-context.js';

/** Runs the `openviking` rules on a readable frontmatter. */
export function checkOpenViking(ctx: RuleContext): void {
  const name = requireString(ctx, 'name');
  const description = requireString(ctx, 'description');
  if (name !== null) {
    checkAddNameRule(ctx, name, 'strict-error');
    checkDirectory(ctx, name, 'strict-error');
    checkPortableName(ctx, name, 'strict-error');
    checkKebabCase(ctx, name);
  }
  if (description !== null) checkDescriptionLength(ctx, description, 'strict-error');
  if (ctx.strict) checkBodyLines(ctx, 'warning');
}
