/**
 * History, single files and the change feed through both clients, against a real server process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AsyncHTTPClient,
  ConflictError,
  InvalidArgumentError,
  isLocalError,
  NotFoundError,
} from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

let server: ServerProcess;
let folder: string;
const md = (body: string) =>
  `---\nname: notes-helper\ndescription: Keeps notes tidy\n---\n\n# Notes\n\n${body}\n`;
const binary = new Uint8Array([0, 1, 2, 253, 254, 255]);

beforeAll(async () => {
  requireBuild();
  server = await startServerProcess();
  folder = mkdtempSync(path.join(os.tmpdir(), 'skillport-sdk-history-'));
  mkdirSync(path.join(folder, 'notes-helper', 'bin'), { recursive: true });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

function writeVersion(body: string): string {
  const dir = path.join(folder, 'notes-helper');
  writeFileSync(path.join(dir, 'SKILL.md'), md(body));
  writeFileSync(path.join(dir, 'bin', 'tool.bin'), binary);
  return dir;
}

describe('AsyncHTTPClient: revisions, files, restore, change feed', () => {
  let client: AsyncHTTPClient;
  let first: string;
  let second: string;
  const since = new Date(Date.now() - 1000).toISOString();

  beforeAll(async () => {
    client = new AsyncHTTPClient({ url: server.url });
    const added = await client.addSkill(writeVersion('First.'), { wait: true });
    const updated = await client.updateSkill('notes-helper', writeVersion('Second.'), { wait: true });
    // `replaced` is typed boolean on each write result: new on add, replaced on update.
    const flags: boolean[] = [added.replaced, updated.replaced];
    expect(flags).toEqual([false, true]);
    first = added.revision;
    second = updated.revision;
  });
  afterAll(() => client?.close());

  it('lists revisions and reads an earlier one', async () => {
    const history = await client.listRevisions('notes-helper');
    expect(history.revisions.map((r) => r.revision)).toEqual([second, first]);
    expect(history.current_revision).toBe(second);
    const old = await client.getSkill('notes-helper', { revision: first.slice(0, 8), level: 2 });
    expect(old.content).toBe(md('First.'));
  });

  it('downloads single files byte for byte, current and at a revision', async () => {
    const tool = await client.getSkillFile('notes-helper', 'bin/tool.bin');
    expect([...tool.bytes]).toEqual([...binary]);
    expect(tool.revision).toBe(second);
    expect(tool.sha256).toMatch(/^[0-9a-f]{64}$/);
    const old = await client.getSkillFile('notes-helper', 'SKILL.md', { revision: first });
    expect(new TextDecoder().decode(old.bytes)).toBe(md('First.'));
    await expect(client.getSkillFile('notes-helper', 'missing.txt')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('restores with If-Match; a stale one is a ConflictError', async () => {
    await expect(client.restoreSkill('notes-helper', first, { ifMatch: first })).rejects.toBeInstanceOf(
      ConflictError,
    );
    const restored = await client.restoreSkill('notes-helper', first, { ifMatch: second, wait: true });
    expect(restored).toMatchObject({ action: 'restore', revision: first, replaced: true });
    expect((await client.getSkill('notes-helper', { level: 2 })).content).toBe(md('First.'));
    await expect(client.restoreSkill('notes-helper', 'xyz')).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('pages the change feed with a cursor', async () => {
    const page = await client.listChanges({ updated_since: since });
    expect(page.skills.map((s) => s.name)).toEqual(['notes-helper']);
    expect(page.has_more).toBe(false);
    await client.deleteSkill('notes-helper');
    const next = await client.listChanges({ cursor: page.next_cursor ?? null });
    expect(next.skills).toEqual([]);
    expect(next.deleted?.map((d) => d.name)).toEqual(['notes-helper']);
    await expect(client.listChanges({})).rejects.toMatchObject({
      name: 'LocalError',
      code: 'INVALID_ARGUMENT',
      details: { field: 'updated_since' },
    });
  });
});

describe('SyncHTTPClient: the same calls, blocking', () => {
  it('lists, reads, restores and pages', () => {
    const client = new SyncHTTPClient({ url: server.url });
    // The asynchronous suite deleted the skill: it is added anew, then replaced.
    const added = client.addSkill(writeVersion('Sync one.'), { wait: true });
    expect(added.replaced).toBe(false);
    expect(client.updateSkill('notes-helper', writeVersion('Sync two.'), { wait: true }).replaced).toBe(true);
    const history = client.listRevisions('notes-helper');
    expect(history.revisions[1]?.revision).toBe(added.revision);
    const file = client.getSkillFile('notes-helper', 'SKILL.md', { revision: added.revision });
    expect(file.bytes).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(file.bytes)).toBe(md('Sync one.'));
    expect(client.restoreSkill('notes-helper', added.revision).revision).toBe(added.revision);
    const feed = client.listChanges({ updated_since: '2000-01-01' });
    expect(feed.skills.map((s) => s.name)).toContain('notes-helper');
    client.close();
  });

  it('an error raised before any request comes back from the worker with its class, code and details', () => {
    const client = new SyncHTTPClient({ url: server.url });
    try {
      let thrown: unknown;
      try {
        client.addSkill('./no/such/skill-folder');
      } catch (error) {
        thrown = error;
      }
      expect(isLocalError(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'NOT_FOUND', details: { field: 'source' } });
      expect(() => client.listChanges({})).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    } finally {
      client.close();
    }
  });
});
