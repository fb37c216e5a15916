// A request without a valid API key is refused before its JSON body is read or parsed: a stranger
// cannot make the server buffer and walk megabytes of JSON per request just to be told 401.
import { request } from 'node:http';
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
  const mcp = await t.request('POST', '/mcp', {
    body: DEEP,
    headers: { ...headers, accept: 'application/json, text/event-stream' },
  });
  expect(mcp.status, mcp.text).toBe(401);
});

/** POSTs `total` bytes streamed in 1 MiB chunks (no Content-Length); resolves with the status. */
function streamed(urlPath: string, headers: Record<string, string>, total: number): Promise<number> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: urlPath,
        headers: { ...headers, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    const chunk = Buffer.alloc(1024 * 1024, 120);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

test('a streamed body past the size limit from a stranger → 401; from a key holder → 413', async () => {
  const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
  expect(await streamed('/api/v1/resources/temp_upload', multipart, 40 * 1024 * 1024)).toBe(401);
  expect(await streamed('/api/v1/skills', headers, 8 * 1024 * 1024)).toBe(401);
  expect(await streamed('/api/v1/skills', { ...headers, 'x-api-key': userKey }, 8 * 1024 * 1024)).toBe(413);
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

/**
 * POSTs `total` bytes streamed (no Content-Length) and then holds the request open without ending
 * it; resolves with the status of the response that arrives meanwhile (the request is then dropped).
 */
function streamedHeldOpen(urlPath: string, headers: Record<string, string>, total: number): Promise<number> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: urlPath,
        headers: { ...headers, 'transfer-encoding': 'chunked' },
      },
      (res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
        req.destroy();
      },
    );
    req.on('error', (error) => {
      // The server may close the connection after answering; only an error before the answer counts.
      if (!req.destroyed) reject(error);
    });
    const chunk = Buffer.alloc(256 * 1024, 120);
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      // Never ended: a 413 has to come from the limit, not from the end of the body.
    };
    pump();
  });
}

test('a key holder’s streamed body is answered 413 as soon as it passes the limit, not when it ends', async () => {
  const withKey = { 'x-api-key': userKey };
  const multipart = { ...withKey, 'content-type': 'multipart/form-data; boundary=x' };
  // 25 MiB upload limit (+ 64 KiB of multipart framing): 26 MiB passes it.
  expect(await streamedHeldOpen('/api/v1/resources/temp_upload', multipart, 26 * 1024 * 1024)).toBe(413);
  // 4 MiB JSON limit, on the API and on /mcp.
  expect(await streamedHeldOpen('/api/v1/skills', { ...withKey, ...headers }, 5 * 1024 * 1024)).toBe(413);
  expect(
    await streamedHeldOpen(
      '/mcp',
      { ...withKey, ...headers, accept: 'application/json, text/event-stream' },
      5 * 1024 * 1024,
    ),
  ).toBe(413);
});
