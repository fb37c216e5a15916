/**
 * The seed clients' task and observer routes: `GET /api/v1/tasks` (list_tasks), `POST
 * /api/v1/tasks/{id}/cancel` (cancel_task) and `GET /api/v1/observer/system` (get_status, is_healthy).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** A lease for claiming tasks by hand (this server runs no job runner). */
const CLAIM = { owner: 'test-claimer', leaseMs: 60_000 };

const md = (name: string) => `---\nname: ${name}\ndescription: A skill for the task list tests\n---\nbody\n`;

describe('with jobs running', () => {
  let t: TestServer;
  const ids: string[] = [];
  beforeAll(async () => {
    t = await startTestServer();
    for (const name of ['list-a', 'list-b', 'list-c']) {
      const res = await t.request('POST', '/api/v1/skills', { body: { data: md(name) } });
      ids.push(res.json.result.task_id);
    }
    await t.request('PUT', '/api/v1/skills/list-a', { body: { data: md('list-a') } });
    await t.request('POST', '/api/v1/system/wait', { body: { timeout: 30 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('GET /api/v1/tasks lists the caller’s tasks newest first, as a bare list', async () => {
    const res = await t.request('GET', '/api/v1/tasks');
    expect(res.status, res.text).toBe(200);
    const tasks = res.json.result as Array<Record<string, unknown>>;
    expect(Array.isArray(tasks)).toBe(true);
    expect(tasks).toHaveLength(4);
    expect(tasks[0]).toMatchObject({
      task_type: 'update_skill',
      status: 'completed',
      resource_id: 'viking://user/default/skills/list-a',
    });
    const created = tasks.map((task) => Date.parse(String(task.created_at)));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    for (const id of ids) expect(tasks.map((task) => task.task_id)).toContain(id);
  });

  test.each([
    ['?task_type=add_skill', 3],
    ['?task_type=update_skill', 1],
    ['?status=completed', 4],
    ['?status=failed', 0],
    ['?status=cancelling', 0],
    ['?task_type=session_commit', 0],
    ['?resource_id=viking://user/default/skills/list-a', 2],
    ['?resource_id=viking://user/default/skills/list-b&task_type=add_skill', 1],
    ['?limit=2', 2],
    ['?limit=2&include_internal=false', 2],
  ])('filters %s → %i tasks', async (query, count) => {
    const res = await t.request('GET', `/api/v1/tasks${query}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toHaveLength(count);
  });

  test.each(['0', '201', 'ten'])('limit=%s → 400 naming the field', async (limit) => {
    const res = await t.request('GET', `/api/v1/tasks?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
  });

  test('cancelling an unknown task answers 404 with the seed clients’ details', async () => {
    const cancel = await t.request('POST', '/api/v1/tasks/no-such-task/cancel');
    expect(cancel.status).toBe(404);
    expect(cancel.json.error.details).toMatchObject({ type: 'task', resource: 'no-such-task' });
  });

  test('a task id holding a NUL answers 404 like any unknown id (PostgreSQL answered 500)', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/tasks/a%00b'],
      ['POST', '/api/v1/tasks/a%00b/cancel'],
    ] as const) {
      const res = await t.request(method, url);
      expect(res.status, `${method} ${url}: ${res.text}`).toBe(404);
      expect(res.json.error.details).toMatchObject({ type: 'task' });
    }
  });

  test('cancelling a finished task answers 409 and changes nothing', async () => {
    const res = await t.request('POST', `/api/v1/tasks/${ids[0]}/cancel`);
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({
      code: 'CONFLICT',
      details: { task_id: ids[0], status: 'completed' },
    });
    const task = await t.request('GET', `/api/v1/tasks/${ids[0]}`);
    expect(task.json.result.status).toBe('completed');
  });

  test('GET /api/v1/observer/system is healthy with the three components', async () => {
    const res = await t.request('GET', '/api/v1/observer/system');
    expect(res.status, res.text).toBe(200);
    const status = res.json.result;
    expect(status).toMatchObject({ is_healthy: true, errors: [] });
    expect(Object.keys(status.components).sort()).toEqual(['jobs', 'queue', 'store']);
    for (const [key, component] of Object.entries(
      status.components as Record<string, Record<string, unknown>>,
    )) {
      expect(component).toMatchObject({ name: key, is_healthy: true, has_errors: false });
      expect(typeof component.status).toBe('string');
    }
    expect(status.components.queue.status).toBe('0 pending, 0 processing, 4 completed, 0 failed');
  });
});

describe('with no job runner (tasks stay pending)', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ runJobs: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  test('a pending task is cancelled once, stays cancelled, and is no longer waited for', async () => {
    const add = await t.request('POST', '/api/v1/skills', { body: { data: md('never-processed') } });
    const id = add.json.result.task_id as string;
    expect((await t.request('GET', `/api/v1/tasks/${id}`)).json.result.status).toBe('pending');
    const first = await t.request('POST', `/api/v1/tasks/${id}/cancel`);
    expect(first.status, first.text).toBe(200);
    expect(first.json.result).toMatchObject({
      task_id: id,
      status: 'cancelled',
      resource_id: 'viking://user/default/skills/never-processed',
    });
    const again = await t.request('POST', `/api/v1/tasks/${id}/cancel`, { body: {} });
    expect(again.status).toBe(200);
    expect(again.json.result.status).toBe('cancelled');
    const listed = await t.request('GET', '/api/v1/tasks?status=cancelled');
    expect(listed.json.result.map((task: { task_id: string }) => task.task_id)).toEqual([id]);
    const queue = await t.request('GET', '/api/v1/observer/queue');
    expect(queue.json.result).toMatchObject({ pending: 0, processing: 0 });
    const wait = await t.request('POST', '/api/v1/system/wait', { body: { timeout: 1 } });
    expect(wait.status, wait.text).toBe(200);
    // The skill itself stays stored.
    expect((await t.request('GET', '/api/v1/skills/never-processed?level=0')).status).toBe(200);
  });

  test('observer/system says this server runs no processing jobs', async () => {
    const res = await t.request('GET', '/api/v1/observer/system');
    expect(res.json.result.is_healthy).toBe(true);
    expect(res.json.result.components.jobs.status).toMatch(/runs no processing jobs/);
  });

  test('a deleted skill leaves its tasks with resource_id null', async () => {
    const add = await t.request('POST', '/api/v1/skills', { body: { data: md('short-lived') } });
    await t.request('DELETE', '/api/v1/skills/short-lived');
    const task = await t.request('GET', `/api/v1/tasks/${add.json.result.task_id}`);
    expect(task.json.result.resource_id).toBeNull();
  });

  test("a write that waits has its job run ahead of the user's own backlog of writes", async () => {
    const backlog: string[] = [];
    for (const name of ['queued-a', 'queued-b', 'queued-c']) {
      const add = await t.request('POST', '/api/v1/skills', { body: { data: md(name) } });
      backlog.push(add.json.result.task_id);
    }
    // Nothing runs jobs here: the wait runs out, the skill is stored, the answer names its task.
    const waited = await t.request('POST', '/api/v1/skills', {
      body: { data: md('waited-for'), wait: true, timeout: 0.01 },
    });
    expect(waited.status, waited.text).toBe(504);
    const id = waited.json.error.details.task_id as string;
    const claimed = [];
    for (let task = await t.server.store.claimTask(Date.now(), CLAIM); task !== null; ) {
      claimed.push(task.id);
      task = await t.server.store.claimTask(Date.now(), CLAIM);
    }
    // The earlier 'short-lived' task of this file is in the backlog too (its skill was deleted).
    expect(claimed[0]).toBe(id);
    expect(claimed.slice(-3)).toEqual(backlog);
    expect((await t.request('GET', `/api/v1/tasks/${id}`)).json.result).toMatchObject({
      task_type: 'add_skill',
      status: 'running',
    });
  });
});
