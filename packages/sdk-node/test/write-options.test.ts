/**
 * `idempotencyKey` on add, update and restore, and the 507 error class, through both clients against
 * a real server process (SQLite) with a 1 MiB account quota.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AsyncHTTPClient,
  InsufficientStorageError,
  InvalidArgumentError,
  RateLimitError,
} from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

let server: ServerProcess;
let folder: string;
const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nBody.\n`;

beforeAll(async () => {
  requireBuild();
  server = await startServerProcess([], undefined, { limits: { accountQuotaMb: 1 } });
  folder = mkdtempSync(path.join(os.tmpdir(), 'skillport-sdk-write-options-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('AsyncHTTPClient write options', () => {
  it('idempotencyKey: a retried add, update or restore gets the first response and changes nothing', async () => {
    const client = new AsyncHTTPClient({ url: server.url });
    const first = await client.addSkill(md('idem-async', 'First version'), {
      idempotencyKey: 'add-idem-async-1',
      wait: true,
    });
    // Another write in between, without a key: the retry of the add must not undo it.
    const second = await client.updateSkill('idem-async', md('idem-async', 'Second version'), { wait: true });
    expect(second.revision).not.toBe(first.revision);
    const replay = await client.addSkill(md('idem-async', 'First version'), {
      idempotencyKey: 'add-idem-async-1',
      wait: true,
    });
    expect(replay).toEqual(first);
    expect((await client.getSkill('idem-async', { level: 0 })).revision).toBe(second.revision);

    const update = await client.updateSkill('idem-async', md('idem-async', 'Third version'), {
      idempotencyKey: 'update-idem-async-1',
      ifMatch: second.revision,
    });
    const updateReplay = await client.updateSkill('idem-async', md('idem-async', 'Third version'), {
      idempotencyKey: 'update-idem-async-1',
      ifMatch: second.revision, // stale now: without the key this would be a 412
    });
    expect(updateReplay).toEqual(update);

    const restore = await client.restoreSkill('idem-async', first.revision, { idempotencyKey: 'restore-1' });
    expect(await client.restoreSkill('idem-async', first.revision, { idempotencyKey: 'restore-1' })).toEqual(
      restore,
    );
    // The same key with another request is refused.
    const reused = await client
      .addSkill(md('idem-async', 'Another body'), { idempotencyKey: 'add-idem-async-1' })
      .catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(InvalidArgumentError);
    expect((reused as InvalidArgumentError).details).toMatchObject({ reason: 'idempotency_key_reused' });
  });

  it('idempotencyKey: a folder add called again (zipped and uploaded again) gets the first response', async () => {
    const dir = path.join(folder, 'idem-folder');
    mkdirSync(path.join(dir, 'ref'), { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), md('idem-folder', 'Added from a folder'));
    writeFileSync(path.join(dir, 'ref', 'guide.md'), '# Guide\n');
    const client = new AsyncHTTPClient({ url: server.url });
    const first = await client.addSkill(dir, { idempotencyKey: 'add-idem-folder-1', wait: true });
    expect(first.auxiliary_files).toBe(1);
    const again = await client.addSkill(dir, { idempotencyKey: 'add-idem-folder-1', wait: true });
    expect(again).toEqual(first);
    expect((await client.listRevisions('idem-folder')).revisions).toHaveLength(1);
    // The folder changed: another request under the same key.
    writeFileSync(path.join(dir, 'ref', 'guide.md'), '# Guide, edited\n');
    const reused = await client
      .addSkill(dir, { idempotencyKey: 'add-idem-folder-1' })
      .catch((e: unknown) => e);
    expect(reused).toBeInstanceOf(InvalidArgumentError);
  });

  it('a write past the account quota (507) is an InsufficientStorageError, not a RateLimitError', async () => {
    const dir = path.join(folder, 'too-big');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), md('too-big', 'A skill larger than the account quota'));
    writeFileSync(path.join(dir, 'blob.bin'), randomBytes(1_200_000));
    const client = new AsyncHTTPClient({ url: server.url });
    const error = await client.addSkill(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientStorageError);
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({
      status: 507,
      code: 'RESOURCE_EXHAUSTED',
      details: { reason: 'account_quota', setting: 'SKILLPORT_ACCOUNT_QUOTA_MB' },
    });

    const sync = new SyncHTTPClient({ url: server.url });
    try {
      let syncError: unknown;
      try {
        sync.addSkill(dir);
      } catch (e) {
        syncError = e;
      }
      expect(syncError).toBeInstanceOf(InsufficientStorageError);
      expect((syncError as InsufficientStorageError).status).toBe(507);
    } finally {
      sync.close();
    }
  });
});

describe('SyncHTTPClient write options', () => {
  it('idempotencyKey is sent on add', () => {
    const sync = new SyncHTTPClient({ url: server.url });
    try {
      const first = sync.addSkill(md('idem-sync', 'First version'), { idempotencyKey: 'add-idem-sync-1' });
      const replay = sync.addSkill(md('idem-sync', 'First version'), { idempotencyKey: 'add-idem-sync-1' });
      expect(replay).toEqual(first);
      expect(replay.replaced).toBe(false); // the replay is the first response: a second add would say true
    } finally {
      sync.close();
    }
  });
});
