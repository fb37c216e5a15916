/**
 * `GET /api/v1/skills/{name}` served from the read cache and revalidated: `ETag` = revision,
 * `If-None-Match` → 304 once the skill is settled, cache headers, and — with two servers on one
 * database, as replicas — never a stale answer after a write, a delete or a revoked key through the
 * other one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore, TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const servers: TestServer[] = [];
const afterServers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of servers.splice(0).reverse()) await s.close();
  for (const cleanup of afterServers.splice(0)) await cleanup();
});

/** A store of the engine under test counting the skill reads (`readSkillView`, `readSkillJson`) made through it. */
function countingStore(): { store: Store; views: () => number; dataDir: string } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-counting-'));
  const store = openEngineStore(dataDir);
  afterServers.push(async () => {
    await store.close();
    await dropEngineData(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });
  let views = 0;
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'readSkillView' || property === 'readSkillJson') {
        return (...args: unknown[]) => {
          views += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return { store: counted, views: () => views, dataDir };
}

/** A second store on the database of `dataDir` (closed after the test; the data is dropped by its owner). */
function openCleanedStore(dataDir: string): Store {
  const store = openEngineStore(dataDir);
  afterServers.unshift(async () => {
    await store.close();
  });
  return store;
}

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  servers.push(server);
  return server;
}

const md = (name: string, body = 'First version of the body.') =>
  `---\nname: ${name}\ndescription: A skill read again and again, changed now and then\n---\n\n# ${name}\n\n${body}\n`;

async function add(t: TestServer, name: string, body?: string, wait = true) {
  const res = await t.request('POST', '/api/v1/skills', { body: { data: md(name, body), wait } });
  expect(res.status, res.text).toBe(200);
  return res.json.result as { revision: string };
}

