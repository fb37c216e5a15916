/**
 * `/mcp`: the registry as an MCP server over Streamable HTTP, driven by the official SDK's own client
 * against the real server: tools, resources, prompts, list-changed notifications, sessions, keys.
 */
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type CallToolResult,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { zipSkillDir } from '@skillport/core/node';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  corpusDir,
  expectedFinalState,
  type McpCase,
  mcpCases,
  type SkillCase,
  skillCases,
} from '../../../../packages/cli/test/support/corpus.js';
import { corpusChecks, toolText } from '../../../../packages/mcp/test/support/corpus-checks.js';
import { MAX_RPC_ID_CHARS } from '../../src/mcp/mcp-endpoint.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const enc = new TextEncoder();
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0xff, 0xfe]);
const BLOB = new Uint8Array([0, 1, 2, 3, 0xff, 0xfe, 0xfd]);
const md = (name: string, description: string, body = `# ${name}\n\nDo it well.\n`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;

async function connect(url: string, apiKey?: string): Promise<Client> {
  const client = new Client({ name: 'skillport-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    ...(apiKey ? { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } } : {}),
  });
  await client.connect(transport);
  return client;
}

async function upload(t: TestServer, zip: Uint8Array, filename: string, apiKey?: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>]), filename);
  const res = await t.request('POST', '/api/v1/resources/temp_upload', {
    body: form,
    ...(apiKey ? { apiKey } : {}),
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result.temp_file_id as string;
}

async function add(t: TestServer, body: Record<string, unknown>, apiKey?: string) {
  const res = await t.request('POST', '/api/v1/skills', {
    body: { wait: true, ...body },
    ...(apiKey ? { apiKey } : {}),
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result;
}

/** A raw POST with chosen headers (Host and Origin included, which fetch does not let a caller set). */
function rawPost(url: string, headers: Record<string, string>, body: unknown) {
  const target = new URL(`${url}/mcp`);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/** A JSON-RPC message POSTed to `/mcp` with fetch (the response's headers and body as sent). */
function postMcp(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('/mcp in dev mode (fixtures)', () => {
  let t: TestServer;
  let client: Client;

  beforeAll(async () => {
    t = await startTestServer({ limits: { maxMcpSessions: 3 } });
    const zip = zipSync({
      'SKILL.md': enc.encode(
        md(
          'chart-maker',
          'Draws bar and line charts from CSV files',
          '# Charts\n\nRun `scripts/plot.py data.csv`.\n',
        ),
      ),
      'scripts/plot.py': enc.encode('import sys\nprint("plotting", sys.argv[1])\n'),
      'assets/logo.png': PNG,
      'data/model.bin': BLOB,
    });
    await add(t, { temp_file_id: await upload(t, zip, 'chart-maker.zip') });
    await add(t, { data: md('release-notes', 'Drafts release notes from merged pull requests') });
    await add(t, {
      data: md('team-deploy', 'Deploys services to the shared cluster'),
      target_uri: 'viking://agent/skills',
    });
    await add(t, {
      data: md('release-notes', 'Shared copy of release notes'),
      target_uri: 'viking://agent/skills',
    });
    client = await connect(t.url);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('initializes with tools, resources (list-changed), prompts (list-changed) and instructions', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'skillport', title: 'Skillport' });
    expect(client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { listChanged: true },
      prompts: { listChanged: true },
    });
    expect(client.getInstructions()).toContain('find_skills');
  });

  it('lists the four read-only tools with input schemas and descriptions for a model', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'find_skills',
      'get_skill',
      'list_skills',
      'read_skill_file',
    ]);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool.description?.length ?? 0, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('find_skills')?.inputSchema.required).toEqual(['query']);
    expect(byName.get('get_skill')?.inputSchema.properties?.level).toMatchObject({
      type: 'integer',
      minimum: 0,
      maximum: 2,
    });
    expect(byName.get('read_skill_file')?.inputSchema.required).toEqual(['name', 'path']);
    expect(byName.get('find_skills')?.outputSchema?.properties).toHaveProperty('skills');
  });

  it('find_skills ranks and gives name, description, score and uri', async () => {
    const result = await client.callTool({
      name: 'find_skills',
      arguments: { query: 'draw a line chart from a csv' },
    });
    const hits = (result.structuredContent as { skills: Array<Record<string, unknown>> }).skills;
    expect(hits[0]).toMatchObject({
      name: 'chart-maker',
      description: 'Draws bar and line charts from CSV files',
      uri: 'viking://user/default/skills/chart-maker',
    });
    expect(hits[0]?.score).toBeGreaterThan(0);
    const none = await client.callTool({
      name: 'find_skills',
      arguments: { query: 'qqqzzz wwwxxx' },
    });
    expect((none.structuredContent as { skills: unknown[] }).skills).toEqual([]);
  });

  it('get_skill discloses progressively: L0 by default, L1 and L2 on demand, each as the API gives it', async () => {
    const api = (await t.request('GET', '/api/v1/skills/chart-maker')).json.result;
    const at = async (level?: number) =>
      client.callTool({
        name: 'get_skill',
        arguments: { name: 'chart-maker', ...(level !== undefined ? { level } : {}) },
      });
    expect(toolText(await at())).toBe(api.abstract);
    expect(toolText(await at(0))).toBe(api.abstract);
    expect(toolText(await at(1))).toBe(api.overview);
    const full = await at(2);
    expect(toolText(full)).toBe(api.content);
    expect(toolText(full, 1)).toContain('scripts/plot.py');
    expect(toolText(await at(0), 1)).toContain('level 2');
  });

  it('get_skill: the user root shadows the agent root; a URI picks one', async () => {
    const own = toolText(
      await client.callTool({ name: 'get_skill', arguments: { name: 'release-notes', level: 2 } }),
    );
    expect(own).toContain('Drafts release notes');
    const shared = toolText(
      await client.callTool({
        name: 'get_skill',
        arguments: { name: 'viking://agent/skills/release-notes', level: 2 },
      }),
    );
    expect(shared).toContain('Shared copy of release notes');
  });

  it('tool errors are results with isError and a message the model can act on', async () => {
    const missing = (await client.callTool({
      name: 'get_skill',
      arguments: { name: 'no-such-skill' },
    })) as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(missing.content[0]).toMatchObject({ type: 'text' });
    expect((missing.content[0] as { text: string }).text).toMatch(/^NOT_FOUND: .*no-such-skill.*find_skills/);
    const file = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'chart-maker', path: 'scripts/missing.py' },
    })) as CallToolResult;
    expect(file.isError).toBe(true);
    expect((file.content[0] as { text: string }).text).toContain('scripts/missing.py');
    // The skill exists: the next step is its file list (get_skill), not a search for skills.
    expect((file.content[0] as { text: string }).text).toContain(
      'get_skill lists the files of "chart-maker"',
    );
    expect((file.content[0] as { text: string }).text).not.toContain('to see which skills exist');
    const badName = (await client.callTool({
      name: 'get_skill',
      arguments: { name: 'bad name!' },
    })) as CallToolResult;
    expect(badName.isError).toBe(true);
    expect((badName.content[0] as { text: string }).text).toMatch(/^INVALID_ARGUMENT/);
    const badLevel = (await client.callTool({
      name: 'get_skill',
      arguments: { name: 'chart-maker', level: 7 },
    })) as CallToolResult;
    expect(badLevel.isError).toBe(true);
    const traversal = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'chart-maker', path: '../release-notes/SKILL.md' },
    })) as CallToolResult;
    expect(traversal.isError).toBe(true);
    expect((traversal.content[0] as { text: string }).text).toMatch(/^INVALID_ARGUMENT/);
    for (const args of [
      { name: 'chart-maker', path: '../../../observer/system' },
      { name: 'chart-maker', path: '../../../observer/queue' },
      { name: 'chart-maker', path: './../release-notes/SKILL.md' },
      { name: 'chart-maker', path: 'scripts/%2e%2e/../SKILL.md' },
      { name: 'chart-maker', path: 'scripts\\..\\..\\SKILL.md' },
      { name: '..', path: 'observer/system' },
      { name: 'chart-maker/../release-notes', path: 'SKILL.md' },
    ]) {
      const refused = (await client.callTool({ name: 'read_skill_file', arguments: args })) as CallToolResult;
      expect(refused.isError, JSON.stringify(args)).toBe(true);
      const text = (refused.content[0] as { text: string }).text;
      expect(text, JSON.stringify(args)).toMatch(/^INVALID_ARGUMENT/);
      expect(text).not.toMatch(/is_healthy|pending/);
    }
    await expect(
      client.readResource({ uri: 'viking://~/skills/chart-maker/../../../observer/system' }),
    ).rejects.toThrow(/INVALID|\.\./);
  });

  // MCP specification, tools, error handling: unknown tools are protocol errors (JSON-RPC -32602);
  // a known tool's bad arguments and failures are results with isError (above).
  it('a call of a tool the server does not have is a JSON-RPC error -32602, not a result', async () => {
    for (const name of ['no_such_tool', 'Find_Skills', 'x'.repeat(5000)]) {
      const call = client.callTool({ name, arguments: { query: 'charts' } });
      await expect(call).rejects.toMatchObject({ code: -32602 });
      const message = await call.catch((error: Error) => error.message);
      // The SDK's code prefix once, as for resources and prompts.
      expect(message).toMatch(/^MCP error -32602: Unknown tool "/);
      expect(message).toContain('find_skills, get_skill, list_skills, read_skill_file');
      expect(message.length).toBeLessThan(400);
    }
    // The session is still good, and known tools still answer their own errors as results.
    const missing = (await client.callTool({ name: 'get_skill', arguments: {} })) as CallToolResult;
    expect(missing.isError).toBe(true);
  });

  it('read_skill_file: text as text, an image as an image, other bytes as a blob resource', async () => {
    const script = await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'chart-maker', path: 'scripts/plot.py' },
    });
    expect(toolText(script)).toBe('import sys\nprint("plotting", sys.argv[1])\n');
    const image = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'chart-maker', path: 'assets/logo.png' },
    })) as CallToolResult;
    expect(image.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from((image.content[0] as { data: string }).data, 'base64')).toEqual(Buffer.from(PNG));
    const blob = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'viking://user/default/skills/chart-maker', path: 'data/model.bin' },
    })) as CallToolResult;
    expect(blob.content[0]).toMatchObject({
      type: 'resource',
      resource: {
        uri: 'viking://user/default/skills/chart-maker/data/model.bin',
        mimeType: 'application/octet-stream',
      },
    });
    expect(Buffer.from((blob.content[0] as { resource: { blob: string } }).resource.blob, 'base64')).toEqual(
      Buffer.from(BLOB),
    );
  });

  it('list_skills: both roots, own first; target_uri narrows; a cursor of another root is refused', async () => {
    const all = await client.callTool({ name: 'list_skills', arguments: {} });
    const page = all.structuredContent as {
      skills: Array<{ name: string; root_uri: string }>;
      total: number;
      next_cursor: null;
    };
    expect(page.total).toBe(4);
    expect(page.skills.map((s) => `${s.root_uri}/${s.name}`)).toEqual([
      'viking://user/default/skills/chart-maker',
      'viking://user/default/skills/release-notes',
      'viking://agent/skills/release-notes',
      'viking://agent/skills/team-deploy',
    ]);
    expect(page.next_cursor).toBeNull();
    const first = await client.callTool({
      name: 'list_skills',
      arguments: { target_uri: 'viking://agent/skills', limit: 1 },
    });
    const one = first.structuredContent as { skills: Array<{ name: string }>; next_cursor: string };
    expect(one.skills.map((s) => s.name)).toEqual(['release-notes']);
    const second = await client.callTool({
      name: 'list_skills',
      arguments: { cursor: one.next_cursor, limit: 1 },
    });
    expect(
      (second.structuredContent as { skills: Array<{ name: string }> }).skills.map((s) => s.name),
    ).toEqual(['team-deploy']);
    const mixed = (await client.callTool({
      name: 'list_skills',
      arguments: { cursor: one.next_cursor, target_uri: 'viking://~/skills' },
    })) as CallToolResult;
    expect(mixed.isError).toBe(true);
    const forged = (await client.callTool({
      name: 'list_skills',
      arguments: { cursor: 'not-a-cursor!' },
    })) as CallToolResult;
    expect(forged.isError).toBe(true);
    expect((forged.content[0] as { text: string }).text).toContain('cursor');
  });

  it('resources: each file with its MIME type; text as text, binary as blob; templates; completion', async () => {
    const { resources } = await client.listResources();
    const chart = resources.filter((r) => r.uri.startsWith('viking://user/default/skills/chart-maker/'));
    expect(chart.map((r) => [r.uri.split('/').slice(-2).join('/'), r.mimeType])).toEqual([
      ['chart-maker/SKILL.md', 'text/markdown'],
      ['assets/logo.png', 'image/png'],
      ['data/model.bin', 'application/octet-stream'],
      ['scripts/plot.py', 'text/x-python'],
    ]);
    expect(resources.some((r) => r.uri === 'viking://agent/skills/team-deploy/SKILL.md')).toBe(true);
    const png = await client.readResource({
      uri: 'viking://user/default/skills/chart-maker/assets/logo.png',
    });
    expect(png.contents[0]).toMatchObject({ mimeType: 'image/png' });
    expect(Buffer.from((png.contents[0] as { blob: string }).blob, 'base64')).toEqual(Buffer.from(PNG));
    const skill = await client.readResource({ uri: 'viking://~/skills/chart-maker' });
    expect((skill.contents[0] as { text: string }).text).toContain('name: chart-maker');
    await expect(
      client.readResource({ uri: 'viking://agent/skills/chart-maker/SKILL.md' }),
    ).rejects.toMatchObject({
      code: -32002,
    });
    await expect(client.readResource({ uri: 'https://example.com/x' })).rejects.toMatchObject({
      code: -32002,
    });
    // The client prefixes "MCP error <code>: " once; the server's message does not carry it too.
    await expect(client.readResource({ uri: 'https://example.com/x' })).rejects.toThrow(
      /^MCP error -32002: Unknown resource https:\/\/example\.com\/x/,
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toContain('viking://agent/skills/{name}/{+path}');
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'viking://agent/skills/{name}/{+path}' },
      argument: { name: 'name', value: 'te' },
    });
    expect(completion.completion.values).toEqual(['team-deploy']);
  });

  it('prompts: a skill as a prompt loads its SKILL.md and the task', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['chart-maker', 'release-notes', 'team-deploy']);
    expect(prompts[0]).toMatchObject({
      description: 'Draws bar and line charts from CSV files',
      arguments: [{ name: 'task', required: false }],
    });
    const prompt = await client.getPrompt({ name: 'chart-maker', arguments: { task: 'plot sales.csv' } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Run `scripts/plot.py data.csv`.');
    expect(text).toContain('Task: plot sales.csv');
    expect(text).toContain('scripts/plot.py');
    await expect(client.getPrompt({ name: 'no-such-skill' })).rejects.toThrow(/not found/);
    await expect(client.getPrompt({ name: 'no-such-skill' })).rejects.toThrow(
      /^MCP error -32602: (?!MCP error)/,
    );
  });

  it('sends resources and prompts list_changed after a write through the API (add, update, delete)', async () => {
    const watcher = await connect(t.url);
    const seen: string[] = [];
    watcher.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      seen.push('resources');
    });
    watcher.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      seen.push('prompts');
    });
    // The client opens its notification stream (GET /mcp) in the background after initializing; a
    // notification sent before the stream is up is lost, so the write is repeated until one arrives
    // (re-adding the same skill is a replace, itself a change).
    await vi.waitFor(
      async () => {
        await add(t, { data: md('fresh-skill', 'Added while a client watches') });
        expect(seen).toEqual(expect.arrayContaining(['resources', 'prompts']));
      },
      { timeout: 15_000, interval: 300 },
    );
    const names = (await watcher.listPrompts()).prompts.map((p) => p.name);
    expect(names).toContain('fresh-skill');
    seen.length = 0;
    const del = await t.request('DELETE', '/api/v1/skills/fresh-skill');
    expect(del.status).toBe(200);
    await vi.waitFor(() => expect(seen).toContain('resources'), { timeout: 10_000 });
    await watcher.close();
  });

  it('refuses a foreign Origin and, in dev mode, a Host that is not loopback (DNS rebinding)', async () => {
    const foreign = await rawPost(t.url, { origin: 'http://evil.example' }, INITIALIZE);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toContain('origin');
    const rebound = await rawPost(
      t.url,
      { host: 'evil.example:1933', origin: 'http://evil.example:1933' },
      INITIALIZE,
    );
    expect(rebound.status).toBe(403);
    const local = await rawPost(t.url, { origin: t.url }, INITIALIZE);
    expect(local.status).toBe(200);
  });

  it('a request without a session or with an unknown one gets the JSON-RPC answers of the spec', async () => {
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const noSession = await rawPost(t.url, {}, list);
    expect(noSession.status).toBe(400);
    expect(JSON.parse(noSession.body).error.message).toContain('initialize');
    const unknown = await rawPost(t.url, { 'mcp-session-id': 'nope' }, list);
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.code).toBe(-32001);
  });

  it('keeps at most maxMcpSessions sessions: the least recently used one gives way', async () => {
    const clients = [];
    for (let i = 0; i < 4; i++) clients.push(await connect(t.url));
    // 3 sessions at most: of the test's long-lived client and these four, the oldest ones were closed.
    await expect(client.listTools()).rejects.toThrow();
    await expect(clients[0]!.listTools()).rejects.toThrow();
    await expect(clients[3]!.listTools()).resolves.toBeDefined();
    for (const c of clients) await c.close().catch(() => {});
    client = await connect(t.url);
  });

  it('refuses a message whose JSON-RPC id is a string over MAX_RPC_ID_CHARS, alone or in a batch', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) => postMcp(t.url, body, headers);
    const tooLong = await post({ ...INITIALIZE, id: 'i'.repeat(MAX_RPC_ID_CHARS + 1) });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error).toEqual({
      code: -32600,
      message: `Invalid Request: the id of the message is ${MAX_RPC_ID_CHARS + 1} characters long; the limit is ${MAX_RPC_ID_CHARS} (use a number or a short string)`,
    });
    const opened = await post({ ...INITIALIZE, id: 'i'.repeat(MAX_RPC_ID_CHARS) });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '' };
    const ping = (id: string | number) => ({ jsonrpc: '2.0', id, method: 'ping' });
    // Before: answered 200, the transport matching 40,000-character ids against each other.
    const batch = await post([ping(1), ping('x'.repeat(40_000)), ping(3)], session);
    expect(batch.status).toBe(400);
    expect((await batch.json()).error.message).toContain(
      'the id of message 1 of the batch is 40000 characters long',
    );
    const fine = await post([ping(1), ping('p'.repeat(MAX_RPC_ID_CHARS))], session);
    expect(fine.status).toBe(200);
    expect(await fine.text()).toContain('"result":{}');
    await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: session });
  });
});

