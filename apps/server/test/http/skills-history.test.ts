/**
 * Revisions over HTTP: the history list, get at a revision, restore with If-Match, reading single
 * files (current and at a revision), delete with purge, retention, and the change feed.
 */
import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const md = (name: string, description: string, body = '# Title\n\nBody text.\n') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const enc = new TextEncoder();

/** Adds (or replaces) a skill folder through a zip temp upload; returns the add result. */
async function putFolder(
  t: TestServer,
  files: Record<string, string | Uint8Array>,
  extra: Record<string, unknown> = {},
) {
  const zip = zipSync(
    Object.fromEntries(Object.entries(files).map(([p, c]) => [p, typeof c === 'string' ? enc.encode(c) : c])),
  );
  const form = new FormData();
  form.append('file', new Blob([zip]), 'skill.zip');
  const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(up.status, up.text).toBe(200);
  const res = await t.request('POST', '/api/v1/skills', {
    body: { temp_file_id: up.json.result.temp_file_id, wait: true, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result;
}

async function raw(t: TestServer, urlPath: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${urlPath}`, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('revisions, restore and files', () => {
  let t: TestServer;
  const binary = new Uint8Array([0, 255, 1, 254, 0, 10, 13]);
  let v1: string;
  let v2: string;
  const V1 = md('pdf-tools', 'Extract text from PDF documents', '# PDF\n\nVersion one.\n');
  const V2 = md(
    'pdf-tools',
    'Extract text and tables from PDF documents',
    '# PDF\n\n## Usage\n\nVersion two.\n',
  );

  beforeAll(async () => {
    t = await startTestServer();
    v1 = (
      await putFolder(t, { 'SKILL.md': V1, 'scripts/extract.py': 'print("v1")\n', 'assets/logo.bin': binary })
    ).revision;
    v2 = (
      await putFolder(t, {
        'SKILL.md': V2,
        'scripts/extract.py': 'print("v2")\n',
        'page.html': '<script>x</script>',
      })
    ).revision;
  });
  afterAll(async () => {
    await t.close();
  });

  test('GET /revisions lists the history newest first, with author, size and the current flag', async () => {
    const res = await t.request('GET', '/api/v1/skills/pdf-tools/revisions');
    expect(res.status, res.text).toBe(200);
    const result = res.json.result;
    expect(result).toMatchObject({
      name: 'pdf-tools',
      uri: 'viking://user/default/skills/pdf-tools',
      root_uri: 'viking://user/default/skills',
      deleted: false,
      current_revision: v2,
      total: 2,
    });
    expect(result.revisions.map((r: { revision: string }) => r.revision)).toEqual([v2, v1]);
    expect(result.revisions[0]).toMatchObject({
      current: true,
      superseded_at: null,
      created_by: 'default',
      files: 4,
      auxiliary_files: 2,
      superseded_by: null,
    });
    expect(result.revisions[1]).toMatchObject({ current: false, superseded_by: 'write' });
    expect(result.revisions[1].current).toBe(false);
    expect(Date.parse(result.revisions[1].superseded_at)).not.toBeNaN();
    // SKILL.md + .abstract.md + scripts/extract.py + assets/logo.bin
    expect(result.revisions[1].size).toBeGreaterThan(enc.encode(V1).byteLength + binary.byteLength);
    const limited = await t.request('GET', '/api/v1/skills/pdf-tools/revisions?limit=1');
    expect(limited.json.result.revisions).toHaveLength(1);
    expect(limited.json.result.total).toBe(2);
  });

  test('GET /skills/{name}?revision= reads every level of an earlier version, by full revision or prefix', async () => {
    for (const ref of [v1, v1.slice(0, 8), v1.slice(0, 4).toUpperCase()]) {
      const res = await t.request('GET', `/api/v1/skills/pdf-tools?revision=${ref}`);
      expect(res.status, res.text).toBe(200);
      const r = res.json.result;
      expect(r.revision).toBe(v1);
      expect(res.headers.get('etag')).toBe(`"${v1}"`);
      expect(r.content).toBe(V1);
      expect(r.content_sha256).toBe(sha(V1));
      expect(r.description).toBe('Extract text from PDF documents');
      expect(r.abstract).toContain('Extract text from PDF documents');
      expect(r.overview).toContain('pdf-tools');
      expect(r.files.map((f: { path: string }) => f.path)).toEqual([
        '.abstract.md',
        'SKILL.md',
        'assets',
        'assets/logo.bin',
        'scripts',
        'scripts/extract.py',
      ]);
    }
    const level0 = await t.request(
      'GET',
      `/api/v1/skills/pdf-tools?revision=${v1}&level=0&include_files=false`,
    );
    expect(level0.json.result).toMatchObject({ level: 0, revision: v1 });
    expect(level0.json.result.content).toBeUndefined();
    expect(level0.json.result.files).toBeUndefined();
    // The current revision asked explicitly is the plain get (its overview file included).
    const current = await t.request('GET', `/api/v1/skills/pdf-tools?revision=${v2}`);
    const plain = await t.request('GET', '/api/v1/skills/pdf-tools');
    expect(current.json.result).toEqual(plain.json.result);
  });

  test.each([
    ['zz-not-hex', 400, 'INVALID_ARGUMENT'],
    ['abc', 400, 'INVALID_ARGUMENT'],
    ['0000000000', 404, 'NOT_FOUND'],
  ])('?revision=%s → %i %s', async (ref, status, code) => {
    const res = await t.request('GET', `/api/v1/skills/pdf-tools?revision=${ref}`);
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    if (status === 404) expect(res.json.error.details).toMatchObject({ type: 'revision' });
    else expect(res.json.error.details.field).toBe('revision');
  });

  test('GET /files/{path} serves the bytes as stored, with ETag, revision and a safe content type', async () => {
    const skillMd = await raw(t, '/api/v1/skills/pdf-tools/files/SKILL.md');
    expect(skillMd.status).toBe(200);
    expect(new TextDecoder().decode(skillMd.bytes)).toBe(V2);
    expect(skillMd.headers.get('etag')).toBe(`"${sha(V2)}"`);
    expect(skillMd.headers.get('x-skill-revision')).toBe(v2);
    expect(skillMd.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(skillMd.headers.get('x-content-type-options')).toBe('nosniff');
    for (const spelled of ['scripts/extract.py', 'scripts%2Fextract.py']) {
      const py = await raw(t, `/api/v1/skills/pdf-tools/files/${spelled}`);
      expect(py.status).toBe(200);
      expect(new TextDecoder().decode(py.bytes)).toBe('print("v2")\n');
      expect(py.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    }
    const html = await raw(t, '/api/v1/skills/pdf-tools/files/page.html');
    expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(html.headers.get('content-disposition')).toMatch(/^attachment; filename="page.html"/);
    const overview = await raw(t, '/api/v1/skills/pdf-tools/files/.overview.md');
    expect(overview.status).toBe(200);
    const notModified = await raw(t, '/api/v1/skills/pdf-tools/files/SKILL.md', {
      'if-none-match': `"${sha(V2)}"`,
    });
    expect(notModified.status).toBe(304);
  });

  test('GET /files/{path}?revision= serves an earlier version, binary-safe; files of other versions are 404', async () => {
    const logo = await raw(t, `/api/v1/skills/pdf-tools/files/assets/logo.bin?revision=${v1.slice(0, 10)}`);
    expect(logo.status).toBe(200);
    expect([...logo.bytes]).toEqual([...binary]);
    expect(logo.headers.get('content-type')).toBe('application/octet-stream');
    expect(logo.headers.get('x-skill-revision')).toBe(v1);
    expect(logo.headers.get('cache-control')).toMatch(/immutable/);
    const gone = await t.request('GET', '/api/v1/skills/pdf-tools/files/assets/logo.bin');
    expect(gone.status).toBe(404);
    expect(gone.json.error.details).toEqual({
      type: 'file',
      resource: 'viking://user/default/skills/pdf-tools/assets/logo.bin',
    });
    const noOverview = await t.request('GET', `/api/v1/skills/pdf-tools/files/.overview.md?revision=${v1}`);
    expect(noOverview.status).toBe(404);
  });

  test.each(['..%2FSKILL.md', 'a%2F..%2Fb', 'scripts%2F%2Fx', 'a%00b', 'a%5Cb'])(
    'GET /files/%s → 400 naming the path',
    async (bad) => {
      const res = await t.request('GET', `/api/v1/skills/pdf-tools/files/${bad}`);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details.field).toBe('path');
    },
  );

  test('POST /restore: a stale If-Match changes nothing; then the old version is current again', async () => {
    const stale = await t.request('POST', '/api/v1/skills/pdf-tools/restore', {
      body: { revision: v1 },
      headers: { 'if-match': `"${v1}"` },
    });
    expect(stale.status).toBe(412);
    expect(stale.json.error.code).toBe('CONFLICT');
    expect((await t.request('GET', '/api/v1/skills/pdf-tools')).json.result.revision).toBe(v2);

    const res = await t.request('POST', '/api/v1/skills/pdf-tools/restore', {
      body: { revision: v1.slice(0, 12), wait: true },
      headers: { 'if-match': `"${v2}"` },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({
      action: 'restore',
      revision: v1,
      name: 'pdf-tools',
      auxiliary_files: 2,
      replaced: true,
    });
    expect(res.json.result.queue_status.completed).toBe(1);
    expect(res.headers.get('etag')).toBe(`"${v1}"`);
    const now = await t.request('GET', '/api/v1/skills/pdf-tools');
    expect(now.json.result.content).toBe(V1);
    expect(now.json.result.description).toBe('Extract text from PDF documents');
    const logo = await raw(t, '/api/v1/skills/pdf-tools/files/assets/logo.bin');
    expect([...logo.bytes]).toEqual([...binary]);
    expect((await t.request('GET', '/api/v1/skills/pdf-tools/files/page.html')).status).toBe(404);
    const history = await t.request('GET', '/api/v1/skills/pdf-tools/revisions');
    expect(history.json.result.revisions.map((r: { revision: string }) => r.revision)).toEqual([v1, v2, v1]);
    // Found by find as the restored version.
    const found = await t.request('POST', '/api/v1/skills/find', { body: { query: 'version one' } });
    expect(found.json.result.skills[0]?.name).toBe('pdf-tools');
  });

  test('POST /restore refuses unknown fields and unknown skills', async () => {
    const extra = await t.request('POST', '/api/v1/skills/pdf-tools/restore', {
      body: { revision: v1, force: true },
    });
    expect(extra.status).toBe(400);
    const missing = await t.request('POST', '/api/v1/skills/nope/restore', { body: { revision: v1 } });
    expect(missing.status).toBe(404);
    expect(missing.json.error.details.type).toBe('skill');
  });

  test('a deleted skill keeps its history: listed, readable and restorable; purge erases it', async () => {
    await t.request('POST', '/api/v1/skills', { body: { data: md('scratch', 'Scratch notes'), wait: true } });
    const del = await t.request('DELETE', '/api/v1/skills/scratch');
    expect(del.json.result.privacy_deleted).toBe(false);
    const history = await t.request('GET', '/api/v1/skills/scratch/revisions');
    expect(history.status).toBe(200);
    expect(history.json.result).toMatchObject({ deleted: true, current_revision: null, total: 1 });
    const rev = history.json.result.revisions[0].revision;
    expect(history.json.result.revisions[0]).toMatchObject({ current: false, superseded_by: 'delete' });
    const old = await t.request('GET', `/api/v1/skills/scratch?revision=${rev}&level=2`);
    expect(old.json.result.content).toBe(md('scratch', 'Scratch notes'));
    // `If-Match: *` needs an existing skill: a deleted one is not (RFC 9110 §13.1.1).
    const star = await t.request('POST', '/api/v1/skills/scratch/restore', {
      body: { revision: rev },
      headers: { 'if-match': '*' },
    });
    expect(star.status, star.text).toBe(412);
    expect((await t.request('GET', '/api/v1/skills/scratch')).status).toBe(404);
    const back = await t.request('POST', '/api/v1/skills/scratch/restore', {
      body: { revision: rev, wait: true },
    });
    expect(back.status, back.text).toBe(200);
    // The skill was deleted, so the restore brings it back rather than replacing it.
    expect(back.json.result.replaced).toBe(false);
    expect((await t.request('GET', '/api/v1/skills/scratch')).status).toBe(200);
    // A version ended by the delete says so, not "replaced": the restore wrote a new entry later.
    await t.request('PUT', '/api/v1/skills/scratch', {
      body: { data: md('scratch', 'Scratch notes, v2'), wait: true },
    });
    const ended = (await t.request('GET', '/api/v1/skills/scratch/revisions')).json.result.revisions;
    expect(ended.map((r: { superseded_by: string | null }) => r.superseded_by)).toEqual([
      null,
      'write',
      'delete',
    ]);
    expect(ended[0]).toMatchObject({ current: true, files: 2, auxiliary_files: 0 });

    const purged = await t.request('DELETE', '/api/v1/skills/scratch?purge=true');
    // SKILL.md, .abstract.md and the .overview.md the processing job wrote
    expect(purged.json.result).toMatchObject({ privacy_deleted: true, estimated_deleted_count: 3 });
    expect((await t.request('GET', '/api/v1/skills/scratch/revisions')).status).toBe(404);
    expect((await t.request('GET', `/api/v1/skills/scratch?revision=${rev}`)).status).toBe(404);
    expect((await t.request('DELETE', '/api/v1/skills/scratch?purge=true')).status).toBe(404);
  });

  test('purge of a skill deleted earlier erases the history still kept', async () => {
    await t.request('POST', '/api/v1/skills', { body: { data: md('later', 'Deleted, then purged') } });
    await t.request('DELETE', '/api/v1/skills/later');
    const purged = await t.request('DELETE', '/api/v1/skills/later?purge=1');
    expect(purged.status, purged.text).toBe(200);
    expect(purged.json.result).toMatchObject({ privacy_deleted: true, estimated_deleted_count: 0 });
    expect((await t.request('GET', '/api/v1/skills/later/revisions')).status).toBe(404);
  });
});

describe('retention', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ retention: { keepRevisions: 2, keepDays: 0 } });
  });
  afterAll(async () => {
    await t.close();
  });

  test('keeps the last N revisions per skill; older ones are gone from the history and from storage', async () => {
    const revisions: string[] = [];
    for (let n = 1; n <= 4; n++) {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: md('churn', 'Changes often', `# Churn\n\nVersion ${n}.\n`) },
      });
      revisions.push(res.json.result.revision);
      // The first add creates the skill; each later one replaces it.
      expect(res.json.result.replaced).toBe(n > 1);
    }
    const history = await t.request('GET', '/api/v1/skills/churn/revisions');
    expect(history.json.result.revisions.map((r: { revision: string }) => r.revision)).toEqual([
      revisions[3],
      revisions[2],
    ]);
    const pruned = await t.request('GET', `/api/v1/skills/churn?revision=${revisions[0]}`);
    expect(pruned.status).toBe(404);
    expect(pruned.json.error.details.type).toBe('revision');
  });

  test('with keepDays 0 a deleted skill leaves no history behind', async () => {
    await t.request('POST', '/api/v1/skills', { body: { data: md('brief', 'Short-lived') } });
    await t.request('DELETE', '/api/v1/skills/brief');
    expect((await t.request('GET', '/api/v1/skills/brief/revisions')).status).toBe(404);
  });
});

