/**
 * API keys through the SDKs against a server with a root key (not in dev mode): the root key sets up an
 * account, a user and a key; the user's key works on data routes, async and sync; missing or wrong keys
 * and root keys on data routes give the typed errors.
 */
import { randomBytes } from 'node:crypto';
import { AsyncHTTPClient, AuthenticationError, PermissionDeniedError } from '@skillport/sdk-node';
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
    await root.request('POST', 'api/v1/admin/accounts', { json: { account_id: 'acme' } });
    await root.request('POST', 'api/v1/admin/accounts/acme/users', { json: { user_id: 'ann' } });
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
});
