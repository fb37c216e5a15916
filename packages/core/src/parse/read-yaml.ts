/**
 * Reads the frontmatter YAML of a SKILL.md: YAML 1.2 core schema (`yes`, `on` and dates stay
 * strings), one parse in the common case, recovery of unquoted `": "` and reserved first characters,
 * duplicate-key reports, and every problem located in the original file.
 */
import {
  type Document,
  isCollection,
  isMap,
  isNode,
  isPair,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseDocument,
  type YAMLError,
} from 'yaml';
import { deepEqual, hasCycle } from '../internal/deep-equal.js';
import {
  countLines,
  describeType,
  excerpt,
  LineIndex,
  lineAt,
  normalizeLineBreaks,
  type TextPosition,
} from '../internal/text.js';
import type { SkillIssue } from '../types.js';
import { tooDeepIssue } from './frontmatter-depth.js';
import { fieldAtLine, findTopLevelMistakes, recoverLines, recoveryIssue } from './recover-yaml.js';
import { readSimpleYaml, type SimpleYamlRead } from './simple-yaml.js';
import { DOCUMENT_END_FIX } from './split-frontmatter.js';

/** Parse options: YAML 1.2 core schema; unknown and `!!binary`-style tags stay plain values. */
const PARSE_OPTIONS = {
  version: '1.2',
  schema: 'core',
  prettyErrors: false,
  resolveKnownTags: false,
  // The parser's own check compares every key with every earlier one (minutes for 60 000 keys);
  // duplicates are found here in one pass instead (reportDuplicates, reportNestedDuplicates).
  uniqueKeys: false,
} as const;

/** Aliases may expand to at most this many nodes (guards against "billion laughs"). */
const MAX_ALIAS_COUNT = 100;

/** How many YAML syntax errors are reported; the first ones are the useful ones. */
const MAX_SYNTAX_ISSUES = 3;

/** Top-level keys whose duplicates are errors when the values differ: they decide identity or permissions. */
const SENSITIVE_KEYS = new Set([
  'name',
  'description',
  'tags',
  'allowed-tools',
  'allowed_tools',
  'allowedTools',
]);

/** What the frontmatter YAML says. */
export interface YamlRead {
  /** The top-level mapping; when the YAML is unreadable, the keys read before the first error. */
  data: Record<string, unknown>;
  /** False when a `yaml_format` error was reported (syntax, not a mapping, alias bomb). */
  readable: boolean;
  issues: SkillIssue[];
  /** Position of a top-level key's value (or of the key when the value is empty) in the original file. */
  locate(key: string): TextPosition | undefined;
}

const NOWHERE = (): undefined => undefined;

/**
 * Parses `yamlRaw` (the text between the fences) into the frontmatter mapping.
 *
 * @param yamlRaw - the YAML as written, any line-break style
 * @param yamlLine - 1-based line of its first line in the original file
 * @returns the data, whether it was readable, the issues and a locator for top-level keys
 */
export function readYaml(yamlRaw: string, yamlLine: number): YamlRead {
  const source = normalizeLineBreaks(yamlRaw);
  // Most frontmatters are one-line strings and lists: read directly, with the parser's result.
  const simple = readSimpleYaml(source);
  if (simple !== null) return fromSimpleRead(simple, source, yamlLine);
  return readParsedYaml(source, yamlLine);
}

/**
 * The {@link YamlRead} of a frontmatter the direct reader read (`readSimpleYaml`): its data, no
 * issue, and its value offsets as positions in the original file.
 *
 * @param simple - what `readSimpleYaml(normalized)` answered
 * @param normalized - the YAML it read, line breaks normalised to LF
 * @param yamlLine - 1-based line of its first line in the original file
 */
export function fromSimpleRead(simple: SimpleYamlRead, normalized: string, yamlLine: number): YamlRead {
  const index = new LineIndex(normalized);
  return {
    data: simple.data,
    readable: true,
    issues: [],
    locate: (field) => {
      const offset = simple.offsetOf(field);
      if (offset === undefined) return undefined;
      const { line, column } = index.positionAt(offset);
      return { line: line + yamlLine - 1, column };
    },
  };
}

/**
 * {@link readYaml} by the YAML parser, for any text (and the reference the direct reader is tested
 * against).
 *
 * @param normalized - the YAML, line breaks normalised to LF
 * @param yamlLine - 1-based line of its first line in the original file
 */
