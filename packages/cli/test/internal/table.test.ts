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
  ])('%s', (_, cell, shown) => {
    expect(renderTable([{ a: cell }], [{ header: 'a', value: (r) => r.a }])).toBe(`A\n${shown}\n`);
    expect(renderPairs([['key', cell]])).toBe(`key  ${shown}\n`);
  });
});
