/**
 * Reads an MCP tool back out of a skill that {@link fromMcpTool} produced: the original tool name
 * (given by the caller, else the legacy `mcp_tool` key, else `name`), the description, and the input schema — from the final
 * `## Input schema` JSON block when there is one, else rebuilt from the flat `## Parameters` bullets.
 *
 * `fromMcpTool` runs this very reader on its own output to decide whether the JSON block is needed,
 * so what `toMcpTool` reads is by construction what `fromMcpTool` was given.
 */
import { SkillportError } from '../../errors.js';

/** Heading of the section holding the original `inputSchema` verbatim. */
export const INPUT_SCHEMA_HEADING = '## Input schema';
/** Start of the Usage paragraph every converted skill has. */
export const USAGE_PREFIX = 'This tool wraps the MCP tool ';

const SIMPLE_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'null', 'array']);
const PARAMETER_LINE = /^- \*\*(.+?)\*\* \(([^()]*)\) \((required|optional)\)(?:: (.*))?$/;

/** What the reader found. */
export interface ConvertedSkill {
  name: string;
  inputSchema: Record<string, unknown>;
}

/**
 * Reads the MCP side of a converted skill.
 *
 * @param frontmatter - the parsed frontmatter (`name`, optional legacy `mcp_tool`)
 * @param body - the Markdown after the frontmatter
 * @param mcpTool - the original tool name kept outside SKILL.md, if known
 * @returns the tool name and input schema, or `null` when the skill is not a converted MCP tool
 *   (no `mcp_tool` key, no `## Input schema` block, no Usage line naming an MCP tool)
 * @throws SkillportError `SKILL_INVALID` when the `## Input schema` block is not a JSON object
 */
export function readConvertedSkill(
  frontmatter: Record<string, unknown>,
  body: string,
  mcpTool?: string,
): ConvertedSkill | null {
  const lines = body.split(/\r\n|\n|\r/);
  const schemaBlock = readInputSchemaBlock(lines);
  const legacyName = typeof frontmatter.mcp_tool === 'string' ? frontmatter.mcp_tool : null;
  const hasUsage = lines.some((line) => line.startsWith(USAGE_PREFIX));
  if (legacyName === null && schemaBlock === null && !hasUsage) return null;
  const name =
    (mcpTool !== undefined && mcpTool !== '' ? mcpTool : null) ??
    legacyName ??
    (typeof frontmatter.name === 'string' ? frontmatter.name : null);
  if (name === null) return null;
  return { name, inputSchema: schemaBlock ?? rebuildFromParameters(lines) };
}

function readInputSchemaBlock(lines: string[]): Record<string, unknown> | null {
  let heading = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    if (lines[i]?.trimEnd() === INPUT_SCHEMA_HEADING) {
      heading = i;
      break;
    }
  }
  if (heading < 0) return null;
  let open = heading + 1;
  while (open < lines.length && lines[open]?.trim() === '') open += 1;
  if (lines[open]?.trim() !== '```json')
    return invalidBlock('the heading is not followed by a ```json fence');
  const close = lines.findIndex((line, i) => i > open && line.trim() === '```');
  if (close < 0) return invalidBlock('the ```json fence is not closed');
  let value: unknown;
  try {
    value = JSON.parse(lines.slice(open + 1, close).join('\n'));
  } catch (error) {
    return invalidBlock(`the block is not valid JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return invalidBlock('the block must hold a JSON object');
  }
  return value as Record<string, unknown>;
}

function invalidBlock(reason: string): never {
  throw new SkillportError(
    'SKILL_INVALID',
    `Skill parse error: section "${INPUT_SCHEMA_HEADING}": ${reason}`,
    {
      details: {
        issues: [
          {
            rule: 'mcp_input_schema',
            severity: 'error',
            message: `Section "${INPUT_SCHEMA_HEADING}": ${reason}`,
            field: 'body',
          },
        ],
      },
    },
  );
}

/**
 * Rebuilds a flat schema from the `## Parameters` bullets at column 0: `(type)` becomes `type`
 * (`any` → no type, `array of <simple type>` → `items`), `(required)` goes to `required`, the text
 * after `: ` becomes `description`. Nested bullets and richer labels are not read (those renderings
 * always come with the JSON block).
 */
function rebuildFromParameters(lines: string[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const start = lines.findIndex((line) => line.trimEnd() === '## Parameters');
  if (start >= 0) {
    for (const line of lines.slice(start + 1)) {
      if (/^#{1,2} /.test(line)) break;
      const match = PARAMETER_LINE.exec(line);
      if (!match) continue;
      const [, name = '', type = '', requirement, description] = match;
      // Never assign through the prototype setter; such a schema always carries its JSON block.
      if (name === '__proto__') continue;
      const property: Record<string, unknown> = schemaForLabel(type);
      if (description !== undefined) property.description = description;
      properties[name] = property;
      if (requirement === 'required') required.push(name);
    }
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function schemaForLabel(label: string): Record<string, unknown> {
  if (SIMPLE_TYPES.has(label)) return { type: label };
  const item = /^array of (\w+)$/.exec(label)?.[1];
  if (item !== undefined && SIMPLE_TYPES.has(item)) return { type: 'array', items: { type: item } };
  return {};
}
