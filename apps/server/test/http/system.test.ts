import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const md = (name: string) =>
  `---\nname: ${name}\ndescription: A skill used by the system route tests\n---\nbody\n`;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('tasks, wait, queue', () => {
  test('GET /api/v1/tasks/{id} follows an add to completion', async () => {
    const add = await t.request('POST', '/api/v1/skills', { body: { data: md('task-skill') } });
    const id = add.json.result.task_id;
    expect(typeof id).toBe('string');
    const wait = await t.request('POST', '/api/v1/system/wait', { body: { timeout: 10 } });
    expect(wait.status, wait.text).toBe(200);
    expect(wait.json.result).toMatchObject({ pending: 0, processing: 0 });
    const task = await t.request('GET', `/api/v1/tasks/${id}`);
    expect(task.status).toBe(200);
    expect(task.json.result).toMatchObject({ task_id: id, task_type: 'add_skill', status: 'completed' });
    expect(Number.isNaN(Date.parse(task.json.result.created_at))).toBe(false);
  });

  test('update enqueues an update_skill task', async () => {
    const res = await t.request('PUT', '/api/v1/skills/task-skill', { body: { data: md('task-skill') } });
    const task = await t.request('GET', `/api/v1/tasks/${res.json.result.task_id}`);
    expect(task.json.result.task_type).toBe('update_skill');
  });

  test('unknown task → 404 details {type: task}', async () => {
    const res = await t.request('GET', '/api/v1/tasks/does-not-exist');
    expect(res.status).toBe(404);
    expect(res.json.error.details).toMatchObject({ type: 'task', resource: 'does-not-exist' });
  });

  test('system/wait accepts an empty body and null/false timeout', async () => {
    for (const body of [undefined, {}, { timeout: null }, { timeout: false }]) {
      const res = await t.request('POST', '/api/v1/system/wait', body === undefined ? {} : { body });
      expect(res.status, res.text).toBe(200);
    }
  });

  test('observer/queue counts the caller’s tasks', async () => {
    const res = await t.request('GET', '/api/v1/observer/queue');
    expect(res.status).toBe(200);
    expect(res.json.result.completed).toBeGreaterThanOrEqual(2);
    expect(Object.keys(res.json.result).sort()).toEqual(['completed', 'failed', 'pending', 'processing']);
  });
});

describe('health, request ids, telemetry', () => {
  test('GET /health without auth', async () => {
    const res = await t.request('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'ok', healthy: true, auth_mode: 'dev' });
    expect(typeof res.json.version).toBe('string');
  });

  test('X-Request-Id echoed when sent, generated otherwise, on errors too', async () => {
    const echoed = await t.request('GET', '/api/v1/skills', { headers: { 'x-request-id': 'req-123.abc' } });
    expect(echoed.headers.get('x-request-id')).toBe('req-123.abc');
    const generated = await t.request('GET', '/api/v1/skills/missing-one');
    expect(generated.status).toBe(404);
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unknown = await t.request('GET', '/nowhere');
    expect(unknown.headers.get('x-request-id')).toBeTruthy();
  });

  test('telemetry {summary: true} adds operation_id and summary', async () => {
    const res = await t.request('POST', '/api/v1/skills/find', {
      body: { query: 'skill', telemetry: { summary: true } },
    });
    expect(res.json.telemetry.operation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.json.telemetry.summary).toMatchObject({ operation: 'skills.find', status: 'ok' });
    expect(typeof res.json.telemetry.summary.duration_ms).toBe('number');
  });
});

describe('error envelope for every failure', () => {
  test.each([
    ['GET', '/nowhere', undefined, 404, 'NOT_FOUND'],
    ['PATCH', '/api/v1/skills/x', undefined, 405, 'INVALID_ARGUMENT'],
    ['DELETE', '/api/v1/skills', undefined, 405, 'INVALID_ARGUMENT'],
  ])('%s %s → %i %s', async (method, p, body, status, code) => {
    const res = await t.request(method, p, body === undefined ? {} : { body });
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ status: 'error', error: { code } });
    expect(typeof res.json.time).toBe('number');
  });

  test('a 404 repeats at most 200 characters of a long path', async () => {
    const res = await t.request('GET', `/${'a'.repeat(10_000)}`);
    expect(res.status).toBe(404);
    // Before: the 10,001-character path twice (message and details.resource), 20 KB of answer.
    expect(res.json.error.message).toBe(`No route GET /${'a'.repeat(198)}…`);
    expect(res.json.error.details).toEqual({ type: 'route', resource: `/${'a'.repeat(198)}…` });
  });

  test('405 names the allowed methods', async () => {
    const res = await t.request('PATCH', '/api/v1/skills/x');
    expect(res.headers.get('allow')).toBe('GET, PUT, DELETE');
  });

  test('malformed JSON → 400 INVALID_ARGUMENT', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: '{"data": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.message).toMatch(/json/i);
  });

  test('unknown body field → 400 with validation_errors [{loc, message, type}]', async () => {
    const res = await t.request('POST', '/api/v1/skills', { body: { data: md('x-skill'), colour: 'blue' } });
    expect(res.status).toBe(400);
    expect(res.json.error.details.validation_errors).toEqual([
      { loc: ['body', 'colour'], message: "Unknown field 'colour'", type: 'unrecognized_keys' },
    ]);
    expect(res.json.error.message).toContain('colour');
  });

  test.each([
    [{ data: md('typed'), wait: 'yes' }, 'wait'],
    [{ data: md('typed'), timeout: 'soon' }, 'timeout'],
    [{ data: md('typed'), target_uri: 5 }, 'target_uri'],
    [{ data: 42 }, 'data'],
  ])('wrong type %j → 400 naming %s', async (body, field) => {
    const res = await t.request('POST', '/api/v1/skills', { body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.validation_errors[0].loc).toContain(field);
  });

  test('a JSON body with a non-JSON content type is refused (400)', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: 'data=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'content-type' } });
    expect(res.json.error.message).toBe('Unsupported Content-Type "text/plain": send application/json');
  });

  // A client that posts JSON to temp_upload is told what temp_upload takes, not to send JSON.
  test.each([
    ['application/json', '{"file": "SKILL.md"}'],
    ['text/plain', 'data'],
  ])(
    'temp_upload with Content-Type %s → 400 naming multipart/form-data and the file field',
    async (type, body) => {
      const res = await t.request('POST', '/api/v1/resources/temp_upload', {
        body,
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'content-type' } });
      expect(res.json.error.message).toBe(
        `Unsupported Content-Type "${type}": temp_upload takes multipart/form-data with the file in the field "file"`,
      );
    },
  );
});
