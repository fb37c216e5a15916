/**
 * Small text helpers shared by the parser and the validator: Unicode code point lengths, line
 * counting with every line-break style, offset → line/column, and input excerpts for messages.
 * Private to `@skillport/core`.
 */

/** How many characters of an offending input a message quotes. */
export const EXCERPT_MAX = 60;

/**
 * Length of `text` in Unicode code points (an emoji or a CJK extension character counts once),
 * not UTF-16 code units.
 */
export function codePointLength(text: string): number {
  // Most text has no astral characters: then code points are UTF-16 units.
  if (!SURROGATE.test(text)) return text.length;
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A high surrogate followed by a low surrogate is one code point.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** The first `max` code points of `text`, never splitting a surrogate pair. */
export function sliceCodePoints(text: string, max: number): string {
  let count = 0;
  let i = 0;
  while (i < text.length && count < max) {
    const code = text.charCodeAt(i);
    i += code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
    count++;
  }
  return text.slice(0, i);
}

/**
 * Characters a reader cannot see or tell from a space: format characters (byte order mark, zero
 * width space, bidirectional controls), separators other than the ASCII space (no-break space,
 * ideographic space, line and paragraph separators) and C1 controls. The zero width joiner and
 * non-joiner are left out: emoji sequences and Persian or Indic text need them.
 */
const INVISIBLE = /[\u007f-\u009f\p{Zs}\p{Zl}\p{Zp}\p{Cf}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');

function isInvisible(char: string): boolean {
  return char !== ' ' && char !== '\u200c' && char !== '\u200d' && INVISIBLE.test(char);
}

/** `\uXXXX` escapes of `char`'s UTF-16 units, as JSON writes them. */
function escapeUnits(char: string): string {
  let out = '';
  for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * `text` as a JSON string for a message, with every invisible character (see {@link INVISIBLE})
 * escaped too, so that `"\u00a0pdf"` never reads as `" pdf"` or `"pdf"`.
 */
export function quoteVisibly(text: string): string {
  return JSON.stringify(text).replace(INVISIBLE_ALL, (char) =>
    isInvisible(char) ? escapeUnits(char) : char,
  );
}

/**
 * One character for a list of offending characters: quoted (`"é"`, `" "`) when it can be seen,
 * else its code point (`U+00A0`, `U+FEFF`, `U+0009`).
 */
export function showCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || isInvisible(char)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return JSON.stringify(char);
}

/**
 * `text` quoted for a message: JSON-escaped (so control characters and line breaks are visible),
 * invisible characters escaped as well ({@link quoteVisibly}), and cut to {@link EXCERPT_MAX} code
 * points with an ellipsis.
 */
export function excerpt(text: string, max = EXCERPT_MAX): string {
  const cut = codePointLength(text) > max ? `${sliceCodePoints(text, max - 1)}…` : text;
  return quoteVisibly(cut);
}

/**
 * The blanks the name rule trims around a skill name: ASCII spaces, tabs and line breaks (what a
 * quoted YAML value or a block scalar can leave there). Any other character, a no-break space or a
 * byte order mark included, is part of the name: the stored SKILL.md keeps it, so an agent reading
 * that file sees it, and a registry that trimmed it would store a name the file does not hold.
 */
export function trimNameBlanks(name: string): string {
  // A scan, not `/[ \t\r\n]+$/`: that pattern retries at every blank of a long run inside the name
  // (`a`, a million spaces, `b`: quadratic, minutes of CPU).
  let start = 0;
  let end = name.length;
  while (start < end && isNameBlank(name.charCodeAt(start))) start++;
  while (end > start && isNameBlank(name.charCodeAt(end - 1))) end--;
  return start === 0 && end === name.length ? name : name.slice(start, end);
}

/** Whether a UTF-16 unit is a blank {@link trimNameBlanks} trims: space, tab, LF, CR. */
function isNameBlank(unit: number): boolean {
  return unit === 0x20 || unit === 0x09 || unit === 0x0a || unit === 0x0d;
}

/**
 * Number of lines of `text`: line breaks are LF, CRLF or a lone CR; a final line break does not
 * open a new line, so `''` has 0 lines, `'a'` and `'a\n'` have 1, `'a\n\nb'` has 3.
 */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let breaks = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) breaks++;
  // A CR not followed by LF is a line break of its own (classic Mac OS, mixed files).
  for (let at = text.indexOf('\r'); at !== -1; at = text.indexOf('\r', at + 1)) {
    if (text.charCodeAt(at + 1) !== 10) breaks++;
  }
  const last = text.charCodeAt(text.length - 1);
  const endsWithBreak = last === 10 || last === 13;
  return endsWithBreak ? breaks : breaks + 1;
}

/** Replaces CRLF and lone CR line breaks with LF; the number and place of lines does not change. */
export function normalizeLineBreaks(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

/** A 1-based position: line, and column counted in code points. */
export interface TextPosition {
  line: number;
  column: number;
}

/**
 * Offset → position lookups in LF-only `text` in O(log lines) each, for texts with many issues.
 * The line starts are found once, on the first lookup.
 */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(private readonly text: string) {}

  /** 1-based line and code point column of `offset` (clamped to the text). */
  positionAt(offset: number): TextPosition {
    if (this.starts === undefined) {
      const starts = [0];
      for (let at = this.text.indexOf('\n'); at !== -1; at = this.text.indexOf('\n', at + 1))
        starts.push(at + 1);
      this.starts = starts;
    }
    const end = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.starts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((starts[mid] as number) <= end) low = mid;
      else high = mid - 1;
    }
    const lineStart = starts[low] as number;
    return { line: low + 1, column: codePointLength(this.text.slice(lineStart, end)) + 1 };
  }
}

/** The line (without its LF) that contains `offset` in LF-only `text`, and where it starts. */
export function lineAt(text: string, offset: number): { text: string; start: number } {
  const start = offset <= 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  const endAt = text.indexOf('\n', Math.max(start, offset));
  return { text: text.slice(start, endAt === -1 ? text.length : endAt), start };
}

/** Whether `value` is a plain object (a YAML mapping or a JSON object), not an array or null. */
export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A short English name of a value's type for messages: `a number`, `a list`, `a mapping`, `null`. */
export function describeType(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'number' || typeof value === 'bigint') return 'a number';
  return `a ${typeof value}`;
}
