import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { engineEnv } from '../helpers/engine.js';

// `node dist/main.js` as operators run it; `pnpm test` builds dist before running vitest.
const mainJs = path.resolve(import.meta.dirname, '../../dist/main.js');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function run(
  env: Record<string, string>,
  engine = false,
  nodeArgs: string[] = [],
  args: string[] = [],
): {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
} {
  if (!existsSync(mainJs))
    throw new Error(`${mainJs} is missing: run \`pnpm --filter @skillport/server build\` first`);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-main-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [...nodeArgs, mainJs, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      SKILLPORT_DATA_DIR: dataDir,
      SKILLPORT_PORT: '0',
      ...(engine ? engineEnv(dataDir) : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('node dist/main.js', () => {
  test('starts from env, logs a startup line and one line per request, stops on SIGTERM with exit 0', async () => {
    const p = run({}, true);
    await until(() => p.out().includes('"msg":"listening"'));
    const startup = JSON.parse(p.out().split('\n')[0] ?? '{}');
    expect(startup).toMatchObject({ level: 'info', msg: 'listening', auth_mode: 'dev' });
    expect(startup.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${startup.url}/health`);
    expect(health.status).toBe(200);
    await until(() => p.out().includes('"msg":"request"'));
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
    expect(p.out()).toContain('"msg":"shutting down"');
  });

  // A hangup (the terminal or SSH session that started it closed, `kill -HUP` from a script) used to
  // end the process at once (Node's default): no graceful close, running jobs not handed back, the
  // last buffered log lines lost. It stops as SIGTERM does, as under `skillport serve`.
  test('stops gracefully on SIGHUP with exit 0', async () => {
    const p = run({}, true);
    await until(() => p.out().includes('"msg":"listening"'));
    const { url } = JSON.parse(p.out().split('\n')[0] ?? '{}');
    expect((await fetch(`${url}/health`)).status).toBe(200);
    p.child.kill('SIGHUP');
    expect(await p.exit).toBe(0);
    expect(p.out()).toContain('"msg":"shutting down","signal":"SIGHUP"');
    // The buffered request line of the health check is written before the process exits.
    expect(p.out()).toContain('"path":"/health"');
  });

  // Large input goes to the worker threads, which load `dist/workers/worker-entry.js` in a build.
  test('parses a large SKILL.md and extracts its overview in worker threads', async () => {
    const p = run({});
    await until(() => p.out().includes('"msg":"listening"'));
    const { url } = JSON.parse(p.out().split('\n')[0] ?? '{}');
    const body = `## Usage\n\n${'Use it with care. '.repeat(20_000)}\n\n## Parameters\n\n- **q** (string): query\n`;
    const text = `---\nname: big-skill\ndescription: A large skill processed off the HTTP thread\n---\n${body}`;
    const add = await fetch(`${url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: text, wait: true }),
    });
    const added = await add.json();
    expect(add.status, JSON.stringify(added)).toBe(200);
    expect(added.result.queue_status).toMatchObject({ completed: 1, failed: 0 });
    const got = await (await fetch(`${url}/api/v1/skills/big-skill?level=1`)).json();
    expect(got.result.overview).toContain('- **q** (string): query');
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });

  // Worker threads refuse V8 and per-process options in their execArgv: the server must not pass them on.
  test('starts its threads when node runs with memory options (--max-old-space-size, --max-semi-space-size, --heap-growing-percent)', async () => {
    const p = run({}, true, [
      '--max-old-space-size=256',
      '--max-semi-space-size=4',
      '--heap-growing-percent=20',
      '--stack-size=984',
    ]);
    await until(() => p.out().includes('"msg":"listening"') || p.err() !== '');
    expect(p.err()).toBe('');
    const { url } = JSON.parse(p.out().split('\n')[0] ?? '{}');
    const body = `## Usage\n\n${'Use it with care. '.repeat(20_000)}\n`;
    const text = `---\nname: flagged-skill\ndescription: Added while node runs with memory options\n---\n${body}`;
    const add = await fetch(`${url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: text, wait: true }),
    });
    expect(add.status, await add.clone().text()).toBe(200);
    const found = await fetch(`${url}/api/v1/skills/find`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'flagged memory options' }),
    });
    const hits = await found.json();
    expect(found.status).toBe(200);
    expect(JSON.stringify(hits.result)).toContain('flagged-skill');
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });

  test.each([
    [{ SKILLPORT_HOST: '0.0.0.0' }, /loopback/],
    [
      { SKILLPORT_DATABASE_URL: 'postgres://u:secret@127.0.0.1:1/x' },
      /PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x is unreachable/,
    ],
    [
      { SKILLPORT_DATABASE_URL: 'postgres://127.0.0.1:1/x', SKILLPORT_DATABASE_SSL: 'maybe' },
      /SKILLPORT_DATABASE_SSL must be one of/,
    ],
    [{ SKILLPORT_PORT: 'x' }, /SKILLPORT_PORT/],
  ])('%j → exit 1 with a clear message', async (env, message) => {
    const p = run(env);
    expect(await p.exit).toBe(1);
    expect(p.err()).toMatch(message);
    expect(p.err()).not.toContain('secret');
  });

  // It reads the environment only: an argument used to be ignored (`--port 8080` served on 1933).
  test('--help prints the settings and exits 0 without starting', async () => {
    const p = run({}, false, [], ['--help']);
    expect(await p.exit).toBe(0);
    expect(p.out()).toContain('Usage: node dist/main.js');
    expect(p.out()).toContain('SKILLPORT_PORT');
    expect(p.out()).not.toContain('"msg":"listening"');
  });

  test.each([
    [['--port', '8080'], 'got "--port"): set SKILLPORT_PORT instead (SKILLPORT_PORT=8080 node dist/main.js)'],
    [
      ['--data-dir=./my data'],
      "set SKILLPORT_DATA_DIR instead (SKILLPORT_DATA_DIR='./my data' node dist/main.js)",
    ],
    [['serve'], 'got "serve"): settings are environment variables'],
  ])('%j → exit 2 naming the setting, nothing started', async (args, message) => {
    const p = run({}, false, [], args);
    expect(await p.exit).toBe(2);
    expect(p.err()).toContain('dist/main.js takes no arguments (');
    expect(p.err()).toContain(message);
    expect(p.out()).toBe('');
  });
});
