import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'sk_root_test_key_that_is_long_enough_0123456789';
let t: TestServer;
const keys: Record<string, string> = {};
const keyIds: Record<string, string> = {};
const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`;

async function as(who: string, method: string, p: string, body?: unknown) {
  return t.request(method, p, { apiKey: keys[who] ?? who, ...(body !== undefined ? { body } : {}) });
}

beforeAll(async () => {
  t = await startTestServer({ rootApiKey: ROOT });
  for (const account of ['acme', 'globex']) {
    const res = await t.request('POST', '/api/v1/admin/accounts', {
      apiKey: ROOT,
      body: { account_id: account },
    });
    expect(res.status, res.text).toBe(200);
  }
  for (const [account, user, role] of [
    ['acme', 'alice', 'admin'],
    ['acme', 'bob', 'user'],
    ['globex', 'carol', 'user'],
  ] as const) {
    const u = await t.request('POST', `/api/v1/admin/accounts/${account}/users`, {
      apiKey: ROOT,
      body: { user_id: user },
    });
    expect(u.status, u.text).toBe(200);
    const k = await t.request('POST', `/api/v1/admin/accounts/${account}/keys`, {
      apiKey: ROOT,
      body: { user_id: user, role },
    });
    expect(k.status, k.text).toBe(200);
    expect(k.json.result.api_key).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    keys[user] = k.json.result.api_key;
    keyIds[user] = k.json.result.key_id;
  }
  expect(
    (
      await as('alice', 'POST', '/api/v1/skills', {
        data: md('alice-secret', 'Private skill of alice only'),
        wait: true,
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await as('alice', 'POST', '/api/v1/skills', {
        data: md('acme-shared', 'Shared skill of the acme account'),
        target_uri: 'viking://agent/skills',
        wait: true,
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await as('carol', 'POST', '/api/v1/skills', {
        data: md('globex-shared', 'Shared skill of the globex account'),
        target_uri: 'viking://agent/skills',
        wait: true,
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('authentication', () => {
  test('health reports api_key mode and, with a key, the caller', async () => {
    const anon = await t.request('GET', '/health');
    expect(anon.json).toMatchObject({ auth_mode: 'api_key' });
    expect(anon.json.user_id).toBeUndefined();
    const bob = await as('bob', 'GET', '/health');
    expect(bob.json).toMatchObject({ account_id: 'acme', user_id: 'bob', role: 'user' });
  });

  test.each([
    ['no key', {}],
    ['unknown key', { 'x-api-key': 'sk_nope' }],
    ['bad bearer', { authorization: 'Bearer sk_nope' }],
  ])('%s → 401 UNAUTHENTICATED', async (_label, headers) => {
    const res = await t.request('GET', '/api/v1/skills', { headers });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe('UNAUTHENTICATED');
  });

  test('Authorization: Bearer works like X-API-Key', async () => {
    const res = await t.request('GET', '/api/v1/skills', {
      headers: { authorization: `Bearer ${keys.bob}` },
    });
    expect(res.status).toBe(200);
  });

  test('root keys are refused on data routes (403)', async () => {
    const res = await t.request('GET', '/api/v1/skills', { apiKey: ROOT });
    expect(res.status).toBe(403);
    expect(res.json.error.code).toBe('PERMISSION_DENIED');
  });

  test('user keys are refused on admin routes (403)', async () => {
    const res = await as('bob', 'GET', '/api/v1/admin/accounts/acme/keys');
    expect(res.status).toBe(403);
  });
});

describe('isolation between users of one account', () => {
  test('bob cannot read, list, find, update or delete alice’s private skill', async () => {
    expect((await as('bob', 'GET', '/api/v1/skills/alice-secret')).status).toBe(404);
    const list = await as('bob', 'GET', '/api/v1/skills');
    const names = list.json.result.skills.map((s: { name: string }) => s.name);
    expect(names).not.toContain('alice-secret');
    expect(names).toContain('acme-shared');
    const find = await as('bob', 'POST', '/api/v1/skills/find', { query: 'private alice' });
    expect(find.json.result.skills.map((s: { name: string }) => s.name)).not.toContain('alice-secret');
    const put = await as('bob', 'PUT', '/api/v1/skills/alice-secret', {
      data: md('alice-secret', 'Overwritten by bob, must fail'),
    });
    expect(put.status).toBe(404);
    expect((await as('bob', 'DELETE', '/api/v1/skills/alice-secret')).status).toBe(404);
    const still = await as('alice', 'GET', '/api/v1/skills/alice-secret?level=0');
    expect(still.json.result.description).toBe('Private skill of alice only');
  });

  test('naming alice’s root in target_uri is refused (403) for every route', async () => {
    const target = 'viking://user/alice/skills';
    const q = `target_uri=${encodeURIComponent(target)}`;
    for (const res of [
      await as('bob', 'GET', `/api/v1/skills?${q}`),
      await as('bob', 'GET', `/api/v1/skills/alice-secret?${q}`),
      await as('bob', 'DELETE', `/api/v1/skills/alice-secret?${q}`),
      await as('bob', 'POST', '/api/v1/skills/find', { query: 'alice', target_uri: target }),
      await as('bob', 'POST', '/api/v1/skills', {
        data: md('planted', 'Planted into alice root by bob'),
        target_uri: target,
      }),
    ]) {
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.code).toBe('PERMISSION_DENIED');
    }
  });

  test('the agent root is shared within the account', async () => {
    const res = await as('bob', 'GET', '/api/v1/skills/acme-shared?level=0');
    expect(res.status).toBe(200);
    expect(res.json.result.root_uri).toBe('viking://agent/skills');
  });

  test('tasks are private to their user', async () => {
    const add = await as('alice', 'POST', '/api/v1/skills', {
      data: md('alice-task', 'A skill whose task only alice sees'),
    });
    const id = add.json.result.task_id;
    expect((await as('alice', 'GET', `/api/v1/tasks/${id}`)).status).toBe(200);
    expect((await as('bob', 'GET', `/api/v1/tasks/${id}`)).status).toBe(404);
  });
});

describe('isolation between accounts', () => {
  test('carol (globex) sees nothing of acme, acme sees nothing of globex', async () => {
    const list = await as('carol', 'GET', '/api/v1/skills');
    expect(list.json.result.skills.map((s: { name: string }) => s.name)).toEqual(['globex-shared']);
    expect((await as('carol', 'GET', '/api/v1/skills/acme-shared')).status).toBe(404);
    expect(
      (await as('carol', 'DELETE', '/api/v1/skills/acme-shared?target_uri=viking://agent/skills')).status,
    ).toBe(404);
    const find = await as('carol', 'POST', '/api/v1/skills/find', { query: 'shared skill account' });
    expect(find.json.result.skills.map((s: { name: string }) => s.name)).toEqual(['globex-shared']);
    const bobFind = await as('bob', 'POST', '/api/v1/skills/find', { query: 'shared skill account' });
    expect(bobFind.json.result.skills.map((s: { name: string }) => s.name)).toEqual(['acme-shared']);
    const put = await as('carol', 'PUT', '/api/v1/skills/acme-shared', {
      data: md('acme-shared', 'Overwritten across accounts, must fail'),
      target_uri: 'viking://agent/skills',
    });
    expect(put.status).toBe(404);
  });

  test('temp uploads are bound to the uploading account', async () => {
    const form = new FormData();
    form.append('file', new Blob([md('cross-upload', 'Uploaded by alice, used by carol')]), 'SKILL.md');
    const up = await t.request('POST', '/api/v1/resources/temp_upload', {
      apiKey: keys.alice ?? '',
      body: form,
    });
    expect(up.status).toBe(200);
    const use = await as('carol', 'POST', '/api/v1/skills', { temp_file_id: up.json.result.temp_file_id });
    expect(use.status).toBe(404);
    const own = await as('alice', 'POST', '/api/v1/skills', { temp_file_id: up.json.result.temp_file_id });
    expect(own.status, own.text).toBe(200);
  });
});

describe('key guessing', () => {
  test('too many wrong keys from one address → 429 RESOURCE_EXHAUSTED with Retry-After', async () => {
    const guarded = await startTestServer({ rootApiKey: ROOT, limits: { maxAuthFailuresPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await guarded.request('GET', '/api/v1/skills', { apiKey: `sk_guess_${i}` })).status);
      expect(statuses).toEqual([401, 401, 401]);
      const blocked = await guarded.request('GET', '/api/v1/skills', { apiKey: 'sk_guess_4' });
      expect(blocked.status).toBe(429);
      expect(blocked.json.error.code).toBe('RESOURCE_EXHAUSTED');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      // Requests without any key are not guesses and are not counted.
      expect((await t.request('GET', '/api/v1/skills')).status).toBe(401);
      // A valid key from the same address is never refused by the throttle.
      expect((await guarded.request('GET', '/api/v1/admin/accounts', { apiKey: ROOT })).status).toBe(200);
    } finally {
      await guarded.close();
    }
  });
});

describe('administration', () => {
  test('admins manage their own account only', async () => {
    const own = await as('alice', 'GET', '/api/v1/admin/accounts/acme/keys');
    expect(own.status).toBe(200);
    expect(own.json.result.keys.every((k: { account_id: string }) => k.account_id === 'acme')).toBe(true);
    expect(JSON.stringify(own.json)).not.toContain(keys.bob);
    expect((await as('alice', 'GET', '/api/v1/admin/accounts/globex/keys')).status).toBe(403);
    expect(
      (await as('alice', 'POST', '/api/v1/admin/accounts/globex/users', { user_id: 'mallory' })).status,
    ).toBe(403);
    expect((await as('alice', 'POST', '/api/v1/admin/accounts', { account_id: 'newco' })).status).toBe(403);
    const accounts = await as('alice', 'GET', '/api/v1/admin/accounts');
    expect(accounts.json.result.accounts).toEqual(['acme']);
  });

  test('keys for unknown users or accounts → 404; bad ids → 400', async () => {
    expect(
      (
        await t.request('POST', '/api/v1/admin/accounts/acme/keys', {
          apiKey: ROOT,
          body: { user_id: 'ghost' },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('POST', '/api/v1/admin/accounts/nope/users', { apiKey: ROOT, body: { user_id: 'x' } }))
        .status,
    ).toBe(404);
    const bad = await t.request('POST', '/api/v1/admin/accounts', {
      apiKey: ROOT,
      body: { account_id: 'has space' },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('account_id');
  });

  test('a revoked key stops working at once', async () => {
    const k = await t.request('POST', '/api/v1/admin/accounts/acme/keys', {
      apiKey: ROOT,
      body: { user_id: 'bob' },
    });
    const temp = k.json.result.api_key;
    expect((await t.request('GET', '/api/v1/skills', { apiKey: temp })).status).toBe(200);
    const revoke = await as('alice', 'DELETE', `/api/v1/admin/accounts/acme/keys/${k.json.result.key_id}`);
    expect(revoke.status, revoke.text).toBe(200);
    expect(revoke.json.result.revoked).toBe(true);
    expect((await t.request('GET', '/api/v1/skills', { apiKey: temp })).status).toBe(401);
    expect((await as('alice', 'DELETE', `/api/v1/admin/accounts/globex/keys/${keyIds.carol}`)).status).toBe(
      403,
    );
  });
});
