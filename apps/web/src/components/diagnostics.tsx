/** Located validation issues (line:column, rule, message, suggested fix). */
import type { SkillIssue } from '@skillport/core';
import { Icon } from './icon.js';

export function Diagnostics({
  errors,
  warnings,
  onJump,
}: {
  errors: SkillIssue[];
  warnings: SkillIssue[];
  onJump?: (line: number, column: number) => void;
}) {
  const issues = [...errors, ...warnings];
  if (issues.length === 0) return null;
  return (
    <ul class="diagnostics" aria-label="Validation issues">
      {issues.map((issue, i) => {
        const where = issue.line !== undefined ? `${issue.line}:${issue.column ?? 1}` : '';
        return (
          <li key={`${issue.rule}-${i}`} class={`diagnostic ${issue.severity}`} data-rule={issue.rule}>
            <Icon name={issue.severity === 'error' ? 'alert' : 'info'} />
            <div class="diagnostic-body">
              <div class="diagnostic-head">
                {where && onJump ? (
                  <button
                    type="button"
                    class="link-button mono"
                    onClick={() => onJump(issue.line ?? 1, issue.column ?? 1)}
                    title="Show in the editor"
                  >
                    SKILL.md:{where}
                  </button>
                ) : (
                  where && <span class="mono">SKILL.md:{where}</span>
                )}
                <span class={`severity ${issue.severity}`}>{issue.severity}</span>
                <code class="rule">{issue.rule}</code>
              </div>
              <p>{issue.message}</p>
              {issue.fix !== undefined && (
                <p class="fix">
                  Suggested: <code>{issue.fix}</code>
                </p>
              )}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
