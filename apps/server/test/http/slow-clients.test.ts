// Clients that hold connections without doing their part cannot hold the server's memory or file
// descriptors: a client that stops reading its response is cut after `responseStallSeconds` (one that
// reads slowly, or waits for a slow answer, is not), and connections past `maxConnections` are closed
// at once while the server keeps answering the others.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  effectiveMaxConnections,
  effectiveMaxConnectionsPerAddress,
  openFileLimit,
} from '../../src/http/connection-limit.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Larger than what loopback socket buffers take from a client that reads nothing (~5 MiB here).
const BIG = 16 * 1024 * 1024;
const FILE_PATH = '/api/v1/skills/big-kit/files/data.bin';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Reads everything left on a paused socket until it ends; resolves with the byte count. */
function drain(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    socket.on('error', () => {});
    socket.on('close', () => resolve(bytes));
    socket.resume();
  });
}

describe('a client that stops reading its response', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ limits: { responseStallSeconds: 1 } });
    const skill = new TextEncoder().encode(
      '---\nname: big-kit\ndescription: Ships one large data file\n---\n\n# Big kit\n',
    );
    const form = new FormData();
    form.append(
      'file',
      new Blob([zipSync({ 'SKILL.md': skill, 'data.bin': randomBytes(BIG) }, { level: 0 })]),
      'a.zip',
    );
    const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
    expect(up.status, up.text).toBe(200);
    const add = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: up.json.result.temp_file_id, wait: true },
    });
    expect(add.status, add.text).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  test('is cut, with the rest of its response never sent, while others are served', async () => {
    const socket = await open(t.url);
    socket.pause();
    // Three pipelined requests for 16 MiB each: ~48 MiB the server would otherwise hold for good.
    for (let i = 0; i < 3; i++) socket.write(`GET ${FILE_PATH} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect((await t.request('GET', '/health')).status).toBe(200);
    // Cut after one to two periods of 1 s; generous for a loaded machine.
    await sleep(8000);
    const received = await drain(socket);
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(BIG);
  }, 30_000);

  test('a client reading slowly gets the whole response', async () => {
    const socket = await open(t.url);
    socket.pause();
    socket.write(`GET ${FILE_PATH} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    let bytes = 0;
    // ~2.5 MiB/s for 3.5 s, over three stall periods, then the rest at full speed.
    for (let i = 0; i < 35; i++) {
      await sleep(100);
      const chunk: Buffer | null = socket.read(256 * 1024) ?? socket.read();
      if (chunk) bytes += chunk.length;
    }
    bytes += await drain(socket);
    expect(bytes).toBeGreaterThan(BIG);
  }, 30_000);

  test('a request whose body arrives slowly is answered, not cut', async () => {
    const socket = await open(t.url);
    const body = JSON.stringify({ data: '---\nname: slow-kit\ndescription: Sent slowly\n---\n\nBody\n' });
    socket.write(
      `POST /api/v1/skills/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
    });
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    // Nothing sent or received for three stall periods: the handler is waiting for the body.
    await sleep(3500);
    // Not `end`: a half-closed request is dropped by Node's HTTP server unless already answered.
    socket.write(body);
    await closed;
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
  }, 30_000);
});

describe('connections past maxConnections', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ limits: { maxConnections: 3, maxConnectionsPerAddress: 0 } });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One request on a new keep-alive connection; resolves with the status line, or null when closed unanswered. */
  async function ask(): Promise<{ socket: Socket; status: string | null }> {
    const socket = await open(t.url);
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    const status = await new Promise<string | null>((resolve) => {
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
      socket.once('close', () => resolve(null));
      socket.once('error', () => {});
    });
    return { socket, status };
  }

  test('are closed at once; the held ones and later ones are served', async () => {
    const held = [await ask(), await ask(), await ask()];
    for (const h of held) expect(h.status).toBe('HTTP/1.1 200 OK');
    const refused = await ask();
    expect(refused.status).toBeNull();
    // A held keep-alive connection still works.
    const again = await new Promise<string>((resolve) => {
      held[0]?.socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
      held[0]?.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(again).toBe('HTTP/1.1 200 OK');
    // Once one is let go, a new client gets in.
    const gone = new Promise((resolve) => held[2]?.socket.once('close', resolve));
    held[2]?.socket.destroy();
    await gone;
    await expect.poll(async () => (await ask()).status, { timeout: 10_000 }).toBe('HTTP/1.1 200 OK');
    for (const h of held) h.socket.destroy();
  });
});

/** One request on a new keep-alive connection to `url`; the status line, or null when closed unanswered. */
async function askAt(url: string): Promise<{ socket: Socket; status: string | null }> {
  const socket = await open(url);
  socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
  const status = await new Promise<string | null>((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
    socket.once('close', () => resolve(null));
    socket.once('error', () => {});
  });
  return { socket, status };
}

describe('connections from one address past maxConnectionsPerAddress', () => {
  let t: TestServer;
  let proxied: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ limits: { maxConnectionsPerAddress: 2 } });
    // Behind a trusted proxy every client comes from the proxy's address: it is not capped.
    proxied = await startTestServer({
      limits: { maxConnectionsPerAddress: 1 },
      trustedProxies: ['127.0.0.1'],
    });
  });
  afterAll(async () => {
    await t?.close();
    await proxied?.close();
  });

  test('are closed at once while the global limit has room; a freed slot lets the address in again', async () => {
    const held = [await askAt(t.url), await askAt(t.url)];
    for (const h of held) expect(h.status).toBe('HTTP/1.1 200 OK');
    const refused = await askAt(t.url);
    expect(refused.status).toBeNull();
    // The held connections still work.
    const again = await new Promise<string>((resolve) => {
      held[0]?.socket.once('data', (chunk: Buffer) => resolve(chunk.toString().split('\r\n')[0] ?? ''));
      held[0]?.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(again).toBe('HTTP/1.1 200 OK');
    const gone = new Promise((resolve) => held[1]?.socket.once('close', resolve));
    held[1]?.socket.destroy();
    await gone;
    await expect
      .poll(
        async () => {
          const next = await askAt(t.url);
          next.socket.destroy();
          return next.status;
        },
        { timeout: 10_000 },
      )
      .toBe('HTTP/1.1 200 OK');
    for (const h of held) h.socket.destroy();
  });

  test('a trusted proxy’s connections count only against the global limit', async () => {
    const held = [await askAt(proxied.url), await askAt(proxied.url), await askAt(proxied.url)];
    for (const h of held) expect(h.status).toBe('HTTP/1.1 200 OK');
    for (const h of held) h.socket.destroy();
  });
});

test('the per-address limit never lets one address hold more than half the connection slots', () => {
  expect(effectiveMaxConnectionsPerAddress(1000, 10_000)).toBe(1000);
  expect(effectiveMaxConnectionsPerAddress(1000, 768)).toBe(384);
  expect(effectiveMaxConnectionsPerAddress(0, 768)).toBe(Number.POSITIVE_INFINITY);
  expect(effectiveMaxConnectionsPerAddress(5, 1)).toBe(1);
  expect(effectiveMaxConnectionsPerAddress(1000, Number.POSITIVE_INFINITY)).toBe(1000);
});

test('the connection limit stays below the open-file limit', () => {
  const limits =
    'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 4096                 files\n';
  expect(openFileLimit(limits)).toBe(1024);
  expect(
    openFileLimit('Max open files            unlimited            unlimited            files\n'),
  ).toBeNull();
  expect(effectiveMaxConnections(10_000, 1024)).toBe(768);
  expect(effectiveMaxConnections(100, 1024)).toBe(100);
  expect(effectiveMaxConnections(0, 1024)).toBe(768);
  expect(effectiveMaxConnections(0, null)).toBe(Number.POSITIVE_INFINITY);
  expect(effectiveMaxConnections(10_000, null)).toBe(10_000);
});
