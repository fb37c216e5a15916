// An answer given before the request body has arrived (401 to a stranger, 413 past a size limit)
// closes its connection, and closes it so that the client gets the answer: `Connection: close` (a
// client never sends its next request on a connection about to be cut), then the server reads and
// discards the rest of the body, bounded, before it closes (no reset wiping the unread answer).
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { LINGER_MAX_BYTES } from '../../src/http/early-answer.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'root-key-for-early-answer-tests-0123456789';
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

const MiB = 1024 * 1024;

interface Exchange {
  status: number;
  connection: string | undefined;
  reusedSocket: boolean;
}

/**
 * Sends one request through `agent`: `total` bytes streamed in 1 MiB chunks (no Content-Length), or
 * no body when `total` is 0; resolves once the answer has been read.
 */
function send(agent: Agent, method: string, urlPath: string, headers: Record<string, string>, total = 0) {
  const { hostname, port } = new URL(t.url);
  return new Promise<Exchange>((resolve, reject) => {
    const req = request(
      {
        agent,
        host: hostname,
        port,
        method,
        path: urlPath,
        headers: total > 0 ? { ...headers, 'transfer-encoding': 'chunked' } : headers,
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            connection: res.headers.connection,
            reusedSocket: req.reusedSocket,
          }),
        );
      },
    );
    // After the answer has been read, an error (the rest of the body refused) changes nothing.
    req.on('error', reject);
    if (total === 0) {
      req.end();
      return;
    }
    const chunk = Buffer.alloc(MiB, 120);
    let sent = 0;
    const pump = () => {
      while (sent < total && !req.destroyed) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

test('an early answer says Connection: close, so the next request goes on a new connection', async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const json = { 'content-type': 'application/json' };
    // 8 MiB against the 4 MiB JSON limit, from a key holder: 413 once 4 MiB are read.
    const tooLarge = await send(agent, 'POST', '/api/v1/skills', { ...json, 'x-api-key': userKey }, 8 * MiB);
    expect(tooLarge).toMatchObject({ status: 413, connection: 'close' });
    const after413 = await send(agent, 'GET', '/health', {});
    expect(after413).toEqual({ status: 200, connection: 'keep-alive', reusedSocket: false });
    // From a stranger: 401 before any of it is read.
    const stranger = await send(agent, 'POST', '/api/v1/skills', json, 8 * MiB);
    expect(stranger).toMatchObject({ status: 401, connection: 'close' });
    const after401 = await send(agent, 'GET', '/health', {});
    expect(after401).toEqual({ status: 200, connection: 'keep-alive', reusedSocket: false });
    // A body read in full keeps its connection for the next request.
    const read = await send(agent, 'POST', '/api/v1/skills/validate', { ...json, 'x-api-key': userKey }, MiB);
    expect(read).toMatchObject({ status: 400, connection: 'keep-alive' });
    const afterRead = await send(agent, 'GET', '/health', {});
    expect(afterRead).toEqual({ status: 200, connection: 'keep-alive', reusedSocket: true });
  } finally {
    agent.destroy();
  }
});

interface RawResult {
  /** What the server sent, as text. */
  received: string;
  /** Body bytes the client handed to its socket before the connection ended. */
  written: number;
  /** The socket error that ended the connection, if any (a reset, a broken pipe). */
  error: NodeJS.ErrnoException | null;
}

/**
 * A client that writes its request, with `total` body bytes in chunked encoding, and reads only what
 * arrives meanwhile (no HTTP client logic that stops on an early answer): it keeps sending until the
 * body is out or the server ends the connection.
 */
function rawUpload(urlPath: string, headers: Record<string, string>, total: number): Promise<RawResult> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve) => {
    // Half-open allowed: the server's FIN after its answer does not stop the client sending.
    const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
    const received: Buffer[] = [];
    let written = 0;
    let error: NodeJS.ErrnoException | null = null;
    socket.on('data', (data: Buffer) => received.push(data));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e;
    });
    socket.on('close', () =>
      resolve({ received: Buffer.concat(received).toString('latin1'), written, error }),
    );
    const head = [
      `POST ${urlPath} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      'Transfer-Encoding: chunked',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      '',
      '',
    ].join('\r\n');
    socket.write(head);
    const chunk = Buffer.concat([
      Buffer.from(`${MiB.toString(16)}\r\n`),
      Buffer.alloc(MiB, 120),
      Buffer.from('\r\n'),
    ]);
    const pump = () => {
      while (written < total && !socket.destroyed) {
        written += MiB;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
      if (!socket.destroyed) socket.end('0\r\n\r\n');
    };
    socket.once('connect', pump);
  });
}

test('a client that sends its whole body before it stops gets the early answer, without a reset', async () => {
  const json = { 'content-type': 'application/json' };
  // 401 before reading, then 6 MiB discarded; 413 after 4 MiB, then the rest discarded.
  for (const [headers, status] of [
    [json, 401],
    [{ ...json, 'x-api-key': userKey }, 413],
  ] as const) {
    const result = await rawUpload('/api/v1/skills', headers, 6 * MiB);
    expect(result.error).toBeNull();
    expect(result.written).toBe(6 * MiB);
    expect(result.received).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(result.received.toLowerCase()).toContain('\r\nconnection: close\r\n');
  }
});

test('an early-answered body is not read to its end: the server closes after a bounded discard', async () => {
  const total = 256 * MiB;
  const result = await rawUpload('/api/v1/resources/temp_upload', {}, total);
  expect(result.received).toMatch(/^HTTP\/1\.1 401 /);
  // What the server discarded, plus what the two kernels' buffers held when it closed.
  expect(result.written).toBeGreaterThan(LINGER_MAX_BYTES);
  expect(result.written).toBeLessThan(total);
});
