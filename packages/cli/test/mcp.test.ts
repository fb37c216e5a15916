/**
 * `skillport mcp`: the built CLI as an MCP server over stdio, driven by the official SDK's own client
 * (it spawns the process as an agent would), in front of a real server process.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  type CallToolResult,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { corpusChecks, toolText } from '../../mcp/test/support/corpus-checks.js';
import {
  corpusDir,
  expectedFinalState,
  type McpCase,
  mcpCases,
  REPO_ROOT,
  type SkillCase,
  skillCases,
} from './support/corpus.js';
import { CLI_BIN, cleanEnv, type RunningCliServer, startCliServer } from './support/processes.js';

const md = (name: string, description: string, body = `# ${name}\n\nDo it well.\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

/** Spawns `skillport mcp …` through the SDK's stdio client transport and connects. */
async function connectStdio(
  server: RunningCliServer,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  let stderr = '';
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_BIN, 'mcp', ...args],
    env: cleanEnv({ SKILLPORT_URL: server.url, XDG_CONFIG_HOME: server.configHome, ...env }) as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: 'skillport-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The `initialize` request a raw client sends first (`name`: its client name). */
const initialize = (name: string) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } },
});

/**
 * Spawns `skillport mcp <args>` with bare pipes (no SDK client): what it prints so far, its exit
 * status, and `send` to write one JSON-RPC message as a line on its stdin.
 */
