/**
 * `createSkillToolbox`: turns skills into agent tools. Each skill becomes one tool taking
 * `{task, context?}`; calling it sends the skill body as the system prompt and the task as the user
 * message to a chat model, and returns `{result, skill_used}`.
 *
 * @see the @skillport/core README (Toolbox)
 */
import { isSkillportError, SkillportError } from '../errors.js';
import type { ChatMessage, ChatModel } from './chat-model.js';
import { ChatModelError } from './chat-model-error.js';
import { assignToolNames, shownName, type ToolNameWarning } from './internal/assign-tool-names.js';
import { cutText } from './internal/cut-text.js';
import { parseToolArguments } from './internal/parse-tool-arguments.js';
import { renderAvailableSkills } from './render-available-skills.js';
import {
  type McpToolDefinition,
  type OpenAIFunctionTool,
  SKILL_TOOL_PARAMETERS,
  type SkillToolParameters,
} from './tool-definitions.js';

/** A skill as the toolbox needs it. {@link DiscoveredSkill}s and registry items (via
 * {@link toolboxSkillsFromRegistry}) fit. */
export interface ToolboxSkill {
  name: string;
  description?: string | null;
  /** The instructions sent as the system message (SKILL.md without its frontmatter). */
  body: string;
  /** Where the skill comes from (file path or URI), shown in the catalogue as `<location>`. */
  path?: string;
}

/** One tool of a toolbox. */
export interface SkillTool {
  /** Tool name: `[a-z0-9_]`, ≤ 64 characters, starting with a letter, unique in the toolbox. */
  name: string;
  /** The skill's description, cut to 1,024 characters (see {@link SkillToolbox.warnings}). */
  description: string;
  /** The skill's own name (returned as `skill_used`). */
  skillName: string;
  /** JSON Schema of the arguments `{task: string, context?: string}`. */
  parameters: SkillToolParameters;
}

/** What a tool call returns. */
export interface SkillToolResult {
  /** The model's answer. */
  result: string;
  /** Name of the skill that answered. */
  skill_used: string;
}

/** Options of {@link createSkillToolbox}. */
export interface SkillToolboxOptions {
  /** The chat model tools call. Without one, tools can be listed and exported but not called. */
  model?: ChatModel;
}

/** Options of one {@link SkillToolbox.callTool} call. */
export interface CallToolOptions {
  signal?: AbortSignal;
}

/**
 * Longest tool description: OpenAI refuses a request whose tools carry a longer one (400
 * `string_above_max_length`, every tool of the request lost), and it is the Agent Skills limit of a
 * skill description.
 */
const TOOL_DESCRIPTION_MAX_LENGTH = 1024;

/** A remark made while building the toolbox about one skill's tool. */
export interface ToolboxWarning {
  /** Tool-name collisions, fallbacks and truncations, and descriptions cut to fit. */
  kind: ToolNameWarning['kind'] | 'tool_description_truncated';
  message: string;
  /** The skill concerned. */
  skill: string;
  /** Its tool's name. */
  tool: string;
}

/** Tools an unknown-tool error names in its message (`details.available` has them all). */
const UNKNOWN_TOOL_LISTED = 20;

/** The toolbox returned by {@link createSkillToolbox}. */
export interface SkillToolbox {
  /** One tool per skill, in input order. */
  readonly tools: readonly SkillTool[];
  /** Tool-name collisions (resolved with `_2`, `_3`, …), fallbacks and truncations; descriptions cut. */
  readonly warnings: readonly ToolboxWarning[];
  /** The tool called `name`, or `undefined`. */
  getTool(name: string): SkillTool | undefined;
  /**
   * Runs a tool: validates `args` (`{task, context?}`, an object or its JSON text), sends
   * `[{role: 'system', content: body}, {role: 'user', content: task (+ "\n\nContext: " + context)}]`
   * to the model and returns `{result, skill_used}`.
   *
   * @throws SkillportError `NOT_FOUND` (unknown tool; the message names the first 20 tools,
   *   `details.available` lists them all),
   *   `INVALID_ARGUMENT` (bad arguments, `details.field`; or no model configured, `details.field =
   *   'model'`), {@link ChatModelError} (the model failed), the signal's reason when aborted
   */
  callTool(name: string, args: unknown, options?: CallToolOptions): Promise<SkillToolResult>;
  /** The tools as MCP tool definitions `{name, description, inputSchema}`. */
  toMcpTools(): McpToolDefinition[];
  /** The tools as OpenAI function-calling tools `{type: 'function', function: {name, description, parameters}}`. */
  toOpenAITools(): OpenAIFunctionTool[];
  /** The `<available_skills>` block of these skills, with each skill's tool name and location. */
  renderAvailableSkills(): string;
}

function cloneParameters(): SkillToolParameters {
  return structuredClone(SKILL_TOOL_PARAMETERS) as SkillToolParameters;
}

function checkSkills(skills: readonly ToolboxSkill[]): void {
  skills.forEach((skill, index) => {
    if (typeof skill?.name !== 'string' || skill.name.trim() === '') {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        `skills[${index}] has no name; every toolbox skill needs {name, body}`,
        {
          details: { field: 'name', index },
        },
      );
    }
    if (typeof skill.body !== 'string') {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        `skills[${index}] ("${shownName(skill.name)}") has no body string; pass the SKILL.md body (e.g. from parseSkillMd(text).skill.body)`,
        { details: { field: 'body', index } },
      );
    }
  });
}

