/**
 * OpenViking's identity headers, `X-OpenViking-Account` and `X-OpenViking-User`, which its SDKs, CLI
 * and plugins send whenever an account or user is configured. As on an OpenViking server: in dev mode
 * they name the caller (account and user default to `default`); with API keys the key alone names
 * the caller and the headers are ignored, for every role. Runs on both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'sk_root_test_key_that_is_long_enough_0123456789';
const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;
const as = (account: string | null, user: string | null): Record<string, string> => ({
  ...(account !== null ? { 'X-OpenViking-Account': account } : {}),
  ...(user !== null ? { 'X-OpenViking-User': user } : {}),
});

describe('dev mode: the headers name the caller', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => {
    await t.close();
  });

  const add = (headers: Record<string, string>, data: string, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/api/v1/skills', { headers, body: { data, wait: true, ...extra } });
  const names = async (headers: Record<string, string>, query = '') => {
    const res = await t.request('GET', `/api/v1/skills${query}`, { headers });
    expect(res.status, res.text).toBe(200);
    return (res.json.result.skills as { name: string; root_uri: string }[]).map(
      (s) => `${s.root_uri}/${s.name}`,
    );
  };

  test("a write with X-OpenViking-User lands in that user's root; without it, in default's", async () => {
    const alice = await add(as(null, 'alice'), md('notes', 'Notes of alice'));
    expect(alice.status, alice.text).toBe(200);
    expect(alice.json.result.root_uri).toBe('viking://user/alice/skills/notes');
    const plain = await add({}, md('notes', 'Notes of the default user'));
    expect(plain.json.result.root_uri).toBe('viking://user/default/skills/notes');

    expect(await names(as(null, 'alice'))).toContain('viking://user/alice/skills/notes');
    expect(await names({})).toEqual(['viking://user/default/skills/notes']);
    expect(await names(as('default', 'default'))).toEqual(['viking://user/default/skills/notes']);
  });

  test("the user's own root by its explicit URI; another user's stays refused", async () => {
    const target = `?target_uri=${encodeURIComponent('viking://user/alice/skills')}`;
    expect(await names(as(null, 'alice'), target)).toEqual(['viking://user/alice/skills/notes']);
    const other = await t.request('GET', `/api/v1/skills${target}`);
    expect(other.status).toBe(403);
    expect(other.json.error.code).toBe('PERMISSION_DENIED');
  });

  test('get (repeated, so a kept answer exists) follows the header, not the kept caller', async () => {
    for (let i = 0; i < 3; i++) {
      const got = await t.request('GET', '/api/v1/skills/notes?level=0');
      expect(got.json.result.description).toBe('Notes of the default user');
    }
    for (let i = 0; i < 2; i++) {
      const got = await t.request('GET', '/api/v1/skills/notes?level=0', { headers: as(null, 'alice') });
      expect(got.status, got.text).toBe(200);
      expect(got.json.result.description).toBe('Notes of alice');
      expect(got.json.result.uri).toBe('viking://user/alice/skills/notes');
    }
  });

  test('X-OpenViking-Account names the account: its shared root is its own', async () => {
    const shared = await add(as('acme', 'bob'), md('acme-tool', 'Shared tool of acme'), {
      target_uri: 'viking://agent/skills',
    });
    expect(shared.status, shared.text).toBe(200);
    expect(await names(as('acme', 'carol'))).toEqual(['viking://agent/skills/acme-tool']);
    expect(await names({})).not.toContain('viking://agent/skills/acme-tool');
    const find = await t.request('POST', '/api/v1/skills/find', { body: { query: 'acme tool' } });
    expect(find.json.result.skills.map((s: { name: string }) => s.name)).not.toContain('acme-tool');
  });

  test('blank headers mean not given', async () => {
    expect(await names({ 'X-OpenViking-Account': '  ', 'X-OpenViking-User': '' })).toEqual([
      'viking://user/default/skills/notes',
    ]);
  });

  test.each([
    ['X-OpenViking-User', '../bob'],
    ['X-OpenViking-User', '..'],
    ['X-OpenViking-User', 'al ice'],
    ['X-OpenViking-User', 'x'.repeat(129)],
    ['X-OpenViking-Account', 'ac.me'],
    ['X-OpenViking-Account', 'a'.repeat(65)],
  ])('%s %j is refused with 400 naming the header; nothing is stored', async (header, value) => {
    const res = await add({ [header]: value }, md('refused-skill', 'Never stored'));
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details).toEqual({ field: header, reason: 'invalid' });
    expect(res.json.error.message).toContain(header);
    const got = await t.request('GET', '/api/v1/skills/refused-skill');
    expect(got.status).toBe(404);
  });
});

describe('API keys: the key names the caller, the headers are ignored', () => {
  let t: TestServer;
  const keys: Record<string, string> = {};
  const key = (who: string): string => keys[who] ?? who;
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
      await t.request('POST', `/api/v1/admin/accounts/${account}/users`, {
        apiKey: ROOT,
        body: { user_id: user },
      });
      const k = await t.request('POST', `/api/v1/admin/accounts/${account}/keys`, {
        apiKey: ROOT,
        body: { user_id: user, role },
      });
      expect(k.status, k.text).toBe(200);
      keys[user] = k.json.result.api_key;
    }
  });
  afterAll(async () => {
    await t.close();
  });

  test.each([
    ['bob', as('globex', 'carol'), 'viking://user/bob/skills/bob-notes'],
    ['bob', as('acme', 'bob'), 'viking://user/bob/skills/bob-notes'],
    ['alice', as('acme', 'bob'), 'viking://user/alice/skills/bob-notes'],
    ['alice', as('globex', null), 'viking://user/alice/skills/bob-notes'],
  ])('a %s key with %j writes as itself', async (who, headers, uri) => {
    const res = await t.request('POST', '/api/v1/skills', {
      apiKey: key(who),
      headers,
      body: { data: md('bob-notes', `Written by ${who}`), wait: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.root_uri).toBe(uri);
  });

  test('nothing reached the users or account the headers named', async () => {
    const carol = await t.request('GET', '/api/v1/skills', { apiKey: key('carol') });
    expect(carol.json.result.skills).toEqual([]);
    const bob = await t.request('GET', '/api/v1/skills/bob-notes?level=0', { apiKey: key('bob') });
    expect(bob.json.result.description).toBe('Written by bob');
  });

  test('a root key stays refused on data routes, headers or not; with them the refusal says why', async () => {
    for (const headers of [{}, as('acme', 'alice'), as(null, 'alice')]) {
      const res = await t.request('GET', '/api/v1/skills', { apiKey: ROOT, headers });
      expect(res.status, res.text).toBe(403);
      expect(res.json.error.code).toBe('PERMISSION_DENIED');
      expect(res.json.error.details).toEqual({ role: 'root' });
      expect(res.json.error.message.includes('do not make a key act as another user')).toBe(
        Object.keys(headers).length > 0,
      );
    }
  });

  test('an invalid header value is ignored with a key, as any other', async () => {
    const res = await t.request('GET', '/api/v1/skills', {
      apiKey: key('bob'),
      headers: as('ac.me', '../x'),
    });
    expect(res.status, res.text).toBe(200);
  });
});

test("a browser may send them: CORS preflight allows OpenViking's identity and agent headers", async () => {
  const t = await startTestServer({ corsOrigins: ['https://app.example'] });
  try {
    const preflight = await fetch(`${t.url}/api/v1/skills/find`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'content-type,x-openviking-account,x-openviking-user,x-openviking-agent',
      },
    });
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '')
      .toLowerCase()
      .split(/\s*,\s*/);
    for (const header of ['x-openviking-account', 'x-openviking-user', 'x-openviking-agent']) {
      expect(allowed, header).toContain(header);
    }
  } finally {
    await t.close();
  }
});
