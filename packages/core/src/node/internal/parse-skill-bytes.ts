/**
 * SKILL.md bytes to a parsed skill: exact UTF-8 text (BOM kept) and the parser's issues, plus an
 * `encoding` warning when the bytes are not valid UTF-8. Shared by loadSkillDir and discovery.
 */
import { parseSkillMd } from '../../parse/parse-skill-md.js';
import type { ParsedSkill, SkillIssue } from '../../types.js';
import { decodeUtf8 } from './decode-utf8.js';

/**
 * Reads SKILL.md text and builds the issue list shared by {@link loadSkillDir} and discovery.
 */
export function parseSkillBytes(
  bytes: Uint8Array,
  filePath: string,
): { text: string; skill: ParsedSkill; issues: SkillIssue[] } {
  const decoded = decodeUtf8(bytes);
  const parsed = parseSkillMd(decoded.text, { path: filePath });
  const issues = [...parsed.issues];
  if (!decoded.valid) {
    issues.unshift({
      rule: 'encoding',
      severity: 'warning',
      message: `${filePath} is not valid UTF-8; invalid bytes were read as U+FFFD`,
      field: null,
    });
  }
  return { text: decoded.text, skill: parsed.skill, issues };
}
