import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderAbstract } from '../../src/levels/render-abstract.js';

describe('renderAbstract', () => {
  it.each([
    {
      case: 'all parts',
      input: {
        name: 'search-web',
        description: 'Search the web',
        tags: ['web', 'research'],
        allowedTools: ['Bash(git add:*)', 'Read'],
      },
      expected:
        '**search-web** — Search the web. Tags: web, research. Allowed tools: Bash(git add:*), Read.\n',
    },
    {
      case: 'no tags nor tools, description already punctuated',
      input: { name: 'calc', description: 'Does maths!', tags: [], allowedTools: [] },
      expected: '**calc** — Does maths!\n',
    },
    {
      case: 'multi-line description collapsed',
      input: { name: 'x', description: '  Line one\n  line two\r\n\n', tags: [' a ', ''], allowedTools: [] },
      expected: '**x** — Line one line two. Tags: a.\n',
    },
    {
      case: 'no description',
      input: { name: 'x', description: null, tags: [], allowedTools: [] },
      expected: '**x**\n',
    },
  ])('$case', ({ input, expected }) => {
    expect(renderAbstract(input)).toBe(expected);
  });

  it.each([
    ['single spaces only', '  Reads PDF files and forms ', 'Reads PDF files and forms'],
    ['two spaces', 'Reads  PDF', 'Reads PDF'],
    ['a tab', 'Reads\tPDF', 'Reads PDF'],
    ['a no-break space', 'Reads\u00a0PDF', 'Reads PDF'],
    ['an ideographic space beside a space', 'Reads \u3000PDF', 'Reads PDF'],
    ['a line separator', 'Reads\u2028PDF', 'Reads PDF'],
  ])('collapses whitespace (%s) as one space', (_case, description, shown) => {
    expect(renderAbstract({ name: 'x', description, tags: [], allowedTools: [] })).toBe(
      `**x** — ${shown}.\n`,
    );
  });

  it('renders any description as collapsing every whitespace run would', () => {
    const piece = fc.constantFrom(
      'a',
      'é',
      '😀',
      ' ',
      '  ',
      '\t',
      '\n',
      '\r\n',
      '\u00a0',
      '\u2003',
      '\u3000',
      '\ufeff',
      '\u200b',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const description = pieces.join('');
        const collapsed = description.replace(/\s+/g, ' ').trim();
        const expected =
          collapsed === ''
            ? '**x**\n'
            : `**x** — ${/[.!?…:]$/.test(collapsed) ? collapsed : `${collapsed}.`}\n`;
        expect(renderAbstract({ name: 'x', description, tags: [], allowedTools: [] })).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('is one paragraph and cuts a huge description', () => {
    const out = renderAbstract({ name: 'big', description: 'é'.repeat(5000), tags: [], allowedTools: [] });
    expect(out.split('\n').filter(Boolean)).toHaveLength(1);
    expect(Array.from(out).length).toBeLessThan(1100);
    expect(out).toContain('…');
  });
});