describe(`GET /api/v1/skills/{name} common shapes (${TEST_ENGINE})`, () => {
  it('no query, level=0|1|2 and the include flags answer exactly as the same get with a no-op parameter added', async () => {
    const t = await start();
    const { revision } = await add(t, 'shape-skill');
    const strip = (json: { time?: unknown }) => ({ ...json, time: 0 });
    for (const level of [
      '',
      '?level=0',
      '?level=1',
      '?level=2',
      '?level=2&include_files=false',
      '?include_content=true&include_source=True&include_integrity=1',
      '?include_files=0&level=1&include_content=False',
    ]) {
      // An empty `target_uri` changes nothing: the same answer through the full query schema.
      const sep = level === '' ? '?' : '&';
      const plain = await t.request('GET', `/api/v1/skills/shape-skill${level}`);
      const judged = await t.request('GET', `/api/v1/skills/shape-skill${level}${sep}target_uri=`);
      expect(plain.status, level).toBe(200);
      expect(judged.status, level).toBe(200);
      expect(strip(plain.json), level).toEqual(strip(judged.json));
      for (const header of ['etag', 'cache-control', 'vary', 'content-type']) {
        expect(plain.headers.get(header), `${level} ${header}`).toBe(judged.headers.get(header));
      }
      expect(plain.headers.get('etag')).toBe(`"${revision}"`);
      const notModified = await t.request('GET', `/api/v1/skills/shape-skill${level}`, {
        headers: { 'if-none-match': `"${revision}"` },
      });
      expect(notModified.status, level).toBe(304);
    }
    const missing = await t.request('GET', '/api/v1/skills/no-such-skill');
    const missingJudged = await t.request('GET', '/api/v1/skills/no-such-skill?target_uri=');
    expect(missing.status).toBe(404);
    expect(strip(missing.json)).toEqual(strip(missingJudged.json));
    const badName = await t.request('GET', '/api/v1/skills/bad%20name!');
    const badNameJudged = await t.request('GET', '/api/v1/skills/bad%20name!?target_uri=');
    expect(badName.status).toBe(badNameJudged.status);
    expect(strip(badName.json)).toEqual(strip(badNameJudged.json));
    // Anything else is judged by the route's schemas, as before.
    for (const query of [
      '?level=3',
      '?include_files=yes',
      '?level=1&level=2',
      '?include_files=constructor',
    ]) {
      const refused = await t.request('GET', `/api/v1/skills/shape-skill${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.json.error.code, query).toBe('INVALID_ARGUMENT');
    }
    // A level out of range says which levels there are (zod's own message listed the raw enum).
    const level3 = await t.request('GET', '/api/v1/skills/shape-skill?level=3');
    expect(level3.json.error.details.validation_errors).toEqual([
      {
        loc: ['query', 'level'],
        message:
          'level must be 0 (abstract), 1 (overview) or 2 (content); absent, empty, null or false for all three',
        type: 'invalid_value',
      },
    ]);
    const malformed = await t.request('GET', '/api/v1/skills/shape-skill?level=2', {
      headers: { 'if-none-match': '"unbalanced' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.json.error.details).toMatchObject({
      field: 'If-None-Match',
      reason: 'malformed_entity_tag',
    });
  });
});

describe(`GET /api/v1/skills/{name} conditional (${TEST_ENGINE})`, () => {
  it('answers 304 to If-None-Match with the current ETag once settled, 200 otherwise', async () => {
    const t = await start();
    const { revision } = await add(t, 'cached-skill');
    const first = await t.request('GET', '/api/v1/skills/cached-skill');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toBe(`"${revision}"`);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('vary')).toBe('Authorization, X-API-Key');
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    expect(first.json).toMatchObject({ status: 'ok', result: { name: 'cached-skill', revision } });
    expect(typeof first.json.time).toBe('number');

    for (const header of [etag as string, `W/${etag}`, `"0000", ${etag}`, '*']) {
      const again = await t.request('GET', '/api/v1/skills/cached-skill', {
        headers: { 'if-none-match': header },
      });
      expect(again.status, header).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('x-request-id')).toBeTruthy();
    }
    const other = await t.request('GET', '/api/v1/skills/cached-skill', {
      headers: { 'if-none-match': '"0000"' },
    });
    expect(other.status).toBe(200);
    expect(other.json.result).toEqual(first.json.result);

    // A new revision: the old tag no longer matches, and the answer is the new content.
    const updated = await t.request('PUT', '/api/v1/skills/cached-skill', {
      body: { data: md('cached-skill', 'Second version of the body.'), wait: true },
    });
    expect(updated.status, updated.text).toBe(200);
    const fresh = await t.request('GET', '/api/v1/skills/cached-skill', {
      headers: { 'if-none-match': etag as string },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.json.result.content).toContain('Second version');
    expect(fresh.headers.get('etag')).toBe(`"${updated.json.result.revision}"`);
  });

  it('is not kept, nor confirmed by 304, before the processing job has run', async () => {
    const t = await start({ runJobs: false });
    const { revision } = await add(t, 'pending-skill', undefined, false);
    const first = await t.request('GET', '/api/v1/skills/pending-skill');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    expect(first.json.result.files.map((f: { path: string }) => f.path)).not.toContain('.overview.md');
    const again = await t.request('GET', '/api/v1/skills/pending-skill', {
      headers: { 'if-none-match': `"${revision}"` },
    });
    expect(again.status).toBe(200);
  });

  it('gives each query shape its own answer (levels, files, content)', async () => {
    const t = await start();
    await add(t, 'shaped-skill');
    const all = (await t.request('GET', '/api/v1/skills/shaped-skill')).json.result;
    const l0 = (await t.request('GET', '/api/v1/skills/shaped-skill?level=0&include_files=false')).json
      .result;
    const l2 = (await t.request('GET', '/api/v1/skills/shaped-skill?level=2')).json.result;
    expect(Object.keys(all)).toEqual(expect.arrayContaining(['abstract', 'overview', 'content', 'files']));
    expect(l0.abstract).toBe(all.abstract);
    expect(l0.files).toBeUndefined();
    expect(l0.content).toBeUndefined();
    expect(l2.content).toBe(all.content);
    expect(l2.abstract).toBeUndefined();
    expect(
      (await t.request('GET', '/api/v1/skills/shaped-skill?level=0&include_files=false')).json.result,
    ).toEqual(l0);
  });

  it('serves text beyond ASCII byte for byte from the cache, with its length in bytes', async () => {
    const t = await start();
    const body = 'Grüße, naïve café — 日本語の説明, emoji 🧭, and a "quoted" \\ backslash.';
    await add(t, 'unicode-skill', body);
    const first = await fetch(`${t.url}/api/v1/skills/unicode-skill`);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const again = await fetch(`${t.url}/api/v1/skills/unicode-skill`);
    const againBytes = Buffer.from(await again.arrayBuffer());
    for (const [res, bytes] of [
      [first, firstBytes],
      [again, againBytes],
    ] as const) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
      const parsed = JSON.parse(bytes.toString('utf8'));
      expect(parsed.status).toBe('ok');
      expect(parsed.result.content).toContain(body);
      expect(typeof parsed.time).toBe('number');
    }
    // The same result both times, apart from the envelope's time.
    const { time: _t1, ...a } = JSON.parse(firstBytes.toString('utf8'));
    const { time: _t2, ...b } = JSON.parse(againBytes.toString('utf8'));
    expect(b).toEqual(a);
  });
});

describe(`GET /api/v1/skills/{name} If-None-Match without reading the skill (${TEST_ENGINE})`, () => {
  it('answers 304 from the revision alone, with the same headers, when nothing is cached', async () => {
    const counting = countingStore();
    // No read cache: every request goes to the store.
    const t = await start({ store: counting.store, readCacheMb: 0 });
    const { revision } = await add(t, 'revalidated-skill');
    const full = await t.request('GET', '/api/v1/skills/revalidated-skill?level=2');
    expect(full.status).toBe(200);
    const before = counting.views();
    for (const query of [
      '',
      '?level=0',
      '?level=2&include_files=false',
      '?include_content=true&target_uri=',
    ]) {
      for (const header of [`"${revision}"`, `W/"${revision}"`, `"0000", "${revision}"`, '*']) {
        const res = await t.request('GET', `/api/v1/skills/revalidated-skill${query}`, {
          headers: { 'if-none-match': header },
        });
        expect(res.status, `${query} ${header}`).toBe(304);
        expect(res.text).toBe('');
        for (const name of ['etag', 'cache-control', 'vary']) {
          expect(res.headers.get(name), `${query} ${name}`).toBe(full.headers.get(name));
        }
        expect(res.headers.get('x-request-id')).toBeTruthy();
      }
    }
    expect(counting.views()).toBe(before);

    // A tag that does not match: the skill is read and sent, as without the header.
    const other = await t.request('GET', '/api/v1/skills/revalidated-skill?level=2', {
      headers: { 'if-none-match': '"0000"' },
    });
    expect(other.status).toBe(200);
    expect({ ...other.json, time: 0 }).toEqual({ ...full.json, time: 0 });
    expect(counting.views()).toBe(before + 1);

    // A skill that does not exist: the same 404 as without the header.
    const missing = await t.request('GET', '/api/v1/skills/no-such-skill', {
      headers: { 'if-none-match': `"${revision}"` },
    });
    const plainMissing = await t.request('GET', '/api/v1/skills/no-such-skill');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toEqual(plainMissing.json.error);

    // A new revision: the old tag no longer matches.
    const updated = await t.request('PUT', '/api/v1/skills/revalidated-skill', {
      body: { data: md('revalidated-skill', 'Second version of the body.'), wait: true },
    });
    expect(updated.status, updated.text).toBe(200);
    const fresh = await t.request('GET', '/api/v1/skills/revalidated-skill', {
      headers: { 'if-none-match': `"${revision}"` },
    });
    expect(fresh.status).toBe(200);
    expect(fresh.json.result.content).toContain('Second version');
  });

  it('never confirms an unsettled revision, cached or not', async () => {
    for (const readCacheMb of [0, 32]) {
      const t = await start({ runJobs: false, readCacheMb });
      const { revision } = await add(t, 'unsettled-skill', undefined, false);
      for (let i = 0; i < 2; i++) {
        const res = await t.request('GET', '/api/v1/skills/unsettled-skill', {
          headers: { 'if-none-match': `"${revision}"` },
        });
        expect(res.status, `cache ${readCacheMb} MiB, try ${i}`).toBe(200);
        expect(res.headers.get('cache-control')).toBe('private, no-store');
      }
    }
  });
});

describe(`GET /api/v1/skills/{name} kept across commits to other skills (${TEST_ENGINE})`, () => {
  it('serves a kept result again after other skills change, on any replica, and never after its own skill changes', async () => {
    const counting = countingStore();
    // B counts its skill reads; A writes to the same database as another replica.
    const b = await start({ store: counting.store });
    const a = await start({ store: openCleanedStore(counting.dataDir) });
    const v1 = await add(b, 'kept-skill');
    const shapes = ['', '?level=0', '?level=1', '?level=2&include_files=false'];
    const kept = new Map<string, unknown>();
    for (const query of shapes) {
      const res = await b.request('GET', `/api/v1/skills/kept-skill${query}`);
      expect(res.status).toBe(200);
      kept.set(query, res.json.result);
    }
    let views = counting.views();
    // Commits to other skills, through B and through A: every kept shape is served without a skill read.
    await add(b, 'other-skill');
    await add(a, 'third-skill');
    expect((await a.request('DELETE', '/api/v1/skills/other-skill')).status).toBe(200);
    for (const query of shapes) {
      const res = await b.request('GET', `/api/v1/skills/kept-skill${query}`);
      expect(res.status).toBe(200);
      expect(res.json.result, query).toEqual(kept.get(query));
      expect(res.headers.get('etag')).toBe(`"${v1.revision}"`);
    }
    expect(counting.views()).toBe(views);
    // Its own skill replaced through A: B answers the new version at once, for every shape.
    const v2 = await add(a, 'kept-skill', 'Second version, written through A.');
    for (const query of shapes) {
      const res = await b.request('GET', `/api/v1/skills/kept-skill${query}`);
      expect(res.headers.get('etag'), query).toBe(`"${v2.revision}"`);
      if (query === '' || query.startsWith('?level=2'))
        expect(res.json.result.content).toContain('Second version');
    }
    expect(counting.views()).toBe(views + shapes.length);
    views = counting.views();
    // Deleted and added again through A with the same SKILL.md: the same revision, but another skill
    // (its times differ), so B reads it again.
    expect((await a.request('DELETE', '/api/v1/skills/kept-skill')).status).toBe(200);
    expect((await b.request('GET', '/api/v1/skills/kept-skill')).status).toBe(404);
    const v3 = await add(a, 'kept-skill', 'Second version, written through A.');
    expect(v3.revision).toBe(v2.revision);
    const readded = await b.request('GET', '/api/v1/skills/kept-skill?level=0');
    expect(readded.json.result.created_at).not.toBe(
      (kept.get('?level=0') as { created_at: string }).created_at,
    );
    expect(counting.views()).toBeGreaterThan(views);
  });
});

describe(`two servers on one ${TEST_ENGINE} database: reads are never stale`, () => {
  it('a get through B after a write or delete through A answers what A wrote', async () => {
    const a = await start();
    const b = await start({ dataDir: a.dataDir });
    const v1 = await add(a, 'shared-read');
    // B reads (and keeps) the first version, twice.
    for (let i = 0; i < 2; i++) {
      const got = await b.request('GET', '/api/v1/skills/shared-read');
      expect(got.json.result.revision).toBe(v1.revision);
    }
    const v2 = await add(a, 'shared-read', 'Written through A after B read it.');
    const after = await b.request('GET', '/api/v1/skills/shared-read');
    expect(after.json.result.revision).toBe(v2.revision);
    expect(after.json.result.content).toContain('Written through A');
    const stale = await b.request('GET', '/api/v1/skills/shared-read', {
      headers: { 'if-none-match': `"${v1.revision}"` },
    });
    expect(stale.status).toBe(200);
    // B confirms v2 (keeping what it looked up), then A writes v3: B no longer confirms v2.
    const confirmed = await b.request('GET', '/api/v1/skills/shared-read?level=1', {
      headers: { 'if-none-match': `"${v2.revision}"` },
    });
    expect(confirmed.status).toBe(304);
    const v3 = await add(a, 'shared-read', 'Written through A a third time.');
    const stale2 = await b.request('GET', '/api/v1/skills/shared-read?level=1', {
      headers: { 'if-none-match': `"${v2.revision}"` },
    });
    expect(stale2.status).toBe(200);
    expect(stale2.headers.get('etag')).toBe(`"${v3.revision}"`);

    expect((await a.request('DELETE', '/api/v1/skills/shared-read')).status).toBe(200);
    const gone = await b.request('GET', '/api/v1/skills/shared-read');
    expect(gone.status).toBe(404);
  });

  it('a key revoked through A is refused by B at once', async () => {
    const a = await start({ rootApiKey: 'root-key-for-the-cache-test' });
    const b = await start({ dataDir: a.dataDir, rootApiKey: 'root-key-for-the-cache-test' });
    const root = { apiKey: 'root-key-for-the-cache-test' };
    expect(
      (await a.request('POST', '/api/v1/admin/accounts', { body: { account_id: 'acme' }, ...root })).status,
    ).toBe(200);
    expect(
      (await a.request('POST', '/api/v1/admin/accounts/acme/users', { body: { user_id: 'alice' }, ...root }))
        .status,
    ).toBe(200);
    const created = await a.request('POST', '/api/v1/admin/accounts/acme/keys', {
      body: { user_id: 'alice', role: 'user' },
      apiKey: 'root-key-for-the-cache-test',
    });
    expect(created.status, created.text).toBe(200);
    const key: string = created.json.result.api_key;
    const id: string = created.json.result.key_id ?? created.json.result.id;
    for (let i = 0; i < 2; i++)
      expect((await b.request('GET', '/api/v1/skills', { apiKey: key })).status).toBe(200);
    const revoked = await a.request('DELETE', `/api/v1/admin/accounts/acme/keys/${id}`, {
      apiKey: 'root-key-for-the-cache-test',
    });
    expect(revoked.status, revoked.text).toBe(200);
    expect((await b.request('GET', '/api/v1/skills', { apiKey: key })).status).toBe(401);
  });
});
