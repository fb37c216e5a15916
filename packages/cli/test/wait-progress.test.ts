/**
 * `--wait` off a terminal (a pipe, a CI log): no spinner is drawn, so the command says in plain lines
 * on stderr what it waits for and when the wait ended, while stdout keeps only the result. Against a
 * real server that runs its processing jobs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dir: string;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dir, 'cfg'), cwd: dir });

function skill(name: string): string {
  const folder = path.join(dir, 'skills', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, 'SKILL.md'),
    `---\nname: ${name}\ndescription: A skill for the wait progress tests\n---\n\n# ${name}\n`,
  );
  return folder;
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-wait-progress-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data'), logger: false, embeddings: 'off' });
  skill('waited-one');
  skill('waited-two');
  skill('waited-three');
}, 60_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

const DONE = /done in \d+(\.\d)? s$/m;

describe('--wait off a terminal', () => {
  it('add-skill of one skill: a line when the wait starts and one when it ends, on stderr', async () => {
    const result = await cli(['add-skill', 'skills/waited-one', '--wait']);
    expect(result.code, result.err).toBe(0);
    const lines = result.err.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('Adding and processing skills/waited-one…');
    expect(lines[1]).toMatch(/^Adding and processing skills\/waited-one: done in \d+(\.\d)? s$/);
    expect(result.out).toMatch(/^name\s+waited-one$/m);
    expect(result.out).not.toContain('done in');
  });

  it('a bulk add: the wait for processing is announced and its end reported', async () => {
    const result = await cli(['add-skill', 'skills/waited-two', 'skills/waited-three', '--wait']);
    expect(result.code, result.err).toBe(0);
    expect(result.err).toMatch(/^Waiting for processing…$/m);
    expect(result.err).toMatch(DONE);
    expect(result.out).toMatch(/processing: 2 completed, 0 failed, 0 left/);
  });

  it('skillport wait says what it waits for; without --wait and with -o json stderr stays empty', async () => {
    const waited = await cli(['wait']);
    expect(waited.code, waited.err).toBe(0);
    expect(waited.err).toMatch(/^Waiting for processing…\nWaiting for processing: done in \d+(\.\d)? s\n$/);
    const quiet = await cli(['add-skill', 'skills/waited-one']);
    expect(quiet.code, quiet.err).toBe(0);
    expect(quiet.err).toBe('');
    const json = await cli(['add-skill', 'skills/waited-one', '--wait', '-o', 'json']);
    expect(json.code, json.err).toBe(0);
    expect(json.err).toBe('');
    expect(JSON.parse(json.out)).toMatchObject({ name: 'waited-one' });
  });
});
