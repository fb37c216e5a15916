/**
 * The fast path of `GET /api/v1/skills/{name}` (answered before the framework, from memory or, for a
 * plain get not kept, from one read as the route reads): the same bytes as the app's answer for 200 and
 * 304 (status line, headers in order, body), the same rate limit and request line — and never an
 * answer the app would not give: a revoked key, a deleted skill, an update through another replica
 * are answered as the app answers them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, type SkillportApp } from '../../src/app.js';
import type { ServerLimits } from '../../src/config.js';
import { withFastGets } from '../../src/routes/skill-fast-get.js';
import type { Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore, TEST_ENGINE } from '../helpers/engine.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A store of the engine under test on a new database, or on the database of `dataDir`. */
async function openStore(dataDir?: string): Promise<{ store: Store; dataDir: string }> {
  const dir = dataDir ?? mkdtempSync(path.join(tmpdir(), 'skillport-fast-get-'));
  const store = openEngineStore(dir);
  await store.migrate();
  cleanups.push(async () => {
    await store.close();
    if (dataDir === undefined) {
      await dropEngineData(dir);
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return { store, dataDir: dir };
}

async function listen(listener: RequestListener): Promise<number> {
  const server: Server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as { port: number }).port;
}

/**
 * One app served twice: `fast` offers each request to the fast path first (as `startServer` does),
 * `app` sends every request through the framework (the Node adapter alone).
 */
async function serveTwice(
  store: Store,
  options: { rootApiKey?: string; limits?: Partial<ServerLimits>; logged?: object[] } = {},
): Promise<{ built: SkillportApp; fast: number; app: number }> {
  const logger = options.logged
    ? { info: (record: object) => options.logged?.push(record), error: () => {} }
    : false;
  const built = await createApp({
    store,
    logger,
    processAtWrite: true,
    ...(options.rootApiKey ? { rootApiKey: options.rootApiKey } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  const app = getRequestListener(built.fetch);
  return { built, fast: await listen(withFastGets(built.fastGets, app)), app: await listen(app) };
}

interface RawResponse {
  status: number;
  /** The status line and headers, as sent (CRLF line ends). */
  head: string;
  body: Buffer;
}

/** Sends one GET on a fresh connection and returns the response's bytes as received. */
function rawGet(port: number, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const bytes = Buffer.concat(chunks);
      const end = bytes.indexOf('\r\n\r\n');
      const head = bytes.subarray(0, end).toString('latin1');
      resolve({ status: Number(head.split(' ')[1]), head, body: bytes.subarray(end + 4) });
    });
    const lines = [`GET ${target} HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Connection: close'];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}

/**
 * A response with what differs between two answers of the same request made at different moments
 * set aside: the `Date` header, the envelope's `time` (seconds elapsed) and the `Content-Length`
 * that counts its digits (checked against the body here instead).
 */
function comparable(res: RawResponse): { head: string; body: string } {
  const length = /\r\nContent-Length: (\d+)/.exec(res.head);
  if (length) expect(Number(length[1])).toBe(res.body.byteLength);
  return {
    head: res.head
      .replace(/\r\nDate: [^\r]*/, '\r\nDate: -')
      .replace(/\r\nContent-Length: \d+/, '\r\nContent-Length: -'),
    body: res.body.toString('latin1').replace(/,"time":[0-9.e-]+\}$/, ',"time":-}'),
  };
}

/**
 * Runs `step` (requests and their assertions) again when it fails while the store's change token
 * moved during it; a failure with the token unchanged throws at once (the fast path's fault), as does
 * the fifth. A commit anywhere in the database moves the token — on PostgreSQL also autovacuum
 * analysing a system catalog (it takes a transaction id), which a test cluster's schemas created and
 * dropped by the hundred trigger every minute or so — and the fast path then rightly leaves the next
 * request to the app (what it kept was kept under the old token): its answers from memory can be
 * counted only across a step the token did not move in. The token never returns to an earlier
 * value, so one read before the step and one after tell.
 */
async function steady(store: Store, step: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const before = await store.changeToken();
    try {
      await step();
      return;
    } catch (error) {
      if (attempt === 5 || (await store.changeToken()) === before) throw error;
    }
  }
}

const md = (name: string, body = 'Body of the skill, with text beyond ASCII: café, 技能.') =>
  `---\nname: ${name}\ndescription: A skill read in an agent's loop\n---\n\n# ${name}\n\n${body}\n`;

/** Adds (or replaces) a skill through the app's fetch; returns its revision. */
async function add(built: SkillportApp, name: string, body?: string, apiKey?: string): Promise<string> {
  const res = await built.fetch(
    new Request('http://x/api/v1/skills', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
      body: JSON.stringify({ data: md(name, body), wait: true }),
    }),
  );
  const json = (await res.json()) as { result: { revision: string } };
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.result.revision;
}

/** Makes account `acme`, user `alice` and a user key for her through the app (root key `root`). */
async function userKey(built: SkillportApp, root: string): Promise<{ key: string; id: string }> {
  const call = async (urlPath: string, body: object) => {
    const res = await built.fetch(
      new Request(`http://x${urlPath}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': root },
        body: JSON.stringify(body),
      }),
    );
    const json = (await res.json()) as { result: Record<string, string> };
    expect(res.status, JSON.stringify(json)).toBe(200);
    return json.result;
  };
  await call('/api/v1/admin/accounts', { account_id: 'acme' });
  await call('/api/v1/admin/accounts/acme/users', { user_id: 'alice' });
  const created = await call('/api/v1/admin/accounts/acme/keys', { user_id: 'alice', role: 'user' });
  return { key: created.api_key as string, id: (created.key_id ?? created.id) as string };
}

const SHAPES = [
  '',
  '?level=0',
  '?level=1',
  '?level=2',
  '?level=2&include_files=false',
  '?include_content=true&include_source=1',
  '?level=1&include_files=0&include_integrity=true',
];

describe(`GET /api/v1/skills/{name} answered before the framework (${TEST_ENGINE})`, () => {
  it('answers 200 and 304 with the bytes the app sends: status line, headers in order, body', async () => {
    const { store } = await openStore();
    const { built, fast, app } = await serveTwice(store);
    const revision = await add(built, 'fast-skill');
    for (const query of SHAPES) {
      const target = `/api/v1/skills/fast-skill${query}`;
      const id = { 'X-Request-Id': `req-${SHAPES.indexOf(query)}` };
      await steady(store, async () => {
        // Through the app first: it reads the skill and keeps the result.
        const slow = await rawGet(app, target, id);
        expect(slow.status, slow.body.toString()).toBe(200);
        const before = built.fastGets.answered;
        const quick = await rawGet(fast, target, id);
        expect(built.fastGets.answered, query).toBe(before + 1);
        expect(comparable(quick), query).toEqual(comparable(slow));
        expect(quick.head).toContain(`\r\nETag: "${revision}"`);
        // Revalidation: the current tag (quoted, weak, in a list) → 304, the same bytes both ways.
        for (const tag of [`"${revision}"`, `W/"${revision}"`, `"other", "${revision}"`]) {
          const headers = { ...id, 'If-None-Match': tag };
          const slow304 = await rawGet(app, target, headers);
          const fast304 = await rawGet(fast, target, headers);
          expect(slow304.status).toBe(304);
          expect(fast304.head.replace(/\r\nDate: [^\r]*/, '')).toBe(
            slow304.head.replace(/\r\nDate: [^\r]*/, ''),
          );
          expect(fast304.body.byteLength).toBe(0);
        }
        expect(built.fastGets.answered, query).toBe(before + 4);
        // A tag of another revision: the full answer, from memory too.
        const other = { ...id, 'If-None-Match': '"0000"' };
        const slowOther = await rawGet(app, target, other);
        const fastOther = await rawGet(fast, target, other);
        expect(slowOther.status).toBe(200);
        expect(comparable(fastOther)).toEqual(comparable(slowOther));
        expect(built.fastGets.answered, query).toBe(before + 5);
      });
    }
    // Without `X-Request-Id` each answer gets a UUID of its own, both ways.
    const fresh = await rawGet(fast, '/api/v1/skills/fast-skill');
    expect(fresh.head).toMatch(/^HTTP\/1\.1 200 OK\r\nX-Request-Id: [0-9a-f-]{36}\r\nETag: /);
  });

  it('reads a get it does not keep as the route does: the same bytes as a cold read through the app', async () => {
    const { store } = await openStore();
    const { built } = await serveTwice(store);
    const revision = await add(built, 'cold-skill');
    for (const query of SHAPES) {
      const target = `/api/v1/skills/cold-skill${query}`;
      const id = { 'X-Request-Id': `cold-${SHAPES.indexOf(query)}` };
      // Two servers on the same database, nothing kept by either: one reads through the fast path,
      // the other through the app.
      await steady(store, async () => {
        const viaFast = await serveTwice(store);
        const viaApp = await serveTwice(store);
        // The caller is resolved once by the app (the fast path answers only callers resolved under
        // the current token); the listing reads no skill.
        expect((await rawGet(viaFast.fast, '/api/v1/skills?node_limit=0')).status).toBe(200);
        const quick = await rawGet(viaFast.fast, target, id);
        expect(viaFast.built.fastGets.answered, query).toBe(1);
        const slow = await rawGet(viaApp.app, target, id);
        expect(slow.status, slow.body.toString()).toBe(200);
        expect(comparable(quick), query).toEqual(comparable(slow));
        expect(quick.head).toContain(`\r\nETag: "${revision}"`);
      });
    }
  });

  it('leaves a get it cannot answer to the app after reading, counting it once against the rate limit', async () => {
    const { store } = await openStore();
    const { built } = await serveTwice(store);
    await add(built, 'present');
    const { built: limited, fast, app } = await serveTwice(store, { limits: { rateLimitPerMinute: 5 } });
    // The caller resolved (one of the 5).
    expect((await rawGet(fast, '/api/v1/skills?node_limit=0')).status).toBe(200);
    // Not found, and a name the name policy refuses: read, then left to the app, which words it.
    const cases: Array<[string, number]> = [
      ['/api/v1/skills/absent', 404],
      [`/api/v1/skills/${'n'.repeat(100)}`, 400],
    ];
    for (const [target, status] of cases) {
      const viaFast = await rawGet(fast, target, { 'X-Request-Id': 'left' });
      const viaApp = await rawGet(app, target, { 'X-Request-Id': 'left' });
      expect(viaFast.status, target).toBe(status);
      expect(comparable(viaFast), target).toEqual(comparable(viaApp));
    }
    expect(limited.fastGets.answered).toBe(0);
    // Those four took the rest of the bucket (each once): the next get, not kept, is refused by the
    // app without being read.
    const refused = await rawGet(fast, '/api/v1/skills/present');
    expect(refused.status).toBe(429);
    expect(limited.fastGets.answered).toBe(0);
  });

  it('answers an HTTP/1.0 request as the app does: Content-Length set, keep-alive when asked', async () => {
    const { store } = await openStore();
    const { built, fast, app } = await serveTwice(store);
    await add(built, 'old-client');
    /**
     * One HTTP/1.0 request; the response's bytes: up to the end of the body its `Content-Length`
     * announces (the connection may stay open), else up to the server closing the connection.
     */
    const send = (port: number, keepAlive: boolean) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let bytes = Buffer.alloc(0);
        socket.on('data', (chunk) => {
          bytes = Buffer.concat([bytes, chunk]);
          const end = bytes.indexOf('\r\n\r\n');
          const length = /\r\nContent-Length: (\d+)\r\n/i.exec(bytes.subarray(0, end + 2).toString('latin1'));
          if (end !== -1 && length && bytes.length >= end + 4 + Number(length[1])) {
            socket.destroy();
            resolve(bytes.toString('latin1'));
          }
        });
        socket.on('error', reject);
        socket.on('end', () => resolve(bytes.toString('latin1')));
        socket.write(
          `GET /api/v1/skills/old-client HTTP/1.0\r\nHost: x\r\nX-Request-Id: old\r\n${keepAlive ? 'Connection: keep-alive\r\n' : ''}\r\n`,
        );
      });
    // Set aside as `comparable` does: the date, the elapsed time and the length counting its digits
    // (checked against the body).
    const same = (text: string) => {
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\nContent-Length: (\d+)\r\n/.exec(text.slice(0, end + 2));
      expect(Number(length?.[1])).toBe(Buffer.byteLength(text.slice(end + 4), 'latin1'));
      return text
        .replace(/\r\nDate: [^\r]*/, '\r\nDate: -')
        .replace(/\r\nContent-Length: \d+/, '\r\nContent-Length: -')
        .replace(/,"time":[0-9.e-]+\}$/, ',"time":-}');
    };
    for (const keepAlive of [false, true]) {
      await steady(store, async () => {
        // Read once (kept), then the HTTP/1.0 request from memory.
        await rawGet(fast, '/api/v1/skills/old-client');
        const before = built.fastGets.answered;
        const quick = await send(fast, keepAlive);
        expect(built.fastGets.answered).toBe(before + 1);
        const slow = await send(app, keepAlive);
        expect(same(quick), `keep-alive: ${keepAlive}`).toBe(same(slow));
      });
    }
  });

  it('answers 304 from a kept revision lookup alone, as the app does', async () => {
    const { store } = await openStore();
    const revision = await add((await serveTwice(store)).built, 'revalidated');
    const target = '/api/v1/skills/revalidated?level=2&include_files=false';
    const headers = { 'X-Request-Id': 'r-1', 'If-None-Match': `"${revision}"` };
    await steady(store, async () => {
      // A server with nothing kept: the app answers (and keeps the revision it looked up), then the
      // fast path does.
      const { built, fast } = await serveTwice(store);
      const first = await rawGet(fast, target, headers);
      expect(first.status).toBe(304);
      expect(built.fastGets.answered).toBe(0);
      const second = await rawGet(fast, target, headers);
      expect(second.head.replace(/\r\nDate: [^\r]*/, '')).toBe(first.head.replace(/\r\nDate: [^\r]*/, ''));
      expect(built.fastGets.answered).toBe(1);
      // Another tag needs the result, which is not kept: the app answers.
      const full = await rawGet(fast, target, { 'If-None-Match': '"0000"' });
      expect(full.status).toBe(200);
      expect(built.fastGets.answered).toBe(1);
    });
  });

  it('leaves every other request to the app: other shapes, malformed tags, a header twice, a body', async () => {
    const { store } = await openStore();
    const { built, fast, app } = await serveTwice(store);
    await add(built, 'left-alone');
    for (const query of ['', '?level=0']) await rawGet(fast, `/api/v1/skills/left-alone${query}`);
    const answered = built.fastGets.answered;
    const cases: Array<[string, Record<string, string>]> = [
      ['/api/v1/skills/left-alone?level=3', {}],
      ['/api/v1/skills/left-alone?level=0&level=0', {}],
      ['/api/v1/skills/left-alone?target_uri=viking%3A%2F%2Fagent%2Fskills', {}],
      ['/api/v1/skills/left-alone?', {}],
      ['/api/v1/skills/Left-Alone', {}],
      ['/api/v1/skills/left-alone/', {}],
      ['/api/v1/skills/left%2Dalone', {}],
      ['/api/v1/skills/left-alone', { 'If-None-Match': 'not "a tag' }],
      ['/api/v1/skills/left-alone', { 'Content-Length': '0' }],
      ['/api/v1/skills/left-alone', { Origin: 'https://elsewhere.example' }],
    ];
    for (const [target, headers] of cases) {
      const viaFast = await rawGet(fast, target, { 'X-Request-Id': 'same', ...headers });
      const viaApp = await rawGet(app, target, { 'X-Request-Id': 'same', ...headers });
      expect(comparable(viaFast), target).toEqual(comparable(viaApp));
    }
    // A header read by the fast path given twice.
    const twice = await new Promise<string>((resolve) => {
      const socket = connect(fast, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.write(
        'GET /api/v1/skills/left-alone HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Request-Id: a\r\nX-Request-Id: b\r\n\r\n',
      );
    });
    expect(twice).toMatch(/^HTTP\/1\.1 200 /);
    expect(built.fastGets.answered).toBe(answered);
  });

  it('never serves a revoked key, a deleted skill or a skill updated through another replica', async () => {
    const { store, dataDir } = await openStore();
    const { built, fast } = await serveTwice(store, { rootApiKey: 'root-of-the-fast-test' });
    // A second replica on the same database: its own store, app and memory.
    const other = await serveTwice((await openStore(dataDir)).store, { rootApiKey: 'root-of-the-fast-test' });
    const { key, id } = await userKey(other.built, 'root-of-the-fast-test');
    const v1 = await add(other.built, 'replicated', 'First version.', key);
    const target = '/api/v1/skills/replicated?level=2&include_files=false';
    const auth = { 'X-API-Key': key };
    /** Two gets: the first reads (or finds kept), the second is answered from memory. */
    const readTwice = () =>
      steady(store, async () => {
        expect((await rawGet(fast, target, auth)).status).toBe(200);
        const before = built.fastGets.answered;
        expect((await rawGet(fast, target, auth)).status).toBe(200);
        expect(built.fastGets.answered).toBe(before + 1);
      });
    await readTwice();
    // Updated through the other replica: the next get answers the new version.
    const v2 = await add(other.built, 'replicated', 'Second version, through the other replica.', key);
    expect(v2).not.toBe(v1);
    const updated = await rawGet(fast, target, auth);
    expect(updated.head).toContain(`ETag: "${v2}"`);
    expect(updated.body.toString()).toContain('Second version');
    const stale304 = await rawGet(fast, target, { ...auth, 'If-None-Match': `"${v1}"` });
    expect(stale304.status).toBe(200);
    expect(stale304.head).toContain(`ETag: "${v2}"`);
    await readTwice();
    // Deleted through the other replica: 404 at once.
    const deleted = await other.built.fetch(
      new Request('http://x/api/v1/skills/replicated', { method: 'DELETE', headers: { 'x-api-key': key } }),
    );
    expect(deleted.status).toBe(200);
    expect((await rawGet(fast, target, auth)).status).toBe(404);
    expect((await rawGet(fast, target, { ...auth, 'If-None-Match': `"${v2}"` })).status).toBe(404);
    // Added again, read twice (the second from memory), then the key revoked through the other
    // replica: refused at once.
    await add(other.built, 'replicated', 'Third version.', key);
    await readTwice();
    const answered = built.fastGets.answered;
    const revoked = await other.built.fetch(
      new Request(`http://x/api/v1/admin/accounts/acme/keys/${id}`, {
        method: 'DELETE',
        headers: { 'x-api-key': 'root-of-the-fast-test' },
      }),
    );
    expect(revoked.status).toBe(200);
    expect((await rawGet(fast, target, auth)).status).toBe(401);
    expect((await rawGet(fast, target, { ...auth, 'If-None-Match': '"x"' })).status).toBe(401);
    // No key, a wrong key, the root key: never from memory.
    expect((await rawGet(fast, target)).status).toBe(401);
    expect((await rawGet(fast, target, { 'X-API-Key': 'sk-wrong' })).status).toBe(401);
    expect((await rawGet(fast, target, { 'X-API-Key': 'root-of-the-fast-test' })).status).toBe(403);
    expect(built.fastGets.answered).toBe(answered);
  });

  it('counts its answers against the rate limit and logs the same request line', async () => {
    const { store } = await openStore();
    await add((await serveTwice(store)).built, 'limited');
    const target = '/api/v1/skills/limited?level=0';
    await steady(store, async () => {
      // A server of its own each time: a full bucket of 4.
      const logged: object[] = [];
      const { built, fast, app } = await serveTwice(store, { limits: { rateLimitPerMinute: 4 }, logged });
      const viaApp = await rawGet(app, target, { 'X-Request-Id': 'line' });
      const viaFast = await rawGet(fast, target, { 'X-Request-Id': 'line' });
      expect(viaApp.status).toBe(200);
      expect(viaFast.status).toBe(200);
      expect(built.fastGets.answered).toBe(1);
      const [appLine, fastLine] = logged.map((record) => ({ ...record, duration_ms: 0 }));
      expect(logged).toHaveLength(2);
      expect(fastLine).toEqual(appLine);
      expect(appLine).toMatchObject({
        msg: 'request',
        path: '/api/v1/skills/limited',
        status: 200,
        remote: '127.0.0.1',
      });
      // The two gets took 2 of 4: two more from memory, then the app refuses with 429.
      for (let i = 0; i < 2; i++) expect((await rawGet(fast, target)).status).toBe(200);
      expect(built.fastGets.answered).toBe(3);
      const refused = await rawGet(fast, target);
      expect(refused.status).toBe(429);
      expect(refused.head).toMatch(/\r\nretry-after: \d+/i);
      expect(built.fastGets.answered).toBe(3);
    });
  });

  it('is off when the app answers CORS', async () => {
    const { store } = await openStore();
    const built = await createApp({
      store,
      logger: false,
      processAtWrite: true,
      corsOrigins: ['https://app.example'],
    });
    const fast = await listen(withFastGets(built.fastGets, getRequestListener(built.fetch)));
    await add(built, 'cors-skill');
    for (let i = 0; i < 3; i++) {
      const res = await rawGet(fast, '/api/v1/skills/cors-skill');
      expect(res.status).toBe(200);
      expect(res.head).toMatch(/\r\nvary: Authorization, X-API-Key, Origin\r\n/i);
    }
    expect(built.fastGets.answered).toBe(0);
  });
});