/**
 * Creates a toolbox exposing each skill as one agent tool.
 *
 * Tool names are `toToolSlug(skill.name)` (`[a-z0-9_]`, ≤ 64 characters, starting with a letter:
 * `skill_` goes in front of a slug that starts with a digit, with a `tool_name_prefixed` warning, as
 * Gemini and Vertex AI refuse such function names); when two skills give the
 * same name, the later ones get `_2`, `_3`, … in input order and a `tool_name_collision` warning.
 * Descriptions are the skills' descriptions, cut to 1,024 characters (ending with `…`, with a
 * `tool_description_truncated` warning) since OpenAI refuses a request carrying a longer one;
 * parameters are `{task: string, context?: string}`.
 *
 * @param skills - skills `{name, description?, body, path?}`, e.g. discovered skills or
 *   {@link toolboxSkillsFromRegistry} output
 * @param options - `model`: the {@link ChatModel} tools call (optional; required by `callTool`)
 * @returns the {@link SkillToolbox}
 * @throws SkillportError `INVALID_ARGUMENT` when a skill has no name or no body
 * @example
 * ```ts
 * const toolbox = createSkillToolbox(skills, {
 *   model: createOpenAICompatibleModel({ baseURL: 'http://localhost:11434/v1', model: 'llama3.2' }),
 * });
 * const { result, skill_used } = await toolbox.callTool('pdf', { task: 'Summarise report.pdf' });
 * ```
 * @see the @skillport/core README (Toolbox)
 */
export function createSkillToolbox(
  skills: readonly ToolboxSkill[],
  options: SkillToolboxOptions = {},
): SkillToolbox {
  checkSkills(skills);
  const assigned = assignToolNames(skills.map((skill) => skill.name));
  const warnings: ToolboxWarning[] = [...assigned.warnings];
  const entries = skills.map((skill, index) => {
    const name = assigned.names[index] as string;
    const full = skill.description ?? '';
    const description = cutText(full, TOOL_DESCRIPTION_MAX_LENGTH);
    if (description !== full) {
      warnings.push({
        kind: 'tool_description_truncated',
        message: `description of skill "${shownName(skill.name)}" cut from ${full.length} to ${description.length} characters for tool "${name}" (function-calling APIs refuse longer ones)`,
        skill: skill.name,
        tool: name,
      });
    }
    const tool: SkillTool = { name, description, skillName: skill.name, parameters: cloneParameters() };
    return { skill, tool };
  });
  const byName = new Map(entries.map((entry) => [entry.tool.name, entry]));
  const model = options.model;

  async function callTool(
    name: string,
    args: unknown,
    callOptions: CallToolOptions = {},
  ): Promise<SkillToolResult> {
    const entry = byName.get(name);
    if (entry === undefined) {
      const available = entries.map((e) => e.tool.name);
      // The message goes back to the model: it names the first tools only, details all of them.
      const listed = available.slice(0, UNKNOWN_TOOL_LISTED);
      const more = available.length - listed.length;
      throw new SkillportError(
        'NOT_FOUND',
        `No tool named "${shownName(String(name))}" in this toolbox; available: ${listed.join(', ') || '(none)'}${more > 0 ? ` and ${more} more` : ''}`,
        { details: { type: 'tool', tool: name, available } },
      );
    }
    const { task, context } = parseToolArguments(entry.tool.name, args);
    if (model === undefined) {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        'No chat model configured: pass one to createSkillToolbox, e.g. createSkillToolbox(skills, { model: createOpenAICompatibleModel({ baseURL: "http://localhost:11434/v1", model: "llama3.2" }) })',
        { details: { field: 'model' } },
      );
    }
    const messages: ChatMessage[] = [
      { role: 'system', content: entry.skill.body },
      { role: 'user', content: context === undefined ? task : `${task}\n\nContext: ${context}` },
    ];
    let content: unknown;
    try {
      const completion = await model.complete(
        messages,
        callOptions.signal ? { signal: callOptions.signal } : {},
      );
      content = completion?.content;
    } catch (error) {
      if (callOptions.signal?.aborted || isSkillportError(error)) throw error;
      throw new ChatModelError(
        'UNAVAILABLE',
        `Chat model failed for tool "${entry.tool.name}": ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    if (typeof content !== 'string') {
      throw new ChatModelError(
        'PROCESSING_ERROR',
        `Chat model returned no text for tool "${entry.tool.name}" (expected {content: string})`,
      );
    }
    return { result: content, skill_used: entry.skill.name };
  }

  return {
    tools: entries.map((entry) => entry.tool),
    warnings,
    getTool: (name) => byName.get(name)?.tool,
    callTool,
    toMcpTools: () =>
      entries.map(({ tool }) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: cloneParameters(),
      })),
    toOpenAITools: () =>
      entries.map(({ tool }) => ({
        type: 'function' as const,
        function: { name: tool.name, description: tool.description, parameters: cloneParameters() },
      })),
    renderAvailableSkills: () =>
      renderAvailableSkills(
        entries.map(({ skill, tool }) => ({
          name: skill.name,
          description: skill.description ?? '',
          tool: tool.name,
          ...(skill.path === undefined ? {} : { location: skill.path }),
        })),
      ),
  };
}
