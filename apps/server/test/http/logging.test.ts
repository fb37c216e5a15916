/**
 * The server's logs as an operator reads them: JSON lines by pino from a real server process, levels
 * from LOG_LEVEL, and no API key in any line whatever a client sends.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, describe, expect, test } from 'vitest';
import { createApp, createLogger, createSqliteStore } from '../../src/index.js';
import { startServerProcess } from '../helpers/server-process.js';

const serverDir = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'skillport-logs-'));
  dirs.push(dir);
  return dir;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function call(url: string, init: RequestInit & { key?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('x-api-key', init.key);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...init, headers });
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  return { status: res.status, json: (await res.json().catch(() => null)) as any };
}

describe('a server process with a root key, at LOG_LEVEL=debug', () => {
  const root = `operator-root-${randomBytes(12).toString('hex')}`;
  let output = '';
  const secrets: string[] = [root];

  test('no key sent, created or configured appears in any log line', async () => {
    const proc = await startServerProcess({ LOG_LEVEL: 'debug', SKILLPORT_ROOT_API_KEY: root });
    try {
      const api = `${proc.url}/api/v1`;
      expect(
        (
          await call(`${api}/admin/accounts`, {
            method: 'POST',
            key: root,
            body: JSON.stringify({ account_id: 'acme' }),
          })
        ).status,
      ).toBe(200);
      await call(`${api}/admin/accounts/acme/users`, {
        method: 'POST',
        key: root,
        body: JSON.stringify({ user_id: 'alice' }),
      });
      const created = await call(`${api}/admin/accounts/acme/keys`, {
        method: 'POST',
        key: root,
        body: JSON.stringify({ user_id: 'alice', role: 'admin' }),
      });
      expect(created.status).toBe(200);
      const key: string = created.json.result.api_key;
      secrets.push(key);
      // The key in every place a client might put it: header, bearer, query string, a path, a body.
      const skill =
        '---\nname: log-check\ndescription: A skill added while the logs are read\n---\n\n# Log check\n';
      expect(
        (
          await call(`${api}/skills`, {
            method: 'POST',
            key,
            body: JSON.stringify({ data: skill, wait: true }),
          })
        ).status,
      ).toBe(200);
      await call(`${api}/skills`, { headers: { authorization: `Bearer ${key}` } });
      await call(`${api}/skills?api_key=${key}&token=${encodeURIComponent(root)}`, { key });
      expect((await call(`${api}/tasks/${key}`, { key })).status).toBe(404);
      await call(`${api}/skills/find`, { method: 'POST', key, body: JSON.stringify({ query: key }) });
      const wrong = `sk_${randomBytes(32).toString('base64url')}`;
      secrets.push(wrong);
      expect((await call(`${api}/skills`, { key: wrong })).status).toBe(401);
      await call(`${api}/skills`, { headers: { authorization: `Bearer ${wrong}` } });
      await call(`${proc.url}/health`, { key });
    } finally {
      await proc.stop();
      output = proc.stdout() + proc.stderr();
    }
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(8);
    for (const secret of secrets) expect(output).not.toContain(secret);
    // Redaction did happen (the key in a path was cut), and every line is JSON in the documented shape.
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const record of records) {
      expect(record).toMatchObject({
        level: expect.any(String),
        msg: expect.any(String),
        pid: expect.any(Number),
      });
      expect(String(record.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const requests = records.filter((r) => r.msg === 'request');
    expect(requests.map((r) => r.path)).toContain('/api/v1/tasks/sk_[redacted]');
    expect(requests.some((r) => r.status === 401)).toBe(true);
    expect(requests.find((r) => r.status === 200 && r.account_id === 'acme')).toMatchObject({
      user_id: 'alice',
      level: 'info',
    });
  });
});

describe('request lines on stdout (buffered)', () => {
  test('reach stdout while the server runs, and the last ones are not lost at a stop', async () => {
    const proc = await startServerProcess({});
    const first = `buffered-${randomBytes(6).toString('hex')}`;
    const last = `at-stop-${randomBytes(6).toString('hex')}`;
    try {
      const res = await fetch(`${proc.url}/api/v1/skills`, { headers: { 'x-request-id': first } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      // The buffer is written within its flush interval without any further traffic.
      for (let i = 0; i < 200 && !proc.stdout().includes(first); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(proc.stdout()).toContain(first);
      const burst = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fetch(`${proc.url}/health`, { headers: { 'x-request-id': `${last}-${i}` } }).then((r) => r.status),
        ),
      );
      expect(burst.every((status) => status === 200)).toBe(true);
    } finally {
      await proc.stop();
    }
    const ids = proc
      .stdout()
      .split('\n')
      .filter((l) => l.includes(`"request_id":"${last}-`))
      .map((l) => (JSON.parse(l) as { request_id: string }).request_id);
    expect(ids.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${last}-${i}`).sort());
  });
});

describe('LOG_LEVEL', () => {
  test('warn: neither the start-up line nor request lines are written', async () => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@skillport/source', 'src/main.ts'],
      {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH ?? '',
          LOG_LEVEL: 'warn',
          SKILLPORT_PORT: String(port),
          SKILLPORT_DATA_DIR: tempDir(),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let up = false;
      for (let i = 0; i < 600 && !up; i++) {
        up = await fetch(`http://127.0.0.1:${port}/health`).then(
          (r) => r.ok,
          () => false,
        );
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/skills`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    expect(out).toBe('');
  });

  test('an unknown level stops the start with a message naming the variable', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--conditions=@skillport/source', 'src/main.ts'],
      {
        cwd: serverDir,
        env: {
          PATH: process.env.PATH ?? '',
          LOG_LEVEL: 'loud',
          SKILLPORT_PORT: '0',
          SKILLPORT_DATA_DIR: tempDir(),
        },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"/,
    );
  });
});

describe('loggers passed in code', () => {
  test('a pino logger works as is, and gets redacted records', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const store = createSqliteStore({ dataDir: tempDir() });
    const { fetch } = await createApp({ store, logger: pino({ level: 'info' }, sink) });
    try {
      const res = await fetch(
        new Request('http://x/api/v1/tasks/sk_AAAAAAAAAAAAAAAAAAAAAAAA', {
          headers: { 'x-request-id': 'pino-1' },
        }),
      );
      expect(res.status).toBe(404);
      expect(res.headers.get('x-request-id')).toBe('pino-1');
      const record = JSON.parse(lines.find((l) => l.includes('pino-1')) ?? '{}');
      expect(record).toMatchObject({
        msg: 'request',
        level: 30,
        path: '/api/v1/tasks/sk_[redacted]',
        status: 404,
      });
    } finally {
      await store.close();
    }
  });

  test('createLogger writes to a given destination at the given level', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'error',
      destination: { write: (line: string) => lines.push(line) },
    });
    logger.info({ msg: 'dropped' });
    logger.warn?.({ msg: 'dropped too' });
    logger.error({ msg: 'kept', key: 'value', api_key: 'sk_BBBBBBBBBBBBBBBBBBBB' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      level: 'error',
      msg: 'kept',
      key: 'value',
      api_key: '[redacted]',
    });
  });
});
