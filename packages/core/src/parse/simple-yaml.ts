/**
 * A direct reader for the frontmatter most SKILL.md files have: top-level `key: value` lines whose
 * values are one-line strings (plain, `"double"` or `'single'` quoted) or flow lists of them
 * (`[a, "b"]`), and keys holding one indented block of such `key: value` lines or `- item` lines
 * (`metadata:` / `tags:`). A top-level value may also be a plain string continued on indented lines
 * (folded into one line, as YAML does), or a literal (`|`, `|-`) or folded (`>`, `>-`) block scalar
 * without more-indented lines. Anything else — comments, quoted or nested multi-line values, other
 * block scalar headers, anchors, tags, escapes other than JSON's, values the YAML 1.2 core schema
 * reads as null, booleans or numbers, duplicate keys, tabs, control characters, lines of blanks —
 * makes it answer null, and the YAML parser reads the text instead. Where it answers, the data and the positions are the parser's (a test compares them
 * over real SKILL.md files); it only skips building the parser's syntax tree, the bulk of the CPU
 * an add spends on a small SKILL.md.
 */

/** The data of a frontmatter read by {@link readSimpleYaml}, and where its values start. */
export interface SimpleYamlRead {
  data: Record<string, unknown>;
  /**
   * Offset in the source of the value of a top-level key, or of `parent.child` inside a key's block
   * mapping (of the block's first item for a key holding a block); undefined when there is none.
   */
  offsetOf(field: string): number | undefined;
}

/** A top-level key line: the key, then `:` and either nothing (a block follows) or blanks and a value. */
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:( +)(.*))?$/;
/** An item of a block mapping: indentation, key, `:`, blanks, value. */
const BLOCK_MAP_ITEM = /^( +)([A-Za-z_][A-Za-z0-9_-]*):( +)(.*)$/;
/** An item of a block list: indentation, `-`, blanks, value. */
const BLOCK_SEQ_ITEM = /^( +)-( +)(.*)$/;
/** Keys the core schema reads as null or a boolean (the key regexes admit no number). */
const NON_STRING_KEY = /^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
/** Plain scalars the YAML 1.2 core schema reads as something other than a string. */
const NON_STRING_PLAIN =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
/**
 * Characters this reader leaves to the parser: C0 controls (tab included), DEL, C1 controls, the
 * byte order mark, the non-characters U+FFFE/U+FFFF and surrogates that are not part of a pair.
 */
