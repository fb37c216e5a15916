/**
 * Plain-text tables that fit the terminal: columns keep their natural width when they can, and the
 * widest flexible columns are cut (with `…`) until the row fits. Off a TTY nothing is cut.
 */

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** May be shortened to fit (default true for text columns). */
  flexible?: boolean;
  align?: 'left' | 'right';
}

/** Display width of a string: East Asian wide characters count two cells. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 32 || (code >= 0x300 && code < 0x370)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Cuts `text` to at most `width` cells, ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return width === 1 ? '…' : '';
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = displayWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - displayWidth(text)));
  return align === 'right' ? fill + text : text + fill;
}

/** One-line form of a cell: newlines and tabs become spaces. */
export function oneLine(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = Array.isArray(value) ? value.join(', ') : String(value);
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Renders rows as a table.
 * @param maxWidth - terminal columns; `undefined` means no limit (not a TTY).
 * @returns the table text, one trailing newline; an empty string when `rows` is empty.
 */
export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  maxWidth?: number,
): string {
  if (rows.length === 0) return '';
  const cells = rows.map((row) => columns.map((column) => oneLine(column.value(row))));
  const widths = columns.map((column, i) =>
    Math.max(displayWidth(column.header), ...cells.map((line) => displayWidth(line[i] ?? ''))),
  );
  const gap = 2;
  if (maxWidth !== undefined) {
    const total = () => widths.reduce((sum, w) => sum + w, 0) + gap * (columns.length - 1);
    const floor = (i: number) => Math.max(8, displayWidth(columns[i]?.header ?? ''));
    // Shrink the widest flexible column down to the next widest, repeatedly, so cuts are shared.
    while (total() > maxWidth) {
      const flexible = columns
        .map((column, i) => ({ i, width: widths[i] ?? 0, flexible: column.flexible !== false }))
        .filter((c) => c.flexible && c.width > floor(c.i))
        .sort((a, b) => b.width - a.width);
      const widest = flexible[0];
      if (!widest) break;
      const next = flexible[1]?.width ?? 0;
      const overflow = total() - maxWidth;
      const target = Math.max(floor(widest.i), next, widest.width - overflow);
      widths[widest.i] = target < widest.width ? target : widest.width - 1;
    }
  }
  const line = (values: string[]) =>
    values
      .map((value, i) => pad(truncate(value, widths[i] ?? 0), widths[i] ?? 0, columns[i]?.align ?? 'left'))
      .join(' '.repeat(gap))
      .trimEnd();
  const header = line(columns.map((column) => column.header.toUpperCase()));
  return `${[header, ...cells.map(line)].join('\n')}\n`;
}

/** Renders `key  value` lines (a record shown as a two-column table). */
export function renderPairs(pairs: ReadonlyArray<readonly [string, unknown]>, maxWidth?: number): string {
  const rows = pairs.filter(([, value]) => value !== undefined);
  const keyWidth = Math.max(...rows.map(([key]) => displayWidth(key)));
  return `${rows
    .map(([key, value]) => {
      const text = oneLine(value);
      const room = maxWidth === undefined ? undefined : Math.max(8, maxWidth - keyWidth - 2);
      return `${pad(key, keyWidth, 'left')}  ${room === undefined ? text : truncate(text, room)}`.trimEnd();
    })
    .join('\n')}\n`;
}
