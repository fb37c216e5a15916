/**
 * `SyncHTTPClient` from a script that Node evaluates rather than loads from a file (`node -e`, a
 * script piped to `node`): there Node defines a global `__dirname` of `.`, and the worker thread must
 * still start and answer instead of leaving the caller blocked for ever.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// A blocked worker never answers; the child is killed after this long so the test reports the hang.
const HANG_KILL_MS = 60_000;

let server: ServerProcess;

beforeAll(async () => {
  requireBuild();
  server = await startServerProcess();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

/** Runs `node <args>` in the package folder (the built package resolves by its own name there). */
function runNode(
  args: string[],
  stdin = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PACKAGE_DIR,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SKILLPORT_URL: server.url },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_KILL_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}

// The script a user would type: the sync client, one call that succeeds and one typed error.
const SCRIPT = `import('@skillport/sdk-node/sync').then(({ SyncHTTPClient }) => {
  const client = new SyncHTTPClient({ url: process.env.SKILLPORT_URL, retry: 0 });
  const health = client.initialize();
  let missing = 'no error';
  try { client.getSkill('no-such-skill'); } catch (error) { missing = error.name + ' ' + error.status; }
  console.log(JSON.stringify({ healthy: health.healthy, missing }));
});`;

describe('SyncHTTPClient from an evaluated script', () => {
  it.each([
    ['node -e', ['-e', SCRIPT], ''],
    ['a script piped to node', [], SCRIPT],
  ])(
    'answers from %s',
    async (_label, args, stdin) => {
      const result = await runNode(args, stdin);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({ healthy: true, missing: 'NotFoundError 404' });
    },
    HANG_KILL_MS + 30_000,
  );
});
