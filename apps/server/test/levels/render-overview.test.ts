import { describe, expect, it } from 'vitest';
import { findSuperLinearRung } from '../../../../scripts/test-support/linear-growth.js';
import { readAtxHeading, scanSections } from '../../src/levels/markdown-sections.js';
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

  it.each([
    ['a fence closed by a longer run of its character', 'a\n```js\n# no\n`````\n# yes\n', ['yes']],
    ['a fence not closed by the other character', 'a\n~~~\n```\n# no\n~~~\n# yes\n', ['yes']],
    ['a fence not closed by a shorter run', 'a\n````\n```\n# no\n````\n# yes\n', ['yes']],
    ['a fence indented up to three spaces', '   ```\n# no\n   ```\n# yes\n', ['yes']],
    ['four spaces before backticks: no fence', '    ```\n# yes\n', ['yes']],
    ['a fence left open to the end', '```\n# no\n', []],
    ['a setext underline on the last line', 'Title\n===', ['Title']],
    ['a setext underline after CRLF lines', 'Intro\r\n\r\nTitle\r\n---\r\n# Next\r\n', ['Title', 'Next']],
    ['a heading indented by a tab: text', '\t# no\n## yes\n', ['yes']],
    ['a heading inside an HTML comment block', '<!--zh\n# no\n-->\n# yes\n', ['yes']],
    ['a comment block indented up to three spaces', '   <!--\n# no\n  -->\n# yes\n', ['yes']],
    ['four spaces before a comment: no comment block', '    <!--\n# yes\n-->\n', ['yes']],
    ['a comment block left open to the end', '# yes\n<!--\n# no\n', ['yes']],
  ])('reads %s', (_case, body, titles) => {
    expect(scanSections(body).flatMap((s) => (s.title === null ? [] : [s.title]))).toEqual(titles);
  });

  it('leaves out HTML comments starting a line: on one line, over several, ending a paragraph; keeps text after one', () => {
    const body = [
      '<!--',
      'Based on an upstream agent: https://example.com/agent.md',
      '-->',
      '',
      'Simplifies code for clarity.',
      '<!-- a note -->',
      '<!--zh',
      '简化代码。',
      '- 不是列表',
      '-->',
      '# Steps',
      '',
      '- First <!-- inline comments stay -->',
      '<!-- one line --> with text after it on the line',
      'Last paragraph.',
    ].join('\n');
    const sections = scanSections(body);
    expect(sections.map((s) => [s.title, s.paragraphs, s.items.map((i) => i.text)])).toEqual([
      [null, ['Simplifies code for clarity.'], []],
      ['Steps', ['with text after it on the line Last paragraph.'], ['First <!-- inline comments stay -->']],
    ]);
  });

  it('keeps only the paragraphs keepParagraph asks for, with the same sections and items', () => {
    const body = 'Lead one.\n\nLead two.\n\n# A\n\nA one.\n- item\n\nA two.\n\n# B\n\nB one.\n';
    const all = scanSections(body);
    expect(all.map((s) => s.paragraphs)).toEqual([
      ['Lead one.', 'Lead two.'],
      ['A one.', 'A two.'],
      ['B one.'],
    ]);
    const asked: Array<[string | null, number, number]> = [];
    const firstOfB = scanSections(body, {
      keepParagraph: (section, kept) => {
        asked.push([section.title, section.paragraphs.length, kept]);
        return kept === 0 || (section.title === 'B' && section.paragraphs.length === 0);
      },
    });
    expect(firstOfB.map((s) => s.paragraphs)).toEqual([['Lead one.'], [], ['B one.']]);
    expect(firstOfB.map((s) => [s.level, s.title, s.items])).toEqual(
      all.map((s) => [s.level, s.title, s.items]),
    );
    // Asked once per paragraph read, in order, with what was kept so far.
    expect(asked).toEqual([
      [null, 0, 0],
      [null, 1, 1],
      ['A', 0, 1],
      ['A', 0, 1],
      ['B', 0, 1],
    ]);
  });
});

