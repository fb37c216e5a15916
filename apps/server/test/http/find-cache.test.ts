/**
 * `POST /api/v1/skills/find` answered from the read cache: a find asked again while the store is
 * unchanged gets the same result without a search, and — with two servers on one database, as
 * replicas — never a stale one after a write through the other. Only results the engine calls
 * stable (`Store.searchAnswer`) are kept: not a lexical fallback for a failed embedder, not what
 * SQLite's typo tolerance read from its vocabulary slices, not a semantic find on PostgreSQL.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { countingStore as countingStoreOf } from '../helpers/counting-store.js';
import { startEmbeddingsServer } from '../helpers/embeddings-server.js';
import { openEngineStore, TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const countingStore = (options: { unstable?: boolean } = {}) =>
  countingStoreOf((cleanup) => cleanups.push(cleanup), options);

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  cleanups.push(() => server.close());
  return server;
}

const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSteps for ${description.toLowerCase()}\n`;

async function add(t: TestServer, name: string, description: string, headers: Record<string, string> = {}) {
  const res = await t.request('POST', '/api/v1/skills', {
    body: { data: md(name, description), wait: true },
    headers,
  });
  expect(res.status, res.text).toBe(200);
}

async function find(t: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await t.request('POST', '/api/v1/skills/find', { body, headers });
  expect(res.status, res.text).toBe(200);
  return res.json as {
    result: { skills: Array<{ name: string; score: number }>; total: number };
    telemetry?: { operation_id: string; summary?: { operation: string; status: string } };
    time: number;
  };
}

const names = (json: Awaited<ReturnType<typeof find>>) => json.result.skills.map((s) => s.name);

describe(`find answered again from the read cache (${TEST_ENGINE})`, () => {
  it('a find asked again is not searched again and answers the same; any other input is searched', async () => {
    const counting = countingStore();
    const t = await start({ store: counting.store });
    await add(t, 'invoice-organizer', 'Organizes invoices and receipts for tax preparation');
    await add(t, 'invoice-parser', 'Reads totals and vendors from invoices');
    const first = await find(t, { query: 'invoices' });
    expect(names(first).sort()).toEqual(['invoice-organizer', 'invoice-parser']);
    const searched = counting.searches();
    const again = await find(t, { query: 'invoices' });
    expect(again.result).toEqual(first.result);
    expect(counting.searches()).toBe(searched);
    // Each input is part of what is kept: another limit, threshold, level, root or text is searched.
    const others: Array<Record<string, unknown>> = [
      { query: 'invoices', limit: 1 },
      { query: 'invoices', score_threshold: 0.01 },
      { query: 'invoices', level: 0 },
      { query: 'invoices', target_uri: 'viking://agent/skills' },
      { query: 'invoice' },
    ];
    for (const body of others) {
      const before = counting.searches();
      await find(t, body);
      expect(counting.searches(), JSON.stringify(body)).toBe(before + 1);
    }
    expect(names(await find(t, { query: 'invoices', limit: 1 }))).toHaveLength(1);
    expect(names(await find(t, { query: 'invoices', target_uri: 'viking://agent/skills' }))).toEqual([]);
  });

  it('a write through another replica shows in the next find at once; the kept result is not given', async () => {
    const counting = countingStore();
    const b = await start({ store: counting.store });
    const aStore = openEngineStore(counting.dataDir);
    cleanups.unshift(() => aStore.close());
    const a = await start({ store: aStore });
    await add(b, 'tax-organizer', 'Organizes invoices and receipts for tax preparation');
    expect(names(await find(b, { query: 'invoices' }))).toEqual(['tax-organizer']);
    await add(a, 'ledger-reader', 'Reads totals and vendors from invoices');
    expect(names(await find(b, { query: 'invoices' })).sort()).toEqual(['ledger-reader', 'tax-organizer']);
    // Replaced through A: the new description is found (and the old one no longer is).
    await add(a, 'ledger-reader', 'Reads totals and vendors from receipts');
    const replaced = await find(b, { query: 'vendors' });
    expect(replaced.result.skills.map((s) => [s.name, (s as { description?: string }).description])).toEqual([
      ['ledger-reader', 'Reads totals and vendors from receipts'],
    ]);
    expect((await a.request('DELETE', '/api/v1/skills/tax-organizer')).status).toBe(200);
    expect(names(await find(b, { query: 'invoices' }))).toEqual([]);
    expect(names(await find(b, { query: 'receipts' }))).toEqual(['ledger-reader']);
  });

  it("one caller's kept result is never another's", async () => {
    const counting = countingStore();
    const t = await start({ store: counting.store });
    const alice = { 'x-openviking-user': 'alice' };
    const bob = { 'x-openviking-user': 'bob' };
    await add(t, 'alice-invoices', 'Invoices of Alice only', alice);
    expect(names(await find(t, { query: 'invoices' }, alice))).toEqual(['alice-invoices']);
    expect(names(await find(t, { query: 'invoices' }, bob))).toEqual([]);
    expect(names(await find(t, { query: 'invoices' }, alice))).toEqual(['alice-invoices']);
  });

  it("MCP's find_skills shares the kept results: asked again (or after the same REST find), not searched", async () => {
    const counting = countingStore();
    const t = await start({ store: counting.store });
    await add(t, 'invoice-organizer', 'Organizes invoices and receipts for tax preparation');
    const client = new Client({ name: 'find-cache-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    cleanups.push(() => client.close());
    const viaRest = await find(t, { query: 'receipts', limit: 5 });
    const searched = counting.searches();
    const call = async () => {
      const result = await client.callTool({
        name: 'find_skills',
        arguments: { query: 'receipts', limit: 5 },
      });
      return result.structuredContent as { skills: Array<{ name: string; score: number }> };
    };
    const first = await call();
    // (The tool gives scores to 3 decimals.)
    expect(first.skills.map((s) => s.name)).toEqual(viaRest.result.skills.map((s) => s.name));
    expect(await call()).toEqual(first);
    expect(counting.searches()).toBe(searched);
    await add(t, 'receipt-scanner', 'Scans paper receipts');
    expect((await call()).skills.map((s) => s.name).sort()).toEqual(['invoice-organizer', 'receipt-scanner']);
    expect(counting.searches()).toBe(searched + 1);
  });

  it('telemetry is answered on a kept result too, with an operation id of its own', async () => {
    const counting = countingStore();
    const t = await start({ store: counting.store });
    await add(t, 'invoice-organizer', 'Organizes invoices and receipts for tax preparation');
    const first = await find(t, { query: 'invoices', telemetry: { summary: true } });
    const searched = counting.searches();
    const again = await find(t, { query: 'invoices', telemetry: { summary: true } });
    expect(counting.searches()).toBe(searched);
    expect(again.result).toEqual(first.result);
    expect(again.telemetry?.summary).toMatchObject({ operation: 'skills.find', status: 'ok' });
    expect(again.telemetry?.operation_id).not.toBe(first.telemetry?.operation_id);
    const plain = await find(t, { query: 'invoices' });
    expect(plain.telemetry).toBeUndefined();
    expect(Object.keys(plain)).toEqual(['status', 'result', 'time']);
  });

  it('an answer the engine calls unstable is searched every time', async () => {
    const counting = countingStore({ unstable: true });
    const t = await start({ store: counting.store });
    await add(t, 'invoice-organizer', 'Organizes invoices and receipts for tax preparation');
    const before = counting.searches();
    await find(t, { query: 'invoices' });
    await find(t, { query: 'invoices' });
    expect(counting.searches()).toBe(before + 2);
  });

  it(`a misspelt word is ${TEST_ENGINE === 'sqlite' ? 'searched every time (typo tolerance read the vocabulary)' : 'kept (typo tolerance is a query of similar names)'}`, async () => {
    const counting = countingStore();
    const t = await start({ store: counting.store });
    await add(t, 'invoice-organizer', 'Organizes invoices and receipts for tax preparation');
    // SQLite corrects a misspelt word from the index's vocabulary; PostgreSQL finds similar names.
    const query = TEST_ENGINE === 'sqlite' ? 'recepits' : 'invoce-organizr';
    const before = counting.searches();
    expect(names(await find(t, { query }))).toEqual(['invoice-organizer']);
    expect(names(await find(t, { query }))).toEqual(['invoice-organizer']);
    expect(counting.searches()).toBe(before + (TEST_ENGINE === 'sqlite' ? 2 : 1));
  });

  it(`semantic finds: the lexical fallback of a failing embedder is not kept; a find with its vector is ${TEST_ENGINE === 'sqlite' ? 'kept' : 'not (the vector copy may lag)'}`, async () => {
    const embeddings = await startEmbeddingsServer();
    cleanups.push(() => embeddings.close());
    const counting = countingStore();
    const t = await start({
      store: counting.store,
      embeddings: { baseURL: embeddings.url, model: 'concepts-1', apiKey: 'k', retryMs: 100 },
    });
    await add(t, 'transcribe', 'Turn audio recordings into text with timestamps');
    let before = counting.searches();
    const finds = async (query: string) => {
      await find(t, { query });
      await find(t, { query });
      return counting.searches() - before;
    };
    expect(await finds('audio recordings')).toBe(TEST_ENGINE === 'sqlite' ? 1 : 2);
    embeddings.failWith = 503;
    before = counting.searches();
    // Another text, so the query vector is not one remembered from before.
    expect(await finds('speech recordings')).toBe(2);
  });
});