export function readParsedYaml(normalized: string, yamlLine: number): YamlRead {
  let source = normalized;
  const issues: SkillIssue[] = [];
  const touched = new Set<number>();
  // Top-level mistakes are certain before parsing: recover them first and parse once.
  const certain = findTopLevelMistakes(source);
  if (certain.length > 0) {
    const lines = source.split('\n');
    for (const r of recoverLines(lines, certain)) {
      touched.add(r.lineIndex);
      issues.push(recoveryIssue(r, yamlLine));
    }
    source = lines.join('\n');
  }
  // A document nested past the parser's stack: one issue, nothing read.
  const tooDeep = (): YamlRead => ({
    data: {},
    readable: false,
    issues: [tooDeepIssue({ line: yamlLine, column: 1 })],
    locate: NOWHERE,
  });
  let doc = parseGuarded(source);
  if (doc === null) return tooDeep();
  let syntax = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY');

  if (syntax.length > 0) {
    // Recover line by line what the parser reports, re-parsing until no reported line is recoverable.
    const lines = source.split('\n');
    for (let pass = 0; pass < 8 && syntax.length > 0; pass++) {
      const errorLines = new Set<number>();
      const index = new LineIndex(source);
      for (const error of syntax) {
        const at = index.positionAt(error.pos[0]).line - 1;
        if (!touched.has(at)) errorLines.add(at);
      }
      const recovered = recoverLines(lines, errorLines);
      if (recovered.length === 0) break;
      for (const r of recovered) {
        touched.add(r.lineIndex);
        issues.push(recoveryIssue(r, yamlLine));
      }
      source = lines.join('\n');
      doc = parseGuarded(source);
      if (doc === null) return tooDeep();
      syntax = doc.errors.filter((e) => e.code !== 'DUPLICATE_KEY');
    }
  }

  const lineIndex = new LineIndex(source);
  const locate = (offset: number): TextPosition => {
    const { line, column } = lineIndex.positionAt(offset);
    return { line: line + yamlLine - 1, column };
  };

  for (const warning of doc.warnings) {
    const at = locate(warning.pos[0]);
    issues.push({
      rule: 'yaml_warning',
      severity: 'warning',
      message: `YAML: ${warning.message}`,
      field: fieldAtLine(source.split('\n'), at.line - yamlLine),
      ...at,
    });
  }

  // The parser reports its own stack overflow as a syntax error: it is a nesting too deep to read.
  const overflow = syntax.find((e) => isStackOverflow(e));
  if (overflow !== undefined) {
    return { data: {}, readable: false, issues: [tooDeepIssue(locate(overflow.pos[0]))], locate: NOWHERE };
  }

  if (syntax.length > 0) {
    // One error per line: the parser often reports a single mistake several ways.
    const seenLines = new Set<number>();
    const lines = source.split('\n');
    for (const error of syntax) {
      const issue = syntaxIssue(error, source, locate, yamlLine + countLines(source));
      issue.field = fieldAtLine(lines, (issue.line ?? yamlLine) - yamlLine);
      if (seenLines.has(issue.line ?? 0)) continue;
      seenLines.add(issue.line ?? 0);
      issues.push(issue);
      if (seenLines.size === MAX_SYNTAX_ISSUES) break;
    }
    return { data: readBefore(doc, syntax), readable: false, issues, locate: NOWHERE };
  }

  const contents = doc.contents;
  if (contents !== null && !isMap(contents)) {
    const got = isScalar(contents) ? describeType(contents.value) : isSeq(contents) ? 'a list' : 'an alias';
    issues.push({
      rule: 'yaml_format',
      severity: 'error',
      message: `The frontmatter must be a mapping of keys to values (e.g. "name: my-skill"), got ${got}.`,
      field: null,
      ...locate(contents.range?.[0] ?? 0),
    });
    return { data: {}, readable: false, issues, locate: NOWHERE };
  }

  const complexKey = firstCollectionKey(contents);
  if (complexKey !== null) {
    const at = locate(complexKey.range?.[0] ?? 0);
    issues.push({
      rule: 'yaml_format',
      severity: 'error',
      message:
        `The frontmatter YAML has a ${isSeq(complexKey) ? 'list' : 'mapping'} as a key at line ${at.line}, ` +
        `column ${at.column}; keys must be text (e.g. "name: my-skill"). Quote the key or remove the "?".`,
      field: fieldAtLine(source.split('\n'), at.line - yamlLine),
      ...at,
    });
    return { data: {}, readable: false, issues, locate: NOWHERE };
  }

  let data: Record<string, unknown>;
  try {
    const js: unknown = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    data = js !== null && typeof js === 'object' ? (js as Record<string, unknown>) : {};
    // Only aliases can make a value contain itself; skip the walk when there are none.
    if (source.includes('*') && source.includes('&') && hasCycle(data)) {
      throw new Error('an alias is used inside its own anchor (e.g. "&a [*a]"), so a value contains itself');
    }
  } catch (error) {
    if (isStackOverflow(error)) {
      return {
        data: {},
        readable: false,
        issues: [tooDeepIssue({ line: yamlLine, column: 1 })],
        locate: NOWHERE,
      };
    }
    issues.push({
      rule: 'yaml_format',
      severity: 'error',
      message: `The frontmatter YAML cannot be read: ${(error as Error).message}`,
      field: null,
      line: yamlLine,
      column: 1,
    });
    return { data: {}, readable: false, issues, locate: NOWHERE };
  }

  if (isMap(contents)) {
    reportDuplicates(doc, contents.items, data, issues, locate);
    reportNestedDuplicates(contents.items, source, issues, locate);
    reportCutByComment(contents.items, source, issues, locate);
  }
  return {
    data,
    readable: true,
    issues,
    locate: (field) => {
      const offset = offsetOf(contents, field);
      return offset === undefined ? undefined : locate(offset);
    },
  };
}

