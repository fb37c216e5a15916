/**
 * How many hits `POST /api/v1/skills/find` asks the store for: the store ranks, de-duplicates by name
 * across the caller's roots (the earliest root's copy wins) and cuts to the limit, so a lexical find
 * without `level` asks for exactly `limit` hits — asking for one per root and limit cost the search
 * thread ~17% more CPU per first-time find for hits never sent — and still answers `limit` distinct
 * skills, the user root's copy of a name both roots hold, and only hits above `score_threshold`. A
 * semantic find asks for one limit per root: its meaning re-ranks the lexical candidates drawn for it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { countingStore } from '../helpers/counting-store.js';
import { startEmbeddingsServer } from '../helpers/embeddings-server.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nSteps for ${description.toLowerCase()}\n`;

async function add(t: TestServer, name: string, description: string, target: string) {
  const res = await t.request('POST', '/api/v1/skills', {
    body: { data: md(name, description), wait: true, target_uri: target },
  });
  expect(res.status, res.text).toBe(200);
}

type Found = { name: string; root_uri: string; score: number; level: number };

async function find(t: TestServer, body: Record<string, unknown>): Promise<Found[]> {
  const res = await t.request('POST', '/api/v1/skills/find', { body });
  expect(res.status, res.text).toBe(200);
  return (res.json as { result: { skills: Found[] } }).result.skills;
}

describe(`find asks the store for the hits it sends (${TEST_ENGINE})`, () => {
  it('limit hits without level, of distinct names, the user copy first; more with a level', async () => {
    const counting = countingStore((cleanup) => cleanups.push(cleanup));
    const t = await startTestServer({ store: counting.store });
    cleanups.push(() => t.close());
    const USER = 'viking://user/default/skills';
    const AGENT = 'viking://agent/skills';
    // Six names in both roots, six more in the agent root alone: twelve names match the words, more
    // than the limits asked below (on PostgreSQL fewer than `limit` would add names similar to the
    // query, which may lift the scores of skills already found).
    const shared = ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => `invoice-${x}`);
    const agentOnly = ['g', 'h', 'i', 'j', 'k', 'l'].map((x) => `invoice-${x}`);
    for (const [i, name] of shared.entries()) {
      const description = `Invoice helper number ${i} for invoices${' and receipts'.repeat(i % 3)}`;
      await add(t, name, description, USER);
      await add(t, name, description, AGENT);
    }
    for (const [i, name] of agentOnly.entries())
      await add(t, name, `Invoice helper of the agent${' for credit notes'.repeat(i % 3)}`, AGENT);

    const before = counting.searchLimits().length;
    const three = await find(t, { query: 'invoice helper', limit: 3 });
    expect(counting.searchLimits().slice(before)).toEqual([3]);
    expect(three).toHaveLength(3);
    expect(new Set(three.map((s) => s.name)).size).toBe(3);

    // Ten distinct names, each shared one from the user root; the first three are the find of three.
    const all = await find(t, { query: 'invoice helper', limit: 10 });
    expect(counting.searchLimits().at(-1)).toBe(10);
    expect(new Set(all.map((s) => s.name)).size).toBe(10);
    for (const s of all) expect(s.root_uri).toBe(shared.includes(s.name) ? USER : AGENT);
    expect(all.slice(0, 3)).toEqual(three);

    // A threshold drops the tail only: what passes is a prefix of the unfiltered answer.
    const threshold = (all[1] as Found).score;
    const above = await find(t, { query: 'invoice helper', limit: 10, score_threshold: threshold });
    expect(above).toEqual(all.filter((s) => s.score >= threshold));

    // With `level`, the hits of other levels are skipped, so more are asked for.
    const at = counting.searchLimits().length;
    await find(t, { query: 'invoice helper', limit: 3, level: 0 });
    expect(counting.searchLimits()[at]).toBeGreaterThan(3);
  });

  it('a semantic find asks for one limit per root: the meaning re-ranks that many lexical candidates', async () => {
    const embeddings = await startEmbeddingsServer();
    cleanups.push(() => embeddings.close());
    const counting = countingStore((cleanup) => cleanups.push(cleanup));
    const t = await startTestServer({
      store: counting.store,
      embeddings: { baseURL: embeddings.url, model: 'concepts-1', apiKey: 'k', retryMs: 100 },
    });
    cleanups.push(() => t.close());
    await add(
      t,
      'transcribe',
      'Turn audio recordings into text with timestamps',
      'viking://user/default/skills',
    );
    const before = counting.searchLimits().length;
    expect((await find(t, { query: 'audio recordings', limit: 20 })).map((s) => s.name)).toEqual([
      'transcribe',
    ]);
    expect(counting.searchLimits().slice(before)).toEqual([40]);
  });
});
