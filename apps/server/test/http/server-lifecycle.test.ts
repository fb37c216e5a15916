import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS, openStore, optionsFromEnv, startServer } from '../../src/index.js';
import { retentionPolicy } from '../../src/store/retention.js';
import {
  engineServerOptions,
  openEngineStore,
  postgresQuery,
  schemaFor,
  TEST_ENGINE,
} from '../helpers/engine.js';
import { startTestServer } from '../helpers/server.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillport-life-'));
  dirs.push(dir);
  return dir;
}
/** A temp data folder and the engine under test for it. */
function engineData() {
  const dataDir = tempDir();
  return { dataDir, ...engineServerOptions(dataDir) };
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const md = (name: string) =>
  `---\nname: ${name}\ndescription: A skill used by the lifecycle tests\n---\nbody\n`;

describe('startServer', () => {
  test('dev mode refuses a non-loopback host with a clear message, marked as a setting to fix', async () => {
    const refused = startServer({ host: '0.0.0.0', port: 0, dataDir: tempDir(), logger: false });
    await expect(refused).rejects.toThrow(/dev mode.*loopback/i);
    await expect(refused).rejects.toMatchObject({ code: 'SKILLPORT_CONFIG', setting: 'SKILLPORT_HOST' });
  });

  test('a root key enables api_key mode, which may bind any host', async () => {
    const server = await startServer({
      host: '0.0.0.0',
      port: 0,
      dataDir: tempDir(),
      logger: false,
      rootApiKey: 'sk_r',
    });
    try {
      expect(server.authMode).toBe('api_key');
      const res = await fetch(`http://127.0.0.1:${server.port}/health`);
      expect((await res.json()).auth_mode).toBe('api_key');
    } finally {
      await server.close();
    }
  });

  test('a port in use is refused before the database is opened, so a running server of an older build keeps an unmigrated database', async () => {
    // Starting a new build while the old one still serves on the port used to migrate the database
    // under the old server and only then fail to listen: the old server went on writing without
    // keeping what later schema versions added (the change feed, the blobs history references).
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const dataDir = path.join(tempDir(), 'data');
    try {
      await expect(
        startServer({ port, logger: false, dataDir, ...engineServerOptions(dataDir) }),
      ).rejects.toThrow(/already in use/);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    if (TEST_ENGINE === 'sqlite') expect(existsSync(path.join(dataDir, 'skillport.db'))).toBe(false);
    else {
      const schemas = await postgresQuery(dataDir, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [
        schemaFor(dataDir),
      ]);
      expect(schemas).toEqual([]);
    }
  });

  test.each([
    [
      'postgres://u:p@127.0.0.1:1/db',
      /PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/db is unreachable/,
    ],
    ['mysql://u:p@x', /unsupported URL "mysql:\/\/u:\*\*\*@x"/],
  ])('SKILLPORT_DATABASE_URL %s is refused', async (databaseUrl, message) => {
    await expect(startServer({ port: 0, dataDir: tempDir(), logger: false, databaseUrl })).rejects.toThrow(
      message,
    );
  });

  test('an unsupported SKILLPORT_DATABASE_URL is marked as a setting to fix (an unreachable one is not)', async () => {
    await expect(
      startServer({ port: 0, dataDir: tempDir(), logger: false, databaseUrl: 'mysql://u:p@x' }),
    ).rejects.toMatchObject({ code: 'SKILLPORT_CONFIG', setting: 'SKILLPORT_DATABASE_URL' });
  });

  test.runIf(process.platform === 'linux')(
    'a data folder that cannot be created (/proc) is refused at once as a setting to fix, naming the folder',
    async () => {
      const refused = startServer({ port: 0, dataDir: '/proc/skillport-nope', logger: false });
      await expect(refused).rejects.toThrow(
        /SKILLPORT_DATA_DIR: cannot create the folder \/proc\/skillport-nope: \/proc exists/,
      );
      await expect(refused).rejects.toMatchObject({
        code: 'SKILLPORT_CONFIG',
        setting: 'SKILLPORT_DATA_DIR',
      });
      expect(() => openStore({ dataDir: '/proc/skillport-nope' })).toThrow(/cannot create the folder/);
    },
  );

  test('a data folder below a file, or a sqlite: URL below one, is refused as a setting to fix', async () => {
    const file = path.join(tempDir(), 'file');
    writeFileSync(file, 'x');
    await expect(
      startServer({ port: 0, dataDir: path.join(file, 'data'), logger: false }),
    ).rejects.toMatchObject({
      code: 'SKILLPORT_CONFIG',
      setting: 'SKILLPORT_DATA_DIR',
      message: expect.stringContaining(`${file} is a file, not a folder`),
    });
    await expect(
      startServer({ port: 0, logger: false, databaseUrl: `sqlite:${path.join(file, 'db', 'x.db')}` }),
    ).rejects.toMatchObject({ code: 'SKILLPORT_CONFIG', setting: 'SKILLPORT_DATABASE_URL' });
  });

  test('creating the first API key in dev mode ends dev mode at once (and after restart)', async () => {
    const dataDir = tempDir();
    const t = await startTestServer({ dataDir });
    const created = await t.request('POST', '/api/v1/admin/accounts/default/keys', {
      body: { user_id: 'default', role: 'admin' },
    });
    expect(created.status, created.text).toBe(200);
    const key = created.json.result.api_key as string;
    expect((await t.request('GET', '/api/v1/skills')).status).toBe(401);
    expect((await t.request('GET', '/api/v1/skills', { apiKey: key })).status).toBe(200);
    expect((await t.request('GET', '/health')).json.auth_mode).toBe('api_key');
    await t.close();
    const again = await startTestServer({ dataDir });
    try {
      expect(again.server.authMode).toBe('api_key');
      expect((await again.request('GET', '/api/v1/skills')).status).toBe(401);
    } finally {
      await again.close();
    }
  });

  test('in dev mode the first API key must be an admin key (no lock-out); nothing is created otherwise', async () => {
    const t = await startTestServer({ dataDir: tempDir() });
    try {
      const refused = await t.request('POST', '/api/v1/admin/accounts/default/keys', {
        body: { user_id: 'alice', role: 'user' },
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: 'role', expected: 'admin', actual: 'user' },
      });
      expect(refused.json.error.message).toMatch(/first API key must have role "admin"/);
      expect((await t.request('GET', '/health')).json.auth_mode).toBe('dev');
      expect((await t.request('GET', '/api/v1/skills')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test('data survives a restart on the same data folder', async () => {
    const dataDir = tempDir();
    const first = await startTestServer({ dataDir });
    expect((await first.request('POST', '/api/v1/skills', { body: { data: md('durable') } })).status).toBe(
      200,
    );
    await first.close();
    const second = await startTestServer({ dataDir });
    try {
      expect((await second.request('GET', '/api/v1/skills/durable?level=0')).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  test('close() lets an in-flight request finish', async () => {
    const server = await startServer({ port: 0, ...engineData(), logger: false, runJobs: false });
    await fetch(`${server.url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: md('pending-one') }),
    });
    const inFlight = fetch(`${server.url}/api/v1/system/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 0.5 }),
    });
    await new Promise((r) => setTimeout(r, 100));
    const closed = server.close();
    const res = await inFlight;
    expect(res.status).toBe(504);
    expect((await res.json()).error.code).toBe('DEADLINE_EXCEEDED');
    await closed;
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  test('close() closes the store only after a handler running past the grace period has ended', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = {
      info: (r: Record<string, unknown>) => lines.push(r),
      error: (r: Record<string, unknown>) => lines.push(r),
    };
    const server = await startServer({ port: 0, ...engineData(), logger, runJobs: false });
    await fetch(`${server.url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: md('pending-long') }),
    });
    // Waits on a job nobody runs for longer than the 5 s grace: its connection is cut at the end of
    // the grace, and the handler keeps reading the store until its own deadline.
    const inFlight = fetch(`${server.url}/api/v1/system/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ timeout: 6.5 }),
    }).then(
      (res) => res.status,
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 200));
    await server.close();
    // By the time close() resolves, the handler has finished normally (its deadline, 504), logged
    // its request line, and met no closed store.
    const waited = lines.filter((l) => l.msg === 'request' && l.path === '/api/v1/system/wait');
    expect(waited).toMatchObject([{ status: 504 }]);
    // The only failure reported is that deadline: no read met a closed store.
    const failures = lines.filter((l) => l.msg !== 'request' && l.msg !== 'listening');
    expect(failures.map((l) => l.code)).toEqual(['DEADLINE_EXCEEDED']);
    expect(await inFlight).toBe('cut');
  }, 30_000);

  test('one structured log line per request and a startup line', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = {
      info: (r: Record<string, unknown>) => lines.push(r),
      error: (r: Record<string, unknown>) => lines.push(r),
    };
    const server = await startServer({ port: 0, ...engineData(), logger });
    try {
      await fetch(`${server.url}/api/v1/skills`, { headers: { 'x-request-id': 'log-check' } });
      expect(lines[0]).toMatchObject({ msg: 'listening', url: server.url, auth_mode: 'dev' });
      expect(String(lines[0]?.store)).toMatch(TEST_ENGINE === 'sqlite' ? /^sqlite:/ : /^postgres:/);
      const request = lines.find((l) => l.msg === 'request');
      expect(request).toMatchObject({
        request_id: 'log-check',
        method: 'GET',
        path: '/api/v1/skills',
        status: 200,
        user_id: 'default',
        remote: '127.0.0.1',
      });
    } finally {
      await server.close();
    }
  });
});

describe('options from the environment', () => {
  test('reads host, port, folders, keys, CORS and limits', () => {
    const options = optionsFromEnv({
      SKILLPORT_HOST: '0.0.0.0',
      SKILLPORT_PORT: '8080',
      SKILLPORT_DATA_DIR: '/data',
      SKILLPORT_ROOT_API_KEY: 'sk_x',
      SKILLPORT_CORS_ORIGINS: 'https://a.example, https://b.example',
      SKILLPORT_MAX_UPLOAD_BYTES: '1000',
      SKILLPORT_MAX_ZIP_ENTRIES: '5',
      SKILLPORT_RATE_LIMIT_PER_MINUTE: '600',
    });
    expect(options).toEqual({
      host: '0.0.0.0',
      port: 8080,
      dataDir: '/data',
      rootApiKey: 'sk_x',
      corsOrigins: ['https://a.example', 'https://b.example'],
      limits: { maxUploadBytes: 1000, maxZipEntries: 5, rateLimitPerMinute: 600 },
    });
    expect(optionsFromEnv({})).toEqual({});
    expect(DEFAULT_LIMITS.maxWaitSeconds).toBe(300);
  });

  test('reads the retention settings; the per-skill cap is never below the count kept', () => {
    expect(
      optionsFromEnv({
        SKILLPORT_KEEP_REVISIONS: '5',
        SKILLPORT_KEEP_REVISIONS_DAYS: 'all',
        SKILLPORT_KEEP_REVISIONS_MAX: '50',
      }),
    ).toEqual({ retention: { keepRevisions: 5, keepDays: Number.POSITIVE_INFINITY, keepMost: 50 } });
    expect(optionsFromEnv({ SKILLPORT_KEEP_REVISIONS_MAX: 'all' }).retention?.keepMost).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(() => optionsFromEnv({ SKILLPORT_KEEP_REVISIONS_MAX: '0' })).toThrow(
      /SKILLPORT_KEEP_REVISIONS_MAX/,
    );
    expect(retentionPolicy({})).toMatchObject({ keepLast: 10, keepMost: 100, keepDeleted: 1000 });
    expect(retentionPolicy({ keepRevisions: 200 }).keepMost).toBe(200);
    // The cap of deleted skills with history per account: 0 keeps none, `all` lifts it.
    expect(optionsFromEnv({ SKILLPORT_KEEP_DELETED_MAX: '0' }).retention).toEqual({ keepDeleted: 0 });
    expect(optionsFromEnv({ SKILLPORT_KEEP_DELETED_MAX: 'all' }).retention?.keepDeleted).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(() => optionsFromEnv({ SKILLPORT_KEEP_DELETED_MAX: '-1' })).toThrow(/SKILLPORT_KEEP_DELETED_MAX/);
  });

  test('reads the PostgreSQL settings', () => {
    expect(
      optionsFromEnv({
        SKILLPORT_DATABASE_URL: 'postgres://skillport@db:5432/skillport',
        SKILLPORT_DATABASE_SCHEMA: 'registry',
        SKILLPORT_DATABASE_POOL_SIZE: '20',
        SKILLPORT_DATABASE_STATEMENT_TIMEOUT_MS: '5000',
        SKILLPORT_DATABASE_SSL: 'verify-full',
        SKILLPORT_DATABASE_SSL_CA: '/etc/ssl/db-ca.pem',
      }),
    ).toEqual({
      databaseUrl: 'postgres://skillport@db:5432/skillport',
      postgres: {
        schema: 'registry',
        poolSize: 20,
        statementTimeoutMs: 5000,
        ssl: 'verify-full',
        sslCaFile: '/etc/ssl/db-ca.pem',
      },
    });
    expect(() => optionsFromEnv({ SKILLPORT_DATABASE_SSL: 'yes' })).toThrow(
      /SKILLPORT_DATABASE_SSL must be one of/,
    );
    expect(() => optionsFromEnv({ SKILLPORT_DATABASE_POOL_SIZE: '0' })).toThrow(/at least 1/);
    expect(() => openStore({ databaseUrl: 'postgres://h/db', postgres: { schema: 'bad-name;' } })).toThrow(
      /SKILLPORT_DATABASE_SCHEMA/,
    );
  });

  test('a malformed number names the variable', () => {
    expect(() => optionsFromEnv({ SKILLPORT_PORT: 'eighty' })).toThrow(/SKILLPORT_PORT/);
    expect(() => optionsFromEnv({ SKILLPORT_MAX_BODY_BYTES: '-1' })).toThrow(/SKILLPORT_MAX_BODY_BYTES/);
    expect(() => optionsFromEnv({ SKILLPORT_READ_CACHE_MB: 'lots' })).toThrow(/SKILLPORT_READ_CACHE_MB/);
  });

  // Node's timers hold at most 2^31 - 1 ms (~24.8 days); a longer one fires after 1 ms. An overlong
  // shutdown delay made SIGTERM exit at once with status 1 (the forced exit fired), an overlong job
  // lease renewed its lease every millisecond, an overlong MCP change poll polled every millisecond.
  test.each([
    ['SKILLPORT_SHUTDOWN_DELAY_SECONDS', '3000000'],
    ['SKILLPORT_JOB_LEASE_SECONDS', '9999999999'],
    ['SKILLPORT_MAX_WAIT_SECONDS', '2147484'],
    ['SKILLPORT_MCP_CHANGE_POLL_SECONDS', '2147484'],
    ['SKILLPORT_MCP_SESSION_IDLE_SECONDS', '2147484'],
    ['SKILLPORT_REQUEST_TIMEOUT_SECONDS', '2147484'],
    ['SKILLPORT_RESPONSE_STALL_SECONDS', '2147484'],
    ['SKILLPORT_WORKER_TASK_BUDGET_MS', '2147483648'],
    ['SKILLPORT_SQLITE_BUSY_TIMEOUT_MS', '2147483648'],
    ['SKILLPORT_DATABASE_STATEMENT_TIMEOUT_MS', '2147483648'],
  ])('%s=%s, past what a timer holds, is refused naming the variable and its maximum', (name, value) => {
    expect(() => optionsFromEnv({ [name]: value })).toThrow(
      new RegExp(`${name} must be at most \\d+ \\(about 24 days\\), got "${value}"`),
    );
  });

  test('durations up to what a timer holds are taken', () => {
    // The shutdown delay leaves room for the 20 s the process may take to stop after it.
    expect(optionsFromEnv({ SKILLPORT_SHUTDOWN_DELAY_SECONDS: '2147463' }).shutdownDelaySeconds).toBe(
      2147463,
    );
    expect(() => optionsFromEnv({ SKILLPORT_SHUTDOWN_DELAY_SECONDS: '2147464' })).toThrow(
      /SKILLPORT_SHUTDOWN_DELAY_SECONDS must be at most 2147463/,
    );
    expect(optionsFromEnv({ SKILLPORT_MAX_WAIT_SECONDS: '2147483' }).limits).toEqual({
      maxWaitSeconds: 2147483,
    });
    expect(optionsFromEnv({ SKILLPORT_WORKER_TASK_BUDGET_MS: '2147483647' }).workers?.taskBudgetMs).toBe(
      2147483647,
    );
    expect(() =>
      optionsFromEnv({
        SKILLPORT_SUMMARY_BASE_URL: 'http://127.0.0.1:11434/v1',
        SKILLPORT_SUMMARY_MODEL: 'llama3.2',
        SKILLPORT_SUMMARY_BUDGET_SECONDS: '2147484',
      }),
    ).toThrow(/SKILLPORT_SUMMARY_BUDGET_SECONDS must be at most 2147483 \(about 24 days\)/);
  });

  test('reads the read cache size (0 turns it off)', () => {
    expect(optionsFromEnv({ SKILLPORT_READ_CACHE_MB: '64' })).toEqual({ readCacheMb: 64 });
    expect(optionsFromEnv({ SKILLPORT_READ_CACHE_MB: '0' })).toEqual({ readCacheMb: 0 });
  });
});

describe('CORS, waiting without a job runner, expiry', () => {
  test('CORS answers preflight for allowed origins and exposes X-Request-Id, ETag and Retry-After', async () => {
    const t = await startTestServer({ corsOrigins: ['https://app.example'] });
    try {
      const preflight = await fetch(`${t.url}/api/v1/skills`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
      const get = await t.request('GET', '/api/v1/skills', { headers: { origin: 'https://app.example' } });
      expect(get.headers.get('access-control-expose-headers')).toMatch(/X-Request-Id/i);
      expect(get.headers.get('access-control-expose-headers')).toMatch(/ETag/i);
      // A 429 or 503 says when to try again; a page on another origin must be able to read it.
      expect(get.headers.get('access-control-expose-headers')).toMatch(/Retry-After/i);
      const other = await t.request('GET', '/api/v1/skills', { headers: { origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await t.close();
    }
  });

  test("CORS keeps a get's Vary on the caller's key and adds Origin (a shared cache must not mix callers)", async () => {
    const t = await startTestServer({ corsOrigins: ['https://app.example'] });
    try {
      expect(
        (await t.request('POST', '/api/v1/skills', { body: { data: md('varied'), wait: true } })).status,
      ).toBe(200);
      for (const origin of ['https://app.example', undefined]) {
        const get = await t.request('GET', '/api/v1/skills/varied?level=0', {
          headers: origin === undefined ? {} : { origin },
        });
        expect(get.status).toBe(200);
        const vary = (get.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
        expect(vary).toEqual(expect.arrayContaining(['authorization', 'x-api-key', 'origin']));
        expect(new Set(vary).size).toBe(vary.length);
      }
    } finally {
      await t.close();
    }
  });

  test('wait=true times out with 504 DEADLINE_EXCEEDED (the skill is stored)', async () => {
    const t = await startTestServer({ runJobs: false });
    try {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: md('slow'), wait: true, timeout: 0.2 },
      });
      expect(res.status).toBe(504);
      expect(res.json.error.code).toBe('DEADLINE_EXCEEDED');
      expect(res.json.error.details.queue_status.pending).toBe(1);
      // The answer says what was stored and which task to follow: a client need not send it again.
      const stored = await t.request('GET', '/api/v1/skills/slow?level=0');
      const { details } = res.json.error;
      expect(details).toMatchObject({
        timeout: 0.2,
        name: 'slow',
        uri: stored.json.result.uri,
        root_uri: stored.json.result.uri,
        revision: stored.json.result.revision,
        auxiliary_files: 0,
        replaced: false,
        warnings: expect.any(Array),
      });
      expect(res.json.error.message).toContain(`GET /api/v1/tasks/${details.task_id}`);
      const task = await t.request('GET', `/api/v1/tasks/${details.task_id}`);
      expect(task.status).toBe(200);
      expect(task.json.result).toMatchObject({ task_type: 'add_skill', status: 'pending' });
      // An update with If-Match that times out: the new revision is named; the old tag is now stale.
      const update = await t.request('PUT', '/api/v1/skills/slow', {
        body: { data: md('slow').replace('body', 'new body'), wait: true, timeout: 0.1 },
        headers: { 'If-Match': `"${details.revision}"` },
      });
      expect(update.status).toBe(504);
      expect(update.json.error.details).toMatchObject({ name: 'slow', replaced: true, action: 'update' });
      expect(update.json.error.details.revision).not.toBe(details.revision);
      const after = await t.request('GET', '/api/v1/skills/slow?level=0');
      expect(after.json.result.revision).toBe(update.json.error.details.revision);
      // So does a restore of the first revision.
      const restore = await t.request('POST', '/api/v1/skills/slow/restore', {
        body: { revision: details.revision, wait: true, timeout: 0.1 },
      });
      expect(restore.status).toBe(504);
      expect(restore.json.error.details).toMatchObject({
        name: 'slow',
        revision: details.revision,
        action: 'restore',
        task_id: expect.any(String),
      });
      const wait = await t.request('POST', '/api/v1/system/wait', { body: { timeout: 0.1 } });
      expect(wait.status).toBe(504);
      const queue = await t.request('GET', '/api/v1/observer/queue');
      expect(queue.json.result.pending).toBe(3);
    } finally {
      await t.close();
    }
  });

  test('rate limit per key → 429 RESOURCE_EXHAUSTED with Retry-After', async () => {
    const t = await startTestServer({ limits: { rateLimitPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof t.request>> | null = null;
      for (let i = 0; i < 4; i++) {
        last = await t.request('GET', '/api/v1/skills');
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last?.json.error.code).toBe('RESOURCE_EXHAUSTED');
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await t.request('GET', '/health')).status).toBe(200);
    } finally {
      await t.close();
    }
  });

  test('expired temp uploads are gone (404)', async () => {
    const t = await startTestServer({ limits: { tempUploadTtlSeconds: 0 } });
    try {
      const form = new FormData();
      form.append('file', new Blob([md('expired')]), 'SKILL.md');
      const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
      await new Promise((r) => setTimeout(r, 5));
      const res = await t.request('POST', '/api/v1/skills', {
        body: { temp_file_id: up.json.result.temp_file_id },
      });
      expect(res.status).toBe(404);
      expect(res.json.error.details.type).toBe('temp_file');
    } finally {
      await t.close();
    }
  });
});

describe('failures of the store', () => {
  test('an unexpected error is 500 INTERNAL with the request id; no stack leaks', async () => {
    const dataDir = tempDir();
    const { createApp } = await import('../../src/index.js');
    const store = openEngineStore(dataDir);
    // Fault injection on the real store: one method fails as a broken disk would.
    const faulty = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'listSkills')
          return async () => Promise.reject(new Error('disk I/O error at /secret/path'));
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const errors: unknown[] = [];
    const { fetch: handle } = await createApp({
      store: faulty,
      logger: { info: () => {}, error: (r) => errors.push(r) },
    });
    try {
      const res = await handle(
        new Request('http://x/api/v1/skills', { headers: { 'x-request-id': 'boom-1' } }),
      );
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body.error).toEqual({
        code: 'INTERNAL',
        message: 'Internal server error',
        details: { request_id: 'boom-1' },
      });
      expect(JSON.stringify(body)).not.toContain('/secret/path');
      expect(JSON.stringify(errors)).toContain('disk I/O error');
    } finally {
      await store.close();
    }
  });

  test('a write failing after the input was accepted is 500 PROCESSING_ERROR', async () => {
    const dataDir = tempDir();
    const { createApp } = await import('../../src/index.js');
    const store = openEngineStore(dataDir);
    const faulty = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'putSkill') return async () => Promise.reject(new Error('disk full'));
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { fetch: handle } = await createApp({ store: faulty, logger: false });
    try {
      const res = await handle(
        new Request('http://x/api/v1/skills', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: md('never-written') }),
        }),
      );
      expect(res.status).toBe(500);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 'PROCESSING_ERROR', details: { name: 'never-written' } });
      expect(JSON.stringify(body)).not.toContain('disk full');
    } finally {
      await store.close();
    }
  });

  test('a closed store is 503 UNAVAILABLE with Retry-After', async () => {
    const dataDir = tempDir();
    const { createApp } = await import('../../src/index.js');
    const store = openEngineStore(dataDir);
    const { fetch: handle } = await createApp({ store, logger: false });
    await store.close();
    const res = await handle(new Request('http://x/api/v1/skills'));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect((await res.json()).error.code).toBe('UNAVAILABLE');
  });

  // ECONNREFUSED: the server is down; the others: its host name no longer resolves (DNS) or no route
  // leads to it. Each fails every call as the PostgreSQL driver does.
  test.each([
    ['ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.7:5432'],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND db-10-0-0-7.internal'],
    ['EAI_AGAIN', 'getaddrinfo EAI_AGAIN db-10-0-0-7.internal'],
    ['EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.7:5432'],
    ['ENETUNREACH', 'connect ENETUNREACH 10.0.0.7:5432'],
  ])(
    'a database that cannot be reached (%s) is 503 UNAVAILABLE saying so (not "busy"), without its address',
    async (code, message) => {
      const { createApp } = await import('../../src/index.js');
      const store = openEngineStore(tempDir());
      // Once the app is up, every store call fails as the PostgreSQL driver does when the server is down.
      let down = false;
      const refused = () => Object.assign(new Error(message), { code, address: '10.0.0.7' });
      const failing = new Proxy(store, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (typeof value !== 'function' || prop === 'close') return value;
          return (...args: unknown[]) => {
            if (down) return Promise.reject(refused());
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
      try {
        const { fetch: handle } = await createApp({ store: failing, logger: false });
        down = true;
        const res = await handle(new Request('http://x/api/v1/skills'));
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        const body = await res.json();
        expect(body.error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'store_unavailable' } });
        expect(body.error.message).toMatch(
          new RegExp(`^The server cannot reach its database \\(${code}\\); retry shortly`),
        );
        expect(body.error.message).not.toContain('10.0.0.7');
        expect(body.error.message).not.toContain('internal');
      } finally {
        await store.close();
      }
    },
  );
});
