import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type SkillportApp, type Store } from '../../src/index.js';
import { dropEngineData, openEngineStore } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SKILL = '---\nname: header-check\ndescription: A skill to check response headers with\n---\n\n# Body\n';

/** The same requests in-process (`app.fetch`: headers via Hono) and over HTTP (via Node's response). */
describe('response headers set by middleware and routes', () => {
  let dataDir: string;
  let store: Store;
  let inProcess: SkillportApp;
  let http: TestServer;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-headers-'));
    store = openEngineStore(dataDir);
    inProcess = await createApp({ store, logger: false });
    http = await startTestServer();
  });
  afterAll(async () => {
    await http.close();
    await store.close();
    await dropEngineData(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const fetchers: Array<[string, () => (url: string, init?: RequestInit) => Promise<Response>]> = [
    ['in-process', () => async (url, init) => inProcess.fetch(new Request(`http://local${url}`, init))],
    ['over HTTP', () => (url, init) => fetch(`${http.url}${url}`, init)],
  ];

  it.each(fetchers)('%s: X-Request-Id on success and error, ETag on get', async (_label, make) => {
    const send = make();
    const added = await send('/api/v1/skills', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'add-1' },
      body: JSON.stringify({ data: SKILL }),
    });
    expect(added.status).toBe(200);
    expect(added.headers.get('x-request-id')).toBe('add-1');
    const revision = ((await added.json()) as { result: { revision?: string } }).result.revision;

    const got = await send('/api/v1/skills/header-check');
    expect(got.status).toBe(200);
    expect(got.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const body = (await got.json()) as { result: { revision: string } };
    expect(got.headers.get('etag')).toBe(`"${body.result.revision}"`);
    if (revision !== undefined) expect(body.result.revision).toBe(revision);

    const missing = await send('/api/v1/skills/not-there', { headers: { 'x-request-id': 'miss-1' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-request-id')).toBe('miss-1');
    expect(missing.headers.get('etag')).toBeNull();
  });

  it.each(fetchers)('%s: X-Request-Id echoes sane ids only, on every route', async (_label, make) => {
    const send = make();
    const long = 'a'.repeat(128);
    for (const path of ['/health', '/api/v1/skills', '/api/v1/skills/not-there', '/no-such-route']) {
      for (const [given, echoed] of [
        ['req-123.abc', true],
        ['4bf92f35:00f067aa', true],
        ['A_b=c', true],
        [long, true],
        [`${long}a`, false],
        ['two words', false],
        ['semi;colon', false],
        ['', false],
      ] as const) {
        const res = await send(path, { headers: { 'x-request-id': given } });
        await res.arrayBuffer();
        const id = res.headers.get('x-request-id');
        if (echoed) expect(id, `${path} ${given}`).toBe(given);
        else
          expect(id, `${path} ${given}`).toMatch(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          );
      }
    }
  });
});
