import { describe, expect, it } from 'vitest';
import { isMcpTool } from '../../src/mcp/is-mcp-tool.js';

describe('isMcpTool', () => {
  it.each<[string, unknown, boolean]>([
    [
      'the contract calculator',
      { name: 'calculator', inputSchema: { type: 'object', properties: {} } },
      true,
    ],
    ['a schema without properties', { name: 'check_login_status', inputSchema: { type: 'object' } }, true],
    ['an empty schema object', { name: 'x', inputSchema: {} }, true],
    ['a tool whose name is bad (reported later by fromMcpTool)', { name: 42, inputSchema: {} }, true],
    ['a structured skill', { name: 'my-skill', description: 'x', content: '# x' }, false],
    ['an array inputSchema', { name: 'x', inputSchema: [] }, false],
    ['a null inputSchema', { name: 'x', inputSchema: null }, false],
    ['a string inputSchema', { name: 'x', inputSchema: '{"type":"object"}' }, false],
    ['SKILL.md text', '---\nname: x\n---\n', false],
    ['an array', [{ inputSchema: {} }], false],
    ['null', null, false],
  ])('%s → %s', (_label, value, expected) => {
    expect(isMcpTool(value)).toBe(expected);
  });
});
