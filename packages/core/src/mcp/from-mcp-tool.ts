import YAML from 'yaml';
import { SkillportError } from '../errors.js';
import { SKILL_NAME_MAX_LENGTH, toKebabCase } from '../names.js';
import type { McpTool, SkillIssue } from '../types.js';
import { deepEqualJson } from './internal/deep-equal.js';
import { codeSpan } from './internal/markdown-code.js';
import { INPUT_SCHEMA_HEADING, readConvertedSkill, USAGE_PREFIX } from './internal/read-converted-skill.js';
import { renderChildren } from './internal/render-parameters.js';
import { describeInputSchema } from './internal/schema-view.js';
import { isMcpTool } from './is-mcp-tool.js';

/** Result of {@link fromMcpTool}. */
export interface McpSkillConversion {
  /** The skill name: the tool name in kebab-case. */
  name: string;
  /** The skill description (the tool's, kept as is). */
  description: string;
  /** The complete SKILL.md text. */
  content: string;
  /** The frontmatter written into `content`: `name` and `description`. */
  frontmatter: Record<string, unknown>;
  /**
   * The original MCP tool name (`search_web` for the skill `search-web`), which SKILL.md does not
   * carry: keep it beside the skill (the server stores it as `source_metadata.mcp_tool`) and give it
   * back to {@link toMcpTool} to get the tool's own name.
   */
  mcpTool: string;
  /** Warnings about the tool (required names without a property, unresolved `$ref`, missing description). */
  issues: SkillIssue[];
}

/**
 * Converts an MCP tool definition into a skill (SKILL.md text).
 *
 * Output, exactly as the MCP ⇄ skill section of the @skillport/core README shows for the flat case (a tool named `search_web`):
 * ```
 * ---
 * name: search-web
 * description: Search the web
 * ---
 *
 * # search-web
 *
 * Search the web
 *
 * ## Parameters
 *
 * - **query** (string) (required): Search query
 * - **limit** (integer) (optional): Max results
 *
 * ## Usage
 *
 * This tool wraps the MCP tool `search-web`. Call this when the user needs functionality matching the description above.
 * ```
 * (ending with a newline). Decisions:
 * - The skill name is {@link toKebabCase} of the tool name (`search_web`, `searchWeb`, `Search Web`
 *   → `search-web`); the frontmatter holds `name` and `description` only, and the Usage line names
 *   the skill. The original tool name is returned as `mcpTool`, outside SKILL.md: pass it to
 *   {@link toMcpTool} to get the tool back under its own name.
 * - Frontmatter values are YAML-quoted only when needed (by the `yaml` package, quoting what YAML 1.1
 *   readers would mistake, such as `yes`); multi-line descriptions become block scalars. One block.
 * - Parameters: nested object properties as indented bullets, `array of <item type>` (`array` when
 *   there is no `items`), enum values, `default`, format and constraints after the description,
 *   `nullable` for `anyOf`/`oneOf` with `{type: "null"}` and `type: [x, "null"]`, unions as
 *   `a | b` with their variants as `*option N*` bullets. Local `$ref`s (`#/$defs/X`,
 *   `#/definitions/X`, any JSON Pointer, `~0`/`~1` escapes, also inside `anyOf`/`allOf`/`oneOf`) are
 *   inlined; a reference cycle is cut and shown as `(recursive: X)`. A schema without `properties`
 *   (or with none) gives no Parameters section.
 * - Round-trip: `toMcpTool(fromMcpTool(t))` (or `toMcpTool(content, {mcpTool})`) returns `t`'s name,
 *   description and a deep-equal `inputSchema`; from the content alone the name is the skill name. When the Parameters bullets alone read back to the same schema (the flat case),
 *   nothing else is written; otherwise (checked at conversion time by reading the output back) a final
 *   `## Input schema` section holds the original `inputSchema` as a fenced `json` block.
 * - A missing or blank description is replaced by the tool's `title`, `annotations.title` or
 *   `MCP tool <name>`, with a warning (the round-trip then returns that text).
 *
 * @param tool - the tool as listed by `tools/list` (`name`, `description`, `inputSchema`, …)
 * @returns `{name, description, content, frontmatter, mcpTool, issues}`; issues are warnings
 *   (`mcp_required_unknown`, `mcp_ref_unresolved`, `mcp_schema_invalid`, `mcp_description_missing`)
 * @throws SkillportError `INVALID_ARGUMENT` when `tool` has no object `inputSchema`, when its name is
 *   not a string, has no ASCII letter or digit, or is longer than 64 characters in kebab-case
 *   (`details.field` = `inputSchema` or `name`), or when `inputSchema` is not JSON-serialisable
 * @example
 * ```ts
 * const { name, content } = fromMcpTool({
 *   name: 'search_web',
 *   description: 'Search the web',
 *   inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
 * });
 * name; // 'search-web'
 * ```
 * @see the MCP ⇄ skill section of the @skillport/core README
 */