/**
 * The first mapping key, anywhere in `root`, that is a list or a mapping (`? [a, b]: c`, `? ? ? a`),
 * or null. Such a key has no text form: the YAML library turns it into one by rendering the key, and
 * renders each nested key again for every level above it, so 300 levels of `? ` (660 characters)
 * cost ~13 s. OpenViking's loader (PyYAML `safe_load`) refuses these keys as unhashable. One pass,
 * no recursion.
 *
 * @param root - a parsed node (the document's contents, or one value)
 */
function firstCollectionKey(root: unknown): Node | null {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isPair(node)) {
      if (isCollection(node.key)) return node.key;
      stack.push(node.value);
    } else if (isCollection(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return null;
}

/** Parses `source` with the frontmatter options, or null when its nesting overflows the parser's stack. */
function parseGuarded(source: string): Document.Parsed | null {
  try {
    return parseDocument(source, PARSE_OPTIONS);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    return null;
  }
}

/** True for a stack overflow (`RangeError: Maximum call stack size exceeded`), thrown or reported by the parser. */
function isStackOverflow(error: unknown): boolean {
  return (
    error instanceof RangeError ||
    (typeof error === 'object' &&
      error !== null &&
      /maximum call stack/i.test(String((error as { message?: unknown }).message)))
  );
}

/**
 * Offset of the value at `field` — a top-level key, or a dotted path into nested mappings
 * (`metadata.version`); the key's offset when the value is empty; `undefined` when not found.
 */
function offsetOf(contents: unknown, field: string): number | undefined {
  let node: unknown = contents;
  let offset: number | undefined;
  // A top-level key may itself contain dots: try it whole first.
  const paths = field.includes('.') ? [[field], field.split('.')] : [[field]];
  for (const path of paths) {
    node = contents;
    offset = undefined;
    for (const segment of path) {
      if (!isMap(node)) {
        offset = undefined;
        break;
      }
      const pair = node.items.find((item) => keyString(item) === segment);
      if (!pair) {
        offset = undefined;
        break;
      }
      const target = isNode(pair.value) ? pair.value : pair.key;
      node = pair.value;
      offset = isNode(target) ? target.range?.[0] : undefined;
    }
    if (offset !== undefined) return offset;
  }
  return undefined;
}

/** The key of a pair as a string, or null for a complex key. */
function keyString(pair: Pair): string | null {
  const key = pair.key;
  if (isScalar(key)) return String(key.value);
  if (key === null || typeof key !== 'object') return String(key);
  return null;
}

/** One `yaml_format` error for a YAML syntax error, with a hint for the common causes. */
function syntaxIssue(
  error: YAMLError,
  source: string,
  locate: (offset: number) => TextPosition,
  fenceLine: number,
): SkillIssue {
  // An error at the very end (an unclosed bracket or quote) is shown on the last written line;
  // an unclosed bracket or quote reported at the start of the next line, at the end of its own.
  let offset = Math.min(error.pos[0], Math.max(0, source.trimEnd().length - 1));
  if (offset > 1 && source.charCodeAt(offset - 1) === 10 && /flow|quote/i.test(error.message)) offset -= 2;
  const at = locate(offset);
  const line = lineAt(source, offset).text;
  let hint = '';
  const marker = error.code === 'MULTIPLE_DOCS' ? documentEndBefore(source, offset) : -1;
  if (marker !== -1) {
    hint = ` Line ${locate(marker).line} is "...", ${DOCUMENT_END_FIX}.`;
  } else if (error.code === 'MISSING_CHAR' && /quote/i.test(error.message)) {
    hint =
      ` The quoted value is still open at the closing "---" on line ${fenceLine}: a line "---" always ends` +
      ' the frontmatter; indent it to keep it inside the value, and close the quote.';
  } else if (error.code === 'BAD_ALIAS' || /alias/i.test(error.message)) {
    hint = ' A value starting with "*" is a YAML alias; quote it (e.g. "*").';
  } else if (error.code === 'BAD_SCALAR_START') {
    hint = ' Quote the value.';
  } else if (/flow (sequence|collection|map)/i.test(error.message)) {
    hint = ' Quote list items that contain "[", "]", "{", "}", "," or start with "@" or "`".';
  } else if (error.code === 'BLOCK_AS_IMPLICIT_KEY' || /mapping/i.test(error.message)) {
    hint = ' A value containing ": " must be quoted.';
  }
  return {
    rule: 'yaml_format',
    severity: 'error',
    message: `YAML syntax error at line ${at.line}, column ${at.column}: ${error.message}.${hint} Line: ${excerpt(line.trim())}`,
    field: null,
    ...at,
  };
}

/**
 * The offset of the last line before `offset` that is YAML's document end marker `...`, or -1: the
 * line that ended the YAML document when text follows it (a frontmatter meant to close there).
 */
function documentEndBefore(source: string, offset: number): number {
  let found = -1;
  // With the `m` flag, `^` and `$` also match at CR, CRLF and LF line breaks.
  for (const match of source.slice(0, offset).matchAll(/^\.\.\.[ \t]*$/gm)) found = match.index;
  return found;
}

/** Top-level keys that end before the first syntax error: what can be trusted of a broken document. */
function readBefore(doc: Document.Parsed, errors: YAMLError[]): Record<string, unknown> {
  const contents = doc.contents;
  const data: Record<string, unknown> = {};
  if (!isMap(contents)) return data;
  // A loop, not `Math.min(...offsets)`: a broken document may hold more errors than a call takes arguments.
  const firstError = errors.reduce((min, e) => Math.min(min, e.pos[0]), Number.POSITIVE_INFINITY);
  for (const pair of contents.items) {
    const key = keyString(pair);
    const value = pair.value;
    const end = isNode(value) ? value.range?.[2] : isNode(pair.key) ? pair.key.range?.[2] : undefined;
    if (key === null || end === undefined || end > firstError) break;
    if (firstCollectionKey(value) !== null) break;
    try {
      const js: unknown = isNode(value)
        ? value.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT })
        : (value ?? null);
      if (hasCycle(js)) break;
      data[key] = js;
    } catch {
      break;
    }
  }
  return data;
}

