/**
 * The one MCP server definition of Skillport: tools, resources and prompts over a
 * {@link SkillRegistry}. The CLI binds it to stdio (`skillport mcp`), the server to Streamable HTTP
 * (`/mcp`); both use this function.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { answerOneAtATime } from './internal/one-at-a-time.js';
import { registerSkillPrompts } from './internal/prompts.js';
import { registerSkillResources } from './internal/resources.js';
import { registerSkillTools } from './internal/tools.js';
import type { SkillRegistry } from './registry.js';
import { MCP_PACKAGE_VERSION } from './version.js';

/** Options of {@link createSkillportMcpServer}. */
export interface SkillportMcpServerOptions {
  /** Version reported in `serverInfo` (default: this package's version). */
  version?: string;
  /**
   * How long to wait after a change before announcing it, ms (default 250): a burst of writes (a bulk
   * add) gives one `notifications/resources/list_changed` and one `notifications/prompts/list_changed`.
   */
  changeDebounceMs?: number;
  /**
   * Answer the requests of the connection one at a time, each after a turn of the event loop (default
   * true). Keep it on where one process serves many callers (an HTTP endpoint): a JSON-RPC batch of
   * 100 requests then costs the process no more at once than one request. A process that serves one
   * agent alone (a stdio server in front of a remote registry) may turn it off, so the agent's parallel
   * tool calls wait on the registry side by side.
   */
  oneRequestAtATime?: boolean;
}

/** The `instructions` sent at initialization: how a model should use the server. */
export const SKILLPORT_MCP_INSTRUCTIONS =
  'Skillport is a registry of agent skills: folders of expert instructions (SKILL.md) with helper ' +
  'files, each for one kind of work. When a task could use specialised know-how, call find_skills with ' +
  'the task in plain words, choose a result by its description, load it with get_skill at level 2 and ' +
  'follow it; read the auxiliary files it refers to with read_skill_file. Every skill is also a prompt ' +
  '(named after the skill) and its files are resources with viking:// URIs.';

/**
 * Builds the Skillport MCP server over a registry. Connect it to one transport
 * (`await server.connect(transport)`); use one server per connection or session.
 *
 * - Tools (read-only): `find_skills` {query, limit?, target_uri?} → ranked hits with name,
 *   description, score and URI; `get_skill` {name, level?} → the text at level 0 (abstract, the
 *   default), 1 (overview) or 2 (SKILL.md) plus the skill's file list; `list_skills` {target_uri?,
 *   limit?, cursor?} → one page of skills; `read_skill_file` {name, path} → a file as text, image or
 *   embedded resource. `name` may be a skill URI. Registry errors come back as tool results with
 *   `isError: true` and a message naming the problem (e.g. `NOT_FOUND: Skill "x" not found …`).
 * - Resources: every file of every skill at its `viking://…/skills/<name>/<path>` URI with its media
 *   type (paged, up to 100 skills a page); templates `viking://~/skills/{name}/{+path}`,
 *   `viking://agent/skills/{name}/{+path}`, `viking://user/{user_id}/skills/{name}/{+path}`;
 *   completion of `{name}`. Unknown resource → JSON-RPC error -32002.
 * - Prompts: one per skill name (argument `task`, optional); getting it returns the skill's SKILL.md
 *   as a user message. A name in both roots is one prompt, the user root's.
 * - `notifications/resources/list_changed` and `notifications/prompts/list_changed` after the
 *   registry's `watch` reports a change (when it has one).
 * - Requests of one connection are answered one at a time (unless `oneRequestAtATime` is false), in
 *   arrival order, each after a turn of the event loop, so a JSON-RPC batch of 100 requests costs the
 *   process no more at once than one request (a request cancelled while it waits is not run).
 *
 * @param registry - what the server reads
 * @param options - see {@link SkillportMcpServerOptions}
 * @returns an `McpServer` of `@modelcontextprotocol/sdk`, not yet connected
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * const server = createSkillportMcpServer(registry);
 * await server.connect(new StdioServerTransport());
 * ```
 * @see https://modelcontextprotocol.io/specification/2025-11-25
 */
export function createSkillportMcpServer(
  registry: SkillRegistry,
  options: SkillportMcpServerOptions = {},
): McpServer {
  const server = new McpServer(
    { name: 'skillport', title: 'Skillport', version: options.version ?? MCP_PACKAGE_VERSION },
    {
      capabilities: {
        resources: { listChanged: true },
        prompts: { listChanged: true },
        completions: {},
      },
      instructions: SKILLPORT_MCP_INSTRUCTIONS,
    },
  );
  if (options.oneRequestAtATime !== false) answerOneAtATime(server.server);
  registerSkillTools(server, registry);
  registerSkillResources(server.server, registry);
  registerSkillPrompts(server.server, registry);
  if (registry.watch) watchRegistry(server, registry.watch.bind(registry), options.changeDebounceMs ?? 250);
  return server;
}

/** Announces list changes while the server is initialised; stops watching when it closes. */
function watchRegistry(
  server: McpServer,
  watch: NonNullable<SkillRegistry['watch']>,
  debounceMs: number,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stop: (() => void) | undefined;
  const announce = () => {
    timer = undefined;
    if (!server.isConnected()) return;
    server.sendResourceListChanged();
    server.sendPromptListChanged();
  };
  const initialized = server.server.oninitialized;
  server.server.oninitialized = () => {
    initialized?.();
    stop ??= watch(() => {
      if (timer === undefined) timer = setTimeout(announce, debounceMs);
    });
  };
  const closed = server.server.onclose;
  server.server.onclose = () => {
    closed?.();
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    stop?.();
    stop = undefined;
  };
}
