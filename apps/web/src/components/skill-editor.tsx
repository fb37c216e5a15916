/** A plain-text SKILL.md editor with line numbers, issue markers and jump-to-position. */
import type { SkillIssue } from '@skillport/core';
import { forwardRefLike } from './forward-ref-like.js';

export interface EditorHandle {
  jump: (line: number, column: number) => void;
}

/** Offset of a 1-based line and column in `text`. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + Math.max(0, column - 1), text.length);
}

export const SkillEditor = forwardRefLike<
  EditorHandle,
  {
    value: string;
    readOnly: boolean;
    issues: SkillIssue[];
    onInput: (value: string) => void;
    label: string;
  }
>(({ value, readOnly, issues, onInput, label }, handle) => {
  let area: HTMLTextAreaElement | null = null;
  let gutter: HTMLDivElement | null = null;
  handle.jump = (line, column) => {
    if (!area) return;
    const at = offsetOf(area.value, line, column);
    area.focus();
    area.setSelectionRange(at, at);
    const lineHeight = Number.parseFloat(getComputedStyle(area).lineHeight) || 20;
    area.scrollTop = Math.max(0, (line - 3) * lineHeight);
  };
  const lines = value.split('\n').length;
  const marked = new Map<number, 'error' | 'warning'>();
  for (const issue of issues) {
    if (issue.line === undefined) continue;
    if (marked.get(issue.line) !== 'error')
      marked.set(issue.line, issue.severity === 'error' ? 'error' : 'warning');
  }
  return (
    <div class={`editor ${readOnly ? 'read-only' : ''}`}>
      <div
        class="gutter"
        aria-hidden="true"
        ref={(el) => {
          gutter = el;
        }}
      >
        {Array.from({ length: lines }, (_, i) => (
          <div key={i} class={marked.get(i + 1) ?? ''}>
            {i + 1}
          </div>
        ))}
      </div>
      <textarea
        ref={(el) => {
          area = el;
        }}
        value={value}
        readOnly={readOnly}
        spellcheck={false}
        wrap="off"
        aria-label={label}
        data-testid="skill-editor"
        onInput={(e) => onInput((e.target as HTMLTextAreaElement).value)}
        onScroll={(e) => {
          if (gutter) gutter.scrollTop = (e.target as HTMLTextAreaElement).scrollTop;
        }}
      />
    </div>
  );
});