/**
 * Reports top-level keys given more than once. The last value wins (as in most YAML loaders); for
 * keys that decide identity or permissions, differing values are an error.
 */
function reportDuplicates(
  doc: Document.Parsed,
  items: Pair[],
  data: Record<string, unknown>,
  issues: SkillIssue[],
  locate: (offset: number) => TextPosition,
): void {
  const firstSeen = new Map<string, Pair>();
  for (const pair of items) {
    const key = keyString(pair);
    if (key === null) continue;
    const earlier = firstSeen.get(key);
    if (!earlier) {
      firstSeen.set(key, pair);
      continue;
    }
    const at = locate(isNode(pair.key) ? (pair.key.range?.[0] ?? 0) : 0);
    const firstAt = locate(isNode(earlier.key) ? (earlier.key.range?.[0] ?? 0) : 0);
    const earlierValue = isNode(earlier.value) ? safeToJS(earlier.value, doc) : earlier.value;
    const differs = !deepEqual(earlierValue, data[key]);
    const error = differs && SENSITIVE_KEYS.has(key);
    issues.push({
      rule: 'yaml_duplicate_key',
      severity: error ? 'error' : 'warning',
      message:
        `"${key}" is given twice (lines ${firstAt.line} and ${at.line})` +
        (error
          ? ' with different values; remove one so it is clear which applies.'
          : differs
            ? '; the last value is used. Remove one.'
            : ' with the same value. Remove one.'),
      field: key,
      ...at,
    });
  }
}