function spawnRawMcp(args: string[], configHome: string) {
  const child = spawn(process.execPath, [CLI_BIN, 'mcp', ...args], {
    env: cleanEnv({ XDG_CONFIG_HOME: configHome }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    child,
    out: () => out,
    err: () => err,
    exited,
    send: (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`),
  };
}

/**
 * Runs `body` with a registry that accepts connections and never answers (`held`: the requests it
 * holds), then drops them and stops it.
 */
async function withSilentRegistry(body: (url: string, held: ServerResponse[]) => Promise<void>) {
  const held: ServerResponse[] = [];
  const silent = createServer((_req, res) => {
    held.push(res);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  try {
    await body(`http://127.0.0.1:${port}`, held);
  } finally {
    for (const res of held) res.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
}

describe('skillport mcp (stdio) in front of a dev-mode server', () => {
  let server: RunningCliServer;
  let http: AsyncHTTPClient;
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    server = await startCliServer();
    http = new AsyncHTTPClient({ url: server.url });
    await http.addSkill(
      md('chart-maker', 'Draws bar and line charts from CSV files', '# Charts\n\nUse the plot script.\n'),
      {
        wait: true,
      },
    );
    await http.addSkill(md('team-deploy', 'Deploys services to the shared cluster'), {
      wait: true,
      target_uri: 'viking://agent/skills',
    });
    ({ client, stderr } = await connectStdio(server, ['--poll-interval', '0.3']));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    http?.close();
    await server?.stop();
  });

  it('initializes as the skillport server and says on stderr which registry it fronts', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'skillport' });
    expect(client.getServerCapabilities()).toMatchObject({ resources: { listChanged: true } });
    await vi.waitFor(() => expect(stderr()).toContain(`serving ${server.url}`));
    await vi.waitFor(() => expect(stderr()).toContain('connected to Skillport'));
  });

  it('lists the four read-only tools; finds, reads and lists through the server', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'find_skills',
      'get_skill',
      'list_skills',
      'read_skill_file',
    ]);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    const found = await client.callTool({
      name: 'find_skills',
      arguments: { query: 'plot a csv as a line chart' },
    });
    expect((found.structuredContent as { skills: Array<{ name: string }> }).skills[0]?.name).toBe(
      'chart-maker',
    );
    const full = toolText(
      await client.callTool({ name: 'get_skill', arguments: { name: 'chart-maker', level: 2 } }),
    );
    expect(full).toBe(
      md('chart-maker', 'Draws bar and line charts from CSV files', '# Charts\n\nUse the plot script.\n'),
    );
    const file = toolText(
      await client.callTool({
        name: 'read_skill_file',
        arguments: { name: 'team-deploy', path: 'SKILL.md' },
      }),
    );
    expect(file).toContain('name: team-deploy');
    const listed = await client.callTool({ name: 'list_skills', arguments: {} });
    expect((listed.structuredContent as { total: number }).total).toBe(2);
    const missing = (await client.callTool({
      name: 'get_skill',
      arguments: { name: 'nope' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect((missing.content[0] as { text: string }).text).toMatch(/^NOT_FOUND/);
  });

  it('read_skill_file and file resources never reach outside the skill (.. segments, odd names)', async () => {
    for (const args of [
      { name: 'chart-maker', path: '../../../observer/system' },
      { name: 'chart-maker', path: '../../../observer/queue' },
      { name: 'chart-maker', path: '../../team-deploy' },
      { name: 'chart-maker', path: './../team-deploy/SKILL.md' },
      { name: 'chart-maker', path: 'docs\\..\\SKILL.md' },
      { name: '..', path: 'observer/system' },
      { name: 'chart-maker/../team-deploy', path: 'SKILL.md' },
    ]) {
      const refused = (await client.callTool({ name: 'read_skill_file', arguments: args })) as CallToolResult;
      expect(refused.isError, JSON.stringify(args)).toBe(true);
      const text = (refused.content[0] as { text: string }).text;
      expect(text, JSON.stringify(args)).toMatch(/^INVALID_ARGUMENT/);
      expect(text).not.toMatch(/is_healthy|pending|team-deploy\b.*description/);
    }
    await expect(
      client.readResource({ uri: 'viking://~/skills/chart-maker/../../../observer/system' }),
    ).rejects.toThrow();
  });

  it('resources and prompts come from the server', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'viking://agent/skills/team-deploy/SKILL.md',
      'viking://user/default/skills/chart-maker/SKILL.md',
    ]);
    const read = await client.readResource({ uri: 'viking://agent/skills/team-deploy/SKILL.md' });
    expect(read.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    const prompt = await client.getPrompt({ name: 'team-deploy' });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(
      'Deploys services to the shared cluster',
    );
  });

  it('notices skills added and deleted through the API and sends list_changed', async () => {
    const seen: string[] = [];
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      seen.push('resources');
    });
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      seen.push('prompts');
    });
    await http.addSkill(md('fresh-skill', 'Added while the agent is connected'), { wait: true });
    await vi.waitFor(() => expect(seen).toEqual(expect.arrayContaining(['resources', 'prompts'])), {
      timeout: 15_000,
    });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('fresh-skill');
    seen.length = 0;
    await http.deleteSkill('fresh-skill');
    await vi.waitFor(() => expect(seen).toContain('prompts'), { timeout: 15_000 });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).not.toContain('fresh-skill');
  });

  it('writes nothing but JSON-RPC messages on stdout, and exits 0 when stdin closes', async () => {
    const mcp = spawnRawMcp(['--url', server.url, '--poll-interval', '0'], server.configHome);
    mcp.send(initialize('raw'));
    mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    mcp.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'find_skills', arguments: { query: 'charts' } },
    });
    await vi.waitFor(
      () =>
        expect(
          mcp
            .out()
            .split('\n')
            .filter((l) => l.trim() !== '').length,
        ).toBe(2),
      { timeout: 15_000 },
    );
    await vi.waitFor(() => expect(mcp.err()).toContain('connected to Skillport'));
    mcp.child.stdin.end();
    expect(await mcp.exited).toBe(0);
    const lines = mcp
      .out()
      .split('\n')
      .filter((l) => l.trim() !== '');
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[1]!).result.structuredContent.skills[0].name).toBe('chart-maker');
  });

  it('answers every request piped in before stdin closed, then exits 0', async () => {
    // `printf '…' | skillport mcp`: stdin ends while the tool calls still wait for the registry.
    const mcp = spawnRawMcp(['--url', server.url, '--poll-interval', '0'], server.configHome);
    const lines = [
      initialize('pipe'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'find_skills', arguments: { query: 'charts' } },
      },
      { jsonrpc: '2.0', id: 'list', method: 'tools/call', params: { name: 'list_skills', arguments: {} } },
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'get_skill', arguments: { name: 'chart-maker' } },
      },
    ];
    mcp.child.stdin.end(lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    expect(await mcp.exited).toBe(0);
    const answers = mcp
      .out()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map(
        (l) => JSON.parse(l) as { id?: unknown; result?: { isError?: boolean; structuredContent?: unknown } },
      );
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 4, 'list'].sort());
    for (const answer of answers) expect(answer.result?.isError).not.toBe(true);
    const found = answers.find((a) => a.id === 2)?.result?.structuredContent as {
      skills: { name: string }[];
    };
    expect(found.skills[0]?.name).toBe('chart-maker');
  });

  it('does not wait for a request the agent cancelled before closing stdin', async () => {
    // A registry that never answers: the tool call hangs until the agent cancels it.
    await withSilentRegistry(async (url, held) => {
      const mcp = spawnRawMcp(['--url', url, '--poll-interval', '0'], server.configHome);
      mcp.send(initialize('raw'));
      mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await vi.waitFor(() => expect(mcp.out()).toContain('"id":1'), { timeout: 15_000 });
      const before = held.length;
      mcp.send({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'list_skills', arguments: {} },
      });
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(before), { timeout: 15_000 });
      // Still in flight: closing stdin now would leave the process waiting for its answer.
      mcp.send({ jsonrpc: '2.0', id: 8, method: 'ping' });
      await vi.waitFor(() => expect(mcp.out()).toContain('"id":8'), { timeout: 15_000 });
      mcp.send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 7, reason: 'gave up' },
      });
      mcp.child.stdin.end();
      expect(await mcp.exited).toBe(0);
      expect(mcp.out()).not.toContain('"id":7');
    });
  });

  it('says nothing about requests cut short when the agent ends the session', async () => {
    // A registry that accepts connections and never answers: the start-up check is still in flight
    // when stdin closes, and fails only because the client is closed.
    await withSilentRegistry(async (url, held) => {
      const mcp = spawnRawMcp(['--url', url], server.configHome);
      mcp.send(initialize('raw'));
      await vi.waitFor(() => expect(mcp.out()).toContain('"id":1'), { timeout: 15_000 });
      await vi.waitFor(() => expect(held.length).toBeGreaterThan(0), { timeout: 15_000 });
      mcp.child.stdin.end();
      expect(await mcp.exited).toBe(0);
      expect(mcp.err()).toContain('serving http://127.0.0.1:');
      expect(mcp.err()).not.toMatch(/cannot reach|cannot check|closed/);
    });
  });

  it('does not call a key refused when the server could not check it', async () => {
    // A keyed server whose database is unreachable: /health answers without naming the key's user
    // (as for a refused key), every data route 503. Before: "the server does not accept the API key
    // (revoked or mistyped)", while the tools reported the database.
    const unreachable = createServer((req, res) => {
      if (req.url === '/health') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'ok', healthy: true, version: '9.9.9', auth_mode: 'api_key' }));
        return;
      }
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
      res.end(
        JSON.stringify({
          status: 'error',
          error: {
            code: 'UNAVAILABLE',
            message: 'The server cannot reach its database (ENOTFOUND); retry shortly',
            details: { reason: 'store_unavailable', retry_after: 0 },
          },
        }),
      );
    });
    await new Promise<void>((resolve) => unreachable.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = unreachable.address() as AddressInfo;
      const mcp = spawnRawMcp(
        ['--url', `http://127.0.0.1:${port}`, '--api-key', 'sk_good_key', '--poll-interval', '0'],
        server.configHome,
      );
      await vi.waitFor(() => expect(mcp.err()).toContain('connected to Skillport 9.9.9'), {
        timeout: 15_000,
      });
      expect(mcp.err()).toContain('could not check the API key');
      expect(mcp.err()).toContain('cannot reach its database (ENOTFOUND)');
      expect(mcp.err()).not.toContain('does not accept the API key');
      mcp.child.stdin.end();
      expect(await mcp.exited).toBe(0);
    } finally {
      await new Promise<void>((resolve) => unreachable.close(() => resolve()));
    }
  });

  it('refuses a bad --poll-interval before speaking MCP', async () => {
    const mcp = spawnRawMcp(['--poll-interval', 'soon'], server.configHome);
    expect(await mcp.exited).toBe(1);
    expect(mcp.out()).toBe('');
    expect(mcp.err()).toContain('--poll-interval');
  });
});

