/**
 * `parseSkillMd`: SKILL.md text → the skill and every problem found, located in the original text.
 */

import { normalizeLineBreaks, type TextPosition } from '../internal/text.js';
import type { ParsedSkill, ParseResult, SkillIssue } from '../types.js';
import { findTooDeep, MAX_FRONTMATTER_DEPTH, tooDeepIssue } from './frontmatter-depth.js';
import { readListFields } from './list-fields.js';
import { fromSimpleRead, readParsedYaml } from './read-yaml.js';
import { readSimpleYaml } from './simple-yaml.js';
import { splitFrontmatter } from './split-frontmatter.js';

/** Options of {@link parseSkillMd}. */
export interface ParseSkillMdOptions {
  /** Where the text came from (a file path or URI); named in the error thrown for non-string input. */
  path?: string;
  /**
   * Longest frontmatter read, in UTF-16 code units (default {@link MAX_FRONTMATTER_LENGTH}, 64 Ki).
   * A longer one is not parsed: it gives one `frontmatter_too_large` error. Real frontmatters are a
   * few KiB; the bound keeps hostile YAML from costing seconds of parsing.
   */
  maxFrontmatterLength?: number;
}

/** Default bound of the frontmatter read by {@link parseSkillMd}: 65 536 UTF-16 code units. */
export const MAX_FRONTMATTER_LENGTH = 65_536;

/** A parse result plus what the validator needs to locate its own issues. Private. */
export interface ParseDetail {
  result: ParseResult;
  /** False when the frontmatter is missing, unclosed or not readable YAML. */
  readable: boolean;
  /** Position of a top-level frontmatter key's value in the original text. */
  locate(key: string): TextPosition | undefined;
}

/**
 * Parses SKILL.md text once and keeps the locator of frontmatter keys (used by the validator so it
 * never parses twice).
 */
export function parseSkillMdDetail(text: string, options: ParseSkillMdOptions = {}): ParseDetail {
  if (typeof text !== 'string') {
    throw new TypeError(
      `parseSkillMd: expected the SKILL.md text as a string${options.path ? ` (${options.path})` : ''}, got ${text === null ? 'null' : typeof text}`,
    );
  }
  const split = splitFrontmatter(text);
  if (!split.hasFrontmatter) {
    return {
      result: {
        skill: emptySkill(split.body),
        issues: split.issue ? [split.issue] : [],
        hasFrontmatter: false,
      },
      readable: false,
      locate: () => undefined,
    };
  }
  const maxLength = options.maxFrontmatterLength ?? MAX_FRONTMATTER_LENGTH;
  if (split.yaml.length > maxLength) {
    return {
      result: {
        skill: emptySkill(split.body),
        issues: [
          {
            rule: 'frontmatter_too_large',
            severity: 'error',
            message: `The frontmatter is ${split.yaml.length} characters long; at most ${maxLength} are read. Keep name, description and a few keys there and move long text into the body.`,
            field: null,
            line: split.yamlLine,
            column: 1,
          },
        ],
        hasFrontmatter: true,
      },
      readable: false,
      locate: () => undefined,
    };
  }
  const normalized = normalizeLineBreaks(split.yaml);
  // Most frontmatters are one-line strings and lists, read directly with the parser's result. Those
  // shapes nest two levels as the depth scan counts them (a key's block or continuation lines, all
  // indented alike) plus one per flow bracket, so the scan can only find such a text too deep when
  // it has more brackets than the bound leaves room for.
  const simple = readSimpleYaml(normalized);
  const tooDeep =
    simple !== null && !hasMoreFlowOpeners(normalized, MAX_FRONTMATTER_DEPTH - 2)
      ? null
      : findTooDeep(normalized, MAX_FRONTMATTER_DEPTH);
  if (tooDeep !== null) {
    let lineStart = 0;
    for (let k = 0; k < tooDeep.lineIndex; k++) lineStart = normalized.indexOf('\n', lineStart) + 1;
    const before = normalized.slice(lineStart, lineStart + tooDeep.offset);
    return {
      result: {
        skill: emptySkill(split.body),
        issues: [tooDeepIssue({ line: split.yamlLine + tooDeep.lineIndex, column: [...before].length + 1 })],
        hasFrontmatter: true,
      },
      readable: false,
      locate: () => undefined,
    };
  }
  const yaml =
    simple !== null
      ? fromSimpleRead(simple, normalized, split.yamlLine)
      : readParsedYaml(normalized, split.yamlLine);
  const data = yaml.data;
  const lists = readListFields(data, yaml.locate);
  const issues: SkillIssue[] = [...yaml.issues, ...lists.issues];
  // In reading order; the sort is stable, so issues at one place keep the order they were found in.
  if (issues.length > 1) issues.sort(byPosition);
  const skill: ParsedSkill = {
    name: typeof data.name === 'string' ? data.name : null,
    description: typeof data.description === 'string' ? data.description : null,
    body: split.body,
    frontmatter: data,
    tags: lists.tags,
    allowedTools: lists.allowedTools,
  };
  return { result: { skill, issues, hasFrontmatter: true }, readable: yaml.readable, locate: yaml.locate };
}