const UNSAFE_CHAR =
  /[\u0000-\u001f\u007f-\u009f\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** A one-line plain scalar in block context: no indicator first, no `: `, ` #` or final `:`. */
const BLOCK_PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`](?:[^:#]|:(?! )|(?<! )#)*$/;
/** A plain scalar inside a flow list: as {@link BLOCK_PLAIN}, and no `,[]{}`, `:` or `#` at all. */
const FLOW_PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`][^,[\]{}:#]*$/;
/** A double-quoted scalar with JSON's escapes only (decoded by `JSON.parse`). */
const DOUBLE_QUOTED = /^"(?:[^"\\]|\\["\\/bfnrt])*"$/;
/** A single-quoted scalar (`''` is a quote). */
const SINGLE_QUOTED = /^'(?:[^']|'')*'$/;

/**
 * A continuation line of a multi-line plain value: indented, then text as {@link BLOCK_PLAIN} allows
 * (no indicator first, no `: ` or ` #`); a final `:` or blank is refused apart.
 */
const PLAIN_CONTINUATION = /^ +([^\s\-?:,[\]{}#&*!|>'"%@`](?:[^:#]|:(?! )|(?<! )#)*)$/;
/** A block scalar header this reader takes: literal or folded, clipped or stripped. */
const BLOCK_SCALAR_HEADER = /^([|>])(-?)$/;

/** A one-line scalar (plain, double- or single-quoted) as its string, or undefined when not one. */
function readScalar(text: string, plain: RegExp): string | undefined {
  const first = text.charCodeAt(0);
  if (first === 0x22) return DOUBLE_QUOTED.test(text) ? (JSON.parse(text) as string) : undefined;
  if (first === 0x27) return SINGLE_QUOTED.test(text) ? text.slice(1, -1).replaceAll("''", "'") : undefined;
  // Trailing blanks (which the parser drops) and a final `:` (a mapping key) are left to it.
  const last = text.charCodeAt(text.length - 1);
  if (last === 0x3a || /\s/.test(text[text.length - 1] as string)) return undefined;
  return plain.test(text) && !NON_STRING_PLAIN.test(text) ? text : undefined;
}

/** The items of a one-line flow list `[a, "b", 'c']` (strings only), or undefined. */
function readFlowList(text: string): string[] | undefined {
  if (text.charCodeAt(text.length - 1) !== 0x5d) return undefined;
  const items: string[] = [];
  const end = text.length - 1;
  let at = 1;
  const skipBlanks = () => {
    while (at < end && text.charCodeAt(at) === 0x20) at++;
  };
  skipBlanks();
  if (at === end) return items;
  for (;;) {
    skipBlanks();
    const first = text.charCodeAt(at);
    let raw: string;
    if (first === 0x22 || first === 0x27) {
      // The quoted item runs to its closing quote (an escaped `\"`, or `''`, does not close it).
      let close = at + 1;
      for (; close < end; close++) {
        const code = text.charCodeAt(close);
        if (first === 0x22 && code === 0x5c) close++;
        else if (code === first) {
          if (first === 0x27 && text.charCodeAt(close + 1) === 0x27) close++;
          else break;
        }
      }
      if (close >= end) return undefined;
      raw = text.slice(at, close + 1);
      at = close + 1;
      skipBlanks();
    } else {
      let stop = text.indexOf(',', at);
      if (stop === -1 || stop > end) stop = end;
      raw = text.slice(at, stop);
      let trimmed = raw.length;
      while (trimmed > 0 && raw.charCodeAt(trimmed - 1) === 0x20) trimmed--;
      raw = raw.slice(0, trimmed);
      at = stop;
      if (raw === '') return undefined;
    }
    const item = readScalar(raw, FLOW_PLAIN);
    if (item === undefined) return undefined;
    items.push(item);
    if (at === end) return items;
    if (text.charCodeAt(at) !== 0x2c) return undefined;
    at++;
    skipBlanks();
    // `[a, ]` and `[a,,b]` are left to the parser.
    if (at === end || text.charCodeAt(at) === 0x2c) return undefined;
  }
}

/** A one-line value: a scalar or a flow list of scalars, or undefined. */
function readValue(text: string): string | string[] | undefined {
  if (text === '' || UNSAFE_CHAR.test(text)) return undefined;
  return text.charCodeAt(0) === 0x5b ? readFlowList(text) : readScalar(text, BLOCK_PLAIN);
}

/**
 * The rest of a plain top-level value that goes on over the indented lines after `lines[at]`, all
 * indented alike: each continuation line is trimmed and joined with a space, or with one line break
 * per empty line between them (YAML's line folding). Empty lines after the last continuation line
 * are not part of the value. (Lines indented alike also keep such a value within the two levels of
 * nesting the depth check before parsing relies on: see `parseSkillMdDetail`.)
 *
 * @returns the text to append and the index of the value's last line; `end` is `at` when there is
 *   no continuation line; undefined when an indented line is not one this reader takes
 */
function readPlainContinuation(
  lines: readonly string[],
  at: number,
): { text: string; end: number } | undefined {
  let text = '';
  let end = at;
  let empty = 0;
  let indent = 0;
  for (let j = at + 1; j < lines.length; j++) {
    const line = lines[j] as string;
    if (line === '') {
      empty++;
      continue;
    }
    if (line.charCodeAt(0) !== 0x20) break;
    const match = PLAIN_CONTINUATION.exec(line);
    if (match === null || UNSAFE_CHAR.test(line)) return undefined;
    const content = match[1] as string;
    const width = line.length - content.length;
    if (indent === 0) indent = width;
    else if (width !== indent) return undefined;
    const last = content.charCodeAt(content.length - 1);
    if (last === 0x3a || last === 0x20) return undefined;
    text += (empty === 0 ? ' ' : '\n'.repeat(empty)) + content;
    empty = 0;
    end = j;
  }
  return { text, end };
}

/**
 * A literal (`|`) or folded (`>`) block scalar whose header ends `lines[at]`, clipped (one final
 * line break) or stripped (`-`, none): its lines, all indented as its first one (no leading empty
 * line, no more-indented line, no line of blanks), up to the next line at the top level.
 *
 * @returns the value and the index of its last line, or undefined when the block is not of that shape
 */
function readBlockScalar(
  lines: readonly string[],
  at: number,
  style: string,
  strip: boolean,
): { value: string; end: number } | undefined {
  let indent = 0;
  let value = '';
  let end = at;
  let empty = 0;
  for (let j = at + 1; j < lines.length; j++) {
    const line = lines[j] as string;
    if (line === '') {
      if (indent === 0) return undefined;
      empty++;
      continue;
    }
    if (line.charCodeAt(0) !== 0x20) break;
    let width = 1;
    while (line.charCodeAt(width) === 0x20) width++;
    if (width === line.length || UNSAFE_CHAR.test(line)) return undefined;
    if (indent === 0) indent = width;
    else if (width !== indent) {
      // More-indented lines keep their breaks under folding (left to the parser).
      if (width < indent || style === '>') return undefined;
    }
    const content = line.slice(indent);
    if (value === '') value = content;
    else if (style === '|') value += `${'\n'.repeat(empty + 1)}${content}`;
    else value += (empty === 0 ? ' ' : '\n'.repeat(empty)) + content;
    empty = 0;
    end = j;
  }
  if (indent === 0) return undefined;
  return { value: strip ? value : `${value}\n`, end };
}

/**
 * Reads LF-only frontmatter YAML of the simple shape described above (see the module comment).
 *
 * @param source - the YAML between the fences, line breaks normalised to LF
 * @returns the data and value offsets, or null when the text needs the YAML parser
 */
export function readSimpleYaml(source: string): SimpleYamlRead | null {
  const data: Record<string, unknown> = {};
  const offsets = new Map<string, number>();
  let nested: Map<string, Map<string, number>> | undefined;
  const lines = source.split('\n');
  let lineStart = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const start = lineStart;
    lineStart += line.length + 1;
    if (line === '') continue;
    const match = KEY_LINE.exec(line);
    if (match === null) return null;
    const key = match[1] as string;
    if (NON_STRING_KEY.test(key) || key === '__proto__' || offsets.has(key)) return null;
    const blanks = match[2];
    if (blanks !== undefined) {
      const text = match[3] as string;
      const header = BLOCK_SCALAR_HEADER.exec(text);
      let value: string | string[] | undefined;
      let end = i;
      if (header !== null) {
        const block = readBlockScalar(lines, i, header[1] as string, header[2] === '-');
        if (block === undefined) return null;
        ({ value, end } = block);
      } else {
        value = readValue(text);
        if (value === undefined) return null;
        const next = lines[i + 1];
        if (next !== undefined && (next === '' || next.charCodeAt(0) === 0x20)) {
          // Only a plain one-line start may go on over indented lines (quoted or flow ones are left
          // to the parser, as is an indented line after a key's block).
          const first = text.charCodeAt(0);
          const continued = readPlainContinuation(lines, i);
          if (continued === undefined) return null;
          if (continued.end !== i) {
            if (first === 0x22 || first === 0x27 || first === 0x5b) return null;
            value = (value as string) + continued.text;
            end = continued.end;
          }
        }
      }
      data[key] = value;
      offsets.set(key, start + key.length + 1 + blanks.length);
      for (; i < end; i++) lineStart += (lines[i + 1] as string).length + 1;
      continue;
    }
    // `key:` alone: the indented lines below it are one block mapping or one block list.
    let indent = -1;
    let map: Record<string, unknown> | undefined;
    let list: string[] | undefined;
    let childOffsets: Map<string, number> | undefined;
    for (; i + 1 < lines.length && (lines[i + 1] as string).charCodeAt(0) === 0x20; i++) {
      const item = lines[i + 1] as string;
      const itemStart = lineStart;
      lineStart += item.length + 1;
      const mapItem = list === undefined ? BLOCK_MAP_ITEM.exec(item) : null;
      const seqItem = mapItem === null && map === undefined ? BLOCK_SEQ_ITEM.exec(item) : null;
      const found = mapItem ?? seqItem;
      if (found === null) return null;
      const width = (found[1] as string).length;
      if (indent === -1) {
        indent = width;
        offsets.set(key, itemStart + width);
      } else if (width !== indent) {
        return null;
      }
      if (mapItem !== null) {
        const child = mapItem[2] as string;
        map ??= {};
        childOffsets ??= new Map();
        if (NON_STRING_KEY.test(child) || child === '__proto__' || childOffsets.has(child)) return null;
        const value = readValue(mapItem[4] as string);
        if (value === undefined) return null;
        map[child] = value;
        childOffsets.set(child, itemStart + width + child.length + 1 + (mapItem[3] as string).length);
      } else {
        const value = readValue((seqItem as RegExpExecArray)[3] as string);
        // A list item that is itself a list is left to the parser.
        if (value === undefined || Array.isArray(value)) return null;
        list ??= [];
        list.push(value);
      }
    }
    // `key:` with nothing under it is null: left to the parser.
    if (map === undefined && list === undefined) return null;
    data[key] = map ?? list;
    if (childOffsets !== undefined) {
      nested ??= new Map();
      nested.set(key, childOffsets);
    }
  }
  if (offsets.size === 0) return null;
  return {
    data,
    offsetOf(field) {
      const offset = offsets.get(field);
      if (offset !== undefined) return offset;
      const dot = field.indexOf('.');
      if (dot === -1) return undefined;
      return nested?.get(field.slice(0, dot))?.get(field.slice(dot + 1));
    },
  };
}
