/**
 * `skillport serve` started again in a child process with the memory settings that apply only at
 * process start: which invocations do it, what the child gets, and that the child ends with its parent.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  relaunchPlan,
  SERVE_CHILD_ENV,
  SERVE_HEAP_GROWING_PERCENT,
  serveInvocation,
  usesGlibc,
} from '../src/internal/serve-process.js';
import { CLI_BIN, cleanEnv, requireBuild } from './support/processes.js';

describe('serveInvocation', () => {
  it.each([
    [['serve'], { databaseUrl: undefined }],
    [['-o', 'json', 'serve', '--port', '0'], { databaseUrl: undefined }],
    [['--url', 'http://x', '--api-key=k', 'serve'], { databaseUrl: undefined }],
    [['serve', '--database-url', 'postgres://h/db'], { databaseUrl: 'postgres://h/db' }],
    [['serve', '--database-url=sqlite:/tmp/a.db'], { databaseUrl: 'sqlite:/tmp/a.db' }],
  ])('%j is serve', (args, expected) => {
    expect(serveInvocation(args)).toEqual(expected);
  });

  it.each([[[]], [['find', 'serve']], [['-o', 'serve', 'find']], [['serve', '--help']], [['serve', '-h']]])(
    '%j is not (or only asks for help)',
    (args) => {
      expect(serveInvocation(args)).toBeNull();
    },
  );
});

describe('relaunchPlan', () => {
  it('on glibc: fewer arenas, fixed malloc thresholds, a smaller young generation and heap growth, in a marked child', () => {
    expect(relaunchPlan({}, [], undefined, true)).toEqual({
      execArgv: ['--max-semi-space-size=2', '--heap-growing-percent=50'],
      env: {
        [SERVE_CHILD_ENV]: '1',
        MALLOC_ARENA_MAX: '2',
        MALLOC_MMAP_THRESHOLD_: '131072',
        MALLOC_TRIM_THRESHOLD_: '1048576',
      },
    });
  });

  it('keeps the settings the operator chose; none elsewhere than glibc', () => {
    expect(relaunchPlan({ MALLOC_ARENA_MAX: '4' }, [], undefined, true)?.env).toEqual({
      [SERVE_CHILD_ENV]: '1',
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '1048576',
    });
    expect(
      relaunchPlan({ MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536' }, [], undefined, true)?.env,
    ).toEqual({ [SERVE_CHILD_ENV]: '1', MALLOC_TRIM_THRESHOLD_: '1048576' });
    expect(relaunchPlan({}, ['--max-semi-space-size=8'], undefined, true)?.execArgv).toEqual([
      '--heap-growing-percent=50',
    ]);
    expect(relaunchPlan({}, ['--heap_growing_percent=50'], undefined, true)?.execArgv).toEqual([
      '--max-semi-space-size=2',
    ]);
    const all = {
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '131072',
      MALLOC_TRIM_THRESHOLD_: '1048576',
      NODE_OPTIONS: '--max-semi-space-size=8',
    };
    expect(relaunchPlan(all, ['--heap-growing-percent=30'], undefined, true)).toBeNull();
    // The Node options alone: the heap growth is still missing.
    expect(relaunchPlan(all, [], undefined, true)).toEqual({
      execArgv: ['--heap-growing-percent=50'],
      env: { [SERVE_CHILD_ENV]: '1' },
    });
    // One left to the default: still relaunched, with only that one.
    const { MALLOC_TRIM_THRESHOLD_: _, ...three } = all;
    expect(relaunchPlan(three, ['--heap-growing-percent=30'], undefined, true)).toEqual({
      execArgv: [],
      env: { [SERVE_CHILD_ENV]: '1', MALLOC_TRIM_THRESHOLD_: '1048576' },
    });
    expect(relaunchPlan({}, [], undefined, false)).toBeNull();
  });

  it('not in the child, not when turned off', () => {
    expect(relaunchPlan({ [SERVE_CHILD_ENV]: '1' }, [], undefined, true)).toBeNull();
    expect(relaunchPlan({ SKILLPORT_SERVE_RELAUNCH: '0' }, [], undefined, true)).toBeNull();
    expect(relaunchPlan({ SKILLPORT_SERVE_RELAUNCH: '0' }, [], 'postgres://h/db', true)).toBeNull();
    expect(relaunchPlan({}, [], 'sqlite:/tmp/a.db', true)).not.toBeNull();
  });

  it('on PostgreSQL: the heap growing factor only, glibc and the young generation left at their defaults', () => {
    const v8Only = {
      execArgv: [`--heap-growing-percent=${SERVE_HEAP_GROWING_PERCENT}`],
      env: { [SERVE_CHILD_ENV]: '1' },
    };
    expect(relaunchPlan({}, [], 'postgres://h/db', true)).toEqual(v8Only);
    expect(relaunchPlan({ SKILLPORT_DATABASE_URL: 'postgresql://h/db' }, [], undefined, true)).toEqual(
      v8Only,
    );
    // The flag given to `--database-url` wins over the environment's SQLite file.
    expect(relaunchPlan({ SKILLPORT_DATABASE_URL: 'sqlite:/tmp/a.db' }, [], 'postgres://h/db', true)).toEqual(
      v8Only,
    );
    expect(relaunchPlan({}, ['--heap-growing-percent=30'], 'postgres://h/db', true)).toBeNull();
    expect(relaunchPlan({}, [], 'postgres://h/db', false)).toBeNull();
  });
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The child processes of `pid` (Linux `/proc`). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) out.push(...text.split(' ').map(Number));
  }
  return out;
}

describe.skipIf(!usesGlibc())('the built executable (glibc)', () => {
  it('runs the server in a child with the settings; the child ends when its parent is killed', async () => {
    requireBuild();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-serve-child-'));
    dirs.push(dataDir);
    const env = cleanEnv();
    delete env.MALLOC_ARENA_MAX;
    delete env.MALLOC_MMAP_THRESHOLD_;
    delete env.MALLOC_TRIM_THRESHOLD_;
    delete env.NODE_OPTIONS;
    const parent = spawn(
      process.execPath,
      [CLI_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '-o', 'json'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise((resolve) => parent.once('exit', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      parent.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /"url":"([^"]+)"/.exec(out);
        if (match) resolve(match[1] as string);
      });
      parent.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const [child] = childrenOf(parent.pid as number);
    expect(child).toBeTypeOf('number');
    const environ = readFileSync(`/proc/${child}/environ`, 'utf8').split('\0');
    const cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
    expect(environ).toContain(`${SERVE_CHILD_ENV}=1`);
    expect(cmdline).toContain('--max-semi-space-size=2');
    expect(cmdline).toContain('--heap-growing-percent=50');
    expect(environ).toContain('MALLOC_ARENA_MAX=2');
    expect(environ).toContain('MALLOC_MMAP_THRESHOLD_=131072');
    expect(environ).toContain('MALLOC_TRIM_THRESHOLD_=1048576');
    parent.kill('SIGKILL');
    await exited;
    // The child ends on its own once its parent is gone: the port stops answering.
    for (let i = 0; i < 100; i++) {
      const alive =
        existsSync(`/proc/${child}`) && !/State:\s+Z/.test(readFileSync(`/proc/${child}/status`, 'utf8'));
      if (!alive) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 30_000);

  it('stops gracefully on SIGTERM to the parent and exits 0', async () => {
    requireBuild();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-serve-child-'));
    dirs.push(dataDir);
    const parent = spawn(
      process.execPath,
      [CLI_BIN, 'serve', '--port', '0', '--data-dir', dataDir, '-o', 'json'],
      {
        env: cleanEnv(),
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((resolve) => parent.once('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve) => {
      let out = '';
      parent.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /"url":"([^"]+)"/.exec(out);
        if (match) resolve(match[1] as string);
      });
    });
    expect((await fetch(`${url}/health`)).status).toBe(200);
    parent.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 30_000);
});
