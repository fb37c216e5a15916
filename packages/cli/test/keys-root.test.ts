/**
 * `skillport keys` with the server's root key (`SKILLPORT_ROOT_API_KEY`): a key for a user of a new
 * account in one command, and the `default` account when none is named. Against a real server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer, startServer } from '@skillport/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

const ROOT_KEY = 'root-key-for-the-keys-test-0123456789';
let server: RunningServer;
let dir: string;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dir, 'cfg'), cwd: dir });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-keys-root-'));
  server = await startServer({
    port: 0,
    dataDir: path.join(dir, 'data'),
    runJobs: false,
    rootApiKey: ROOT_KEY,
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('keys list with the root key', () => {
  it('names the account it listed when that account has no keys', async () => {
    // A root key belongs to no account: without --account the list is of "default", which says so.
    const listed = await cli(['keys', 'list', '--api-key', ROOT_KEY]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toBe('no keys in account "default" (--account <id> lists another)\n');
    const other = await cli(['keys', 'list', '--account', 'nobody-yet', '--api-key', ROOT_KEY]);
    expect(other.code, other.err).toBe(0);
    expect(other.out).toBe('no keys in account "nobody-yet" (--account <id> lists another)\n');
  });
});

describe('keys create with the root key', () => {
  it('creates the account when it is missing, and the key works for that user', async () => {
    const created = await cli([
      'keys',
      'create',
      '--account',
      'acme',
      '--user',
      'alice',
      '--api-key',
      ROOT_KEY,
      '-o',
      'json',
    ]);
    expect(created.code, created.err).toBe(0);
    const key = JSON.parse(created.out) as { account_id: string; user_id: string; api_key: string };
    expect(key).toMatchObject({ account_id: 'acme', user_id: 'alice' });
    const listed = await cli(['skills', 'list', '-o', 'json', '--api-key', key.api_key]);
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(listed.out)).toMatchObject({
      root_uris: ['viking://user/alice/skills', 'viking://agent/skills'],
    });
    // Again for the same account: creating it is a no-op.
    const again = await cli([
      'keys',
      'create',
      '--account',
      'acme',
      '--user',
      'carol',
      '--api-key',
      ROOT_KEY,
    ]);
    expect(again.code, again.err).toBe(0);
  });

  it('without --account acts on the account "default" (a root key belongs to no account)', async () => {
    const created = await cli(['keys', 'create', '--user', 'bob', '--api-key', ROOT_KEY, '-o', 'json']);
    expect(created.code, created.err).toBe(0);
    expect(JSON.parse(created.out)).toMatchObject({ account_id: 'default', user_id: 'bob' });
    const listed = await cli(['keys', 'list', '--api-key', ROOT_KEY, '-o', 'json']);
    expect(listed.code, listed.err).toBe(0);
    const keys = (JSON.parse(listed.out) as { keys: Array<{ user_id: string }> }).keys;
    expect(keys.map((k) => k.user_id)).toEqual(['bob']);
  });
});

describe('skills commands with the root key', () => {
  it('are refused with a hint that says how to make a key that can use skills', async () => {
    const listed = await cli(['skills', 'list', '--api-key', ROOT_KEY]);
    expect(listed.code).toBe(1);
    expect(listed.err).toContain('PERMISSION_DENIED, HTTP 403');
    expect(listed.err).toContain(
      'a root key manages accounts, users and keys only: make a key for skills with `skillport keys create --user <id> [--role admin] --api-key <root key>`, then use that key',
    );
  });
});

describe('a --url that already ends in /api/v1', () => {
  it('gets the 404 of the doubled route and a hint to drop /api/v1', async () => {
    const created = await cli(['keys', 'create', '--user', 'dora', '--api-key', ROOT_KEY, '-o', 'json']);
    expect(created.code, created.err).toBe(0);
    const key = (JSON.parse(created.out) as { api_key: string }).api_key;
    const listed = await runCliAgainst(['skills', 'list', '--api-key', key], {
      url: `${server.url}/api/v1`,
      configHome: path.join(dir, 'cfg'),
      cwd: dir,
    });
    expect(listed.code).toBe(1);
    expect(listed.err).toContain('NOT_FOUND, HTTP 404');
    expect(listed.err).toContain(
      "--url is the server's base URL (e.g. http://127.0.0.1:1933), without /api/v1",
    );
  });
});
