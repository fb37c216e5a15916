/**
 * Which file of the skill a relative link or image in its Markdown names (the file viewer opens it,
 * images load through the API).
 */
import { describe, expect, it } from 'vitest';
import { MARKDOWN_RENDER_LIMIT, renderablePart, resolveSkillPath } from '../src/lib/markdown.js';

/** The variable as skills write it (spelt in two parts: it is not a placeholder of this file). */
const SKILL_DIR = ['$', '{CLAUDE_SKILL_DIR}'].join('');

describe('resolveSkillPath', () => {
  it('resolves relative paths inside the skill folder, and nothing outside it', () => {
    expect(resolveSkillPath('references/guide.md')).toBe('references/guide.md');
    expect(resolveSkillPath('./assets/a.png')).toBe('assets/a.png');
    expect(resolveSkillPath('../b.md', 'docs')).toBe('b.md');
    expect(resolveSkillPath('../../b.md', 'docs')).toBeNull();
    expect(resolveSkillPath('/etc/passwd')).toBeNull();
    expect(resolveSkillPath('https://example.com/x.md')).toBeNull();
    expect(resolveSkillPath('#usage')).toBeNull();
  });

  // Claude Code substitutes ${CLAUDE_SKILL_DIR} with the folder of the skill's SKILL.md, and skills
  // link their own files so (Anthropic's claude-security: `[Scan codebase](${CLAUDE_SKILL_DIR}/jobs/
  // scan-codebase.md)`). The viewer said "This skill has no file ${CLAUDE_SKILL_DIR}/jobs/…".
  it('reads the variable CLAUDE_SKILL_DIR as the skill folder, as markdown-it encodes it and raw', () => {
    expect(resolveSkillPath('$%7BCLAUDE_SKILL_DIR%7D/jobs/scan-codebase.md')).toBe('jobs/scan-codebase.md');
    expect(resolveSkillPath(`${SKILL_DIR}/specs/report-spec.md`)).toBe('specs/report-spec.md');
    // From a file in a subfolder it is still the skill's folder, not the file's.
    expect(resolveSkillPath(`${SKILL_DIR}/role.md`, 'jobs')).toBe('role.md');
    expect(resolveSkillPath(`${SKILL_DIR}/../x.md`)).toBeNull();
  });
});

describe('renderablePart', () => {
  it('keeps a document within the limit whole', () => {
    expect(renderablePart('# A\n\nshort\n', 100)).toEqual({ text: '# A\n\nshort\n', cut: false });
    const exact = 'x'.repeat(MARKDOWN_RENDER_LIMIT);
    expect(renderablePart(exact)).toEqual({ text: exact, cut: false });
  });

  it('cuts a longer one after its last line break within the limit', () => {
    const text = `${'line of text\n'.repeat(20)}tail`;
    const part = renderablePart(text, 100);
    expect(part.cut).toBe(true);
    expect(part.text).toBe('line of text\n'.repeat(7));
  });

  it('cuts hard, never between the halves of a surrogate pair, when the end holds no line break', () => {
    const text = `${'a'.repeat(99)}😀${'b'.repeat(50)}`;
    expect(renderablePart(text, 100)).toEqual({ text: 'a'.repeat(99), cut: true });
    expect(renderablePart('c'.repeat(150), 100).text).toBe('c'.repeat(100));
  });
});
