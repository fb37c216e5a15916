/**
 * `GET /ready` (readiness for load balancers), graceful shutdown, and two in-process servers on one
 * database (SQLite file or PostgreSQL schema) behaving as replicas of one registry.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../../src/index.js';
import type { Store } from '../../src/store/types.js';
import {
  dropEngineData,
  openEngineStore,
  ENGINE_SCHEMA_VERSION as SCHEMA_VERSION,
  setSchemaVersion,
  TEST_ENGINE,
} from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.close();
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

const md = (name: string, body = 'body') =>
  `---\nname: ${name}\ndescription: A skill written through one replica and read through another\n---\n${body}\n`;

describe('GET /ready', () => {
  it('answers 200 with the engine and schema version when the database is current', async () => {
    const t = await start();
    const res = await t.request('GET', '/ready');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.json).toEqual({
      status: 'ready',
      ready: true,
      version: expect.any(String),
      engine: TEST_ENGINE,
      schema_version: SCHEMA_VERSION,
      expected_schema_version: SCHEMA_VERSION,
    });
  });

  it.each([
    { case: 'migrations pending', version: SCHEMA_VERSION - 1, reason: /migrations pending/ },
    { case: 'migrated by a newer build', version: SCHEMA_VERSION + 1, reason: /newer build/ },
  ])('answers 503 when the schema changed under it: $case', async ({ version, reason }) => {
    const t = await start();
    try {
      await setSchemaVersion(t.dataDir, version);
      const res = await t.request('GET', '/ready');
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({
        status: 'unavailable',
        ready: false,
        schema_version: version,
        expected_schema_version: SCHEMA_VERSION,
        reason: expect.stringMatching(reason),
      });
      // Liveness is a different question: the process is up.
      expect((await t.request('GET', '/health')).status).toBe(200);
    } finally {
      await setSchemaVersion(t.dataDir, SCHEMA_VERSION);
    }
    expect((await t.request('GET', '/ready')).status).toBe(200);
  });

  it('answers while the server starts: /health, /ready and other requests 503 "starting" until the migrations end', async () => {
    // A first start on a registry of an older build migrates it before serving (seconds to minutes:
    // search data of every skill is rebuilt). Requests get a clear answer meanwhile, not a refused
    // connection; /health is not 200 until the server serves (scripts and load balancers wait for it).
    const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-starting-'));
    const store = openEngineStore(dataDir);
    let release: () => void = () => {};
    const migrating = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slowStore: Store = Object.assign(Object.create(store) as Store, {
      migrate: async () => {
        await migrating;
        await store.migrate();
      },
    });
    const free = createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    const base = `http://127.0.0.1:${port}`;
    const started = startServer({ port, store: slowStore, logger: false, runJobs: false });
    try {
      let health: Response | null = null;
      for (let tries = 0; health === null && tries < 100; tries++) {
        health = await fetch(`${base}/health`).catch(() => null);
        if (health === null) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(health?.status).toBe(503);
      expect(health?.headers.get('retry-after')).toBe('5');
      expect(await health?.json()).toMatchObject({ status: 'starting', healthy: false });

      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'unavailable',
        ready: false,
        version: expect.any(String),
        engine: TEST_ENGINE,
        schema_version: null,
        expected_schema_version: SCHEMA_VERSION,
        reason: expect.stringMatching(/^starting: .*migrations/),
      });

      const list = await fetch(`${base}/api/v1/skills`);
      expect(list.status).toBe(503);
      expect(list.headers.get('retry-after')).toBe('5');
      expect((await list.json()).error).toMatchObject({
        code: 'UNAVAILABLE',
        details: { reason: 'starting' },
      });
    } finally {
      release();
      const server = await started;
      try {
        expect((await fetch(`${base}/ready`)).status).toBe(200);
        expect((await (await fetch(`${base}/health`)).json()).healthy).toBe(true);
      } finally {
        await server.close();
        await store.close();
        await dropEngineData(dataDir);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  });

  it('answers 503 "shutting down" from the start of a graceful stop while requests are still served', async () => {
    const t = await start({ shutdownDelaySeconds: 1 });
    expect((await t.request('GET', '/ready')).status).toBe(200);
    const closing = t.server.close();
    const ready = await t.request('GET', '/ready');
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({ ready: false, reason: 'shutting down' });
    const add = await t.request('POST', '/api/v1/skills', { body: { data: md('during-drain') } });
    expect(add.status, add.text).toBe(200);
    await closing;
  });

  it('ends a wait in progress saying the server is shutting down, not that the timeout ran out', async () => {
    // An overview endpoint that never answers keeps the job running until the stop hands it back.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const t = await start({
        summary: { baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', budgetSeconds: 600 },
        shutdownDelaySeconds: 1,
      });
      const adding = t.request('POST', '/api/v1/skills', {
        body: { data: md('waited-on'), wait: true, timeout: 250 },
      });
      for (;;) {
        const queue = await t.request('GET', '/api/v1/observer/queue');
        if (queue.json.result.processing === 1) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // A wait sent as the stop begins (still served while the load balancer takes the server out).
      const closing = t.server.close();
      const waiting = t.request('POST', '/api/v1/system/wait', { body: { timeout: 250 } });
      const [add, wait] = await Promise.all([adding, waiting]);
      await closing;

      expect(add.status, add.text).toBe(504);
      expect(add.json.error.message).toMatch(
        /^Skill "waited-on" is stored \(.*\), but this server is shutting down: it stopped waiting for its processing after \d+ s .*Do not send it again: follow task /,
      );
      expect(add.json.error.message).not.toContain('250 s');
      // One server alone (as here) has no other server to run the job: it runs when this one starts again.
      expect(add.json.error.message).toContain('the job goes on when this server starts again');
      expect(add.json.error.details).toMatchObject({
        timeout: 250,
        reason: 'shutting_down',
        name: 'waited-on',
      });
      expect(add.json.error.details.task_id).toEqual(expect.any(String));

      expect(wait.status, wait.text).toBe(504);
      expect(wait.json.error.message).toMatch(
        /^This server is shutting down: it stopped waiting after \d+ s of the 250 s asked \(\d+ pending, \d+ processing\)/,
      );
      expect(wait.json.error.message).toContain('The jobs go on when this server starts again');
      expect(wait.json.error.details).toMatchObject({ timeout: 250, reason: 'shutting_down' });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe(`two servers on one ${TEST_ENGINE} database`, () => {
  it('share skills, jobs and waits: a write through A is read, awaited and updated through B', async () => {
    const a = await start();
    const b = await start({ dataDir: a.dataDir });
    const add = await a.request('POST', '/api/v1/skills', { body: { data: md('shared-skill') } });
    expect(add.status, add.text).toBe(200);
    const wait = await b.request('POST', '/api/v1/system/wait', { body: { timeout: 20 } });
    expect(wait.status, wait.text).toBe(200);
    expect(wait.json.result).toMatchObject({ pending: 0, processing: 0 });
    const task = await b.request('GET', `/api/v1/tasks/${add.json.result.task_id}`);
    expect(task.json.result).toMatchObject({ status: 'completed', result: { attempt: 1 } });
    const got = await b.request('GET', '/api/v1/skills/shared-skill');
    expect(got.status).toBe(200);
    expect(got.json.result.revision).toBe(add.json.result.revision);

    const update = await b.request('PUT', '/api/v1/skills/shared-skill', {
      body: { data: md('shared-skill', 'changed through B') },
      headers: { 'if-match': `"${add.json.result.revision}"` },
    });
    expect(update.status, update.text).toBe(200);
    const stale = await a.request('PUT', '/api/v1/skills/shared-skill', {
      body: { data: md('shared-skill', 'lost update through A') },
      headers: { 'if-match': `"${add.json.result.revision}"` },
    });
    expect(stale.status).toBe(412);
  });

  it('ends dev mode on every server once a key is created through one of them', async () => {
    const a = await start();
    const b = await start({ dataDir: a.dataDir });
    expect((await b.request('GET', '/api/v1/skills')).status).toBe(200);
    const created = await a.request('POST', '/api/v1/admin/accounts/default/keys', {
      body: { user_id: 'default', role: 'admin' },
    });
    expect(created.status, created.text).toBe(200);
    const key: string = created.json.result.api_key;
    expect((await b.request('GET', '/health')).json.auth_mode).toBe('api_key');
    expect((await b.request('GET', '/api/v1/skills')).status).toBe(401);
    expect((await b.request('GET', '/api/v1/skills', { apiKey: key })).status).toBe(200);
  });
});
