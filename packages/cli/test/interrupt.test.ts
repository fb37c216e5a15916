/**
 * Ctrl-C during a wait: the built CLI, interrupted with SIGINT while `add-skill --wait` waits on a real
 * server that runs no jobs (so the task stays pending), says which tasks are still on the server and
 * how to follow them, and exits 130.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

/**
 * Starts the CLI with `args` (in `cwd`), sends SIGINT once `ready()` holds, and returns its exit
 * status and stderr.
 */
function interruptWhen(
  args: string[],
  ready: () => Promise<boolean>,
  url = server.url,
  cwd?: string,
): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], {
      ...(cwd !== undefined ? { cwd } : {}),
      env: cleanEnv({ SKILLPORT_URL: url, XDG_CONFIG_HOME: path.join(dir, 'cfg') }),
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

  it('wait names them too', async () => {
    // A pass-through in front of the server tells when the wait request has arrived.
    let waiting = false;
    const front: Server = createServer(async (req, res) => {
      if (req.method === 'POST' && req.url?.startsWith('/api/v1/system/wait')) waiting = true;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'host' && key !== 'connection') headers.set(key, value);
      }
      try {
        const answer = await fetch(`${server.url}${req.url}`, {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        res.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/json',
        });
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        res.destroy();
      }
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const [task] = await client.listTasks({ status: 'pending' });
      const { code, err } = await interruptWhen(['wait', '--timeout', '120'], async () => waiting, url);
      expect(code).toBe(130);
      expect(err).toContain('Interrupted while waiting for processing');
      expect(err).toContain(`${task?.task_id}  pending  add_skill`);
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});

describe('Ctrl-C during install', () => {
  it('finishes the skills being written, saves them in the lock file and exits 130', async () => {
    const names = [
      'ctrl-a',
      'ctrl-b',
      'ctrl-c',
      'ctrl-held',
      'ctrl-d',
      'ctrl-e',
      'ctrl-f',
      'ctrl-g',
      'ctrl-h',
    ];
    for (const name of names) {
      await client.addSkill(`---\nname: ${name}\ndescription: The ${name} skill\n---\n\nBody of ${name}.\n`);
    }
    // A pass-through that holds the download of ctrl-held's files until the CLI has been interrupted.
    let held = false;
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const front: Server = createServer(async (req, res) => {
      if (req.url?.includes('/skills/ctrl-held/files')) {
        held = true;
        await released;
      }
      const headers = new Headers();
      for (const [key, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && key !== 'host' && key !== 'connection') headers.set(key, value);
      }
      try {
        const answer = await fetch(`${server.url}${req.url}`, { method: req.method ?? 'GET', headers });
        const type = answer.headers.get('content-type');
        res.writeHead(answer.status, type ? { 'content-type': type } : {});
        res.end(Buffer.from(await answer.arrayBuffer()));
      } catch {
        res.destroy();
      }
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const project = path.join(dir, 'project');
    mkdirSync(path.join(project, '.claude'), { recursive: true });
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const run = interruptWhen(['install', ...names], async () => held, url, project);
      // Let the held download go once the signal is sent; the CLI must still finish writing it.
      const poll = setInterval(() => {
        if (held) setTimeout(release, 200);
      }, 50);
      const { code, err } = await run.finally(() => clearInterval(poll));
      expect(code, err).toBe(130);
      expect(err).toContain('Interrupted while installing');
      // The lock file is saved once, at the end: a second Ctrl-C leaves out every skill written so far.
      expect(err).toContain(
        'Ctrl-C again stops at once: the lock file then lists none of the skills this command wrote',
      );
      expect(err).toContain('the lock file lists every skill written; run the command again to finish');
      const lock = JSON.parse(readFileSync(path.join(project, 'skillport-lock.json'), 'utf8')) as {
        skills: Record<string, unknown>;
      };
      const written = readdirSync(path.join(project, '.claude', 'skills')).sort();
      expect(Object.keys(lock.skills).sort()).toEqual(written);
      expect(written).toContain('ctrl-held');
      // No temporary folder is left beside the skills folder.
      expect(readdirSync(path.join(project, '.claude'))).toEqual(['skills']);
      expect(existsSync(path.join(project, 'skillport-lock.json.hold'))).toBe(false);
    } finally {
      release();
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});