export function fromMcpTool(tool: McpTool): McpSkillConversion {
  if (!isMcpTool(tool)) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      'An MCP tool must be an object with an object "inputSchema" (e.g. {"name": "search_web", "inputSchema": {"type": "object"}})',
      { details: { field: 'inputSchema' } },
    );
  }
  const originalName = tool.name;
  const name = skillNameFor(originalName);
  const issues: SkillIssue[] = [];
  const description = descriptionFor(tool, issues);
  let schemaJson: string;
  try {
    schemaJson = JSON.stringify(tool.inputSchema, null, 2);
  } catch (error) {
    throw new SkillportError('INVALID_ARGUMENT', 'The MCP tool\'s "inputSchema" is not JSON-serialisable', {
      details: { field: 'inputSchema' },
      cause: error,
    });
  }

  const frontmatter: Record<string, unknown> = { name, description };

  const described = describeInputSchema(tool.inputSchema);
  // One at a time: 190,000 required names without a property are as many warnings, more than a
  // spread into `push` takes (RangeError).
  for (const issue of described.issues) issues.push(issue);
  const parameters = renderChildren(described.view.children);
  // Facts about the whole argument object (e.g. "Needs at least one of: …") follow the bullets.
  if (parameters.length > 0 && described.view.extras.length > 0)
    parameters.push('', described.view.extras.join(' '));

  let body = `\n# ${name}\n\n${description}\n`;
  if (parameters.length > 0) body += `\n## Parameters\n\n${parameters.join('\n')}\n`;
  body +=
    `\n## Usage\n\n${USAGE_PREFIX}${codeSpan(name)}. ` +
    'Call this when the user needs functionality matching the description above.\n';

  if (!readsBackExactly(frontmatter, body, tool.inputSchema)) {
    body += `\n${INPUT_SCHEMA_HEADING}\n\n\`\`\`json\n${schemaJson}\n\`\`\`\n`;
  }
  return {
    name,
    description,
    content: `---\n${frontmatterYaml(frontmatter)}---\n${body}`,
    frontmatter,
    mcpTool: originalName,
    issues,
  };
}

function readsBackExactly(frontmatter: Record<string, unknown>, body: string, schema: unknown): boolean {
  try {
    const readBack = readConvertedSkill(frontmatter, body);
    return readBack !== null && deepEqualJson(readBack.inputSchema, schema);
  } catch {
    // A description that looks like a broken "## Input schema" section: the appended block fixes it.
    return false;
  }
}

function skillNameFor(originalName: unknown): string {
  if (typeof originalName !== 'string') {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `An MCP tool needs a string "name" (e.g. "search_web"), got ${originalName === null ? 'null' : typeof originalName}`,
      { details: { field: 'name' } },
    );
  }
  const name = toKebabCase(originalName);
  const shown = JSON.stringify(originalName.length > 80 ? `${originalName.slice(0, 79)}…` : originalName);
  if (name === '') {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `MCP tool name ${shown} has no ASCII letters or digits to build a skill name from (e.g. "search_web" becomes "search-web")`,
      { details: { field: 'name', value: originalName } },
    );
  }
  if ([...name].length > SKILL_NAME_MAX_LENGTH) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `MCP tool name ${shown} gives the skill name "${name.slice(0, 80)}", longer than ${SKILL_NAME_MAX_LENGTH} characters`,
      { details: { field: 'name', value: originalName } },
    );
  }
  return name;
}

function descriptionFor(tool: McpTool, issues: SkillIssue[]): string {
  if (typeof tool.description === 'string' && tool.description.trim() !== '') return tool.description;
  const annotationsTitle = tool.annotations?.title;
  const fallback =
    typeof tool.title === 'string' && tool.title.trim() !== ''
      ? tool.title
      : typeof annotationsTitle === 'string' && annotationsTitle.trim() !== ''
        ? annotationsTitle
        : `MCP tool ${tool.name}`;
  issues.push({
    rule: 'mcp_description_missing',
    severity: 'warning',
    message: `The MCP tool has no description; using ${JSON.stringify(fallback)} instead`,
    field: 'description',
  });
  return fallback;
}

/**
 * YAML for the frontmatter: quoted only when needed, valid for YAML 1.1 and 1.2 readers alike. When the
 * `yaml` package's rendering would not read back identically, JSON-style double quotes (valid YAML) are
 * used for every value.
 */
function frontmatterYaml(frontmatter: Record<string, unknown>): string {
  const text = new YAML.Document(frontmatter, { version: '1.1' }).toString({ lineWidth: 0 });
  try {
    if (
      deepEqualJson(YAML.parse(text), frontmatter) &&
      deepEqualJson(YAML.parse(text, { version: '1.1' }), frontmatter)
    ) {
      return text;
    }
  } catch {
    // fall through to the always-exact spelling
  }
  return Object.entries(frontmatter)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}\n`)
    .join('');
}
