/**
 * `skillport mcp`: the registry as an MCP server over stdio, for desktop agents (Claude Desktop,
 * Claude Code, Cursor, VS Code, Goose…). It fronts the server named by `--url` / `--api-key` (or
 * `SKILLPORT_URL` / `SKILLPORT_API_KEY` / the config file), so it works with any Skillport server.
 * Stdout carries only the protocol; messages for people go to stderr.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { HealthResult } from '@skillport/core';
import { isApiError } from '@skillport/sdk-node';
import type { Command } from 'commander';
import { resolveSettings } from '../internal/config.js';
import { createContext, type GlobalOptions } from '../internal/context.js';
import { CliError, type CliIo } from '../internal/io.js';

/** Default of `--poll-interval`, seconds. */
export const DEFAULT_MCP_POLL_SECONDS = 30;

/**
 * Longest wait, ms, for the answers to requests still in flight when stdin closes (the HTTP client's
 * own timeout, 60 s, ends each of them before that).
 */
export const MCP_DRAIN_MS = 65_000;

/** The parts of an MCP transport {@link trackInFlight} wraps. */
interface TrackedTransport {
  onmessage?: ((message: JSONRPCMessage, extra?: never) => void) | undefined;
  send(message: JSONRPCMessage, options?: unknown): Promise<void>;
}

/**
 * Counts the requests the agent sent that are not answered yet (a response or error sent back, or a
 * `notifications/cancelled` from the agent, after which no answer is sent), by wrapping the connected
 * transport's `onmessage` and `send`.
 *
 * @returns `settled()`: resolves once no request is in flight (at once when none is)
 */
export function trackInFlight(transport: TrackedTransport): { settled(): Promise<void> } {
  const inFlight = new Set<string | number>();
  let waiters: Array<() => void> = [];
  const check = () => {
    if (inFlight.size > 0) return;
    const ready = waiters;
    waiters = [];
    for (const resolve of ready) resolve();
  };
  const received = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if ('method' in message) {
      if ('id' in message) inFlight.add(message.id);
      else if (message.method === 'notifications/cancelled') {
        const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
        if (typeof id === 'string' || typeof id === 'number') inFlight.delete(id);
        check();
      }
    }
    received?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    try {
      await send(message, options);
    } finally {
      if (!('method' in message) && 'id' in message && message.id !== undefined) {
        inFlight.delete(message.id as string | number);
        check();
      }
    }
  };
  return {
    settled: () =>
      inFlight.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

/**
 * The start-up note on the server `skillport mcp` fronts, from its `/health` answer: who the key acts
 * as, or why the tools will fail. A server with API keys names the caller only for a valid key, so a
 * missing or refused key is said here, at start, rather than at the agent's first tool call.
 *
 * @param health - `GET /health` as the key sees it
 * @param keySet - whether a key was configured (`--api-key`, `SKILLPORT_API_KEY`, config file)
 */
export function describeConnection(health: HealthResult, keySet: boolean): string {
  const server = `connected to Skillport ${health.version}`;
  if (health.auth_mode === 'dev') return `${server} (dev mode)`;
  if (health.role === 'root') {
    return `${server}, but the API key is a root key, which manages accounts and keys only: tools will report PERMISSION_DENIED. Use an admin or user key (--api-key / SKILLPORT_API_KEY).`;
  }
  if (health.user_id !== undefined)
    return `${server} (user ${health.user_id} of account ${health.account_id ?? '?'})`;
  return keySet
    ? `${server}, but the server does not accept the API key (revoked or mistyped): tools will report UNAUTHENTICATED. Check --api-key / SKILLPORT_API_KEY.`
    : `${server}, which needs an API key, and none is set: tools will report UNAUTHENTICATED. Set --api-key / SKILLPORT_API_KEY.`;
}

/**
 * The start-up note, after trying a key that the `/health` answer named no one for on a data route
 * (`probe`): a server that cannot check keys at all (its database unreachable) answers `/health` as
 * it does for a refused key, and saying "revoked or mistyped" then sent the user to fix a good key.
 *
 * @param probe - an authenticated request, e.g. listing one skill
 */
export async function describeCheckedConnection(
  health: HealthResult,
  keySet: boolean,
  probe: () => Promise<unknown>,
): Promise<string> {
  const said = describeConnection(health, keySet);
  if (!keySet || health.auth_mode === 'dev' || health.role === 'root' || health.user_id !== undefined) {
    return said;
  }
  try {
    await probe();
    // Accepted after all (the server could check it again by now).
    return `connected to Skillport ${health.version}`;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return said;
    return (
      `connected to Skillport ${health.version}, but it could not check the API key, and tools will ` +
      `fail until it can: ${error instanceof Error ? error.message : String(error)}`
    );
  }
}

function parsePollInterval(raw: string): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new CliError(`--poll-interval must be a number of seconds ≥ 0 (0 = never), got "${raw}"`);
  }
  return value;
}

