import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { describeCorpus, findCorpus } from '../../../../scripts/test-corpus.js';
import { fromMcpTool } from '../../src/mcp/from-mcp-tool.js';
import { isMcpTool } from '../../src/mcp/is-mcp-tool.js';
import { toMcpTool } from '../../src/mcp/to-mcp-tool.js';
import { parseSkillMd } from '../../src/parse/parse-skill-md.js';
import type { McpTool } from '../../src/types.js';
import { validateSkill } from '../../src/validate/validate-skill.js';

const corpus = findCorpus();
const mcpDir = corpus ? path.join(corpus, 'mcp') : '';

const files = corpus
  ? readdirSync(mcpDir)
      .filter((file) => file.endsWith('.json'))
      .sort()
  : [];
const tools = files.map(
  (file) => [file, JSON.parse(readFileSync(path.join(mcpDir, file), 'utf8')) as McpTool] as const,
);

describeCorpus('MCP corpus', () => {
  it('holds the 39 tools this suite was written against', () => {
    expect(files).toHaveLength(39);
  });

  it.each(tools)('%s converts, parses cleanly, matches its snapshot and round-trips', async (file, tool) => {
    expect(isMcpTool(tool)).toBe(true);
    const result = fromMcpTool(tool);
    await expect(result.content).toMatchFileSnapshot(
      `__snapshots__/${file.replace(/\.json$/, '')}.SKILL.md.snap`,
    );

    const parsed = parseSkillMd(result.content);
    expect(parsed.hasFrontmatter).toBe(true);
    expect(parsed.issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(parsed.skill.name).toBe(result.name);
    expect(parsed.skill.description).toBe(tool.description);
    expect(parsed.skill.frontmatter).toEqual(result.frontmatter);

    // What the add route checks before storing: no errors under the default profile.
    const validation = validateSkill(result.content);
    expect(validation.errors).toEqual([]);
    expect(validation.name).toBe(result.name);

    const back = toMcpTool(result);
    expect(back.name).toBe(tool.name);
    expect(toMcpTool(result.content, { mcpTool: result.mcpTool })).toEqual(back);
    // From SKILL.md alone the tool is named after the skill.
    expect(toMcpTool(result.content).name).toBe(result.name);
    expect(back.description).toBe(tool.description);
    expect(back.inputSchema).toEqual(tool.inputSchema);
  });

  it('keeps the Parameters section flat-exact where the schema allows it', () => {
    const flat = tools.filter(([, tool]) => !fromMcpTool(tool).content.includes('\n## Input schema\n'));
    for (const [, tool] of flat) {
      expect(toMcpTool(fromMcpTool(tool).content).inputSchema).toEqual(tool.inputSchema);
    }
    expect(flat.map(([file]) => file)).toContain('047-ispn-dotted-name.json');
  });
});
