/**
 * `outdated` and `installed` when the server answers but refuses the check (a key that is wrong or
 * revoked): said as a refusal with the server's code, not as a server that cannot be reached.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';
import { memoryIo } from './support/memory-io.js';

let server: http.Server;
let url: string;
let dir: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        status: 'error',
        error: { code: 'UNAUTHENTICATED', message: 'Invalid or revoked API key (sk_old…)' },
        time: 0,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-outdated-refused-'));
  const skillMd = '---\nname: far-away\ndescription: Installed from a registry\n---\n\nBody.\n';
  mkdirSync(path.join(dir, '.claude', 'skills', 'far-away'), { recursive: true });
  writeFileSync(path.join(dir, '.claude', 'skills', 'far-away', 'SKILL.md'), skillMd);
  const lock = {
    lockfileVersion: 1,
    skills: {
      'far-away': {
        server: url,
        root_uri: 'viking://user/alice/skills',
        name: 'far-away',
        revision: 'a'.repeat(64),
        folders: ['.claude/skills'],
        files: [
          {
            path: 'SKILL.md',
            sha256: createHash('sha256').update(skillMd).digest('hex'),
            size: Buffer.byteLength(skillMd),
          },
        ],
      },
    },
  };
  writeFileSync(path.join(dir, 'skillport-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const run = async (argv: string[]) => {
  const io = memoryIo({ env: { XDG_CONFIG_HOME: path.join(dir, 'cfg') }, cwd: dir });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
};

describe('a server that refuses the check', () => {
  it('outdated exits 2 and says the server refused it, with its code', async () => {
    const result = await run(['outdated', '--api-key', 'sk_old_key']);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      'error: 1 of 1 installed skill could not be checked (server refused the check: Invalid or revoked API key (sk_old…) (UNAUTHENTICATED, HTTP 401))\n',
    );
    expect(result.err).not.toContain('not reachable');
  });

  it('installed shows the refusal in its note', async () => {
    const result = await run(['installed', '-o', 'json', '--api-key', 'sk_old_key']);
    expect(result.code, result.err).toBe(0);
    const rows = (JSON.parse(result.out) as { skills: Array<{ skill: string; note?: string }> }).skills;
    expect(rows).toEqual([
      expect.objectContaining({
        skill: 'far-away',
        note: 'server refused the check: Invalid or revoked API key (sk_old…) (UNAUTHENTICATED, HTTP 401)',
      }),
    ]);
  });
});