/** True when `text` has more than `limit` flow collection openers (`[`, `{`); stops counting past it. */
function hasMoreFlowOpeners(text: string, limit: number): boolean {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 0x5b || c === 0x7b) && ++count > limit) return true;
  }
  return false;
}

function byPosition(a: SkillIssue, b: SkillIssue): number {
  return (
    (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER) ||
    (a.column ?? 0) - (b.column ?? 0)
  );
}

function emptySkill(body: string): ParsedSkill {
  return { name: null, description: null, body, frontmatter: {}, tags: [], allowedTools: [] };
}

/**
 * Parses a SKILL.md document: YAML frontmatter between `---` fences, then a Markdown body.
 *
 * Tolerant and exact: a UTF-8 BOM, CRLF / CR / mixed line endings, trailing blanks on the fences
 * and a closing fence at the end of the file without a newline are accepted; a `---` inside a YAML
 * value (indented in a block scalar or a multi-line quoted value, or inside a one-line value) never
 * splits the document. YAML is read with the 1.2 core schema (`yes` and dates stay strings).
 * Authoring mistakes are recovered with a warning (`yaml_unquoted_colon`: an unquoted `": "` in a
 * plain value, `yaml_reserved_indicator`: a value starting with `@` or `` ` ``); duplicate keys
 * are reported (`yaml_duplicate_key`: an error when `name`, `description`, `tags` or the allowed
 * tools get two different values, else a warning and the last wins); list fields that cannot be
 * read are errors naming the field (`tags_invalid`, `allowed_tools_invalid`), as are two
 * spellings of the allowed tools that disagree (`allowed_tools_conflict`); camelCase
 * `allowedTools` is read with a warning (`allowed_tools_spelling`); YAML warnings such as unknown
 * tags are `yaml_warning`; a missing, unclosed or unreadable frontmatter (syntax, not a mapping, a
 * recursive or exploding alias) is a `yaml_format` error. A frontmatter longer than
 * `maxFrontmatterLength` is one `frontmatter_too_large` error, and one nested deeper than 64 levels
 * (block indentation, `- - x` on one line, flow `[`/`{`) is one `frontmatter_too_deep` error (field
 * `frontmatter`, at the first point past the bound); neither is handed to the YAML parser.
 *
 * Never throws on bad input: every problem is an issue with a rule id, a field and a 1-based
 * line/column in the original text (BOM excluded; columns count code points).
 *
 * @param text - the SKILL.md text (decode bytes as UTF-8 first)
 * @param options - `path`: where the text came from, named in the error for non-string input
 * @returns `{skill, issues, hasFrontmatter}`: `skill.name` / `skill.description` are the
 *   frontmatter values when they are strings (else `null`), `skill.body` the text after the
 *   closing fence as written, `skill.frontmatter` every key as parsed (only the keys before the
 *   first error when the YAML is broken), `skill.tags` / `skill.allowedTools` normalised lists
 *   (`allowed-tools`, `allowed_tools` and `allowedTools` all read; strings split)
 * @throws TypeError when `text` is not a string (a programmer error)
 * @example
 * ```ts
 * const { skill, issues } = parseSkillMd('---\nname: pdf\ndescription: Read PDFs\nallowed-tools: Bash(git add:*) Read\n---\n# PDF\n');
 * skill.allowedTools; // ['Bash(git add:*)', 'Read']
 * issues; // []
 * ```
 * @see the @skillport/core README (parseSkillMd), the OpenAPI document: `POST /api/v1/skills/validate` (issue shape)
 */
export function parseSkillMd(text: string, options: ParseSkillMdOptions = {}): ParseResult {
  return parseSkillMdDetail(text, options).result;
}
