// A request without a valid API key is refused before its JSON body is read or parsed: a stranger
// cannot make the server buffer and walk megabytes of JSON per request just to be told 401.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'root-key-for-unauthenticated-body-tests-0123456789';
let t: TestServer;
let userKey = '';
beforeAll(async () => {
  t = await startTestServer({ rootApiKey: ROOT });
  await t.request('POST', '/api/v1/admin/accounts', { apiKey: ROOT, body: { account_id: 'acme' } });
  await t.request('POST', '/api/v1/admin/accounts/acme/users', { apiKey: ROOT, body: { user_id: 'ann' } });
  const key = await t.request('POST', '/api/v1/admin/accounts/acme/keys', {
    apiKey: ROOT,
    body: { user_id: 'ann', role: 'user' },
  });
  expect(key.status, key.text).toBe(200);
  userKey = key.json.result.api_key;
});
afterAll(async () => {
  await t.close();
});

// ~3 MiB of JSON, nested past the depth limit: refused 400 once read.
const DEEP = `{"data":${'['.repeat(100)}"${'x'.repeat(3 * 1024 * 1024)}"${']'.repeat(100)}}`;
const headers = { 'content-type': 'application/json' };

test('no key or a wrong key → 401, whatever the body', async () => {
  const none = await t.request('POST', '/api/v1/skills', { body: DEEP, headers });
  expect(none.status, none.text).toBe(401);
  const wrong = await t.request('POST', '/api/v1/skills', {
    body: DEEP,
    headers,
    apiKey: 'sk_wrongwrongwrongwrongwrongwrong',
  });
  expect(wrong.status, wrong.text).toBe(401);
  const broken = await t.request('POST', '/api/v1/skills/validate', { body: '{"data": ', headers });
  expect(broken.status, broken.text).toBe(401);
});

test('with a valid key the body is checked as before', async () => {
  const deep = await t.request('POST', '/api/v1/skills', { body: DEEP, headers, apiKey: userKey });
  expect(deep.status, deep.text).toBe(400);
  expect(deep.json.error.code).toBe('INVALID_ARGUMENT');
  const broken = await t.request('POST', '/api/v1/skills/validate', {
    body: '{"data": ',
    headers,
    apiKey: userKey,
  });
  expect(broken.status, broken.text).toBe(400);
});
