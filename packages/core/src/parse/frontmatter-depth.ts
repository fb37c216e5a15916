/**
 * A linear-time bound on the nesting depth of frontmatter YAML, checked before the YAML parser
 * sees it: the parser recurses once per level, so thousands of levels (`- - - - … x`,
 * `[[[[…]]]]`) cost seconds or overflow the stack.
 */
import type { TextPosition } from '../internal/text.js';
import type { SkillIssue } from '../types.js';

/**
 * Deepest nesting of frontmatter YAML read (64 levels, the same bound as JSON request bodies on
 * the server). The top-level mapping is level 1; each block indentation step, each `- ` that opens
 * a sequence inside a sequence item on one line, and each flow `[` / `{` adds one.
 */
export const MAX_FRONTMATTER_DEPTH = 64;

/** Where the nesting first passes the bound: 0-based line within the YAML and 0-based UTF-16 offset in that line. */
export interface DepthViolation {
  lineIndex: number;
  offset: number;
}

const SPACE = 32;
const TAB = 9;

/**
 * Scans YAML text once and returns the first point nested deeper than `max` levels, or null.
 * Errs toward counting: quoted strings, comments and block scalars are skipped only where YAML
 * certainly reads them so (a quote or flow bracket counts only where a value can start).
 *
 * @param yaml - the frontmatter text, line breaks normalised to `\n`
 * @param max - deepest nesting allowed
 */
export function findTooDeep(yaml: string, max: number): DepthViolation | null {
  const indents: number[] = [];
  let flow = 0;
  /** Indentation of the line that opened the outermost flow collection. */
  let flowParent = 0;
  /** Open quote carried across lines: 0, `'` or `"`. */
  let quote = 0;
  /** Indentation of the line that opened a block scalar (`|`, `>`); -1 when none. */
  let blockScalarParent = -1;
  let lineStart = 0;
  for (let lineIndex = 0; lineStart <= yaml.length; lineIndex++) {
    let lineEnd = yaml.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = yaml.length;
    let i = lineStart;
    while (i < lineEnd && (yaml.charCodeAt(i) === SPACE || yaml.charCodeAt(i) === TAB)) i++;
    const indent = i - lineStart;
    const blank = i === lineEnd || (quote === 0 && yaml.charCodeAt(i) === 35); // '#'
    if (blockScalarParent >= 0 && (blank || indent > blockScalarParent)) {
      lineStart = lineEnd + 1;
      continue;
    }
    blockScalarParent = -1;
    if (blank && quote === 0) {
      lineStart = lineEnd + 1;
      continue;
    }
    // A flow collection continued on a line indented no deeper than the line that opened it is
    // closed there by the parser (an error), not nested further: `a: [` on 1000 lines is 1 level.
    if (flow > 0 && quote === 0 && indent <= flowParent) flow = 0;
    // Block structure: only outside flow collections and quoted values.
    let valueCanStart = true;
    if (flow === 0 && quote === 0) {
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
      if (indents.length > max) return { lineIndex, offset: indent };
      // `- - - x`: each further "- " opens a sequence inside the item; `? ? ? x` and `: ? x` open
      // mappings as keys (and values) of explicit keys the same way.
      let dashes = 0;
      while (
        i < lineEnd &&
        isIndicator(yaml.charCodeAt(i)) &&
        (i + 1 === lineEnd || yaml.charCodeAt(i + 1) === SPACE || yaml.charCodeAt(i + 1) === TAB)
      ) {
        if (++dashes > 1) {
          indents.push(i - lineStart);
          if (indents.length > max) return { lineIndex, offset: i - lineStart };
        }
        i++;
        while (i < lineEnd && (yaml.charCodeAt(i) === SPACE || yaml.charCodeAt(i) === TAB)) i++;
      }
    }
    let last = 0; // last non-blank character outside quotes and comments
    for (; i < lineEnd; i++) {
      const c = yaml.charCodeAt(i);
      if (quote !== 0) {
        if (quote === 34 && c === 92)
          i++; // backslash escape in "…"
        else if (c === quote) {
          if (quote === 39 && yaml.charCodeAt(i + 1) === 39)
            i++; // '' in '…'
          else quote = 0;
        }
        valueCanStart = false;
        continue;
      }
      if (c === SPACE || c === TAB) {
        continue;
      }
      const prev = i > lineStart ? yaml.charCodeAt(i - 1) : SPACE;
      if (c === 35 && (prev === SPACE || prev === TAB)) break; // comment
      if ((c === 34 || c === 39) && valueCanStart) {
        quote = c;
        continue;
      }
      if ((c === 91 || c === 123) && (flow > 0 || valueCanStart)) {
        if (flow++ === 0) flowParent = indent;
        if (indents.length + flow > max) return { lineIndex, offset: i - lineStart };
        valueCanStart = true;
        last = c;
        continue;
      }
      if ((c === 93 || c === 125) && flow > 0) {
        flow--;
        valueCanStart = false;
        last = c;
        continue;
      }
      const next = yaml.charCodeAt(i + 1);
      const separated = i + 1 >= lineEnd || next === SPACE || next === TAB;
      // A value can start after ": ", "- ", "? " and, in a flow collection, after "," or ":".
      valueCanStart =
        ((c === 58 || c === 45 || c === 63) && (separated || (flow > 0 && c === 58))) ||
        (flow > 0 && c === 44);
      last = c;
    }
    if (quote === 0 && flow === 0 && isBlockScalarHeader(yaml, lineStart, i, last))
      blockScalarParent = indent;
    lineStart = lineEnd + 1;
  }
  return null;
}

/** `-`, `?` or `:`: a block indicator that, followed by a space, may open a collection inside the line. */
function isIndicator(c: number): boolean {
  return c === 45 || c === 63 || c === 58;
}

/** True when the line (up to `end`, comments cut) ends with a block scalar header: `|`, `>-`, `|2+`… */
function isBlockScalarHeader(yaml: string, lineStart: number, end: number, last: number): boolean {
  if (last === 0) return false;
  let j = end - 1;
  while (j >= lineStart && (yaml.charCodeAt(j) === SPACE || yaml.charCodeAt(j) === TAB)) j--;
  // At most two indicator characters (indentation digit, chomping) after | or >.
  for (let k = 0; k < 2 && j >= lineStart && /[0-9+-]/.test(yaml[j] as string); k++) j--;
  const c = yaml.charCodeAt(j);
  if (c !== 124 && c !== 62) return false;
  const before = j > lineStart ? yaml.charCodeAt(j - 1) : SPACE;
  return before === SPACE || before === TAB;
}

/**
 * The `frontmatter_too_deep` error: the frontmatter nests deeper than {@link MAX_FRONTMATTER_DEPTH}
 * levels, located at the first point past the bound.
 */
export function tooDeepIssue(at: TextPosition): SkillIssue {
  return {
    rule: 'frontmatter_too_deep',
    severity: 'error',
    message: `The frontmatter YAML has nesting deeper than ${MAX_FRONTMATTER_DEPTH} levels; it is not read. Flatten the nested lists or mappings.`,
    field: 'frontmatter',
    ...at,
  };
}
