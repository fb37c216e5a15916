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

  it('is one paragraph and cuts a huge description', () => {
    const out = renderAbstract({ name: 'big', description: 'é'.repeat(5000), tags: [], allowedTools: [] });
    expect(out.split('\n').filter(Boolean)).toHaveLength(1);
    expect(Array.from(out).length).toBeLessThan(1100);
    expect(out).toContain('…');
  });
});
