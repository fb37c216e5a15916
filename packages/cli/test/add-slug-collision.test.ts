/**
 * A bulk `add-skill` against a server whose name policy is `slug`: two inputs that the server stores
 * under one name (`ElevenLabs Automation` → `elevenlabs-automation`) are caught before sending, as
 * two inputs of one name are, so neither replaces the other unnoticed. Against a real server.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;

function skill(folder: string, name: string, body: string): void {
  mkdirSync(path.join(dir, 'skills', folder), { recursive: true });
  writeFileSync(
    path.join(dir, 'skills', folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Turns text into speech with chosen voices\n---\n\n${body}\n`,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-slug-collision-'));
  server = await startServer({
    port: 0,
    dataDir: path.join(dir, 'data'),
    runJobs: false,
    namePolicy: 'slug',
  });
  client = new AsyncHTTPClient({ url: server.url });
  skill('a-kebab', 'elevenlabs-automation', 'First.');
  skill('b-spaced', 'ElevenLabs Automation', 'Second.');
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('add-skill under name policy slug', () => {
  it('refuses the later input stored under the same slug, naming both; the first is kept', async () => {
    const run = await runCliAgainst(['add-skill', 'skills', '-o', 'json'], {
      url: server.url,
      configHome: path.join(dir, 'cfg'),
      cwd: dir,
    });
    expect(run.code).toBe(1);
    const rows = JSON.parse(run.out) as Array<{
      input: string;
      result: string;
      name: string;
      error?: { message: string };
    }>;
    expect(rows.map((r) => [r.input, r.result, r.name])).toEqual([
      ['skills/a-kebab', 'added', 'elevenlabs-automation'],
      ['skills/b-spaced', 'refused', 'elevenlabs-automation'],
    ]);
    expect(rows[1]?.error?.message).toContain(
      'is the skill "elevenlabs-automation" like skills/a-kebab before it',
    );
    const stored = await client.getSkill('elevenlabs-automation', { include_content: true });
    expect(stored.content).toContain('First.');
  });
});
