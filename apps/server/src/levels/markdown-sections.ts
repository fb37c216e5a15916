/**
 * A small, deterministic Markdown block scanner for the L1 extractor: enough structure to find
 * headings, paragraphs and list items, with fenced code skipped. It is not a Markdown renderer.
 */

/** A list item line, kept as written apart from normalised indentation. */
export interface ListItem {
  /** Nesting depth (0 = top level), from the leading indentation. */
  depth: number;
  /** The item text after the marker, trimmed. */
  text: string;
}

/** Content under one heading (the part before the first heading has `title: null`, `level: 0`). */
export interface Section {
  level: number;
  title: string | null;
  /** Paragraphs with whitespace collapsed, in order. */
  paragraphs: string[];
  items: ListItem[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;

function isBlank(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\t';
}

/**
 * Reads an ATX heading (`## Title ##`) by scanning the line once from each end, so a hostile line
 * (`# a` + 60,000 spaces + `b`) costs linear time; a regular expression with a lazy title and an
 * optional closing sequence backtracks quadratically on such a line.
 *
 * @returns the level (1–6) and the raw title, or null when the line is not an ATX heading
 */
export function readAtxHeading(line: string): { level: number; title: string } | null {
  let start = 0;
  while (start < 3 && line[start] === ' ') start++;
  let hashes = start;
  while (hashes < line.length && line[hashes] === '#') hashes++;
  const level = hashes - start;
  if (level < 1 || level > 6) return null;
  if (hashes < line.length && !isBlank(line[hashes])) return null;
  let end = line.length;
  while (end > hashes && isBlank(line[end - 1])) end--;
  // An optional closing run of `#`, when blank-separated from the title (or the whole content).
  let close = end;
  while (close > hashes && line[close - 1] === '#') close--;
  if (close < end && (close === hashes || isBlank(line[close - 1]))) end = close;
  return { level, title: line.slice(hashes, end).trim() };
}

/**
 * The opening run of a fence line (`` ``` `` or `~~~`, up to three spaces in), or null. The first
 * character past the indentation is looked at before the pattern runs: most lines are not fences.
 */
function fenceRun(line: string): string | null {
  let at = 0;
  while (at < 3 && line.charCodeAt(at) === 0x20) at++;
  const first = line.charCodeAt(at);
  if (first !== 0x60 && first !== 0x7e) return null;
  return FENCE.exec(line)?.[1] ?? null;
}

/** {@link LIST_ITEM} on `line`, tried only when a marker (`-*+` or a digit) follows the indentation. */
function listItem(line: string): RegExpExecArray | null {
  let at = 0;
  while (line.charCodeAt(at) === 0x20 || line.charCodeAt(at) === 0x09) at++;
  const first = line.charCodeAt(at);
  if (first !== 0x2d && first !== 0x2a && first !== 0x2b && !(first >= 0x30 && first <= 0x39)) return null;
  return LIST_ITEM.exec(line);
}

function indentWidth(indent: string): number {
  let width = 0;
  for (const ch of indent) width += ch === '\t' ? 4 : 1;
  return width;
}

/**
 * Splits a Markdown body into sections by heading (ATX `#` and setext underlines), collecting
 * paragraphs and list items. Lines inside fenced code blocks are ignored; so are HTML comments on one
 * line and table rows.
 *
 * @param body - Markdown text (any line endings)
 * @param options - `keepParagraph(section, kept)`: whether the paragraph just read is kept in
 *   `section.paragraphs`, given the section as read so far and how many paragraphs all sections kept
 *   before it (default: every paragraph). The text of a paragraph left out is never assembled.
 * @returns sections in document order; the first one is the preamble (may be empty)
 */
export function scanSections(
  body: string,
  options: { keepParagraph?: (section: Section, kept: number) => boolean } = {},
): Section[] {
  const keepParagraph = options.keepParagraph;
  let kept = 0;
  const lines = (body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body).split('\n');
  const sections: Section[] = [{ level: 0, title: null, paragraphs: [], items: [] }];
  let current = sections[0]!;
  let paragraph: string[] = [];
  let fence: string | null = null;
  let listIndents: number[] = [];

  const flush = (): void => {
    if (paragraph.length === 0) return;
    if (keepParagraph === undefined || keepParagraph(current, kept)) {
      current.paragraphs.push(paragraph.join(' ').replace(/\s+/g, ' ').trim());
      kept++;
    }
    paragraph = [];
  };
  const open = (level: number, title: string): void => {
    flush();
    listIndents = [];
    current = { level, title: title.trim(), paragraphs: [], items: [] };
    sections.push(current);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const run = fenceRun(line);
    if (fence !== null) {
      if (run !== null && run[0] === fence[0] && run.length >= fence.length) fence = null;
      continue;
    }
    if (run !== null) {
      flush();
      fence = run;
      continue;
    }
    const heading = readAtxHeading(line);
    if (heading !== null) {
      open(heading.level, heading.title);
      continue;
    }
    const next = lines[i + 1];
    const item = listItem(line);
    const trimmed = item === null ? line.trim() : '';
    if (
      item === null &&
      paragraph.length === 0 &&
      trimmed !== '' &&
      next !== undefined &&
      SETEXT.test(next)
    ) {
      open(next.trim().startsWith('=') ? 1 : 2, line);
      i++;
      continue;
    }
    if (item !== null) {
      flush();
      const width = indentWidth(item[1]!);
      while (listIndents.length > 0 && listIndents[listIndents.length - 1]! > width) listIndents.pop();
      if (listIndents.length === 0 || listIndents[listIndents.length - 1]! < width) listIndents.push(width);
      current.items.push({ depth: listIndents.length - 1, text: item[2]!.trim() });
      continue;
    }
    if (
      trimmed === '' ||
      trimmed.startsWith('|') ||
      /^<!--.*-->$/.test(trimmed) ||
      /^(\*{3,}|-{3,}|_{3,})$/.test(trimmed)
    ) {
      flush();
      continue;
    }
    if (
      paragraph.length === 0 &&
      /^[ \t]{2,}/.test(line) &&
      current.items.length > 0 &&
      listIndents.length > 0
    ) {
      // Continuation of the last list item.
      const last = current.items[current.items.length - 1]!;
      last.text = `${last.text} ${trimmed}`;
      continue;
    }
    if (!/^[ \t]/.test(line)) listIndents = [];
    paragraph.push(trimmed);
  }
  flush();
  return sections;
}
