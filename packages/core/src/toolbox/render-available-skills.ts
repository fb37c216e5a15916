/**
 * The `<available_skills>` catalogue: the block agents put in a system prompt so the model knows
 * which skills exist, what each does, and (optionally) where its SKILL.md is or which tool runs it.
 */
import { cutText } from './internal/cut-text.js';

/** One catalogue entry. */
export interface AvailableSkillEntry {
  name: string;
  description?: string | null;
  /** Where the full SKILL.md is (a file path or a `viking://` URI), rendered as `<location>`. */
  location?: string;
  /** The tool that runs this skill, rendered as `<tool>`. */
  tool?: string;
}

/**
 * Characters XML 1.0 cannot carry at all: control characters other than tab, LF and CR, U+FFFE,
 * U+FFFF, and halves of surrogate pairs standing alone (which also make the prompt's JSON request
 * body unreadable to servers that decode it strictly).
 */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Longest name and description rendered, in characters (the Agent Skills limit of a description):
 * longer ones are cut with `…`, so one skill cannot fill the prompt.
 */
const CATALOGUE_TEXT_MAX_LENGTH = 1024;

/**
 * Escapes text for XML element content and attributes: `& < > " '` as entities; characters XML
 * cannot represent (control characters, lone surrogates, U+FFFE, U+FFFF) are dropped.
 *
 * @param text - any string
 * @returns the escaped text
 * @example
 * ```ts
 * escapeXml('a < b & "c"'); // 'a &lt; b &amp; &quot;c&quot;'
 * ```
 */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Renders the `<available_skills>` block for a system prompt: one `<skill>` per entry, in the given
 * order, with `<name>`, `<description>` and, when present, `<tool>` and `<location>`. Every value is
 * XML-escaped, so a description cannot close the block or inject tags, and names and descriptions
 * are cut to 1,024 characters (ending with `…`), so each entry stays bounded.
 *
 * @param skills - entries `{name, description?, location?, tool?}`
 * @returns the block, ending without a newline; `<available_skills>\n</available_skills>` when empty
 * @example
 * ```ts
 * renderAvailableSkills([{ name: 'pdf', description: 'Read & fill PDF forms' }]);
 * // <available_skills>
 * //   <skill>
 * //     <name>pdf</name>
 * //     <description>Read &amp; fill PDF forms</description>
 * //   </skill>
 * // </available_skills>
 * ```
 * @see the @skillport/core README (Toolbox)
 */
export function renderAvailableSkills(skills: readonly AvailableSkillEntry[]): string {
  const lines = ['<available_skills>'];
  for (const skill of skills) {
    lines.push('  <skill>');
    lines.push(`    <name>${escapeXml(cutText(skill.name, CATALOGUE_TEXT_MAX_LENGTH))}</name>`);
    const description = cutText(skill.description ?? '', CATALOGUE_TEXT_MAX_LENGTH);
    lines.push(`    <description>${escapeXml(description)}</description>`);
    if (skill.tool !== undefined) lines.push(`    <tool>${escapeXml(skill.tool)}</tool>`);
    if (skill.location !== undefined) lines.push(`    <location>${escapeXml(skill.location)}</location>`);
    lines.push('  </skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}
