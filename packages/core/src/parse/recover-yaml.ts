/**
 * Recovery of the YAML authoring mistakes real SKILL.md files make, the way Claude Code reads
 * them: a plain one-line value that YAML rejects because it contains `": "`
 * (`description: Helps with reports. Trigger words: pdf`) or starts with a reserved indicator
 * (`@`, `` ` ``) is re-read as a double-quoted string, and the author gets a warning.
 *
 * Only lines YAML certainly rejects are touched — top-level `key: a: b` lines (found before
 * parsing: a line at column 1 is always a key) and the lines the parser reports an error on — so
 * block scalars, quoted values and comments that merely look like `key: a: b` are never rewritten.
 * The value, with its more indented continuation lines, must be plain (not quoted, a list, a map
 * or a block scalar). Line numbers do not change: folded continuation lines are blanked, not
 * removed.
 */

import { codePointLength, excerpt } from '../internal/text.js';
import type { SkillIssue } from '../types.js';

/** `indent`, optional `- ` list marker, a simple key, `:`, blanks, the value. */
const KEY_VALUE = /^([ \t]*(?:-[ \t]+)?)([A-Za-z0-9_][\w.-]*|"[^"\n]*"|'[^'\n]*'):([ \t]+)(.*)$/;

/** First characters that make a value something other than a plain scalar. */
const NOT_PLAIN_START = new Set(['"', "'", '[', '{', '|', '>', '&', '*', '!', '%', '#']);

/**
 * A top-level `key: value` line whose plain value YAML always rejects: it contains `": "` (or ends
 * with `:`), or starts with `@` or `` ` ``. A line at column 1 can be nothing but a top-level key
 * (block scalar and multi-line plain, quoted or flow values must be indented), so these lines are
 * found before the first parse, saving a second one.
 */
const TOP_LEVEL_MISTAKE =
  /^(?:[A-Za-z0-9_][\w.-]*|"[^"\n]*"|'[^'\n]*'):[ \t]+(?:[^\s"'[{|>&*!%#@`][^\n]*?(?:: |:[ \t]*$)|[@`])/gm;

/**
 * 0-based indexes of the lines of LF-only `source` that {@link recoverLines} will rewrite whatever
 * the parser says (top-level plain values YAML always rejects).
 */
export function findTopLevelMistakes(source: string): number[] {
  const found: number[] = [];
  let line = 0;
  let counted = 0;
  TOP_LEVEL_MISTAKE.lastIndex = 0;
  for (let match = TOP_LEVEL_MISTAKE.exec(source); match; match = TOP_LEVEL_MISTAKE.exec(source)) {
    for (
      let at = source.indexOf('\n', counted);
      at !== -1 && at < match.index;
      at = source.indexOf('\n', at + 1)
    ) {
      line++;
      counted = at + 1;
    }
    found.push(line);
  }
  return found;
}

/** A rewrite of one line: where it was, what was read, and the warning to report. */
export interface YamlRecovery {
  /** 0-based index of the rewritten line in the YAML text. */
  lineIndex: number;
  /** 0-based code point column of the value on that line. */
  valueColumn: number;
  key: string;
  rule: 'yaml_unquoted_colon' | 'yaml_reserved_indicator';
  /** The string the value is now read as. */
  value: string;
}

/**
 * Rewrites the recoverable lines among `errorLines` (0-based indexes into `lines`, which is
 * modified in place).
 *
 * @returns the recoveries made (empty when no error line was recoverable)
 */
