/**
 * The first key ends dev mode: `keys create` says so, and says where the skills added in dev mode went
 * (user `default` of account `default`) and how to reach them — checked against a real server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dir: string;

const cli = (argv: string[]) => runCliAgainst(argv, { url: server.url, configHome: path.join(dir, 'cfg') });
const md = (name: string) => `---\nname: ${name}\ndescription: Added in dev mode\n---\nbody\n`;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-devkeys-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data'), logger: false, runJobs: false });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the first key of a dev-mode server', () => {
  it('says dev mode ended and where the dev-mode skills are; the hint it gives works', async () => {
    const dev = new AsyncHTTPClient({ url: server.url });
    await dev.addSkill(md('first-dev-skill'));
    await dev.addSkill(md('second-dev-skill'));
    dev.close();

    const created = await cli(['-o', 'json', 'keys', 'create', '--user', 'alice', '--role', 'admin']);
    expect(created.code, created.err).toBe(0);
    expect(created.err).toContain('Dev mode has ended: every request now needs an API key');
    expect(created.err).toContain(
      'The 2 skills added in dev mode belong to user "default" of account "default" (viking://user/default/skills)',
    );
    const admin = JSON.parse(created.out) as { api_key: string };

    // The hint, followed: a key for user default reaches the dev-mode skills.
    const hinted = await cli([
      '-o',
      'json',
      'keys',
      'create',
      '--account',
      'default',
      '--user',
      'default',
      '--api-key',
      admin.api_key,
    ]);
    expect(hinted.code, hinted.err).toBe(0);
    expect(hinted.err).not.toContain('Dev mode has ended');
    const key = (JSON.parse(hinted.out) as { api_key: string }).api_key;
    const listed = await cli(['-o', 'json', 'skills', 'list', '--api-key', key]);
    expect(listed.code, listed.err).toBe(0);
    expect(
      (JSON.parse(listed.out) as { skills: Array<{ name: string }> }).skills.map((s) => s.name).sort(),
    ).toEqual(['first-dev-skill', 'second-dev-skill']);
  });
});