describe('/mcp: the MCP-Protocol-Version header of a session', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  it('an unsupported version is refused with the value cut short; a supported one is served', async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) => postMcp(t.url, body, headers);
    const opened = await post(INITIALIZE);
    expect(opened.status).toBe(200);
    await opened.text();
    const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '' };
    const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const long = await post(ping, { ...session, 'mcp-protocol-version': 'v'.repeat(12_000) });
    expect(long.status).toBe(400);
    const { error } = (await long.json()) as { error: { code: number; message: string } };
    expect(error.code).toBe(-32000);
    expect(error.message).toContain(`Unsupported protocol version: "${'v'.repeat(64)}"… (12000 characters)`);
    // Before: the whole header was repeated in the answer.
    expect(error.message.length).toBeLessThan(300);
    const short = await post(ping, { ...session, 'mcp-protocol-version': '1999-01-01' });
    expect(short.status).toBe(400);
    expect((await short.json()).error.message).toContain(
      'Unsupported protocol version: "1999-01-01" (supported versions: ',
    );
    const served = await post(ping, { ...session, 'mcp-protocol-version': '2025-06-18' });
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('"result":{}');
    await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: session });
  });
});

describe('/mcp with two server processes on one database', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    a = await startTestServer({ limits: { mcpChangePollSeconds: 0.2 } });
    b = await startTestServer({ dataDir: a.dataDir });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('announces skills written through the other process (polling the database)', async () => {
    const client = await connect(a.url);
    const seen: string[] = [];
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      seen.push('prompts');
    });
    expect((await client.listPrompts()).prompts).toEqual([]);
    // Repeated until the client's notification stream is up (see the dev-mode test above).
    await vi.waitFor(
      async () => {
        await add(b, { data: md('from-replica-b', 'Written through the other process') });
        expect(seen).toContain('prompts');
      },
      { timeout: 15_000, interval: 500 },
    );
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['from-replica-b']);
    seen.length = 0;
    expect((await b.request('DELETE', '/api/v1/skills/from-replica-b')).status).toBe(200);
    await vi.waitFor(() => expect(seen).toContain('prompts'), { timeout: 15_000 });
    expect((await client.listPrompts()).prompts).toEqual([]);
    await client.close();
  });
});

