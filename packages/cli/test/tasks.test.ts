/**
 * Task list, cancel and the system observer through the CLI (in-process), the async client and the
 * synchronous client, against a real server that runs no jobs (so tasks stay pending).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient, ConflictError } from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { memoryIo, runCliAgainst } from './support/memory-io.js';
import { startCliServer } from './support/processes.js';

let server: RunningServer;
let dataDir: string;
let client: AsyncHTTPClient;
const md = (name: string) => `---\nname: ${name}\ndescription: A skill for the task commands\n---\nbody\n`;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dataDir, 'cfg') });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-tasks-'));
  server = await startServer({ port: 0, dataDir, logger: false, runJobs: false });
  client = new AsyncHTTPClient({ url: server.url });
  for (const name of ['first-task', 'second-task', 'third-task']) await client.addSkill(md(name));
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('tasks', () => {
  it('AsyncHTTPClient lists, cancels and reports system status', async () => {
    const tasks = await client.listTasks();
    expect(tasks.map((t) => t.resource_id)).toEqual([
      'viking://user/default/skills/third-task',
      'viking://user/default/skills/second-task',
      'viking://user/default/skills/first-task',
    ]);
    const cancelled = await client.cancelTask(tasks[0]!.task_id);
    expect(cancelled.status).toBe('cancelled');
    expect(await client.listTasks({ status: 'pending' })).toHaveLength(2);
    expect(await client.isHealthy()).toBe(true);
    expect(Object.keys((await client.getSystemStatus()).components).sort()).toEqual([
      'jobs',
      'queue',
      'store',
    ]);
  });

  it('SyncHTTPClient does the same, blocking, with the same typed errors (server in its own process)', async () => {
    const other = await startCliServer();
    const sync = new SyncHTTPClient({ url: other.url });
    try {
      sync.addSkill(md('sync-task'), { wait: true });
      const tasks = sync.listTasks({ status: 'completed', limit: '1' });
      expect(tasks).toHaveLength(1);
      expect(() => sync.cancelTask(tasks[0]!.task_id)).toThrow(ConflictError);
      expect(sync.isHealthy()).toBe(true);
    } finally {
      sync.close();
      await other.stop();
    }
  });

  it('skillport tasks list / cancel / observer system', async () => {
    const listed = await cli(['tasks', 'list', '-o', 'json']);
    expect(listed.code, listed.err).toBe(0);
    const tasks = JSON.parse(listed.out) as Array<{ task_id: string; status: string }>;
    expect(tasks.map((t) => t.status)).toEqual(['cancelled', 'pending', 'pending']);
    const pending = await cli(['tasks', 'list', '--status', 'pending', '--type', 'add_skill', '-o', 'json']);
    expect((JSON.parse(pending.out) as unknown[]).length).toBe(2);
    // A status or type the server does not know would list nothing: refused, naming the values.
    const typo = await cli(['tasks', 'list', '--status', 'complete']);
    expect(typo.code).toBe(1);
    expect(typo.err).toBe(
      'error: --status must be one of pending, running, completed, failed, cancelled, got "complete"\n',
    );
    const type = await cli(['tasks', '--type', 'add']);
    expect(type.code).toBe(1);
    expect(type.err).toBe('error: --type must be one of add_skill, update_skill, got "add"\n');
    const table = await cli(['tasks']);
    expect(table.out).toMatch(/^TASK\s+TYPE\s+STATUS\s+CREATED\s+SKILL/);
    expect(table.out).toContain('viking://user/default/skills/first-task');
    const cancel = await cli(['tasks', 'cancel', tasks[2]!.task_id]);
    expect(cancel.code, cancel.err).toBe(0);
    expect(cancel.out).toBe(`cancelled ${tasks[2]!.task_id} (viking://user/default/skills/first-task)\n`);
    const status = await cli(['observer', 'system']);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/^healthy\nCOMPONENT\s+HEALTHY\s+STATUS\n/);
    expect(status.out).toContain('this server runs no processing jobs');
  });

  it('cancelling a finished task is a conflict', async () => {
    const done = await new AsyncHTTPClient({ url: server.url })
      .cancelTask('no-such-task')
      .catch((e: unknown) => e);
    expect((done as { status: number }).status).toBe(404);
    const run = await cli(['tasks', 'cancel', 'no-such-task']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/not found.*NOT_FOUND, HTTP 404/);
    expect(ConflictError).toBeDefined();
  });
});

describe('show and auth messages', () => {
  it('skills show --level 0 -o json returns only level 0', async () => {
    const level0 = await cli(['skills', 'show', 'first-task', '--level', '0', '-o', 'json']);
    expect(level0.code, level0.err).toBe(0);
    const result = JSON.parse(level0.out) as Record<string, unknown>;
    expect(typeof result.abstract).toBe('string');
    expect(result.overview).toBeUndefined();
    expect(result.content).toBeUndefined();
    const all = JSON.parse((await cli(['skills', 'show', 'first-task', '-o', 'json'])).out) as Record<
      string,
      unknown
    >;
    expect(typeof all.content).toBe('string');
  });

  it('add-skill --wait whose wait runs out says the skill is stored and how to follow its task', async () => {
    const file = path.join(dataDir, 'SKILL.md');
    writeFileSync(file, md('waited-out'));
    const run = await cli(['add-skill', file, '--wait', '--timeout', '0.2']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/DEADLINE_EXCEEDED, HTTP 504/);
    const taskId = /task_id: (\S+)/.exec(run.err)?.[1];
    expect(taskId).toBeDefined();
    expect(run.err).toContain(`follow its processing with: skillport task ${taskId} (or skillport wait)`);
    expect(run.err).toContain('uri: viking://user/default/skills/waited-out');
    const task = await cli(['task', taskId as string, '-o', 'json']);
    expect(task.code, task.err).toBe(0);
    expect(JSON.parse(task.out)).toMatchObject({ task_id: taskId, status: 'pending' });
  });

  it('a 401 says how to pass an API key', async () => {
    const keyed = await startServer({
      port: 0,
      dataDir: path.join(dataDir, 'keyed'),
      logger: false,
      runJobs: false,
      rootApiKey: 'root-secret-for-tests',
    });
    try {
      const io = memoryIo({ env: { SKILLPORT_URL: keyed.url, XDG_CONFIG_HOME: path.join(dataDir, 'cfg') } });
      const code = await runCli(['skills', 'list'], io);
      expect(code).toBe(1);
      expect(io.err()).toMatch(/HTTP 401/);
      expect(io.err()).toContain(
        '--api-key <key>, SKILLPORT_API_KEY, or `skillport config set api_key <key>`',
      );
    } finally {
      await keyed.close();
    }
  });
});

describe('add-skill with a tools/list document', () => {
  it('reports two tools that become the same skill instead of losing one', async () => {
    const file = path.join(dataDir, 'tools.json');
    const tool = (name: string, description: string) => ({
      name,
      description,
      inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
    });
    writeFileSync(
      file,
      JSON.stringify({
        tools: [
          tool('search.web', 'Search the web (dotted)'),
          tool('search_web', 'Search the web (underscored)'),
        ],
      }),
    );
    const run = await cli(['add-skill', file, '-o', 'json']);
    expect(run.code).toBe(1);
    const outcomes = JSON.parse(run.out) as Array<{
      tool: string;
      name?: string;
      error?: { code: string; message: string };
    }>;
    expect(outcomes[0]).toMatchObject({ tool: 'search.web', name: 'search-web' });
    expect(outcomes[1]).toMatchObject({ tool: 'search_web', error: { code: 'CONFLICT' } });
    expect(outcomes[1]?.error?.message).toContain(
      'becomes the skill "search-web" like the tool "search.web" before it',
    );
    const table = await cli(['add-skill', file]);
    expect(table.out).toMatch(
      /tools\.json#search_web\s+search-web\s+refused\s+CONFLICT: becomes the skill "search-web"/,
    );
    expect(table.err).toContain('1 of 2 inputs were refused');
    const stored = await client.getSkill('search-web', { level: 0 });
    expect(stored.abstract).toContain('(dotted)');
  });
});
