/**
 * The wrong-key throttle: failures count per client address and per key prefix; past the limit a
 * wrong key gets 429 instead of 401, a valid key always passes, and `/health` is no way around it.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'auth-throttle-test-root-key-0123456789';
const LIMIT = 3;
const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function start(): Promise<{ t: TestServer; userKey: string }> {
  const t = await startTestServer({
    rootApiKey: ROOT,
    trustedProxies: ['127.0.0.1', '::1'],
    limits: { maxAuthFailuresPerMinute: LIMIT },
  });
  servers.push(t);
  await t.request('POST', '/api/v1/admin/accounts', { apiKey: ROOT, body: { account_id: 'acme' } });
  await t.request('POST', '/api/v1/admin/accounts/acme/users', { apiKey: ROOT, body: { user_id: 'ann' } });
  const key = await t.request('POST', '/api/v1/admin/accounts/acme/keys', {
    apiKey: ROOT,
    body: { user_id: 'ann', role: 'user' },
  });
  expect(key.status, key.text).toBe(200);
  expect(key.json.result.api_key).toMatch(/^sk_/);
  return { t, userKey: key.json.result.api_key };
}

const from = (client: string, apiKey: string) => ({ apiKey, headers: { 'x-forwarded-for': client } });
/** A wrong key that looks like a real one (same `sk_` shape), distinct per call. */
let n = 0;
const guess = (prefix = 'sk_guess') =>
  `${prefix}${String(n++).padStart(8, '0')}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx`;

describe('per address', () => {
  test('past the limit a wrong key gets 429 with Retry-After; valid keys from that address still pass', async () => {
    const { t, userKey } = await start();
    const statuses = [];
    for (let i = 0; i < LIMIT; i++) {
      statuses.push(
        (await t.request('GET', '/api/v1/skills', from('203.0.113.5', guess(`sk_a${i}`)))).status,
      );
    }
    expect(statuses).toEqual([401, 401, 401]);
    const blocked = await t.request('GET', '/api/v1/skills', from('203.0.113.5', guess('sk_b')));
    expect(blocked.status).toBe(429);
    expect(blocked.json.error.code).toBe('RESOURCE_EXHAUSTED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same (NAT or proxy) address: a user with a valid key is not locked out.
    expect((await t.request('GET', '/api/v1/skills', from('203.0.113.5', userKey))).status).toBe(200);
    expect((await t.request('GET', '/api/v1/admin/accounts', from('203.0.113.5', ROOT))).status).toBe(200);
    // Another client is not affected by the first one's guesses.
    expect((await t.request('GET', '/api/v1/skills', from('198.51.100.7', guess('sk_c')))).status).toBe(401);
  });
});

describe('per key prefix', () => {
  test('guesses of one prefix spread over many addresses are throttled; the real key of that prefix passes', async () => {
    const { t, userKey } = await start();
    const prefix = userKey.slice(0, 10);
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push(
        (await t.request('GET', '/api/v1/skills', from(`192.0.2.${i + 1}`, `${prefix}${'x'.repeat(36)}${i}`)))
          .status,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await t.request('GET', '/api/v1/skills', from('192.0.2.200', userKey))).status).toBe(200);
  });
});

describe('/health', () => {
  test('wrong keys sent to /health count like any other; /health with no key or a valid key always answers', async () => {
    const { t, userKey } = await start();
    const statuses = [];
    for (let i = 0; i <= LIMIT; i++)
      statuses.push((await t.request('GET', '/health', from('203.0.113.9', guess()))).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The same count guards /api/v1.
    expect((await t.request('GET', '/api/v1/skills', from('203.0.113.9', guess()))).status).toBe(429);
    expect(
      (await t.request('GET', '/health', { headers: { 'x-forwarded-for': '203.0.113.9' } })).status,
    ).toBe(200);
    const valid = await t.request('GET', '/health', from('203.0.113.9', userKey));
    expect(valid.status).toBe(200);
    expect(valid.json).toMatchObject({ account_id: 'acme', user_id: 'ann', role: 'user' });
  });

  test('500 wrong keys in a row at /health: all but the first few are refused', async () => {
    const { t } = await start();
    // 64 requests in flight at a time: concurrent enough to race the counts, while client and server
    // (one process, two descriptors per connection) stay well inside an open-file limit of 1024 and
    // under the per-address connection cap derived from it.
    const statuses: number[] = [];
    let sent = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (sent < 500) {
          sent++;
          statuses.push((await t.request('GET', '/health', { apiKey: guess() })).status);
        }
      }),
    );
    expect(statuses).toHaveLength(500);
    expect(statuses.filter((s) => s === 200).length).toBe(LIMIT);
    expect(statuses.filter((s) => s === 429).length).toBe(500 - LIMIT);
  });
});
