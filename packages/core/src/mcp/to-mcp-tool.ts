import { SkillportError } from '../errors.js';
import { parseSkillMd } from '../parse/parse-skill-md.js';
import type { McpTool, ParsedSkill } from '../types.js';
import type { McpSkillConversion } from './from-mcp-tool.js';
import { readConvertedSkill } from './internal/read-converted-skill.js';

/** Options of {@link toMcpTool}. */
export interface ToMcpToolOptions {
  /**
   * The original MCP tool name of a converted skill (`fromMcpTool(t).mcpTool`; on the server
   * `source_metadata.mcp_tool`, returned by get with `include_source`). Default: the frontmatter's
   * `mcp_tool` (written by earlier versions), else the skill name.
   */
  mcpTool?: string | undefined;
}

/**
 * The `inputSchema` of an ordinary (not converted) skill exposed as an MCP tool: the agent passes
 * the task, and optionally some context. Matches the toolbox's tool arguments (the @skillport/core README).
 */
function skillTaskSchema(): Record<string, unknown> {
  return {
    type: 'object',
    properties: { task: { type: 'string' }, context: { type: 'string' } },
    required: ['task'],
  };
}

/**
 * Turns a skill back into an MCP tool definition.
 *
 * - A skill produced by {@link fromMcpTool} (the converter's Usage line, a final `## Input schema`
 *   block, or an `mcp_tool` frontmatter key written by earlier versions) gives back the original tool:
 *   `name` = `options.mcpTool` (the original name kept beside the skill), else `mcp_tool`, else the
 *   skill name; the description; and the `inputSchema` — read from the `## Input schema` JSON block
 *   when present, else rebuilt from the flat `## Parameters` bullets. `toMcpTool(fromMcpTool(t))`
 *   returns `t.name`, `t.description` and a deep-equal `t.inputSchema`.
 * - Any other skill gives `{name, description, inputSchema: {type: "object", properties: {task:
 *   {type: "string"}, context: {type: "string"}}, required: ["task"]}}`.
 *
 * @param input - SKILL.md text, a skill already parsed by `parseSkillMd`, or the result of
 *   {@link fromMcpTool} (its `content` and `mcpTool`)
 * @param options - `mcpTool`: the original tool name, when kept outside SKILL.md
 * @returns `{name, description, inputSchema}` (description `''` when the skill has none)
 * @throws SkillportError `SKILL_INVALID` (message `Skill parse error: …`, `details.issues`) when the
 *   skill has no string `name`, or when its `## Input schema` section is not a fenced JSON object
 * @example
 * ```ts
 * toMcpTool('---\nname: my-skill\ndescription: Does things\n---\n\n# My skill\n');
 * // { name: 'my-skill', description: 'Does things', inputSchema: { type: 'object', … } }
 * toMcpTool(storedSkillMd, { mcpTool: skill.source?.mcp_tool }); // the tool under its own name
 * ```
 * @see the MCP ⇄ skill section of the @skillport/core README
 */
export function toMcpTool(
  input: string | ParsedSkill | Pick<McpSkillConversion, 'content' | 'mcpTool'>,
  options: ToMcpToolOptions = {},
): McpTool {
  if (isConversion(input)) return toMcpTool(input.content, { mcpTool: options.mcpTool ?? input.mcpTool });
  let skill: ParsedSkill;
  if (typeof input === 'string') {
    const parsed = parseSkillMd(input);
    skill = parsed.skill;
    if (skill.name === null) {
      const errors = parsed.issues.filter((issue) => issue.severity === 'error');
      const first = errors[0]?.message ?? 'the frontmatter has no string "name"';
      throw new SkillportError('SKILL_INVALID', `Skill parse error: ${first}`, {
        details: { issues: errors.length > 0 ? errors : [nameIssue()] },
      });
    }
  } else {
    skill = input;
  }
  if (skill.name === null) {
    throw new SkillportError('SKILL_INVALID', 'Skill parse error: the frontmatter has no string "name"', {
      details: { issues: [nameIssue()] },
    });
  }
  const description = skill.description ?? '';
  const converted = readConvertedSkill(skill.frontmatter, skill.body, options.mcpTool);
  if (converted !== null) return { name: converted.name, description, inputSchema: converted.inputSchema };
  return { name: skill.name, description, inputSchema: skillTaskSchema() };
}

function isConversion(input: unknown): input is Pick<McpSkillConversion, 'content' | 'mcpTool'> {
  const record = input as { content?: unknown; mcpTool?: unknown } | null;
  return (
    typeof record === 'object' &&
    record !== null &&
    typeof record.mcpTool === 'string' &&
    typeof record.content === 'string'
  );
}

function nameIssue() {
  return {
    rule: 'name_required',
    severity: 'error' as const,
    message: 'The frontmatter has no string "name" (e.g. "name: search-web")',
    field: 'name',
  };
}