describe('retention: a skill updated without end', () => {
  let t: TestServer;
  beforeAll(async () => {
    // The default retention (10 revisions, 30 days) but a small cap, so the test writes few versions.
    t = await startTestServer({ retention: { keepMost: 12 } });
  });
  afterAll(async () => {
    await t.close();
  });

  test('within the days rule history still stops at keepMost: the oldest versions go', async () => {
    const revisions: string[] = [];
    for (let n = 1; n <= 30; n++) {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: md('hot', 'Rewritten in a loop', `# Hot\n\nVersion ${n}.\n`) },
      });
      expect(res.status, res.text).toBe(200);
      revisions.push(res.json.result.revision);
    }
    const history = await t.request('GET', '/api/v1/skills/hot/revisions?limit=1000');
    expect(history.json.result.revisions.map((r: { revision: string }) => r.revision)).toEqual(
      revisions.slice(-12).reverse(),
    );
    expect((await t.request('GET', `/api/v1/skills/hot?revision=${revisions[17]}`)).status).toBe(404);
    expect((await t.request('GET', `/api/v1/skills/hot?revision=${revisions[18]}`)).status).toBe(200);
  });
});

describe('retention: skills added and deleted without end', () => {
  let t: TestServer;
  let other: TestServer;
  beforeAll(async () => {
    // The default retention (30 days) but a cap of 3 deleted skills per account.
    t = await startTestServer({ retention: { keepDeleted: 3 } });
    other = await startTestServer({ retention: { keepDeleted: 0 } });
  });
  afterAll(async () => {
    await t.close();
    await other.close();
  });

  const history = (s: TestServer, name: string) => s.request('GET', `/api/v1/skills/${name}/revisions`);
  const add = async (s: TestServer, name: string, body = `# ${name}\n\nOne.\n`) => {
    const res = await s.request('POST', '/api/v1/skills', {
      body: { data: md(name, 'Added then deleted', body) },
    });
    expect(res.status, res.text).toBe(200);
    return res.json.result.revision as string;
  };

  test("the history of an account's most recently deleted skills is kept; older deletions lose theirs", async () => {
    const names = ['d1', 'd2', 'd3', 'd4', 'd5'];
    for (const name of names) {
      await add(t, name);
      await add(t, name, `# ${name}\n\nTwo.\n`);
      expect((await t.request('DELETE', `/api/v1/skills/${name}`)).status).toBe(200);
    }
    // d3, d4, d5 keep their whole history (restorable); d1 and d2 have none left.
    for (const name of ['d3', 'd4', 'd5']) {
      const kept = await history(t, name);
      expect(kept.status, name).toBe(200);
      expect(kept.json.result).toMatchObject({ deleted: true, total: 2 });
    }
    for (const name of ['d1', 'd2']) expect((await history(t, name)).status, name).toBe(404);
    // A skill added again is live, not deleted: its history is never erased by the cap.
    const back = await t.request('POST', '/api/v1/skills/d3/restore', {
      body: { revision: (await history(t, 'd3')).json.result.revisions[1].revision },
    });
    expect(back.status, back.text).toBe(200);
    await add(t, 'd6');
    expect((await t.request('DELETE', '/api/v1/skills/d6')).status).toBe(200);
    await add(t, 'd7');
    expect((await t.request('DELETE', '/api/v1/skills/d7')).status).toBe(200);
    expect((await history(t, 'd3')).json.result).toMatchObject({ deleted: false, total: 3 });
    // Deleted now, newest first: d7, d6, d5, d4 → d4 went past the cap of 3.
    for (const name of ['d5', 'd6', 'd7']) expect((await history(t, name)).status, name).toBe(200);
    expect((await history(t, 'd4')).status).toBe(404);
    // The change feed still lists every deletion.
    const feed = await t.request('GET', '/api/v1/skills?updated_since=1970-01-01T00:00:00Z&node_limit=1000');
    expect(feed.json.result.deleted.map((d: { name: string }) => d.name).sort()).toEqual([
      'd1',
      'd2',
      'd4',
      'd5',
      'd6',
      'd7',
    ]);
  });

  test("a cap of 0 erases a deleted skill's history at its deletion", async () => {
    await add(other, 'gone');
    expect((await other.request('DELETE', '/api/v1/skills/gone')).status).toBe(200);
    expect((await history(other, 'gone')).status).toBe(404);
  });
});

