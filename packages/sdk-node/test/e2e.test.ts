/**
 * The corpus flow through the SDKs against a real server process: `AsyncHTTPClient` (local folders
 * zipped and uploaded, MCP tools, typed errors) and `SyncHTTPClient` (same calls, blocking).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  type ApiError,
  AsyncHTTPClient,
  ConflictError,
  InvalidArgumentError,
  isApiError,
  isLocalError,
  isNetworkError,
  isTimeoutError,
  LocalError,
  NetworkError,
  NotFoundError,
  SkillInvalidError,
  TimeoutError,
} from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeCorpus } from '../../../scripts/test-corpus.js';
import {
  expectedFinalState,
  type McpCase,
  mcpCases,
  PARAPHRASES,
  type SkillCase,
  skillCases,
} from '../../cli/test/support/corpus.js';
import { mapLimit, requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

let server: ServerProcess;
let skills: SkillCase[];
let tools: McpCase[];

beforeAll(async () => {
  requireBuild();
  [skills, tools] = [await skillCases(), mcpCases()];
  server = await startServerProcess();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describeCorpus('AsyncHTTPClient (Node) over the corpus', () => {
  let client: AsyncHTTPClient;
  const outcomes = new Map<string, unknown>();

  beforeAll(async () => {
    client = new AsyncHTTPClient({ url: server.url });
    expect((await client.initialize()).healthy).toBe(true);
    // Colliding names are added in corpus order, so the later folder wins as it would one by one.
    const firsts = skills.filter((s, i) => skills.findIndex((o) => o.name === s.name && s.name) === i);
    const rest = skills.filter((s) => !firsts.includes(s));
    for (const batch of [firsts, rest]) {
      await mapLimit(batch, 4, async (skill) => {
        outcomes.set(skill.id, await client.addSkill(skill.dir).catch((error: unknown) => error));
      });
    }
    await mapLimit(tools, 4, async (tool) => {
      outcomes.set(tool.id, await client.addSkill(tool.tool).catch((error: unknown) => error));
    });
    await client.waitProcessed({ timeout: 60 });
  }, 120_000);

  afterAll(() => client?.close());

  it('adds folders (zipped from their paths) and refuses with typed errors', () => {
    for (const skill of skills) {
      const outcome = outcomes.get(skill.id);
      if (skill.refusal === null) {
        expect(outcome, skill.id).toMatchObject({ name: skill.name, auxiliary_files: skill.auxiliary.size });
        continue;
      }
      expect(isApiError(outcome), skill.id).toBe(true);
      const error = outcome as ApiError;
      expect(error).toBeInstanceOf(
        skill.refusal === 'SKILL_INVALID' ? SkillInvalidError : InvalidArgumentError,
      );
      expect(error).toMatchObject({ status: 400, code: skill.refusal, method: 'POST' });
      expect(error.url).toBe(`${server.url}/api/v1/skills`);
      expect(error.requestId).toMatch(/.+/);
    }
    for (const tool of tools) expect(outcomes.get(tool.id), tool.id).toMatchObject({ name: tool.name });
  });

  it('lists every distinct name, finds paraphrases, and reads content back exactly', async () => {
    const expected = expectedFinalState(skills, tools);
    const listed = await client.listSkills({ node_limit: 1000 });
    expect(listed.total).toBe(expected.size);
    expect(listed.skills.map((s) => s.name).sort()).toEqual([...expected.keys()].sort());
    for (const [name, query] of PARAPHRASES) {
      const found = await client.findSkills(query, { limit: 3 });
      expect(
        found.skills.map((s) => s.name),
        query,
      ).toContain(name);
    }
    for (const entry of expected.values()) {
      if (!('dir' in entry) || !entry.utf8) continue;
      const got = await client.getSkill(entry.name!, { include_content: true });
      expect(Buffer.from(got.content ?? '', 'utf8').equals(Buffer.from(entry.skillMd)), entry.id).toBe(true);
      const aux = new Map(
        (got.files ?? []).filter((f) => f.kind === 'auxiliary').map((f) => [f.path, f.sha256]),
      );
      expect(aux, entry.id).toEqual(entry.auxiliary);
    }
  });

  it('downloads every auxiliary file of the corpus byte for byte (getSkillFile)', async () => {
    const expected = expectedFinalState(skills, tools);
    let checked = 0;
    for (const entry of expected.values()) {
      if (!('dir' in entry)) continue;
      for (const [filePath, sha] of entry.auxiliary) {
        const file = await client.getSkillFile(entry.name!, filePath);
        expect(createHash('sha256').update(file.bytes).digest('hex'), `${entry.id} ${filePath}`).toBe(sha);
        expect(file.sha256).toBe(sha);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    const missing = await client.getSkillFile('geomaster', 'no/such/file.txt').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).details).toMatchObject({ type: 'file' });
  });

  it('updates with If-Match, rejects a stale revision with ConflictError, deletes', async () => {
    const current = await client.getSkill('geomaster', { level: 0 });
    const text = '---\nname: geomaster\ndescription: Geospatial analysis, revised\n---\n\n# Geomaster\n';
    const updated = await client.updateSkill('geomaster', text, { ifMatch: current.revision, wait: true });
    expect(updated).toMatchObject({ name: 'geomaster', action: 'update' });
    const stale = await client
      .updateSkill('geomaster', text, { ifMatch: current.revision })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ConflictError);
    expect((stale as ConflictError).status).toBe(412);
    expect((await client.getSkill('geomaster', { level: 2 })).content).toBe(text);
    const staleDelete = await client
      .deleteSkill('geomaster', {}, { ifMatch: current.revision })
      .catch((e: unknown) => e);
    expect(staleDelete).toBeInstanceOf(ConflictError);
    const deleted = await client.deleteSkill('geomaster', {}, { ifMatch: updated.revision });
    expect(deleted.name).toBe('geomaster');
    const missing = await client.getSkill('geomaster').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).details).toMatchObject({ type: 'skill' });
  });

  it('uploads bytes with tempUpload and follows the task', async () => {
    const zip = new Blob(['---\nname: blob-skill\ndescription: Added from a Blob upload\n---\n\nBody\n']);
    const added = await client.addSkill(zip, { filename: 'SKILL.md' });
    expect(added.name).toBe('blob-skill');
    const task = await client.getTask(added.task_id!);
    expect(task).toMatchObject({ task_id: added.task_id, task_type: 'add_skill' });
    const queue = await client.waitProcessed({ timeout: 30 });
    expect(queue.pending).toBe(0);
  });

  it('refuses a path-like string that names nothing before sending it', async () => {
    await expect(client.addSkill('./no/such/skill-folder')).rejects.toThrow(/no such file or folder/);
  });

  it('turns transport failures into NetworkError and TimeoutError', async () => {
    const down = new AsyncHTTPClient({ url: 'http://127.0.0.1:9', retry: 0 });
    const error = await down.listSkills().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(isNetworkError(error)).toBe(true);
    expect((error as NetworkError).cause).toBeDefined();
    const slow = new AsyncHTTPClient({ url: server.url, timeout: 1, retry: 0 });
    const timeout = await slow.findSkills('anything at all').catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(TimeoutError);
    expect(isTimeoutError(timeout)).toBe(true);
  });
});

describeCorpus('SyncHTTPClient', () => {
  it('runs the same calls synchronously and rethrows the same typed errors', () => {
    const client = new SyncHTTPClient({ url: server.url });
    expect(client.initialize().healthy).toBe(true);
    const unique = (s: SkillCase) => skills.filter((o) => o.name === s.name).length === 1;
    const sample = skills.filter((s) => s.refusal === null && s.utf8 && unique(s)).slice(0, 5);
    for (const skill of sample) {
      expect(client.addSkill(skill.dir, { target_uri: 'viking://agent/skills' }).name).toBe(skill.name);
    }
    const tool = tools[0]!;
    expect(client.addSkill(tool.tool, { target_uri: 'viking://agent/skills', wait: true }).name).toBe(
      tool.name,
    );
    const agentList = client.listSkills({ target_uri: 'viking://agent/skills' });
    expect(agentList.total).toBe(new Set([...sample.map((s) => s.name), tool.name]).size);

    const first = sample[0]!;
    const got = client.getSkill(first.name!, { include_content: true, target_uri: 'viking://agent/skills' });
    expect(Buffer.from(got.content ?? '', 'utf8').equals(Buffer.from(first.skillMd))).toBe(true);
    expect(client.findSkills(first.name!, { limit: 5 }).skills.map((s) => s.name)).toContain(first.name);
    const file = client.getSkillFile(first.name!, 'SKILL.md', { target_uri: 'viking://agent/skills' });
    expect(Buffer.from(file.bytes).equals(Buffer.from(first.skillMd))).toBe(true);
    expect(file.contentType).toBe('text/markdown; charset=utf-8');
    expect(client.validateSkill(first.text, { skill_dir_name: path.basename(first.dir) }).valid).toBe(true);

    const bytes = new TextEncoder().encode(
      '---\nname: sync-bytes\ndescription: Added from bytes, synchronously\n---\n',
    );
    expect(client.addSkill(bytes, { filename: 'SKILL.md' }).name).toBe('sync-bytes');
    expect(
      client.updateSkill('sync-bytes', '---\nname: sync-bytes\ndescription: Updated synchronously\n---\n')
        .action,
    ).toBe('update');
    expect(client.deleteSkill('sync-bytes').name).toBe('sync-bytes');

    let thrown: unknown;
    try {
      client.getSkill('sync-bytes');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NotFoundError);
    expect(thrown).toMatchObject({ status: 404, code: 'NOT_FOUND', method: 'GET' });
    expect((thrown as NotFoundError).requestId).toMatch(/.+/);
    expect(() => client.addSkill('---\nname: broken\n')).toThrow(SkillInvalidError);
    expect(client.waitProcessed({ timeout: 30 }).pending).toBe(0);
    client.close();
    let closed: unknown;
    try {
      client.findSkills('anything');
    } catch (error) {
      closed = error;
    }
    // The class and code the async client gives a call after close().
    expect(closed).toBeInstanceOf(LocalError);
    expect(isLocalError(closed)).toBe(true);
    expect(closed).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'closed' } });
    expect((closed as Error).message).toMatch(/^findSkills: the client is closed/);
  });

  it('throws NetworkError synchronously when the server is down', () => {
    const client = new SyncHTTPClient({ url: 'http://127.0.0.1:9', retry: 0 });
    expect(() => client.listSkills()).toThrow(NetworkError);
  });
});
