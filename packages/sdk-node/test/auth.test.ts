/**
 * API keys through the SDKs against a server with a root key (not in dev mode): the root key sets up an
 * account, a user and a key; the user's key works on data routes, async and sync; missing or wrong keys
 * and root keys on data routes give the typed errors.
 */
import { randomBytes } from 'node:crypto';
import {
  AsyncHTTPClient,
  AuthenticationError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
} from '@skillport/sdk-node';
import { SyncHTTPClient } from '@skillport/sdk-node/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild } from '../../cli/test/support/processes.js';
import { type ServerProcess, startServerProcess } from './support/server-process.js';

const ROOT_KEY = `root-${randomBytes(16).toString('hex')}`;
let server: ServerProcess;

beforeAll(async () => {
  requireBuild();
  server = await startServerProcess([], ROOT_KEY);
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('API keys', () => {
  it('lets a user key work on data routes and refuses the others with typed errors', async () => {
    const root = new AsyncHTTPClient({ url: server.url, apiKey: ROOT_KEY });
    expect(await root.initialize()).toMatchObject({ auth_mode: 'api_key', role: 'root' });
    expect(await root.createAccount('acme')).toEqual({ account_id: 'acme' });
    expect(await root.createUser('acme', 'ann')).toEqual({ account_id: 'acme', user_id: 'ann' });
    const key = await root.createApiKey('acme', { user_id: 'ann' });
    expect(key).toMatchObject({ account_id: 'acme', user_id: 'ann', role: 'user' });

    const ann = new AsyncHTTPClient({ url: server.url, apiKey: key.api_key });
    expect(await ann.initialize()).toMatchObject({ account_id: 'acme', user_id: 'ann', role: 'user' });
    const added = await ann.addSkill('---\nname: keyed\ndescription: Added with a user key\n---\n\nBody\n');
    expect(added.uri).toBe('viking://user/ann/skills/keyed');

    const sync = new SyncHTTPClient({ url: server.url, apiKey: key.api_key });
    expect(sync.listSkills().skills.map((s) => s.name)).toEqual(['keyed']);

    const anonymous = await new AsyncHTTPClient({ url: server.url }).listSkills().catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(AuthenticationError);
    expect(anonymous).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    const wrong = new SyncHTTPClient({ url: server.url, apiKey: 'sk_not_a_key' });
    expect(() => wrong.listSkills()).toThrow(AuthenticationError);
    const rootOnData = await root.listSkills().catch((e: unknown) => e);
    expect(rootOnData).toBeInstanceOf(PermissionDeniedError);

    const revoked = await root.revokeApiKey('acme', key.key_id);
    expect(revoked).toMatchObject({ key_id: key.key_id, revoked: true });
    await expect(ann.listSkills()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('sets up accounts and users, async and sync, with typed errors for the wrong ones', async () => {
    const root = new AsyncHTTPClient({ url: server.url, apiKey: ROOT_KEY });
    // Idempotent: creating an existing account or user answers the same.
    expect(await root.createAccount('globex')).toEqual({ account_id: 'globex' });
    expect(await root.createAccount('globex')).toEqual({ account_id: 'globex' });
    expect(await root.createUser('globex', 'bo.b@example.com')).toEqual({
      account_id: 'globex',
      user_id: 'bo.b@example.com',
    });
    expect((await root.listAccounts()).accounts).toEqual(expect.arrayContaining(['globex']));
    expect(await root.listUsers('globex')).toEqual({ account_id: 'globex', users: ['bo.b@example.com'] });

    const sync = new SyncHTTPClient({ url: server.url, apiKey: ROOT_KEY });
    expect(sync.createAccount('initech')).toEqual({ account_id: 'initech' });
    expect(sync.createUser('initech', 'peter')).toEqual({ account_id: 'initech', user_id: 'peter' });
    expect(sync.listUsers('initech')).toEqual({ account_id: 'initech', users: ['peter'] });
    expect(sync.listAccounts().accounts).toEqual(expect.arrayContaining(['globex', 'initech']));

    // A key for a user that was never created, or in a missing account, is a 404; so are their lists.
    await expect(root.createApiKey('globex', { user_id: 'nobody' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(root.createUser('no-such-account', 'x')).rejects.toBeInstanceOf(NotFoundError);
    expect(() => sync.listUsers('no-such-account')).toThrow(NotFoundError);
    await expect(root.createAccount('bad id!')).rejects.toBeInstanceOf(InvalidArgumentError);

    // An admin key of one account manages its users but creates no account and sees no other.
    const admin = await root.createApiKey('globex', { user_id: 'bo.b@example.com', role: 'admin' });
    const globexAdmin = new AsyncHTTPClient({ url: server.url, apiKey: admin.api_key });
    expect(await globexAdmin.listAccounts()).toEqual({ accounts: ['globex'] });
    expect(await globexAdmin.createUser('globex', 'carol')).toEqual({
      account_id: 'globex',
      user_id: 'carol',
    });
    await expect(globexAdmin.createAccount('umbrella')).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(globexAdmin.listUsers('initech')).rejects.toBeInstanceOf(PermissionDeniedError);
    const carol = await globexAdmin.createApiKey('globex', { user_id: 'carol' });
    const carolClient = new AsyncHTTPClient({ url: server.url, apiKey: carol.api_key });
    expect(await carolClient.initialize()).toMatchObject({ account_id: 'globex', user_id: 'carol' });
    await expect(carolClient.listAccounts()).rejects.toBeInstanceOf(PermissionDeniedError);
  });
});