/** Registers `mcp`. */
export function registerMcp(program: Command, io: CliIo, version: string): void {
  program
    .command('mcp')
    .description(
      'serve the registry to an agent over MCP on stdio (tools find_skills, get_skill, list_skills, ' +
        'read_skill_file; skills as resources and prompts)',
    )
    .option(
      '--poll-interval <seconds>',
      'how often to check the server for added, changed or deleted skills, to tell the agent (0 = never)',
      String(DEFAULT_MCP_POLL_SECONDS),
    )
    .addHelpText(
      'after',
      '\nAgent configuration (claude_desktop_config.json, .mcp.json, …):\n' +
        '  {"mcpServers": {"skillport": {"command": "npx", "args": ["-y", "@skillport/cli", "mcp"],\n' +
        '    "env": {"SKILLPORT_URL": "http://127.0.0.1:1933", "SKILLPORT_API_KEY": "<key>"}}}}\n' +
        'Stdout carries only MCP messages; notes go to stderr.',
    )
    .action(async (options: { pollInterval: string }, command: Command) => {
      const pollSeconds = parsePollInterval(options.pollInterval);
      // Loaded here, not at start-up: the MCP SDK would add about a second to every other command.
      const [{ StdioServerTransport }, { createSkillportMcpServer }, { createClientRegistry }] =
        await Promise.all([
          import('@modelcontextprotocol/sdk/server/stdio.js'),
          import('@skillport/mcp'),
          import('../internal/mcp-registry.js'),
        ]);
      const ctx = createContext(io, command);
      const client = await ctx.client();
      const globals = command.optsWithGlobals<GlobalOptions>();
      const keySet = Boolean(
        (await resolveSettings(io.env, { url: globals.url, apiKey: globals.apiKey })).apiKey.value,
      );
      // Once the agent has ended the session, requests still in flight fail because the client is
      // closed: that is no news, so nothing more is noted.
      let ended = false;
      const note = (text: string) => {
        if (!ended) io.stderr.write(`skillport mcp: ${text}\n`);
      };
      const registry = createClientRegistry(client, {
        pollIntervalMs: Math.round(pollSeconds * 1000),
        onPollStatus: (error) =>
          note(
            error === null
              ? `${client.url} answers again`
              : `cannot check ${client.url} for changes: ${error instanceof Error ? error.message : String(error)}`,
          ),
      });
      // One agent per process, each request a round trip to the registry: the agent's parallel tool
      // calls wait side by side (a server of many callers answers one request at a time instead).
      const server = createSkillportMcpServer(registry, { version, oneRequestAtATime: false });
      const transport = new StdioServerTransport(io.stdin as Readable, io.stdout as unknown as Writable);
      const closed = new Promise<void>((resolve) => {
        transport.onclose = () => {
          ended = true;
          resolve();
        };
      });
      let inFlight: ReturnType<typeof trackInFlight> | null = null;
      // The agent ends the session by closing our stdin. Requests it sent before are answered first
      // (`printf '…' | skillport mcp` gets every answer), at most MCP_DRAIN_MS: the MCP stdio
      // shutdown has the client wait for the server to exit, and stop it if that takes too long.
      io.stdin.once('end', () => {
        const timer = setTimeout(() => void server.close(), MCP_DRAIN_MS);
        timer.unref();
        void (inFlight?.settled() ?? Promise.resolve()).then(() => {
          clearTimeout(timer);
          ended = true;
          void server.close();
        });
      });
      await server.connect(transport);
      inFlight = trackInFlight(transport);
      note(`serving ${client.url} over stdio`);
      client.initialize().then(
        async (health) =>
          note(await describeCheckedConnection(health, keySet, () => client.listSkills({ node_limit: 1 }))),
        (error: unknown) =>
          note(
            `cannot reach ${client.url} (${error instanceof Error ? error.message : String(error)}); ` +
              'tools will report this until it answers. Set --url / SKILLPORT_URL and --api-key / SKILLPORT_API_KEY.',
          ),
      );
      await closed;
      client.close();
    });
}
