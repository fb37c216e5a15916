/**
 * Locates the frontmatter block of a SKILL.md document: the opening `---` on line 1, the closing
 * `---` on the first later line that is exactly three dashes at column 1 (trailing spaces or tabs
 * allowed), any line-break style, with or without a UTF-8 BOM and a final newline.
 *
 * A `---` that is part of a YAML value never splits the document: inside a block scalar (`|`, `>`)
 * or a multi-line quoted value the line is indented, and an indented line is never a fence; a
 * `---` inside a one-line value is not alone on its line.
 */

import { excerpt } from '../internal/text.js';
import type { SkillIssue } from '../types.js';

/** Where the pieces of a SKILL.md document are. */
export interface FrontmatterSplit {
  /** The text without its BOM. */
  text: string;
  /** True when both fences were found. */
  hasFrontmatter: boolean;
  /** The YAML between the fences, exactly as written (`''` when none). */
  yaml: string;
  /** 1-based line of the first YAML line in the original text (the opening fence is line 1). */
  yamlLine: number;
  /** The text after the closing fence's line break; the whole text when there is no frontmatter. */
  body: string;
  /** The `yaml_format` error when the fences could not be located. */
  issue: SkillIssue | null;
}

const FENCE_REST = /^[ \t]*$/;

/** Returns the index just past the line break at `at` (LF, CRLF or CR), or `at` at the end. */
function skipBreak(text: string, at: number): number {
  if (at >= text.length) return at;
  return text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
}

/** Index of the next line break at or after `from`, or the text's length. */
function lineEnd(text: string, from: number, hasCr: boolean): number {
  if (!hasCr) {
    const lf = text.indexOf('\n', from);
    return lf === -1 ? text.length : lf;
  }
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13) return i;
  }
  return text.length;
}

/** Whether the line starting at `start` (ending at `end`) is a fence: `---` and optional blanks. */
function isFence(text: string, start: number, end: number): boolean {
  return text.startsWith('---', start) && FENCE_REST.test(text.slice(start + 3, end));
}

/**
 * Where the fences of `text` are, reading from `start` (past a BOM): null when the line at `start`
 * is not an opening fence; else where the YAML starts and where the closing fence line starts and
 * ends (`close` -1 when the frontmatter is never closed). Linear: jumps from one `---` to the next.
 */
function locateFences(
  text: string,
  start: number,
): { yamlStart: number; close: number; closeEnd: number } | null {
  const hasCr = text.indexOf('\r', start) !== -1;
  const firstEnd = lineEnd(text, start, hasCr);
  if (!isFence(text, start, firstEnd)) return null;
  const yamlStart = skipBreak(text, firstEnd);
  // Jump from one "---" to the next; only one at the start of a line, alone on it, is a fence.
  let from = yamlStart;
  for (;;) {
    const at = text.indexOf('---', from);
    if (at === -1) return { yamlStart, close: -1, closeEnd: -1 };
    const before = at === yamlStart ? 10 : text.charCodeAt(at - 1);
    if (before === 10 || before === 13) {
      const end = lineEnd(text, at, hasCr);
      if (isFence(text, at, end)) return { yamlStart, close: at, closeEnd: end };
    }
    from = at + 3;
  }
}

/**
 * Splits `raw` into frontmatter YAML and body.
 *
 * @param raw - the SKILL.md text as read (a leading U+FEFF is ignored)
 * @returns where the YAML and the body are; `issue` is a `yaml_format` error when the document
 *   has no frontmatter or it is never closed
 */
