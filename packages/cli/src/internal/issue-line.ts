/** One skill issue as a line, the way `skills validate` and `discover` print them. */
import type { SkillIssue } from '@skillport/core';

/**
 * `file:line:column severity rule message (fix: "…")`; an issue without a place is put at 1:1.
 *
 * @param file - the file as shown to the user (relative to the working folder when inside it)
 * @param issue - the issue
 */
export function formatIssue(file: string, issue: SkillIssue): string {
  const fix = issue.fix !== undefined ? ` (fix: ${JSON.stringify(issue.fix)})` : '';
  return `${file}:${issue.line ?? 1}:${issue.column ?? 1} ${issue.severity} ${issue.rule} ${issue.message}${fix}`;
}

/** Issues in file order (line, then column), as printed. */
export function byPlace(issues: readonly SkillIssue[]): SkillIssue[] {
  return [...issues].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}
