import { describe, expect, it } from 'vitest';
import { isSkillportError } from '../../src/errors.js';
import { fromMcpTool } from '../../src/mcp/from-mcp-tool.js';
import { toMcpTool } from '../../src/mcp/to-mcp-tool.js';
import { parseSkillMd } from '../../src/parse/parse-skill-md.js';
import type { McpTool } from '../../src/types.js';

const TASK_SCHEMA = {
  type: 'object',
  properties: { task: { type: 'string' }, context: { type: 'string' } },
  required: ['task'],
};

describe('toMcpTool — ordinary skills', () => {
  it.each([
    [
      'SKILL.md text',
      '---\nname: my-skill\ndescription: My custom skill\n---\n\n# My Skill\n\nSkill content here.',
    ],
    [
      'CRLF text with extra keys',
      '---\r\nname: my-skill\r\ndescription: My custom skill\r\nlicense: MIT\r\n---\r\n# Body\r\n',
    ],
  ])('exposes %s as a task/context tool', (_label, text) => {
    expect(toMcpTool(text)).toEqual({
      name: 'my-skill',
      description: 'My custom skill',
      inputSchema: TASK_SCHEMA,
    });
  });

  it('accepts an already parsed skill', () => {
    const { skill } = parseSkillMd('---\nname: pdf\ndescription: Read PDFs\n---\n# PDF\n');
    expect(toMcpTool(skill)).toEqual({ name: 'pdf', description: 'Read PDFs', inputSchema: TASK_SCHEMA });
  });

  it('returns a fresh schema object each time', () => {
    const a = toMcpTool('---\nname: a\ndescription: A\n---\n');
    const b = toMcpTool('---\nname: b\ndescription: B\n---\n');
    expect(a.inputSchema).not.toBe(b.inputSchema);
  });

  it('uses an empty description when the skill has none', () => {
    expect(toMcpTool('---\nname: bare\n---\n# Bare\n').description).toBe('');
  });

  it.each([
    ['no frontmatter', '# Just markdown\n'],
    ['no name', '---\ndescription: nameless\n---\n'],
    ['a non-string name', '---\nname: [a, b]\ndescription: x\n---\n'],
  ])('refuses a skill with %s as SKILL_INVALID', (_label, text) => {
    let caught: unknown;
    try {
      toMcpTool(text);
    } catch (error) {
      caught = error;
    }
    if (!isSkillportError(caught)) throw new Error('expected a SkillportError');
    expect(caught.code).toBe('SKILL_INVALID');
    expect(caught.message).toMatch(/^Skill parse error: /);
    expect(caught.details?.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ severity: 'error' })]),
    );
  });
});