describe('skillport mcp in front of a keyed server', () => {
  const ROOT = 'sk_root_cli_mcp_test_key_long_enough_0123456789';
  let server: RunningCliServer;
  let key: string;

  beforeAll(async () => {
    server = await startCliServer({ SKILLPORT_ROOT_API_KEY: ROOT });
    const root = new AsyncHTTPClient({ url: server.url, apiKey: ROOT });
    await root.request('POST', 'api/v1/admin/accounts', { json: { account_id: 'acme' } });
    await root.request('POST', 'api/v1/admin/accounts/acme/users', { json: { user_id: 'alice' } });
    key = (await root.createApiKey('acme', { user_id: 'alice', role: 'user' })).api_key;
    root.close();
    const alice = new AsyncHTTPClient({ url: server.url, apiKey: key });
    await alice.addSkill(md('alice-notes', 'Private notes of alice'), { wait: true });
    alice.close();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('without a key the tools report UNAUTHENTICATED; with --api-key or SKILLPORT_API_KEY they work', async () => {
    const anonymous = await connectStdio(server, ['--poll-interval', '0']);
    const refused = (await anonymous.client.callTool({
      name: 'list_skills',
      arguments: {},
    })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect((refused.content[0] as { text: string }).text).toMatch(/^UNAUTHENTICATED/);
    await anonymous.client.close();

    const flagged = await connectStdio(server, ['--api-key', key, '--poll-interval', '0']);
    expect((await flagged.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['alice-notes']);
    await flagged.client.close();

    const fromEnv = await connectStdio(server, ['--poll-interval', '0'], { SKILLPORT_API_KEY: key });
    const got = await fromEnv.client.callTool({
      name: 'get_skill',
      arguments: { name: 'alice-notes', level: 2 },
    });
    expect(toolText(got)).toContain('Private notes of alice');
    await fromEnv.client.close();
  });

  it('says at start, on stderr, when the key is missing, refused or a root key', async () => {
    // Before: each of the first three said "connected to Skillport … (user ? of account ?)" or
    // "(user root of account *)", and the agent's first tool call was the first sign of trouble.
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [[], {}, /needs an API key, and none is set: tools will report UNAUTHENTICATED/],
      [['--api-key', 'sk_not_a_key_of_this_server'], {}, /does not accept the API key .*UNAUTHENTICATED/],
      [[], { SKILLPORT_API_KEY: ROOT }, /root key, .*PERMISSION_DENIED/],
      [['--api-key', key], {}, /connected to Skillport \S+ \(user alice of account acme\)\n/],
    ];
    for (const [args, env, said] of cases) {
      const mcp = await connectStdio(server, [...args, '--poll-interval', '0'], env);
      await vi.waitFor(() => expect(mcp.stderr()).toMatch(said), { timeout: 15_000 });
      expect(mcp.stderr()).not.toContain('?');
      await mcp.client.close();
    }
  });
});

const corpusPresent = existsSync(
  path.join(process.env.SKILLPORT_CORPUS ?? path.resolve(REPO_ROOT, '../shared/corpus'), 'skills'),
);
if (!corpusPresent) {
  if (process.env.CI === 'true')
    throw new Error('the shared corpus is required under CI=true (set SKILLPORT_CORPUS)');
  console.log(
    'mcp.test.ts: corpus not found (../shared/corpus or SKILLPORT_CORPUS): corpus checks over stdio skipped',
  );
}

describe.skipIf(!corpusPresent)('skillport mcp over the shared corpus', () => {
  let server: RunningCliServer;
  let client: Client;
  let expected: Map<string, SkillCase | McpCase>;

  beforeAll(async () => {
    corpusDir();
    const [skills, tools] = [await skillCases(), mcpCases()];
    server = await startCliServer();
    const http = new AsyncHTTPClient({ url: server.url });
    // Colliding names are added in corpus order, so the later folder wins as it would one by one.
    for (const skill of skills.filter((s) => s.refusal === null)) await http.addSkill(skill.dir);
    for (const tool of tools) await http.addSkill(tool.tool);
    await http.waitProcessed({ timeout: 120 });
    http.close();
    expected = expectedFinalState(skills, tools);
    ({ client } = await connectStdio(server, ['--poll-interval', '0']));
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  corpusChecks(
    () => client,
    () => expected,
  );
});