/** Duplicate keys inside nested mappings: reported as warnings (the last value is used). */
function reportNestedDuplicates(
  items: Pair[],
  source: string,
  issues: SkillIssue[],
  locate: (offset: number) => TextPosition,
): void {
  let lines: string[] | undefined;
  for (const offset of nestedDuplicateOffsets(items)) {
    const line = lineAt(source, offset).text;
    const key = /^[ \t]*(?:-[ \t]+)?([^:#]+?):/.exec(line)?.[1] ?? line.trim();
    const at = locate(offset);
    lines ??= source.split('\n');
    const field = fieldAtLine(lines, at.line - locate(0).line);
    issues.push({
      rule: 'yaml_duplicate_key',
      severity: 'warning',
      message: `${excerpt(field ?? key)} is given twice in the same mapping; the last value is used. Remove one.`,
      field,
      ...at,
    });
  }
}

/**
 * Offsets of the keys that repeat an earlier scalar key of the same mapping, in every mapping below
 * the top level (flow or block, inside lists too), in document order. One pass, no recursion.
 */
function nestedDuplicateOffsets(topItems: Pair[]): number[] {
  const offsets: number[] = [];
  const stack: unknown[] = topItems.map((pair) => pair.value).reverse();
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (isScalar(pair.key)) {
          if (seen.has(pair.key.value) && pair.key.range) offsets.push(pair.key.range[0]);
          seen.add(pair.key.value);
        }
      }
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]?.value);
    } else if (isSeq(node)) {
      for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
    }
  }
  return offsets.sort((a, b) => a - b);
}

function safeToJS(
  node: { toJS(doc: Document.Parsed, opts: { maxAliasCount: number }): unknown },
  doc: Document.Parsed,
): unknown {
  try {
    return node.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return undefined;
  }
}

/** Fields whose plain value a ` #` cuts short without the writer noticing (agents read them). */
const COMMENT_CUT_FIELDS = new Set(['name', 'description']);

/**
 * `description: Post to the #deployments channel` is `Post to the` in YAML: an unquoted value ends at
 * ` #`, which starts a comment. Reports it as a warning (every profile) with the quoted line as the fix.
 */
function reportCutByComment(
  items: ReadonlyArray<{ key: unknown; value: unknown }>,
  source: string,
  issues: SkillIssue[],
  locate: (offset: number) => TextPosition,
): void {
  for (const pair of items) {
    if (!isScalar(pair.key) || !COMMENT_CUT_FIELDS.has(String(pair.key.value))) continue;
    const value = pair.value;
    if (!isScalar(value) || value.type !== 'PLAIN' || typeof value.value !== 'string' || !value.range)
      continue;
    const end = value.range[1];
    const lineEnd = source.indexOf('\n', end);
    const rest = source.slice(end, lineEnd === -1 ? source.length : lineEnd);
    const hash = /^[ \t]+#/.exec(rest);
    if (hash === null) continue;
    const field = String(pair.key.value);
    const full = `${value.value}${rest.trimEnd()}`.replace(/^\s+/, '');
    const quoted = JSON.stringify(full);
    issues.push({
      rule: 'yaml_comment_in_value',
      severity: 'warning',
      message:
        `"${field}" is cut at " #": YAML reads the rest of the line as a comment, so ${field} is ` +
        `${JSON.stringify(value.value)}. Quote the value to keep the "#": ${field}: ${quoted}`,
      field,
      fix: full,
      ...locate(end + hash[0].length - 1),
    });
  }
}
