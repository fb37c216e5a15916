import { describe, expect, it } from 'vitest';
import { scanSections } from '../../src/levels/markdown-sections.js';
import { OVERVIEW_MAX_BYTES, renderOverview } from '../../src/levels/render-overview.js';

const MCP_STYLE = `
# search-web

Search the web

## Parameters

- **query** (string) (required): Search query
- **limit** (integer) (optional): Max results
  - **nested** (string): inner

## Usage

This tool wraps the MCP tool \`search-web\`. Call this when the user needs functionality matching the description above.
`;

const GUIDE = `# PDF processing

This guide covers essential PDF operations.

\`\`\`python
# not a heading
from pypdf import PdfReader
\`\`\`

## When to use this skill

Use it whenever the user hands you a PDF.

- Extract text
- Merge documents

## Options
- \`--pages\`: page range
- \`--password\`: for encrypted files

### Advanced
More text.

Setext title
============

Tail paragraph
`;

describe('scanSections', () => {
  it('finds headings (ATX and setext), skips fenced code, nests list items', () => {
    const sections = scanSections(GUIDE);
    expect(sections.map((s) => [s.level, s.title])).toEqual([
      [0, null],
      [1, 'PDF processing'],
      [2, 'When to use this skill'],
      [2, 'Options'],
      [3, 'Advanced'],
      [1, 'Setext title'],
    ]);
    expect(sections[1]?.paragraphs).toEqual(['This guide covers essential PDF operations.']);
    const nested = scanSections(MCP_STYLE).find((s) => s.title === 'Parameters');
    expect(nested?.items.map((i) => i.depth)).toEqual([0, 0, 1]);
  });
});

describe('renderOverview', () => {
  it('renders the MCP-style skill: summary, usage, parameters with nesting, outline', () => {
    const out = renderOverview({ name: 'search-web', description: 'Search the web', body: MCP_STYLE });
    expect(out).toBe(
      [
        '# search-web — overview',
        '',
        'Search the web',
        '',
        '## When to use',
        '',
        '**Usage**',
        'This tool wraps the MCP tool `search-web`. Call this when the user needs functionality matching the description above.',
        '',
        '## Parameters',
        '',
        '- **query** (string) (required): Search query',
        '- **limit** (integer) (optional): Max results',
        '  - **nested** (string): inner',
        '',
        '## Outline',
        '',
        '- search-web',
        '  - Parameters',
        '  - Usage',
        '',
      ].join('\n'),
    );
  });

  it('does not repeat a section titled "When to use" as a sub-title of the overview\'s own', () => {
    const body =
      '# Release notes\n\n## When to use\n\n- A changelog is asked for.\n\n## Workflow\n\nRun git log.\n';
    const out = renderOverview({ name: 'release-notes', description: 'Drafts release notes', body });
    expect(out).toContain('## When to use\n\n- A changelog is asked for.\n**Workflow**\nRun git log.');
    expect(out).not.toContain('**When to use**');
  });

  it('extracts usage and option lists from a guide and ignores code', () => {
    const out = renderOverview({ name: 'pdf', description: 'Work with PDFs', body: GUIDE });
    expect(out).toContain('## Summary\n\nThis guide covers essential PDF operations.');
    expect(out).toContain(
      '**When to use this skill**\nUse it whenever the user hands you a PDF.\n- Extract text\n- Merge documents',
    );
    expect(out).toContain('## Parameters\n\n- `--pages`: page range\n- `--password`: for encrypted files');
    expect(out).toContain(
      '- PDF processing\n  - When to use this skill\n  - Options\n    - Advanced\n- Setext title',
    );
    expect(out).not.toContain('not a heading');
  });

  it.each([
    { case: 'empty body', body: '', expected: '# e — overview\n\nd\n' },
    { case: 'body with only code', body: '```\n# x\n```\n', expected: '# e — overview\n\nd\n' },
  ])('handles $case', ({ body, expected }) => {
    expect(renderOverview({ name: 'e', description: 'd', body })).toBe(expected);
  });

  // More headings than a JavaScript call takes arguments (a spread `Math.min(...levels)` overflowed
  // the stack: the job failed and GET answered 500 for the stored skill).
  it.each([
    ['200 000 ATX headings', '# h\n'.repeat(200_000)],
    ['200 000 setext headings', 'h\n=\n\n'.repeat(200_000)],
  ])('renders %s within the byte bound', (_label, body) => {
    const out = renderOverview({ name: 'many', description: 'Many headings', body });
    expect(new TextEncoder().encode(out).byteLength).toBeLessThanOrEqual(OVERVIEW_MAX_BYTES);
    expect(out).toContain('## Outline\n\n- h\n');
  });

  it.each([OVERVIEW_MAX_BYTES, 300, 64])(
    'stays within %i bytes on a huge body, deterministically',
    (maxBytes) => {
      const body = Array.from(
        { length: 400 },
        (_, i) =>
          `## Section ${i} ✓\n\nParagraph ${i} ${'word '.repeat(50)}\n\n- **p${i}** (string): parameter ${i}\n`,
      ).join('\n');
      const a = renderOverview({ name: 'huge', description: 'Big skill', body }, { maxBytes });
      const b = renderOverview({ name: 'huge', description: 'Big skill', body }, { maxBytes });
      expect(a).toBe(b);
      expect(new TextEncoder().encode(a).byteLength).toBeLessThanOrEqual(maxBytes);
      expect(a.startsWith('# huge')).toBe(true);
      expect(a.endsWith('\n')).toBe(true);
    },
  );
});
