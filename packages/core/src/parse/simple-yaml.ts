/**
 * A direct reader for the frontmatter most SKILL.md files have: top-level `key: value` lines whose
 * values are one-line strings (plain, `"double"` or `'single'` quoted) or flow lists of them
 * (`[a, "b"]`), and keys holding one indented block of such `key: value` lines or `- item` lines
 * (`metadata:` / `tags:`). Anything else — comments, multi-line or block scalars, anchors, tags,
 * escapes other than JSON's, values the YAML 1.2 core schema reads as null, booleans or numbers,
 * duplicate keys, tabs, control characters — makes it answer null, and the YAML parser reads the
 * text instead. Where it answers, the data and the positions are the parser's (a test compares them
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
      const value = readValue(match[3] as string);
      if (value === undefined) return null;
      data[key] = value;
      offsets.set(key, start + key.length + 1 + blanks.length);
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
