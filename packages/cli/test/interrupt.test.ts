/**
 * Ctrl-C during a wait: the built CLI, interrupted with SIGINT while `add-skill --wait` waits on a real
 * server that runs no jobs (so the task stays pending), says which tasks are still on the server and
 * how to follow them, and exits 130.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, cleanEnv, requireBuild } from './support/processes.js';

let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;

beforeAll(async () => {
  requireBuild();
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-interrupt-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data'), logger: false, runJobs: false });
  client = new AsyncHTTPClient({ url: server.url });
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Starts the CLI with `args`, sends SIGINT once `ready()` holds, and returns its exit status and stderr. */
function interruptWhen(
  args: string[],
  ready: () => Promise<boolean>,
): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      env: cleanEnv({ SKILLPORT_URL: server.url, XDG_CONFIG_HOME: path.join(dir, 'cfg') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, err }));
    const poll = async () => {
      if (child.exitCode !== null) return;
      if (await ready()) child.kill('SIGINT');
      else setTimeout(poll, 50);
    };
    void poll();
  });
}

describe('Ctrl-C during a wait', () => {
  it('add-skill --wait names the task still pending on the server and how to follow it', async () => {
    const md =
      '---\nname: interrupted-skill\ndescription: Added while the user pressed Ctrl-C\n---\n\nBody.\n';
    const { code, err } = await interruptWhen(
      ['add-skill', md, '--wait', '--timeout', '120'],
      async () => (await client.listTasks({ status: 'pending' })).length > 0,
    );
    const [task] = await client.listTasks({ status: 'pending' });
    expect(code).toBe(130);
    expect(err).toContain('Interrupted while adding content; the server keeps working on what it received.');
    expect(err).toContain(
      `${task?.task_id}  pending  add_skill  viking://user/default/skills/interrupted-skill`,
    );
    expect(err).toContain(
      'Follow one with `skillport task <id>`; wait for all of them with `skillport wait`.',
    );
  });
});
