import { describe, expect, it } from 'vitest';
import { displayWidth, renderPairs, renderTable, truncate } from '../../src/internal/table.js';

describe('displayWidth / truncate', () => {
  it.each([
    ['abc', 3],
    ['技能', 4],
    ['スキル', 6],
    ['e\u0301', 1],
  ])('%j is %i cells wide', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it.each([
    ['hello world', 5, 'hell…'],
    ['short', 10, 'short'],
    ['技能技能', 5, '技能…'],
    ['abc', 1, '…'],
  ])('truncate(%j, %i) = %j', (text, width, expected) => {
    expect(truncate(text, width)).toBe(expected);
    expect(displayWidth(truncate(text, width))).toBeLessThanOrEqual(width);
  });
});

describe('renderTable', () => {
  const rows = [
    { name: 'pdf', description: 'Fill PDF forms, extract text and tables from documents', tags: 'docs,pdf' },
    { name: 'web-search', description: 'Search the web', tags: '' },
  ];
  const columns = [
    { header: 'name', value: (r: (typeof rows)[number]) => r.name, flexible: false },
    { header: 'description', value: (r: (typeof rows)[number]) => r.description },
    { header: 'tags', value: (r: (typeof rows)[number]) => r.tags },
  ];

  it('keeps natural widths when there is room', () => {
    expect(renderTable(rows, columns)).toBe(
      [
        'NAME        DESCRIPTION                                             TAGS',
        'pdf         Fill PDF forms, extract text and tables from documents  docs,pdf',
        'web-search  Search the web',
        '',
      ].join('\n'),
    );
  });

  it.each([40, 50, 60])('fits %i columns by cutting flexible columns', (width) => {
    const lines = renderTable(rows, columns, width).trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    expect(lines[1]).toMatch(/^pdf {9}Fill PDF/);
    expect(lines[0]).toMatch(/^NAME\s+DESCRIPTION\s+TAGS$/);
  });

  it('flattens newlines in cells and prints nothing for no rows', () => {
    expect(renderTable([{ a: 'x\ny' }], [{ header: 'a', value: (r) => r.a }])).toBe('A\nx y\n');
    expect(renderTable([], columns)).toBe('');
  });
});

describe('renderPairs', () => {
  it('aligns keys and skips undefined values', () => {
    expect(
      renderPairs([
        ['name', 'pdf'],
        ['auxiliary files', 2],
        ['task', undefined],
      ]),
    ).toBe('name             pdf\nauxiliary files  2\n');
  });
});

describe('control characters in cells', () => {
  it.each([
    ['clear screen', 'a\u001b[2Jb', 'a\\u001b[2Jb'],
    ['window title (OSC … BEL)', '\u001b]0;owned\u0007x', '\\u001b]0;owned\\u0007x'],
    ['8-bit CSI and DEL', '\u009b31m\u007f', '\\u009b31m\\u007f'],
    ['bidi override and isolate', 'x\u202egnp.exe\u2066', 'x\\u202egnp.exe\\u2066'],
    ['newlines and tabs become spaces first', 'a\r\n\tb', 'a b'],
    // Bidi marks reorder the neutral characters around them ("1\u200f-2" reads "2-1" in some
    // terminals); zero-width characters hide what a cell holds.
    ['right-to-left and left-to-right marks', 'a\u200fb\u200ec', 'a\\u200fb\\u200ec'],
    ['Arabic letter mark', 'x\u061cy', 'x\\u061cy'],
    ['zero width space and word joiner', 'a\u200bb\u2060c', 'a\\u200bb\\u2060c'],
  ])('%s', (_, cell, shown) => {
    expect(renderTable([{ a: cell }], [{ header: 'a', value: (r) => r.a }])).toBe(`A\n${shown}\n`);
    expect(renderPairs([['key', cell]])).toBe(`key  ${shown}\n`);
  });
});

describe('cell widths', () => {
  // Each cell is padded by its width as a terminal shows it, so every column starts at the same cell
  // on every line; nothing is cut when there is no width limit.
  it.each([
    ['zero width joiner (emoji sequence)', '👩\u200d💻 dev'],
    ['zero width non-joiner (Persian)', 'می\u200cخواهم'],
    ['combining mark', 'cafe\u0301 ok'],
    ['Hangul jamo', '\u1100\u1161\u11a8 word'],
    ['wide characters', '技能 skill'],
  ])('%s', (_, cell) => {
    const rows = [
      { a: cell, b: 'end' },
      { a: 'plain', b: 'end' },
    ];
    const out = renderTable(rows, [
      { header: 'a', value: (r: (typeof rows)[number]) => r.a },
      { header: 'b', value: (r: (typeof rows)[number]) => r.b },
    ]);
    const lines = out.trimEnd().split('\n');
    expect(lines[1]?.startsWith(cell)).toBe(true);
    // "B" ends the header where "end" ends the rows, two cells earlier.
    const ends = lines.map((line, i) => displayWidth(line) + (i === 0 ? 2 : 0));
    expect(new Set(ends).size, out).toBe(1);
    const pairs = renderPairs([
      ['k', cell],
      ['key', 'x'],
    ]);
    expect(pairs).toBe(`k    ${cell}\nkey  x\n`);
  });

  it('a cell with a right-to-left mark is escaped, not cut, without a width limit', () => {
    const out = renderTable(
      [{ tags: '\u200ftag,b' }, { tags: 'x' }],
      [{ header: 'tags', value: (r: { tags: string }) => r.tags }],
    );
    expect(out).toBe('TAGS\n\\u200ftag,b\nx\n');
  });
});
