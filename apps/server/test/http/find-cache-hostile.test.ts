/**
 * Kept `find` results under hostile use: finds in flight on one replica while another writes (once a
 * write's answer has arrived, no find sent later answers the state before it), a key revoked while
 * its results are kept and several keys of one account, and a flood of distinct long queries in a
 * small cache (the kept get results stay).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { countingStore as countingStoreOf } from '../helpers/counting-store.js';
import { openEngineStore, TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const countingStore = () => countingStoreOf((cleanup) => cleanups.push(cleanup));

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  cleanups.push(() => server.close());
  return server;
}

const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSteps for ${description.toLowerCase()}\n`;

async function add(t: TestServer, name: string, description: string, opts: { apiKey?: string } = {}) {
  const res = await t.request('POST', '/api/v1/skills', {
    body: { data: md(name, description), wait: true },
    ...opts,
  });
  expect(res.status, res.text).toBe(200);
}

async function findNames(t: TestServer, body: Record<string, unknown>, opts: { apiKey?: string } = {}) {
  const res = await t.request('POST', '/api/v1/skills/find', { body, ...opts });
  expect(res.status, res.text).toBe(200);
  return (res.json.result.skills as Array<{ name: string }>).map((s) => s.name).sort();
}

describe(`kept find results under hostile use (${TEST_ENGINE})`, () => {
  it('finds in flight on B while A writes: every find sent after a write was answered shows it', async () => {
    const counting = countingStore();
    const b = await start({ store: counting.store });
    const aStore = openEngineStore(counting.dataDir);
    cleanups.unshift(() => aStore.close());
    const a = await start({ store: aStore });
    let stop = false;
    // Background finds on B (the same query, so the kept result is given whenever it can be).
    const hammer = (async () => {
      while (!stop) {
        await Promise.all(
          Array.from({ length: 8 }, () =>
            b.request('POST', '/api/v1/skills/find', { body: { query: 'zebra', limit: 100 } }),
          ),
        );
      }
    })();
    try {
      const added: string[] = [];
      for (let i = 0; i < 12; i++) {
        const name = `striped-${String(i).padStart(2, '0')}`;
        if (i % 3 === 2) {
          // A replacement of an earlier one that drops the word: it must leave the next find.
          const gone = added.shift() as string;
          await add(a, gone, 'Handles giraffe tasks');
        }
        await add(a, name, 'Handles zebra tasks');
        added.push(name);
        const [x, y] = await Promise.all([
          findNames(b, { query: 'zebra', limit: 100 }),
          findNames(b, { query: 'zebra', limit: 100 }),
        ]);
        expect(x, `after ${name}`).toEqual([...added].sort());
        expect(y, `after ${name}`).toEqual([...added].sort());
      }
    } finally {
      stop = true;
      await hammer;
    }
  });

  it('a key revoked while its find results are kept is refused at once, on the same replica and another', async () => {
    const a = await start({ rootApiKey: 'root-key-for-find-attacks' });
    const b = await start({ dataDir: a.dataDir, rootApiKey: 'root-key-for-find-attacks' });
    const root = { apiKey: 'root-key-for-find-attacks' };
    expect(
      (await a.request('POST', '/api/v1/admin/accounts', { body: { account_id: 'acme' }, ...root })).status,
    ).toBe(200);
    for (const user of ['alice', 'bob'])
      expect(
        (await a.request('POST', '/api/v1/admin/accounts/acme/users', { body: { user_id: user }, ...root }))
          .status,
      ).toBe(200);
    const keyOf = async (user: string, role: string) => {
      const created = await a.request('POST', '/api/v1/admin/accounts/acme/keys', {
        body: { user_id: user, role },
        ...root,
      });
      expect(created.status, created.text).toBe(200);
      return {
        key: created.json.result.api_key as string,
        id: (created.json.result.key_id ?? created.json.result.id) as string,
      };
    };
    const alice = await keyOf('alice', 'user');
    const aliceAdmin = await keyOf('alice', 'admin');
    const bob = await keyOf('bob', 'admin');
    await add(a, 'alice-ledger', 'Ledger of invoices', { apiKey: alice.key });
    for (const t of [a, b]) {
      expect(await findNames(t, { query: 'invoices' }, { apiKey: alice.key })).toEqual(['alice-ledger']);
      expect(await findNames(t, { query: 'invoices' }, { apiKey: alice.key })).toEqual(['alice-ledger']);
      // Another key of the same user finds the same; another user does not see it.
      expect(await findNames(t, { query: 'invoices' }, { apiKey: aliceAdmin.key })).toEqual(['alice-ledger']);
      expect(await findNames(t, { query: 'invoices' }, { apiKey: bob.key })).toEqual([]);
      const other = await t.request('POST', '/api/v1/skills/find', {
        body: { query: 'invoices', target_uri: 'viking://user/alice/skills' },
        apiKey: bob.key,
      });
      expect(other.status, other.text).toBe(403);
    }
    const revoked = await a.request('DELETE', `/api/v1/admin/accounts/acme/keys/${alice.id}`, root);
    expect(revoked.status, revoked.text).toBe(200);
    for (const t of [b, a]) {
      const res = await t.request('POST', '/api/v1/skills/find', {
        body: { query: 'invoices' },
        apiKey: alice.key,
      });
      expect(res.status, res.text).toBe(401);
    }
    // A root key is still refused on find, kept results or not.
    expect(
      (await b.request('POST', '/api/v1/skills/find', { body: { query: 'invoices' }, ...root })).status,
    ).toBe(403);
  });

  it('a flood of distinct finds does not push kept get results out of the cache', async () => {
    const counting = countingStore();
    const t = await start({ store: counting.store, readCacheMb: 1 });
    await add(t, 'invoice-organizer', 'Organizes invoices');
    const get = async () => {
      const res = await t.request('GET', '/api/v1/skills/invoice-organizer');
      expect(res.status, res.text).toBe(200);
    };
    await get();
    const views = counting.views();
    await get();
    expect(counting.views()).toBe(views);
    // ~6 KB kept per find (its key and result each hold the 2,000-character query): 3 MB in all.
    const query = (i: number) =>
      `invoices ${String(i).padStart(5, '0')} ${'organizes '.repeat(200)}`.slice(0, 2048);
    for (let i = 0; i < 500; i += 25) {
      await Promise.all(Array.from({ length: 25 }, (_, j) => findNames(t, { query: query(i + j) })));
    }
    await get();
    expect(counting.views()).toBe(views);
    // The finds themselves are still kept (the newest ones); a query past 2,048 characters never is.
    let searched = counting.searches();
    await findNames(t, { query: query(499) });
    expect(counting.searches()).toBe(searched);
    searched = counting.searches();
    const long = `invoices ${'organizes '.repeat(210)}`;
    await findNames(t, { query: long });
    await findNames(t, { query: long });
    expect(counting.searches()).toBe(searched + 2);
  });
});
