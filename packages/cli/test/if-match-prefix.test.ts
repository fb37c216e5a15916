/**
 * `--if-match` takes a revision as the tables show it (its first 12 characters), as `restore` and
 * `install name@rev` take one: a prefix of the current revision is completed before the write, and a
 * stale one is still refused by the server (412 CONFLICT), against a real server (in-process).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dataDir: string;
let client: AsyncHTTPClient;
const md = (description: string) =>
  `---\nname: guarded\ndescription: ${description} of the guarded skill\n---\n\nBody.\n`;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dataDir, 'cfg') });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-if-match-'));
  server = await startServer({ port: 0, dataDir, logger: false, runJobs: false, embeddings: 'off' });
  client = new AsyncHTTPClient({ url: server.url });
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('--if-match with a revision prefix', () => {
  it('skills update: the current revision’s first 12 characters are enough; a stale prefix is a conflict', async () => {
    const first = await client.addSkill(md('First version'));
    const updated = await cli([
      'skills',
      'update',
      'guarded',
      md('Second version'),
      '--if-match',
      first.revision.slice(0, 12),
      '-o',
      'json',
    ]);
    expect(updated.code, updated.err).toBe(0);
    const second = JSON.parse(updated.out) as { revision: string; action: string };
    expect(second.action).toBe('update');
    expect(second.revision).not.toBe(first.revision);
    // The prefix of the revision just replaced is stale now: the server's 412, nothing written.
    const stale = await cli([
      'skills',
      'update',
      'guarded',
      md('Third version'),
      '--if-match',
      first.revision.slice(0, 12),
    ]);
    expect(stale.code).toBe(1);
    expect(stale.err).toMatch(/CONFLICT, HTTP 412/);
    expect((await client.getSkill('guarded', { level: 0 })).revision).toBe(second.revision);
  });

  it('skills restore: --if-match with the current revision’s prefix restores', async () => {
    const history = await client.listRevisions('guarded');
    const current = history.current_revision as string;
    const older = history.revisions.find((r) => !r.current)?.revision as string;
    const restored = await cli([
      'skills',
      'restore',
      'guarded',
      older.slice(0, 12),
      '--if-match',
      current.slice(0, 12),
      '-o',
      'json',
    ]);
    expect(restored.code, restored.err).toBe(0);
    expect((JSON.parse(restored.out) as { revision: string }).revision).toBe(older);
  });
});
