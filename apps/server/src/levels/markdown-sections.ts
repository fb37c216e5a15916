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

const LIST_ITEM = /^([ \t]*)(?:[-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A whole (trimmed) line that is one HTML comment. */
const HTML_COMMENT_LINE = /^<!--.*-->$/;
/** A thematic break (`***`, `---`, `___`), trimmed. */
const THEMATIC_BREAK = /^(\*{3,}|-{3,}|_{3,})$/;

/**
 * Whether the line starting at `from` can be a setext underline ({@link SETEXT}): its first
 * character past up to three spaces is `=` or `-`. Only then is the line cut out and matched.
 */
function mayBeSetext(text: string, from: number): boolean {
  let at = from;
  while (at < from + 3 && text.charCodeAt(at) === 0x20) at++;
  const c = text.charCodeAt(at);
  return c === 0x3d || c === 0x2d;
}

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
 * The opening run of a fence line (`` ``` `` or `~~~`, up to three spaces in) of the line
 * `text[start, end)`, read in place: a third of the lines of real skill bodies lie inside fenced
 * code, where only this is asked, so they are never cut out of the body.
 *
 * @returns 0 when the line opens no run, else the run's length times 2, plus 1 for tildes
 */
function fenceRunAt(text: string, start: number, end: number): number {
  let at = start;
  while (at < start + 3 && at < end && text.charCodeAt(at) === 0x20) at++;
  const first = at < end ? text.charCodeAt(at) : 0;
  if (first !== 0x60 && first !== 0x7e) return 0;
  let run = at + 1;
  while (run < end && text.charCodeAt(run) === first) run++;
  return run - at < 3 ? 0 : (run - at) * 2 + (first === 0x7e ? 1 : 0);
}

/**
 * Whether a line whose first character past the indentation (blanks and tabs) is `first` can be a
 * list item: a marker (`-*+`) or a digit. {@link LIST_ITEM} is tried only then: most lines are not.
 */
function isListMarker(first: number): boolean {
  return first === 0x2d || first === 0x2a || first === 0x2b || (first >= 0x30 && first <= 0x39);
}

/** Offset of the first `\n` at or after `from`, or the text's length. */
function nextBreak(text: string, from: number): number {
  const at = text.indexOf('\n', from);
  return at === -1 ? text.length : at;
}

function indentWidth(indent: string): number {
  let width = 0;
  for (const ch of indent) width += ch === '\t' ? 4 : 1;
  return width;
}

/**
 * Splits a Markdown body into sections by heading (ATX `#` and setext underlines), collecting
 * paragraphs and list items. Lines inside fenced code blocks are ignored; so are HTML comments (a
 * line starting `<!--` through the line holding `-->`, as CommonMark reads such a block, headings
 * inside included) and table rows.
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
  const text = body.includes('\r') ? body.replace(/\r\n?/g, '\n') : body;
  const sections: Section[] = [{ level: 0, title: null, paragraphs: [], items: [] }];
  let current = sections[0]!;
  let paragraph: string[] = [];
  /** The open fence's run as {@link fenceRunAt} gives it; 0 outside fenced code. */
  let fence = 0;
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

  // Line by line: `start` and `end` bound the current line (no `\n`); `end === text.length` on the
  // last one. A line is cut out of the text only once fenced code and empty lines are passed.
  for (let start = 0, end = 0; start <= text.length; start = end + 1) {
    end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const run = fenceRunAt(text, start, end);
    if (fence !== 0) {
      // Closed by a run of the same character, at least as long.
      if (run !== 0 && run % 2 === fence % 2 && run >= fence) fence = 0;
      continue;
    }
    if (run !== 0) {
      flush();
      fence = run;
      continue;
    }
    if (start === end) {
      flush();
      continue;
    }
    // The first character past the indentation decides whether the line can be a heading (`#`) or
    // a list item (a marker), as those readers would on the line itself.
    let at = start;
    while (at < end && (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09)) at++;
    const first = at < end ? text.charCodeAt(at) : 0;
    if (first === 0x3c && text.startsWith('<!--', at) && indentWidth(text.slice(start, at)) <= 3) {
      // An HTML comment: hidden when the Markdown is shown, it runs to `-->` (CommonMark reads it as
      // a block through that line), or to the end. Its lines — notes to editors, a translation kept
      // for later, a licence line — are no part of what the skill says; text after `-->` on its
      // last line is shown, and read on as a line of its own.
      flush();
      const close = text.indexOf('-->', at + 4);
      if (close === -1) break;
      const lineEnd = nextBreak(text, close + 3);
      end = /\S/.test(text.slice(close + 3, lineEnd)) ? close + 2 : lineEnd;
      continue;
    }
    const line = text.slice(start, end);
    const heading = first === 0x23 ? readAtxHeading(line) : null;
    if (heading !== null) {
      open(heading.level, heading.title);
      continue;
    }
    const item = isListMarker(first) ? LIST_ITEM.exec(line) : null;
    const trimmed = item === null ? line.trim() : '';
    if (
      item === null &&
      paragraph.length === 0 &&
      trimmed !== '' &&
      end < text.length &&
      mayBeSetext(text, end + 1)
    ) {
      const nextEnd = nextBreak(text, end + 1);
      const next = text.slice(end + 1, nextEnd);
      if (SETEXT.test(next)) {
        open(next.trim().startsWith('=') ? 1 : 2, line);
        // The underline is read: go on after it.
        end = nextEnd;
        continue;
      }
    }
    if (item !== null) {
      flush();
      const width = indentWidth(item[1]!);
      while (listIndents.length > 0 && listIndents[listIndents.length - 1]! > width) listIndents.pop();
      if (listIndents.length === 0 || listIndents[listIndents.length - 1]! < width) listIndents.push(width);
      current.items.push({ depth: listIndents.length - 1, text: item[2]!.trim() });
      continue;
    }
    // Each pattern is tried only on a line that starts as it must (most lines start otherwise).
    const lead = trimmed.charCodeAt(0);
    if (
      trimmed === '' ||
      lead === 0x7c /* | */ ||
      (lead === 0x3c /* < */ && HTML_COMMENT_LINE.test(trimmed)) ||
      ((lead === 0x2a || lead === 0x2d || lead === 0x5f) /* * - _ */ && THEMATIC_BREAK.test(trimmed))
    ) {
      flush();
      continue;
    }
    // `at - start` blanks and tabs open the line (`at` is its first other character).
    if (paragraph.length === 0 && at - start >= 2 && current.items.length > 0 && listIndents.length > 0) {
      // Continuation of the last list item.
      const last = current.items[current.items.length - 1]!;
      last.text = `${last.text} ${trimmed}`;
      continue;
    }
    if (at === start) listIndents = [];
    paragraph.push(trimmed);
  }
  flush();
  return sections;
}