describe('toMcpTool — converted skills round-trip', () => {
  const tools: McpTool[] = [
    {
      name: 'search-web',
      description: 'Search the web',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Search query' },
          limit: { type: 'integer', description: 'Max results' },
        },
        required: ['query'],
      },
    },
    { name: 'search_web', description: 'Search: the web', inputSchema: { type: 'object', properties: {} } },
    { name: 'getEnv', description: 'Line one\nLine two\n', inputSchema: { type: 'object' } },
    {
      name: 'tree.walk',
      description: 'Walk a tree ## Parameters',
      inputSchema: {
        type: 'object',
        $defs: {
          Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } } },
        },
        properties: { root: { $ref: '#/$defs/Node' }, depth: { type: ['integer', 'null'], default: null } },
        required: ['root', 'ghost'],
      },
    },
    {
      name: 'tricky',
      description: 'Has a fake section\n\n## Input schema\n\nnot json',
      inputSchema: { type: 'object', properties: { a: { type: 'string', description: 'A' } } },
    },
    {
      name: 'fence_in_values',
      description: 'Backticks ``` and ~~~ everywhere',
      inputSchema: {
        type: 'object',
        properties: { code: { type: 'string', description: '```json\n{}\n```', default: '```' } },
      },
    },
  ];

  it.each(tools.map((t) => [t.name, t] as const))('%s', (_name, original) => {
    const converted = fromMcpTool(original);
    const { content } = converted;
    const back = toMcpTool(converted);
    expect(back.name).toBe(original.name);
    expect(toMcpTool(content, { mcpTool: converted.mcpTool })).toEqual(back);
    expect(back.description).toBe(original.description);
    expect(back.inputSchema).toEqual(original.inputSchema);
    expect(parseSkillMd(content).issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  });

  it('rebuilds the flat schema from the Parameters bullets when there is no Input schema block', () => {
    const text = [
      '---',
      'name: lookup',
      'description: Look things up',
      '---',
      '',
      '# lookup',
      '',
      '## Parameters',
      '',
      '- **id** (integer) (required): The id',
      '- **tags** (array of string) (optional)',
      '- **extra** (any) (optional): Free-form',
      '  - **ignored** (string) (optional): nested lines are not read',
      '',
      '## Usage',
      '',
      'This tool wraps the MCP tool `lookup`. Call this when the user needs functionality matching the description above.',
      '',
    ].join('\n');
    expect(toMcpTool(text)).toEqual({
      name: 'lookup',
      description: 'Look things up',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'integer', description: 'The id' },
          tags: { type: 'array', items: { type: 'string' } },
          extra: { description: 'Free-form' },
        },
        required: ['id'],
      },
    });
  });

  it('names the tool by the mcpTool option, over a legacy mcp_tool key and the skill name', () => {
    const text =
      '---\nname: search-web\ndescription: Search\n---\n\n# search-web\n\nSearch\n\n## Usage\n\nThis tool wraps the MCP tool `search-web`. Call this when the user needs functionality matching the description above.\n';
    expect(toMcpTool(text).name).toBe('search-web');
    expect(toMcpTool(text, { mcpTool: 'search_web' }).name).toBe('search_web');
    expect(
      toMcpTool(`${text.replace('description: Search', 'description: Search\nmcp_tool: old_name')}`, {
        mcpTool: 'search_web',
      }).name,
    ).toBe('search_web');
  });

  it('names the tool by a legacy mcp_tool key (written by earlier versions)', () => {
    const text =
      '---\nname: issue-write\ndescription: Write issues\nmcp_tool: issue_write\n---\n\n# issue-write\n';
    expect(toMcpTool(text)).toEqual({
      name: 'issue_write',
      description: 'Write issues',
      inputSchema: { type: 'object', properties: {} },
    });
  });

  it.each([
    ['no fence', '## Input schema\n\n{"type": "object"}\n', /not followed by a ```json fence/],
    ['an unclosed fence', '## Input schema\n\n```json\n{"type": "object"}\n', /not closed/],
    ['invalid JSON', '## Input schema\n\n```json\n{"type": object}\n```\n', /not valid JSON/],
    ['a JSON array', '## Input schema\n\n```json\n[1, 2]\n```\n', /must hold a JSON object/],
  ])('refuses an Input schema section with %s as SKILL_INVALID', (_label, section, message) => {
    const text = `---\nname: x\ndescription: X\nmcp_tool: x_tool\n---\n\n# x\n\n${section}`;
    let caught: unknown;
    try {
      toMcpTool(text);
    } catch (error) {
      caught = error;
    }
    if (!isSkillportError(caught)) throw new Error('expected a SkillportError');
    expect(caught.code).toBe('SKILL_INVALID');
    expect(caught.message).toMatch(message);
    expect(caught.details?.issues).toEqual([
      expect.objectContaining({ rule: 'mcp_input_schema', field: 'body' }),
    ]);
  });
});

describe('toMcpTool — hostile property names', () => {
  it('round-trips a property named __proto__ without touching prototypes', () => {
    const inputSchema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"}}}',
    ) as Record<string, unknown>;
    const back = toMcpTool(fromMcpTool({ name: 'p', description: 'P', inputSchema }).content);
    expect(back.inputSchema).toEqual(inputSchema);
    expect(Object.keys(back.inputSchema.properties as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).type).toBeUndefined();
  });
});
