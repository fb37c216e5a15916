// One API key sending finds on many connections cannot queue more than its share in front of other
// callers: each key has a few finds running (`maxFindsPerKey`), more wait in a line of their own, and
// past that line a find gets 429 with Retry-After. The finds of the busy key are held inside the
// store (a real store, its `search` waiting for the test to let go) so what is running is certain.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIND_QUEUE_PER_SLOT } from '../../src/services/find-gate.js';
import type { Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = 'root-key-for-find-fairness-tests-0123456789';
const HELD_QUERY = 'held query of the busy key';
let t: TestServer;
let dataDir = '';
let busyKey = '';
let otherKey = '';
let release: () => void = () => {};
let held: Promise<void> = Promise.resolve();
let searchesStarted = 0;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-find-fairness-'));
  const real = openEngineStore(dataDir);
  const store = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'searchAnswer') {
        return async (...args: Parameters<Store['searchAnswer']>) => {
          if (args[2] === HELD_QUERY) {
            searchesStarted++;
            await held;
          }
          return target.searchAnswer(...args);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  t = await startTestServer({ rootApiKey: ROOT, store, limits: { maxFindsPerKey: 1 } });
  const admin = (urlPath: string, body: unknown) => t.request('POST', urlPath, { apiKey: ROOT, body });
  await admin('/api/v1/admin/accounts', { account_id: 'acme' });
  for (const user of ['busy', 'other']) await admin('/api/v1/admin/accounts/acme/users', { user_id: user });
  busyKey = (await admin('/api/v1/admin/accounts/acme/keys', { user_id: 'busy', role: 'user' })).json.result
    .api_key;
  otherKey = (await admin('/api/v1/admin/accounts/acme/keys', { user_id: 'other', role: 'user' })).json.result
    .api_key;
  const added = await t.request('POST', '/api/v1/skills', {
    apiKey: otherKey,
    body: { data: '---\nname: pdf-tools\ndescription: Split and merge PDF files\n---\n\n# PDF tools\n' },
  });
  expect(added.status, added.text).toBe(200);
});
afterAll(async () => {
  release();
  await t?.close();
  await dropEngineData(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const find = (apiKey: string, query: string) =>
  t.request('POST', '/api/v1/skills/find', { apiKey, body: { query } });

test('past its running find and its line a key gets 429 with Retry-After; other keys are served meanwhile', async () => {
  held = new Promise<void>((resolve) => {
    release = resolve;
  });
  // One running, FIND_QUEUE_PER_SLOT waiting, one more than that: refused at once.
  const burst = Array.from({ length: FIND_QUEUE_PER_SLOT + 2 }, () => find(busyKey, HELD_QUERY));
  const first = await Promise.race(burst.map((p, i) => p.then((res) => ({ res, i }))));
  expect(first.res.status, first.res.text).toBe(429);
  expect(first.res.headers.get('retry-after')).toBe('1');
  expect(first.res.json.error.code).toBe('RESOURCE_EXHAUSTED');
  expect(first.res.json.error.details).toMatchObject({
    reason: 'finds_in_flight',
    limit: 1,
    queue: FIND_QUEUE_PER_SLOT,
    setting: 'SKILLPORT_MAX_FINDS_PER_KEY',
  });
  // Only one of the busy key's finds has reached the store.
  expect(searchesStarted).toBe(1);
  // Another key is not behind the busy one's line.
  const other = await find(otherKey, 'pdf');
  expect(other.status, other.text).toBe(200);
  expect(other.json.result.skills.map((s: { name: string }) => s.name)).toContain('pdf-tools');

  release();
  const statuses = (await Promise.all(burst)).map((res) => res.status).sort();
  expect(statuses).toEqual([...Array(FIND_QUEUE_PER_SLOT + 1).fill(200), 429]);
  expect(searchesStarted).toBe(FIND_QUEUE_PER_SLOT + 1);
});

test('once its finds are done the busy key is served as before', async () => {
  const again = await find(busyKey, 'pdf');
  expect(again.status, again.text).toBe(200);
});