describe('/mcp on a keyed server', () => {
  const ROOT = 'sk_root_mcp_test_key_that_is_long_enough_0123456789';
  let t: TestServer;
  const keys: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestServer({ rootApiKey: ROOT });
    expect(
      (await t.request('POST', '/api/v1/admin/accounts', { apiKey: ROOT, body: { account_id: 'acme' } }))
        .status,
    ).toBe(200);
    for (const user of ['alice', 'bob']) {
      await t.request('POST', '/api/v1/admin/accounts/acme/users', { apiKey: ROOT, body: { user_id: user } });
      const k = await t.request('POST', '/api/v1/admin/accounts/acme/keys', {
        apiKey: ROOT,
        body: { user_id: user, role: 'user' },
      });
      expect(k.status, k.text).toBe(200);
      keys[user] = k.json.result.api_key;
    }
    await add(t, { data: md('alice-private', 'Private notes of alice') }, keys.alice);
    await add(
      t,
      { data: md('acme-shared', 'Shared runbook of acme'), target_uri: 'viking://agent/skills' },
      keys.alice,
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a client without a key (401) and a root key (403)', async () => {
    await expect(connect(t.url)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('UNAUTHENTICATED'),
    });
    await expect(connect(t.url, 'sk_wrong_key_0000000000000000000000000000000')).rejects.toMatchObject({
      code: 401,
    });
    await expect(connect(t.url, ROOT)).rejects.toMatchObject({ code: 403 });
  });

  it("serves each user their own skills and the account's shared ones", async () => {
    const alice = await connect(t.url, keys.alice);
    const bob = await connect(t.url, keys.bob);
    const names = async (c: Client) => (await c.listPrompts()).prompts.map((p) => p.name).sort();
    expect(await names(alice)).toEqual(['acme-shared', 'alice-private']);
    expect(await names(bob)).toEqual(['acme-shared']);
    const peek = (await bob.callTool({
      name: 'get_skill',
      arguments: { name: 'viking://user/alice/skills/alice-private' },
    })) as CallToolResult;
    expect(peek.isError).toBe(true);
    expect((peek.content[0] as { text: string }).text).toMatch(/^PERMISSION_DENIED/);
    await alice.close();
    await bob.close();
  });

  it("a session is bound to its user: another user's key on it is answered as an unknown session", async () => {
    const alice = await connect(t.url, keys.alice);
    const transport = alice.transport as StreamableHTTPClientTransport;
    const sessionId = transport.sessionId!;
    const res = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${keys.bob}`,
        'mcp-session-id': sessionId,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    await expect(alice.listTools()).resolves.toBeDefined();
    await alice.close();
  });
});

const corpusPresent = existsSync(
  path.join(
    process.env.SKILLPORT_CORPUS ?? path.resolve(import.meta.dirname, '../../../../../shared/corpus'),
    'skills',
  ),
);
if (!corpusPresent) {
  if (process.env.CI === 'true')
    throw new Error('the shared corpus is required under CI=true (set SKILLPORT_CORPUS)');
  console.log(
    'mcp.test.ts: corpus not found (../shared/corpus or SKILLPORT_CORPUS): corpus checks over /mcp skipped',
  );
}

describe.skipIf(!corpusPresent)('/mcp over the shared corpus', () => {
  let t: TestServer;
  let client: Client;
  let expected: Map<string, SkillCase | McpCase>;

  beforeAll(async () => {
    corpusDir();
    const [skills, tools] = [await skillCases(), mcpCases()];
    t = await startTestServer();
    for (const skill of skills.filter((s) => s.refusal === null)) {
      await add(t, { temp_file_id: await upload(t, await zipSkillDir(skill.dir), `${skill.id}.zip`) });
    }
    for (const tool of tools) await add(t, { data: tool.tool });
    expected = expectedFinalState(skills, tools);
    client = await connect(t.url);
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  corpusChecks(
    () => client,
    () => expected,
  );
});

describe('/mcp sessions of one key past maxMcpSessionsPerKey', () => {
  const ROOT_KEY = 'root-key-for-mcp-sessions-per-key-0123456789';
  let t: TestServer;
  let busy = '';
  let other = '';

  beforeAll(async () => {
    t = await startTestServer({
      rootApiKey: ROOT_KEY,
      limits: { maxMcpSessions: 4, maxMcpSessionsPerKey: 2 },
    });
    const admin = (urlPath: string, body: unknown) => t.request('POST', urlPath, { apiKey: ROOT_KEY, body });
    await admin('/api/v1/admin/accounts', { account_id: 'acme' });
    for (const user of ['busy', 'other']) await admin('/api/v1/admin/accounts/acme/users', { user_id: user });
    busy = (await admin('/api/v1/admin/accounts/acme/keys', { user_id: 'busy', role: 'user' })).json.result
      .api_key;
    other = (await admin('/api/v1/admin/accounts/acme/keys', { user_id: 'other', role: 'user' })).json.result
      .api_key;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('close that key’s own least recently used session, never another key’s', async () => {
    const others = [await connect(t.url, other), await connect(t.url, other)];
    const mine = [];
    for (let i = 0; i < 5; i++) mine.push(await connect(t.url, busy));
    // The other key's sessions outlive the busy key's five opens (the process allows four in all).
    for (const c of others) await expect(c.listTools()).resolves.toBeDefined();
    // The busy key keeps its two most recent sessions.
    await expect(mine[0]!.listTools()).rejects.toThrow();
    await expect(mine[2]!.listTools()).rejects.toThrow();
    await expect(mine[3]!.listTools()).resolves.toBeDefined();
    await expect(mine[4]!.listTools()).resolves.toBeDefined();
    for (const c of [...others, ...mine]) await c.close().catch(() => {});
  });
});