describe('renderOverview', () => {
  it('summarises the text a reader sees, not an HTML comment at the top of the body', () => {
    const body =
      '<!--\nBased on the code-simplifier agent:\nhttps://example.com/agents/code-simplifier.md\n-->\n\n' +
      '# Code simplifier\n\nRefines recently changed code for clarity while keeping what it does.\n';
    const out = renderOverview({ name: 'code-simplifier', description: 'Simplifies code', body });
    expect(out).toContain('Refines recently changed code for clarity while keeping what it does.');
    expect(out).not.toContain('Based on');
    expect(out).not.toContain('<!--');
  });

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

describe('renderOverview edge cases', () => {
  it('renders CRLF and CR line endings as LF', () => {
    const lf = '# Title\n\nFirst paragraph.\n\n## Usage\n\n- one\n- two\n\nSetext\n---\n';
    const expected = renderOverview({ name: 'eol', description: 'Line endings', body: lf });
    for (const eol of ['\r\n', '\r']) {
      const body = lf.replaceAll('\n', eol);
      expect(renderOverview({ name: 'eol', description: 'Line endings', body })).toBe(expected);
    }
  });

  it('clips by code points, not UTF-16 units', () => {
    // 600 astral characters are 1,200 UTF-16 units: within the summary's 600 code points, kept whole.
    const whole = '😀'.repeat(600);
    expect(renderOverview({ name: 'e', description: 'd', body: whole })).toContain(
      `## Summary\n\n${whole}\n`,
    );
    const cut = renderOverview({ name: 'e', description: 'd', body: '😀'.repeat(601) });
    expect(cut).toContain(`## Summary\n\n${'😀'.repeat(599)}…\n`);
  });

  it('counts a lone surrogate as the 3 bytes of U+FFFD when fitting the byte bound', () => {
    const body = `${'\ud800'.repeat(40)}\n\n## Usage\n\n${'- item\n'.repeat(40)}`;
    const withBody = renderOverview(
      { name: 'lone', description: 'Lone surrogates', body },
      { maxBytes: 200 },
    );
    expect(new TextEncoder().encode(withBody).byteLength).toBeLessThanOrEqual(200);
    expect(withBody.endsWith('…\n')).toBe(true);
  });
});

describe('readAtxHeading', () => {
  it.each([
    ['# Title', 1, 'Title'],
    ['###### Six', 6, 'Six'],
    ['   ## Indented ##  ', 2, 'Indented'],
    ['## Closing #####', 2, 'Closing'],
    ['## C# language', 2, 'C# language'],
    ['## Ends with#', 2, 'Ends with#'],
    ['#', 1, ''],
    ['### ###', 3, ''],
    ['#\tTab', 1, 'Tab'],
  ])('%j → level %i, title %j', (line, level, title) => {
    expect(readAtxHeading(line)).toEqual({ level, title });
  });

  it.each(['#NoSpace', '####### seven', '    # code', 'text # not', ''])('%j is not a heading', (line) => {
    expect(readAtxHeading(line)).toBeNull();
  });
});

// Hostile lines up to the SKILL.md size limit (1 MiB): the extractor's cost grows linearly. A lazy
// heading regex took 7–11 s on `# a` + 60 000 spaces + `b` and froze the server.
describe('linear time on hostile lines', () => {
  const hostile: Array<[string, (n: number) => string]> = [
    ['heading with a long blank run', (n) => `# a${' '.repeat(n)}b`],
    ['heading of blanks and hashes', (n) => `## ${' #'.repeat(n / 2)}x`],
    ['hashes only', (n) => '#'.repeat(n)],
    ['heading closing run, interrupted', (n) => `# a ${'#'.repeat(n)}b`],
    ['tabs after a list marker', (n) => `-${'\t'.repeat(n)}x`],
    ['list marker run', (n) => `${'- '.repeat(n / 2)}`],
    ['numbered-looking digits', (n) => `${'1'.repeat(n)}.x`],
    ['unclosed HTML comment', (n) => `<!--${'-->x'.repeat(n / 4)}`],
    ['setext underline interrupted', (n) => `t\n${'='.repeat(n)} x`],
    ['thematic break interrupted', (n) => `${'*'.repeat(n)}-`],
    ['blank-indented continuation', (n) => `- a\n${' '.repeat(n)}b`],
    ['fence run', (n) => `${'`'.repeat(n)}\n${'`'.repeat(n - 1)}`],
    ['parameter item', (n) => `- **${'a'.repeat(n)}`],
    ['parameter item, backticks', (n) => `- \`${'a('.repeat(n / 2)}`],
    ['parameter item, call form', (n) => `- a${'('.repeat(n)}`],
    ['usage title words', (n) => `## ${'when '.repeat(n / 5)}x`],
    ['many short lines', (n) => '# h\n- **p** (string): q\n'.repeat(n / 21)],
  ];
  it.each(hostile)('%s', (_label, build) => {
    const run = (body: string) => renderOverview({ name: 'n', description: 'd', body });
    expect(findSuperLinearRung(run, build, { from: 4096, to: 1024 * 1024 })).toBeNull();
  });
});