export function splitFrontmatter(raw: string): FrontmatterSplit {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const fences = locateFences(text, 0);
  if (fences === null) {
    return { text, hasFrontmatter: false, yaml: '', yamlLine: 1, body: text, issue: noFrontmatter(text) };
  }
  if (fences.close === -1) {
    return { text, hasFrontmatter: false, yaml: '', yamlLine: 1, body: text, issue: unclosed(text) };
  }
  const ended = endedBeforeFence(text, fences.yamlStart, fences.close);
  if (ended !== null) {
    return { text, hasFrontmatter: false, yaml: '', yamlLine: 1, body: text, issue: ended };
  }
  return {
    text,
    hasFrontmatter: true,
    yaml: text.slice(fences.yamlStart, fences.close),
    yamlLine: 2,
    body: text.slice(skipBreak(text, fences.closeEnd)),
    issue: null,
  };
}

/** The size of a SKILL.md's frontmatter, as {@link frontmatterSize} measures it. */
export interface FrontmatterSize {
  /**
   * UTF-16 code units of YAML between the fences (what the YAML parser reads), or, when the
   * frontmatter is never closed, of everything after the opening fence's line.
   */
  chars: number;
  /** False when the opening fence has no closing fence (parsing then reports `yaml_format`). */
  closed: boolean;
}

/**
 * Measures the frontmatter of a SKILL.md without copying any of it: the fences exactly as
 * {@link splitFrontmatter} (and so `parseSkillMd`, `validateSkill` and the server's add) finds them.
 * Linear in the text's length, no regular expression over the text; cheap enough to decide how to
 * process a document before parsing it (the server parses a large frontmatter off its event loop).
 *
 * @param raw - the SKILL.md text as read (a leading U+FEFF is ignored)
 * @returns `{chars, closed}`, or null when line 1 is not an opening `---` fence (no frontmatter)
 * @example
 * ```ts
 * frontmatterSize('---\nname: a\n---\nBody'); // { chars: 8, closed: true }
 * frontmatterSize('---\nname: a\n');           // { chars: 8, closed: false }
 * frontmatterSize('# Title');                    // null
 * ```
 */
export function frontmatterSize(raw: string): FrontmatterSize | null {
  const start = raw.charCodeAt(0) === 0xfeff ? 1 : 0;
  const fences = locateFences(raw, start);
  if (fences === null) return null;
  return fences.close === -1
    ? { chars: raw.length - fences.yamlStart, closed: false }
    : { chars: fences.close - fences.yamlStart, closed: true };
}

/**
 * The `yaml_format` error for a frontmatter that is never closed. When a line is YAML's document end
 * marker `...` (which some YAML writers put after the last key), the error is at that line, says
 * that SKILL.md closes its frontmatter with `---` only (the Agent Skills format, as agents read it)
 * and suggests `---` as the fix; else it is at line 1, with a hint for an indented fence.
 */
function unclosed(text: string): SkillIssue {
  const lines = text.split(/\r\n?|\n/);
  const marker = lines.findIndex((line, i) => i > 0 && isDocumentEnd(line));
  if (marker > 0) {
    return {
      rule: 'yaml_format',
      severity: 'error',
      message:
        `The frontmatter opened by "---" on line 1 is not closed by a line "---": line ${marker + 1} is "...", ` +
        `${DOCUMENT_END_FIX}.`,
      field: null,
      line: marker + 1,
      column: 1,
      fix: '---',
    };
  }
  const indented = lines.findIndex((line, i) => i > 0 && /^[ \t]+---[ \t]*$/.test(line));
  const hint =
    indented > 0
      ? ` Line ${indented + 1} has an indented "---", which YAML reads as part of a value; the closing fence must start at column 1.`
      : '';
  return {
    rule: 'yaml_format',
    severity: 'error',
    message: `The frontmatter opened by "---" on line 1 is never closed: expected a line "---" after the YAML.${hint}`,
    field: null,
    line: 1,
    column: 1,
  };
}

/**
 * The `yaml_format` error for a frontmatter whose YAML is ended by a `...` line followed only by
 * blank or comment lines before the closing `---`, or null. YAML reads such a document without
 * error (comments may follow its end), so without this check the frontmatter passed as closed and
 * the comment lines, typically the body's first heading, were silently dropped. It gets the verdict
 * of a `...` with no later fence: refused at the marker's line, with `---` as the fix. A `...`
 * followed by more YAML is left to the YAML reader, whose syntax error names the marker's line.
 */
