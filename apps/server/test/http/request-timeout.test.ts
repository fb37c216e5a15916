// A client that sends its request slowly (slowloris) cannot hold a connection for long: past
// `requestTimeoutSeconds` it gets 408 and the connection is closed; other clients are unaffected.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ limits: { requestTimeoutSeconds: 2 } });
});
afterAll(async () => {
  await t.close();
});

/** Sends `head` and then nothing; resolves with what the server wrote before closing, and when. */
function stall(head: string): Promise<{ reply: string; ms: number }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write(head));
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ reply, ms: performance.now() - started }));
  });
}

test('a body that never finishes arriving gets 408 and the connection is closed', async () => {
  const slow = stall(
    'POST /api/v1/skills HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"data":',
  );
  // Meanwhile others are served.
  expect((await t.request('GET', '/health')).status).toBe(200);
  const { reply, ms } = await slow;
  expect(reply).toMatch(/^HTTP\/1\.1 408/);
  // Bounded by the setting (2 s) plus Node's 1 s check period, with slack for a loaded machine.
  expect(ms).toBeGreaterThanOrEqual(1900);
  expect(ms).toBeLessThan(30_000);
});

test('headers that never finish arriving get 408 too', async () => {
  const { reply } = await stall('GET /health HTTP/1.1\r\nHost: x\r\n');
  expect(reply).toMatch(/^HTTP\/1\.1 408/);
});