describe('change feed: GET /api/v1/skills?updated_since=&cursor=', () => {
  let t: TestServer;
  let start: string;
  beforeAll(async () => {
    t = await startTestServer();
    start = new Date(Date.now() - 1000).toISOString();
    for (const name of ['alpha', 'beta', 'gamma']) {
      await t.request('POST', '/api/v1/skills', { body: { data: md(name, `The ${name} skill`) } });
    }
    await t.request('POST', '/api/v1/skills', {
      body: { data: md('shared', 'An agent skill'), target_uri: 'viking://agent/skills' },
    });
    await t.request('POST', '/api/v1/skills', { body: { data: md('alpha', 'The alpha skill, again') } });
    await t.request('DELETE', '/api/v1/skills/beta');
  });
  afterAll(async () => {
    await t.close();
  });

  test('one page: written skills in change order, deletions reported, a cursor to continue', async () => {
    const res = await t.request('GET', `/api/v1/skills?updated_since=${encodeURIComponent(start)}`);
    expect(res.status, res.text).toBe(200);
    const r = res.json.result;
    expect(r.skills.map((s: { name: string }) => s.name)).toEqual(['gamma', 'shared', 'alpha']);
    expect(r.skills[2].description).toBe('The alpha skill, again');
    expect(r.deleted).toEqual([
      expect.objectContaining({
        type: 'deleted',
        name: 'beta',
        uri: 'viking://user/default/skills/beta',
        root_uri: 'viking://user/default/skills',
      }),
    ]);
    expect(r.deleted[0].revision).toMatch(/^[0-9a-f]{64}$/);
    expect(r.total).toBe(4);
    expect(r.has_more).toBe(false);
    expect(r.root_uris).toEqual(['viking://user/default/skills', 'viking://agent/skills']);
    expect(typeof r.next_cursor).toBe('string');
    // Nothing new: an empty page, the same position.
    const again = await t.request('GET', `/api/v1/skills?cursor=${r.next_cursor}`);
    expect(again.json.result).toMatchObject({ skills: [], deleted: [], total: 0, has_more: false });
    // A change after the cursor shows up on the next poll.
    await t.request('POST', '/api/v1/skills', { body: { data: md('delta', 'The delta skill') } });
    const next = await t.request('GET', `/api/v1/skills?cursor=${again.json.result.next_cursor}`);
    expect(next.json.result.skills.map((s: { name: string }) => s.name)).toEqual(['delta']);
  });

  test('pages of node_limit changes follow one another without gaps or repeats', async () => {
    const names: string[] = [];
    let url = `/api/v1/skills?updated_since=${encodeURIComponent(start)}&node_limit=1`;
    for (let i = 0; i < 10; i++) {
      const res = await t.request('GET', url);
      expect(res.status, res.text).toBe(200);
      const r = res.json.result;
      names.push(
        ...r.skills.map((s: { name: string }) => s.name),
        ...r.deleted.map((d: { name: string }) => `-${d.name}`),
      );
      if (!r.has_more) break;
      url = `/api/v1/skills?cursor=${r.next_cursor}&node_limit=1`;
    }
    expect(names).toEqual(['gamma', 'shared', 'alpha', '-beta', 'delta']);
  });

  test('a date alone and one root; the cursor keeps its root', async () => {
    const day = start.slice(0, 10);
    const res = await t.request(
      'GET',
      `/api/v1/skills?updated_since=${day}&target_uri=viking://agent/skills`,
    );
    expect(res.json.result.root_uri).toBe('viking://agent/skills');
    expect(res.json.result.skills.map((s: { name: string }) => s.name)).toEqual(['shared']);
    const mixed = await t.request('GET', `/api/v1/skills?cursor=${res.json.result.next_cursor}`);
    expect(mixed.status).toBe(400);
    expect(mixed.json.error.details.field).toBe('cursor');
  });

  test('a time in the future gives an empty page whose cursor still sees later changes', async () => {
    const res = await t.request('GET', '/api/v1/skills?updated_since=2999-01-01T00:00:00Z');
    expect(res.json.result).toMatchObject({ skills: [], deleted: [], has_more: false });
  });

  test.each([
    ['updated_since=yesterday', 'updated_since'],
    ['updated_since=2026-13-45', 'updated_since'],
    ['cursor=not-a-cursor!', 'cursor'],
    ['cursor=eyJ2IjoyfQ', 'cursor'],
  ])('%s → 400 naming %s', async (query, field) => {
    const res = await t.request('GET', `/api/v1/skills?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.details.field).toBe(field);
  });

  test('without updated_since or cursor the listing is unchanged (by name, no feed fields)', async () => {
    const res = await t.request('GET', '/api/v1/skills');
    expect(res.json.result.skills.map((s: { name: string }) => s.name)).toEqual([
      'alpha',
      'delta',
      'gamma',
      'shared',
    ]);
    expect(res.json.result.next_cursor).toBeUndefined();
    expect(res.json.result.deleted).toBeUndefined();
  });
});