function endedBeforeFence(text: string, yamlStart: number, close: number): SkillIssue | null {
  const first = text.indexOf('...', yamlStart);
  if (first === -1 || first >= close) return null;
  const lines = text.slice(yamlStart, close).split(/\r\n?|\n/);
  const marker = lines.findIndex(isDocumentEnd);
  if (marker === -1) return null;
  if (!lines.slice(marker + 1).every((line) => /^[ \t]*(#.*)?$/.test(line))) return null;
  // The YAML starts on line 2; `lines` ends with the empty text before the closing fence.
  const markerLine = marker + 2;
  const fenceLine = lines.length + 1;
  return {
    rule: 'yaml_format',
    severity: 'error',
    message:
      `The frontmatter opened by "---" on line 1 ends at line ${markerLine}, before the "---" on line ${fenceLine}: ` +
      `line ${markerLine} is "...", ${DOCUMENT_END_FIX}, and keep the lines after it in the body.`,
    field: null,
    line: markerLine,
    column: 1,
    fix: '---',
  };
}

/** What to say of a `...` line in or after the frontmatter, after naming it. */
export const DOCUMENT_END_FIX =
  'YAML\'s document end marker; close the frontmatter with "---" instead (a SKILL.md frontmatter ' +
  'is fenced by "---" lines only)';

/** Whether a line is YAML's document end marker `...` at column 1 (trailing blanks allowed). */
function isDocumentEnd(line: string): boolean {
  return line.startsWith('...') && FENCE_REST.test(line.slice(3));
}

/** The `yaml_format` error for a document without an opening fence, with the likeliest cause. */
function noFrontmatter(text: string): SkillIssue {
  const issue = (message: string, line = 1): SkillIssue => ({
    rule: 'yaml_format',
    severity: 'error',
    message,
    field: null,
    line,
    column: 1,
  });
  const expected =
    'a SKILL.md starts with a line "---", then YAML with at least name and description, then a line "---"';
  if (text.trim().length === 0) return issue(`The file is empty: ${expected}.`);
  // The diagnosis only looks at the head of the file; do not split a large body into lines.
  const head = text.length > 16_384 ? text.slice(0, 16_384) : text;
  if (/^\s*\{/.test(head) && /"inputSchema"\s*:/.test(head)) {
    return issue(
      'No frontmatter: it looks like an MCP tool definition (JSON with "inputSchema"): add it as a tool, ' +
        'not as SKILL.md text: a .json file to `skillport add-skill`, or the parsed object as `data` ' +
        `(\`addSkill(JSON.parse(text))\` in the SDKs), which becomes a skill (${expected}).`,
    );
  }
  const lines = head.split(/\r\n?|\n/, 200);
  const first = lines[0] ?? '';
  if (/^\s*-{3,}\s*$/.test(first) || /^---/.test(first)) {
    return issue(`No frontmatter: line 1 is ${excerpt(first)}, expected exactly "---" (${expected}).`);
  }
  const fenceAt = lines.findIndex((l) => /^---[ \t]*$/.test(l));
  if (fenceAt > 0) {
    const before = lines.slice(0, fenceAt).filter((l) => l.trim() !== '');
    const looksLikeYaml = before.length > 0 && /^[A-Za-z_][\w-]*:(\s|$)/.test(before[0] ?? '');
    if (looksLikeYaml) {
      return issue(
        `No frontmatter: lines 1-${fenceAt} look like YAML closed by "---" on line ${fenceAt + 1}, but the opening "---" on line 1 is missing.`,
      );
    }
    return issue(
      `No frontmatter: the first "---" is on line ${fenceAt + 1}, but the frontmatter must start on line 1 (${expected}).`,
      fenceAt + 1,
    );
  }
  return issue(`No frontmatter: line 1 is ${excerpt(first)} (${expected}).`);
}