export function recoverLines(lines: string[], errorLines: Iterable<number>): YamlRecovery[] {
  const done: YamlRecovery[] = [];
  for (const index of errorLines) {
    const line = lines[index];
    if (line === undefined) continue;
    const match = KEY_VALUE.exec(line);
    if (!match) continue;
    const prefix = match[1] ?? '';
    const rawKey = match[2] ?? '';
    const value = (match[4] ?? '').trimEnd();
    const first = value[0];
    if (first === undefined || NOT_PLAIN_START.has(first)) continue;
    // A plain scalar continues on the following, more indented lines: fold them in.
    const keyIndent = prefix.length;
    const parts = [value];
    let next = index + 1;
    for (; next < lines.length; next++) {
      const candidate = lines[next] ?? '';
      const indent = candidate.length - candidate.trimStart().length;
      if (candidate.trim() === '' || indent <= keyIndent || candidate.trimStart().startsWith('#')) break;
      parts.push(candidate.trim());
    }
    const folded = parts.join(' ');
    const reserved = first === '@' || first === '`';
    if (!reserved && !folded.includes(': ') && !folded.endsWith(':')) continue;
    const key = rawKey.startsWith('"') || rawKey.startsWith("'") ? rawKey.slice(1, -1) : rawKey;
    lines[index] = `${prefix}${rawKey}: ${JSON.stringify(folded)}`;
    for (let blank = index + 1; blank < next; blank++) lines[blank] = '';
    done.push({
      lineIndex: index,
      valueColumn: codePointLength(prefix) + codePointLength(rawKey) + 1 + codePointLength(match[3] ?? ''),
      key: fieldPath(lines, index, keyIndent, key),
      rule: reserved ? 'yaml_reserved_indicator' : 'yaml_unquoted_colon',
      value: folded,
    });
  }
  return done;
}

/** `parent.child` path of the key on line `index`, found from the less indented lines above it. */
function fieldPath(lines: string[], index: number, indent: number, key: string): string {
  const path = [key];
  let want = indent;
  for (let i = index - 1; i >= 0 && want > 0; i--) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const lineIndent = line.length - line.trimStart().length;
    if (lineIndent >= want) continue;
    const parent = /^[ \t]*(?:-[ \t]+)?([^\s:#][^:#]*?):(\s|$)/.exec(line);
    if (parent?.[1]) path.unshift(parent[1]);
    want = lineIndent;
  }
  return path.join('.');
}

/** A line that starts a `key:` entry (optionally as a list item); group 1 is everything before the key. */
const KEY_LINE = /^([ \t]*(?:-[ \t]+)?)([^\s:#'"[\]{},&*!|>%@`][^:#]*?):(?:\s|$)/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The frontmatter field a line belongs to, as a dotted path (`metadata.triggers.keywords`): the
 * key on that line, or the key of the less indented line that opens the value it continues.
 *
 * @returns the path, or `null` when the line belongs to no key (a stray list item, flow text)
 */
export function fieldAtLine(lines: string[], index: number): string | null {
  const ownIndent = indentOf(lines[index] ?? '');
  for (let i = index; i >= 0; i--) {
    const line = lines[i] ?? '';
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (i !== index && indentOf(line) >= ownIndent) continue;
    const match = KEY_LINE.exec(line);
    if (match) return fieldPath(lines, i, (match[1] ?? '').length, (match[2] ?? '').trim());
    if (indentOf(line) === 0) return null;
  }
  return null;
}

/**
 * The warning reported for one recovery, located in the original file.
 *
 * @param recovery - what was rewritten
 * @param yamlLine - 1-based line of the first YAML line in the original file
 */
export function recoveryIssue(recovery: YamlRecovery, yamlLine: number): SkillIssue {
  const quoted = JSON.stringify(recovery.value);
  const why =
    recovery.rule === 'yaml_unquoted_colon'
      ? 'contains ": ", which YAML reads as the start of a nested mapping'
      : `starts with "${recovery.value[0]}", a character YAML reserves`;
  return {
    rule: recovery.rule,
    severity: 'warning',
    message:
      `The value of "${recovery.key}" ${why}; it was read as the string ${excerpt(recovery.value)}. ` +
      `Quote it so every YAML parser reads it the same way: ${recovery.key.split('.').pop()}: ${excerpt(recovery.value, 30)}`,
    field: recovery.key,
    line: yamlLine + recovery.lineIndex,
    column: recovery.valueColumn + 1,
    fix: quoted,
  };
}
