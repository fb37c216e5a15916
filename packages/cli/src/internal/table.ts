/**
 * Plain-text tables that fit the terminal, without borders: columns keep their natural width when they
 * can, and the widest flexible columns are cut (with `…`) until the row fits the width asked for (the
 * terminal's on a TTY; off a TTY `COLUMNS` or 160, see `createContext`). Cell widths are measured, and cells padded, by one measure, `string-width` (East Asian wide
 * characters take two cells; combining marks, joiners and Hangul vowel jamo none), so every column
 * starts at the same cell on every line. Control characters and invisible characters in cells are
 * shown as escapes (see {@link oneLine}).
 */
import stringWidth from 'string-width';
import { escapeCellControls } from './terminal-text.js';

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** May be shortened to fit (default true for text columns). */
  flexible?: boolean;
  align?: 'left' | 'right';
}

/** Space between two columns. */
const GAP = 2;

/** Display width of a string in terminal cells. */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/** Cuts `text` to at most `width` cells, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  let out = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter().segment(text)) {
    const w = displayWidth(segment);
    if (used + w > width - 1) break;
    out += segment;
    used += w;
  }
  return `${out}…`;
}

/**
 * One-line form of a cell: newlines and tabs become spaces, and control characters (ESC, BEL, bidi
 * overrides and marks, …) and zero-width characters that hide text are shown as `\u001b`-style
 * escapes, so no cell can send a terminal a command, reorder its line or look like another.
 */
export function oneLine(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = Array.isArray(value) ? value.join(', ') : String(value);
  return escapeCellControls(text.replace(/\s+/g, ' ').trim());
}

/**
 * The width of each column so that the row fits `maxWidth`: the widest flexible column is shrunk to
 * the next widest, repeatedly, so cuts are shared; no column goes below 8 cells or its header.
 */
function fitWidths(natural: number[], flexible: boolean[], headers: string[], maxWidth: number): number[] {
  const widths = [...natural];
  const total = () => widths.reduce((sum, w) => sum + w, 0) + GAP * (widths.length - 1);
  const floor = (i: number) => Math.max(8, displayWidth(headers[i] ?? ''));
  while (total() > maxWidth) {
    const candidates = widths
      .map((width, i) => ({ i, width }))
      .filter((c) => flexible[c.i] && c.width > floor(c.i))
      .sort((a, b) => b.width - a.width);
    const widest = candidates[0];
    if (!widest) break;
    const next = candidates[1]?.width ?? 0;
    const target = Math.max(floor(widest.i), next, widest.width - (total() - maxWidth));
    widths[widest.i] = target < widest.width ? target : widest.width - 1;
  }
  return widths;
}

/**
 * Lays out cells: each cut to its column when `cut` (a width limit), padded to the column's width as
 * {@link displayWidth} measures it (right-aligned columns padded on the left), columns separated by
 * {@link GAP} spaces, trailing spaces removed.
 */
function draw(cells: string[][], widths: number[], aligns: Array<'left' | 'right'>, cut: boolean): string {
  const gap = ' '.repeat(GAP);
  const lines = cells.map((row) =>
    row
      .map((cell, i) => {
        const width = widths[i] ?? 0;
        const text = cut ? truncate(cell, width) : cell;
        const pad = ' '.repeat(Math.max(0, width - displayWidth(text)));
        return aligns[i] === 'right' ? pad + text : text + pad;
      })
      .join(gap)
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}

/**
 * Renders rows as a table with an upper-case header row.
 * @param maxWidth - terminal columns; `undefined` means no limit (not a TTY).
 * @returns the table text, one trailing newline; an empty string when `rows` is empty.
 */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  maxWidth?: number,
): string {
  if (rows.length === 0) return '';
  const headers = columns.map((column) => column.header.toUpperCase());
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const natural = columns.map((_, i) =>
    Math.max(displayWidth(headers[i] ?? ''), ...cells.map((line) => displayWidth(line[i] ?? ''))),
  );
  const widths =
    maxWidth === undefined
      ? natural
      : fitWidths(
          natural,
          columns.map((column) => column.flexible !== false),
          headers,
          maxWidth,
        );
  return draw(
    [headers, ...cells],
    widths,
    columns.map((column) => column.align ?? 'left'),
    maxWidth !== undefined,
  );
}

/** Renders `key  value` lines (a record shown as a two-column table). */
export function renderPairs(pairs: ReadonlyArray<readonly [string, unknown]>, maxWidth?: number): string {
  const rows = pairs.filter(([, value]) => value !== undefined).map(([key, value]) => [key, oneLine(value)]);
  if (rows.length === 0) return '';
  const keyWidth = Math.max(...rows.map(([key]) => displayWidth(key ?? '')));
  const valueWidth = Math.max(1, ...rows.map(([, value]) => displayWidth(value ?? '')));
  const room =
    maxWidth === undefined ? valueWidth : Math.min(valueWidth, Math.max(8, maxWidth - keyWidth - GAP));
  return draw(rows as string[][], [keyWidth, room], ['left', 'left'], maxWidth !== undefined);
}
