/**
 * What a rule set sees and how it reports: one parsed skill, the options, and `report`, which
 * applies the strict promotion and attaches the location of the field.
 */

import type { TextPosition } from '../internal/text.js';
import type { NamePolicy, ParsedSkill, SkillIssue } from '../types.js';

/** How an issue's severity is decided. */
export type RuleLevel =
  /** Always an error. */
  | 'error'
  /** A warning, an error in strict mode. */
  | 'strict-error'
  /** Always a warning (best practice). */
  | 'warning';

/** Input of a rule set. */
export interface RuleContext {
  skill: ParsedSkill;
  strict: boolean;
  /** The folder name the skill's name must equal, when known. */
  dirName: string | undefined;
  /** Number of lines of the body. */
  bodyLines: number;
  /** The name policy of the server the verdict is for; `undefined` when unknown (`validateSkill`). */
  namePolicy: NamePolicy | undefined;
  /** Collected issues. */
  issues: SkillIssue[];
  /**
   * Where the frontmatter starts (its opening `---`): the location of a required key that is missing;
   * `undefined` when issues are not located (structured input).
   */
  frontmatterAt: TextPosition | undefined;
  /**
   * Adds an issue located at the value of `field` (a frontmatter key or dotted path) when known, else
   * at `fallback` (e.g. {@link RuleContext.frontmatterAt} for a missing key).
   */
  report(
    rule: string,
    level: RuleLevel,
    field: string | null,
    message: string,
    fix?: string,
    fallback?: TextPosition,
  ): void;
}

/**
 * Creates a rule context.
 *
 * @param locate - position of a top-level key's value, or `undefined` (structured input)
 * @param frontmatterAt - position of the opening `---`, or `undefined` (structured input)
 * @param namePolicy - the server's name policy, when the verdict is for one
 */
export function createRuleContext(
  skill: ParsedSkill,
  strict: boolean,
  dirName: string | undefined,
  bodyLines: number,
  locate: (key: string) => TextPosition | undefined,
  frontmatterAt?: TextPosition,
  namePolicy?: NamePolicy,
): RuleContext {
  const issues: SkillIssue[] = [];
  return {
    skill,
    strict,
    dirName,
    bodyLines,
    namePolicy,
    issues,
    frontmatterAt,
    report(rule, level, field, message, fix, fallback) {
      const severity = level === 'error' || (level === 'strict-error' && strict) ? 'error' : 'warning';
      const issue: SkillIssue = { rule, severity, message, field };
      const at = field === null || field === 'body' ? undefined : (locate(field) ?? fallback);
      if (at) {
        issue.line = at.line;
        issue.column = at.column;
      }
      if (fix !== undefined && fix !== '') issue.fix = fix;
      issues.push(issue);
    },
  };
}
