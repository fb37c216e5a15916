import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const md = (name: string, description: string, body = '# Title\n\nBody text.\n', extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}`;

async function add(data: unknown, extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/v1/skills', { body: { data, wait: true, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.json.result;
}

beforeAll(async () => {
  t = await startTestServer();
  await add(
    md(
      'pdf-tools',
      'Extract text and tables from PDF documents',
      '# PDF\n\n## Usage\n\nUse pdftotext for extraction.\n',
      'tags: [pdf, documents]\nallowed-tools: Bash(pdftotext:*) Read\n',
    ),
  );
  await add(md('git-helper', 'Helps with git branches, rebases and commits'));
  await add(md('web-search', 'Search the web for current information'));
  await add(md('shared-deploy', 'Deploy services to the shared cluster'), {
    target_uri: 'viking://agent/skills',
  });
  await add(md('web-search', 'Agent copy of the web search skill'), { target_uri: 'viking://agent/skills' });
});
afterAll(async () => {
  await t.close();
});

describe('skill URIs', () => {
  type Uris = { name: string; uri: string; root_uri: string; skill_md_uri?: string };
  const urisOf = (item: Uris) => ({
    uri: item.uri,
    root_uri: item.root_uri,
    skill_md_uri: item.skill_md_uri,
  });

  test('list, find, the change feed and get give each skill the same uri, root_uri and skill_md_uri', async () => {
    const list = await t.request('GET', '/api/v1/skills');
    expect(list.status, list.text).toBe(200);
    const feed = await t.request('GET', '/api/v1/skills?updated_since=1970-01-01T00:00:00Z');
    expect(feed.status, feed.text).toBe(200);
    const items = list.json.result.skills as Uris[];
    expect(items.map((s) => `${s.root_uri}/${s.name}`).sort()).toEqual([
      'viking://agent/skills/shared-deploy',
      'viking://agent/skills/web-search',
      'viking://user/default/skills/git-helper',
      'viking://user/default/skills/pdf-tools',
      'viking://user/default/skills/web-search',
    ]);
    for (const item of items) {
      const expected = {
        uri: `${item.root_uri}/${item.name}`,
        root_uri: item.root_uri,
        skill_md_uri: `${item.root_uri}/${item.name}/SKILL.md`,
      };
      expect(urisOf(item), item.name).toEqual(expected);
      const query = `target_uri=${encodeURIComponent(item.root_uri)}`;
      const got = await t.request('GET', `/api/v1/skills/${item.name}?${query}&level=0`);
      expect(got.status, got.text).toBe(200);
      expect(urisOf(got.json.result), item.name).toEqual(expected);
      const inFeed = (feed.json.result.skills as Uris[]).find((s) => s.uri === item.uri);
      expect(inFeed && urisOf(inFeed), item.name).toEqual(expected);
      const found = await t.request('POST', '/api/v1/skills/find', {
        body: { query: item.name.replace('-', ' '), target_uri: item.root_uri },
      });
      expect(found.status, found.text).toBe(200);
      const hit = (found.json.result.skills as Uris[]).find((s) => s.name === item.name);
      expect(hit && urisOf(hit), item.name).toEqual(expected);
    }
  });

  test("add's result names the skill's uri (root_uri is that uri too, as the seed API has it); delete's the root", async () => {
    const added = await add(md('uri-probe', 'A skill added to compare its URIs'), {
      target_uri: 'viking://agent/skills',
    });
    expect(added).toMatchObject({
      uri: 'viking://agent/skills/uri-probe',
      root_uri: 'viking://agent/skills/uri-probe',
    });
    const got = await t.request('GET', '/api/v1/skills/uri-probe?level=0');
    expect(urisOf(got.json.result)).toEqual({
      uri: added.uri,
      root_uri: 'viking://agent/skills',
      skill_md_uri: `${added.uri}/SKILL.md`,
    });
    const deleted = await t.request('DELETE', '/api/v1/skills/uri-probe?target_uri=viking://agent/skills');
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.json.result).toMatchObject({ uri: added.uri, root_uri: 'viking://agent/skills' });
  });
});

describe('GET /api/v1/skills', () => {
  test('without target_uri: both roots, items with the contract fields', async () => {
    const res = await t.request('GET', '/api/v1/skills');
    expect(res.status).toBe(200);
    expect(res.json.result.root_uris).toEqual(['viking://user/default/skills', 'viking://agent/skills']);
    expect(res.json.result.total).toBe(5);
    const pdf = res.json.result.skills.find((s: { name: string }) => s.name === 'pdf-tools');
    expect(pdf).toMatchObject({
      type: 'skill',
      uri: 'viking://user/default/skills/pdf-tools',
      root_uri: 'viking://user/default/skills',
      skill_md_uri: 'viking://user/default/skills/pdf-tools/SKILL.md',
      description: 'Extract text and tables from PDF documents',
      tags: ['pdf', 'documents'],
      allowed_tools: ['Bash(pdftotext:*)', 'Read'],
      level: 0,
    });
    expect(pdf.revision).toMatch(/^[0-9a-f]{64}$/);
    expect(Number.isNaN(Date.parse(pdf.updated_at))).toBe(false);
  });

  test.each([
    ['node_limit=2', 2],
    ['node_limit=0', 0],
    ['node_limit=1000', 5],
    // Past what SQLite's 64-bit LIMIT holds: still "everything", never a 500.
    ['node_limit=9223372036854775807', 5],
    ['node_limit=99999999999999999999', 5],
  ])('%s is honoured', async (query, count) => {
    const res = await t.request('GET', `/api/v1/skills?${query}`);
    expect(res.status).toBe(200);
    expect(res.json.result.skills).toHaveLength(count);
  });

  test('with target_uri: one root; unknown query parameters ignored', async () => {
    const res = await t.request('GET', '/api/v1/skills?target_uri=viking://agent/skills&foo=bar');
    expect(res.status).toBe(200);
    expect(res.json.result.root_uri).toBe('viking://agent/skills');
    expect(res.json.result.root_uris).toBeUndefined();
    expect(res.json.result.skills.map((s: { name: string }) => s.name).sort()).toEqual([
      'shared-deploy',
      'web-search',
    ]);
  });

  test('an empty root is an empty list, not 404', async () => {
    const other = await startTestServer();
    try {
      const res = await other.request('GET', '/api/v1/skills?target_uri=viking://agent/skills');
      expect(res.status).toBe(200);
      expect(res.json.result).toMatchObject({ skills: [], total: 0 });
    } finally {
      await other.close();
    }
  });

  test('node_limit that is not a number → 400 with validation_errors', async () => {
    const res = await t.request('GET', '/api/v1/skills?node_limit=abc');
    expect(res.status).toBe(400);
    expect(res.json.error.details.validation_errors[0].loc).toEqual(['query', 'node_limit']);
  });
});

describe('POST /api/v1/skills/find', () => {
  test('ranks, scores in [0,1] descending, match_reason', async () => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { query: 'pdf tables' } });
    expect(res.status, res.text).toBe(200);
    const skills = res.json.result.skills;
    expect(skills[0].name).toBe('pdf-tools');
    for (const s of skills) {
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
      expect(typeof s.match_reason).toBe('string');
    }
    const scores = skills.map((s: { score: number }) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  test('merged roots are de-duplicated by name (user copy first)', async () => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { query: 'web search' } });
    const names = res.json.result.skills.map((s: { name: string }) => s.name);
    expect(names.filter((n: string) => n === 'web-search')).toHaveLength(1);
  });

  test('limit, target_uri, score_threshold and null compat fields', async () => {
    const limited = await t.request('POST', '/api/v1/skills/find', { body: { query: 'the', limit: 1 } });
    expect(limited.json.result.skills.length).toBeLessThanOrEqual(1);
    const agent = await t.request('POST', '/api/v1/skills/find', {
      body: {
        query: 'deploy cluster',
        target_uri: 'viking://agent/skills',
        score_threshold: null,
        level: null,
        telemetry: null,
      },
    });
    expect(agent.status, agent.text).toBe(200);
    expect(agent.json.result.skills.map((s: { name: string }) => s.name)).toEqual(['shared-deploy']);
    const strict = await t.request('POST', '/api/v1/skills/find', {
      body: { query: 'pdf', score_threshold: 1.0 },
    });
    for (const s of strict.json.result.skills) expect(s.score).toBe(1);
  });

  test('a limit above 1000 is clamped to 1000, as node_limit is; below 1 or not an integer → 400', async () => {
    const find = (limit: unknown) =>
      t.request('POST', '/api/v1/skills/find', { body: { query: 'body text', limit } });
    const most = await find(1000);
    expect(most.status, most.text).toBe(200);
    const names = most.json.result.skills.map((s: { name: string }) => s.name);
    expect(names.length).toBeGreaterThan(1);
    for (const limit of [1001, 5000, Number.MAX_SAFE_INTEGER]) {
      const res = await find(limit);
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.skills.map((s: { name: string }) => s.name)).toEqual(names);
    }
    for (const limit of [0, -1, 1.5, '10']) {
      const res = await find(limit);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details.validation_errors[0].loc).toEqual(['body', 'limit']);
    }
  });

  test('level filter keeps matches of that level', async () => {
    const body = await t.request('POST', '/api/v1/skills/find', { body: { query: 'pdftotext', level: [0] } });
    expect(body.status, body.text).toBe(200);
    expect(body.json.result.skills).toEqual([]);
    const deep = await t.request('POST', '/api/v1/skills/find', {
      body: { query: 'pdftotext', level: [1, 2] },
    });
    expect(deep.json.result.skills.map((s: { name: string }) => s.name)).toContain('pdf-tools');
  });

  test.each([
    [{ query: '' }, 'query'],
    [{ query: 'x', limit: 'ten' }, 'limit'],
    [{ query: 'x', bogus: 1 }, 'bogus'],
    [{}, 'query'],
  ])('bad body %j → 400 naming %s', async (body, field) => {
    const res = await t.request('POST', '/api/v1/skills/find', { body });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.validation_errors.map((e: { loc: string[] }) => e.loc.at(-1))).toContain(
      field,
    );
  });
});

describe('GET /api/v1/skills/{name}', () => {
  test('no level: abstract, overview, content (+sha256), files, frontmatter, revision, ETag', async () => {
    const res = await t.request('GET', '/api/v1/skills/pdf-tools');
    expect(res.status).toBe(200);
    const r = res.json.result;
    expect(r.abstract).toContain('pdf-tools');
    expect(r.overview).toContain('pdf-tools');
    expect(r.content).toContain('name: pdf-tools');
    expect(r.content_sha256).toBe(createHash('sha256').update(r.content, 'utf8').digest('hex'));
    expect(r.frontmatter).toMatchObject({ name: 'pdf-tools', tags: ['pdf', 'documents'] });
    expect(res.headers.get('etag')).toBe(`"${r.revision}"`);
    const skillMd = r.files.find((f: { path: string }) => f.path === 'SKILL.md');
    expect(skillMd).toMatchObject({
      name: 'SKILL.md',
      is_dir: false,
      kind: 'definition',
      sha256: r.content_sha256,
    });
    expect(skillMd.uri).toBe('viking://user/default/skills/pdf-tools/SKILL.md');
  });

  test.each([
    ['0', ['abstract'], ['overview', 'content']],
    ['1', ['overview'], ['abstract', 'content']],
    ['2', ['content', 'content_sha256'], ['abstract', 'overview']],
  ])('level=%s returns only that level', async (level, present, absent) => {
    const res = await t.request('GET', `/api/v1/skills/pdf-tools?level=${level}`);
    expect(res.status).toBe(200);
    for (const k of present) expect(res.json.result[k]).toBeDefined();
    for (const k of absent) expect(res.json.result[k]).toBeUndefined();
  });

  test.each(['null', 'false', ''])('level=%s means "not given": all three levels', async (level) => {
    const res = await t.request('GET', `/api/v1/skills/pdf-tools?level=${level}`);
    expect(res.status, res.text).toBe(200);
    for (const k of ['abstract', 'overview', 'content']) expect(res.json.result[k]).toBeDefined();
  });

  test('include_content=true adds content to a level; include_files=false drops files', async () => {
    const res = await t.request(
      'GET',
      '/api/v1/skills/pdf-tools?level=0&include_content=true&include_files=false',
    );
    expect(res.json.result.content).toContain('pdf-tools');
    expect(res.json.result.files).toBeUndefined();
  });

  test.each(['false', 'False', '0'])(
    'include_content=%s with no level: abstract and overview without content (as OpenViking answers)',
    async (flag) => {
      // Asked with and without the flag in turn, so a kept answer of one shape never serves the other.
      for (const query of ['', `?include_content=${flag}`, '', `?include_content=${flag}&target_uri=`]) {
        const res = await t.request('GET', `/api/v1/skills/pdf-tools${query}`);
        expect(res.status, res.text).toBe(200);
        const r = res.json.result;
        expect(r.abstract, query).toContain('pdf-tools');
        expect(r.overview, query).toEqual(expect.any(String));
        if (query.includes('include_content')) {
          expect(r.content, query).toBeUndefined();
          expect(r.content_sha256, query).toBeUndefined();
        } else {
          expect(r.content, query).toContain('name: pdf-tools');
          expect(r.content_sha256, query).toMatch(/^[0-9a-f]{64}$/);
        }
      }
    },
  );

  test('include_content=false leaves level 2 its content, and levels 0 and 1 without it', async () => {
    const two = await t.request('GET', '/api/v1/skills/pdf-tools?level=2&include_content=false');
    expect(two.json.result.content).toContain('name: pdf-tools');
    for (const level of ['0', '1']) {
      const res = await t.request('GET', `/api/v1/skills/pdf-tools?level=${level}&include_content=false`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.content).toBeUndefined();
    }
  });

  test('include_integrity adds size/sha256 per file and the revision', async () => {
    const res = await t.request('GET', '/api/v1/skills/pdf-tools?include_integrity=true');
    expect(res.json.result.revision).toMatch(/^[0-9a-f]{64}$/);
    for (const f of res.json.result.files.filter((x: { is_dir: boolean }) => !x.is_dir)) {
      expect(f.size).toBeGreaterThan(0);
      expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  test('lookup: user root first, then agent root; target_uri picks one', async () => {
    const user = await t.request('GET', '/api/v1/skills/web-search?level=0');
    expect(user.json.result.root_uri).toBe('viking://user/default/skills');
    const agent = await t.request(
      'GET',
      '/api/v1/skills/web-search?level=0&target_uri=viking://agent/skills',
    );
    expect(agent.json.result.description).toBe('Agent copy of the web search skill');
    const fallback = await t.request('GET', '/api/v1/skills/shared-deploy?level=0');
    expect(fallback.json.result.root_uri).toBe('viking://agent/skills');
  });

  test('missing → 404 NOT_FOUND with details {type, resource}', async () => {
    const res = await t.request('GET', '/api/v1/skills/nope');
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({
      code: 'NOT_FOUND',
      details: { type: 'skill', resource: 'viking://user/default/skills/nope' },
    });
  });

  test('invalid name segment → 400 details.field=name', async () => {
    const res = await t.request('GET', `/api/v1/skills/${encodeURIComponent('bad name!')}`);
    expect(res.status).toBe(400);
    expect(res.json.error.details.field).toBe('name');
  });
});

describe('PUT /api/v1/skills/{name}', () => {
  test('full replacement; action=update; If-Match current → ok, stale → 412', async () => {
    const before = await t.request('GET', '/api/v1/skills/git-helper?level=0');
    const rev = before.json.result.revision;
    const ok = await t.request('PUT', '/api/v1/skills/git-helper', {
      body: { data: md('git-helper', 'Helps with git history and bisecting') },
      headers: { 'if-match': `"${rev}"` },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.result).toMatchObject({ action: 'update', name: 'git-helper', replaced: true });
    expect(ok.json.result.revision).not.toBe(rev);
    const stale = await t.request('PUT', '/api/v1/skills/git-helper', {
      body: { data: md('git-helper', 'This write must be refused') },
      headers: { 'if-match': rev },
    });
    expect(stale.status).toBe(412);
    expect(stale.json.error.code).toBe('CONFLICT');
    const after = await t.request('GET', '/api/v1/skills/git-helper?level=0');
    expect(after.json.result.description).toBe('Helps with git history and bisecting');
  });

  test('If-Match is compared strongly: a weak tag or an empty value → 412 and nothing changes; * matches an existing skill only', async () => {
    await add(md('strong-match', 'A skill updated only under a strong match'));
    const rev = (await t.request('GET', '/api/v1/skills/strong-match?level=0')).json.result.revision;
    for (const [header, reason] of [
      [`W/"${rev}"`, 'weak_etag'],
      [`W/${rev}`, 'weak_etag'], // a bare weak tag, as leniently read as a bare revision
      ['', 'empty_if_match'],
      [' , ', 'empty_if_match'],
    ] as const) {
      const res = await t.request('PUT', '/api/v1/skills/strong-match', {
        body: { data: md('strong-match', 'This write must be refused') },
        headers: { 'if-match': header },
      });
      expect(res.status, `${JSON.stringify(header)}: ${res.text}`).toBe(412);
      expect(res.json.error.code).toBe('CONFLICT');
      expect(res.json.error.details.reason).toBe(reason);
      expect(res.json.error.details.actual).toBe(rev);
    }
    const unchanged = await t.request('GET', '/api/v1/skills/strong-match?level=0');
    expect(unchanged.json.result).toMatchObject({
      revision: rev,
      description: 'A skill updated only under a strong match',
    });
    const any = await t.request('PUT', '/api/v1/skills/strong-match', {
      body: { data: md('strong-match', 'Updated under If-Match star') },
      headers: { 'if-match': '*' },
    });
    expect(any.status, any.text).toBe(200);
    expect(any.json.result.revision).not.toBe(rev);
    // `*` on a skill that does not exist: update still answers 404, nothing is created.
    const missing = await t.request('PUT', '/api/v1/skills/strong-match-missing', {
      body: { data: md('strong-match-missing', 'Must not be created by If-Match star') },
      headers: { 'if-match': '*' },
    });
    expect(missing.status, missing.text).toBe(404);
    expect((await t.request('GET', '/api/v1/skills/strong-match-missing')).status).toBe(404);
  });

  test('a malformed If-Match (not `*` nor entity tags) → 400 naming the header, before anything is evaluated', async () => {
    await add(md('malformed-match', 'A skill guarded by malformed preconditions'));
    const rev = (await t.request('GET', '/api/v1/skills/malformed-match?level=0')).json.result.revision;
    const malformed = [
      `"${rev}`, // unbalanced quote
      `${rev}"`,
      `w/"${rev}"`, // \`W\` is case-sensitive: not a weak tag, and quotes inside a bare tag
      `"${rev}", *`, // \`*\` must stand alone
      `"a b"`, // a space inside a tag
      `${rev} ${rev}`, // two tags without a comma
      'W/',
    ];
    const writes = (header: string) => [
      t.request('PUT', '/api/v1/skills/malformed-match', {
        body: { data: md('malformed-match', 'This write must be refused') },
        headers: { 'if-match': header },
      }),
      t.request('DELETE', '/api/v1/skills/malformed-match', { headers: { 'if-match': header } }),
      t.request('POST', '/api/v1/skills/malformed-match/restore', {
        body: { revision: rev },
        headers: { 'if-match': header },
      }),
      // A missing skill still answers 400: the header is checked before the skill is looked up.
      t.request('DELETE', '/api/v1/skills/malformed-match-missing', { headers: { 'if-match': header } }),
    ];
    for (const header of malformed) {
      for (const res of await Promise.all(writes(header))) {
        expect(res.status, `${JSON.stringify(header)}: ${res.text}`).toBe(400);
        expect(res.json.error).toMatchObject({
          code: 'INVALID_ARGUMENT',
          details: { field: 'If-Match', reason: 'malformed_entity_tag' },
        });
        expect(res.json.error.message).toContain('Malformed If-Match header');
      }
    }
    const unchanged = await t.request('GET', '/api/v1/skills/malformed-match?level=0');
    expect(unchanged.json.result).toMatchObject({
      revision: rev,
      description: 'A skill guarded by malformed preconditions',
    });
    // Well-formed spellings still match: quoted, bare, several, with empty elements.
    for (const header of [`"${rev}"`, rev, `"0000", "${rev}"`, ` , "${rev}" ,`]) {
      const res = await t.request('PUT', '/api/v1/skills/malformed-match', {
        body: { data: md('malformed-match', 'A skill guarded by malformed preconditions') },
        headers: { 'if-match': header },
      });
      expect(res.status, `${JSON.stringify(header)}: ${res.text}`).toBe(200);
      expect(res.json.result.revision).toBe(rev); // same content, same revision
    }
  });

  test('a malformed If-None-Match → 400 on get and file download; well-formed ones still give 304', async () => {
    const get = await t.request('GET', '/api/v1/skills/pdf-tools?level=0');
    const etag = get.headers.get('etag') as string;
    const file = await t.request('GET', '/api/v1/skills/pdf-tools/files/SKILL.md');
    const fileTag = file.headers.get('etag') as string;
    for (const header of [`${etag.slice(0, -1)}`, `*, ${etag}`, '"a b"']) {
      for (const path of ['/api/v1/skills/pdf-tools?level=0', '/api/v1/skills/pdf-tools/files/SKILL.md']) {
        const res = await t.request('GET', path, { headers: { 'if-none-match': header } });
        expect(res.status, `${path} ${JSON.stringify(header)}: ${res.text}`).toBe(400);
        expect(res.json.error.details).toMatchObject({
          field: 'If-None-Match',
          reason: 'malformed_entity_tag',
        });
      }
    }
    const notModified = await t.request('GET', '/api/v1/skills/pdf-tools?level=0', {
      headers: { 'if-none-match': `W/"0000", ${etag}` },
    });
    expect(notModified.status).toBe(304);
    const fileNotModified = await t.request('GET', '/api/v1/skills/pdf-tools/files/SKILL.md', {
      headers: { 'if-none-match': fileTag },
    });
    expect(fileNotModified.status).toBe(304);
  });

  test('name in content must equal {name} → 400 details {expected, actual}', async () => {
    const res = await t.request('PUT', '/api/v1/skills/git-helper', {
      body: { data: md('other-name', 'A different skill name in the content') },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toMatchObject({ expected: 'git-helper', actual: 'other-name' });
  });

  test('update from a temp upload replaces every file (no stale auxiliary files)', async () => {
    const enc = new TextEncoder();
    const upload = async (files: Record<string, string>) => {
      const form = new FormData();
      const zip = zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, enc.encode(v)])));
      form.append('file', new Blob([new Uint8Array(zip)]), 'skill.zip');
      const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
      return res.json.result.temp_file_id as string;
    };
    const skill = md('zip-updated', 'A skill updated from uploaded folders');
    expect((await add(skill)).name).toBe('zip-updated');
    const first = await t.request('PUT', '/api/v1/skills/zip-updated', {
      body: { temp_file_id: await upload({ 'SKILL.md': skill, 'a.txt': 'a', 'docs/b.md': 'b' }), wait: true },
    });
    expect(first.status, first.text).toBe(200);
    expect(first.json.result).toMatchObject({ action: 'update', auxiliary_files: 2 });
    const second = await t.request('PUT', '/api/v1/skills/zip-updated', {
      body: { temp_file_id: await upload({ 'SKILL.md': skill, 'c.txt': 'c' }) },
    });
    expect(second.status, second.text).toBe(200);
    const get = await t.request('GET', '/api/v1/skills/zip-updated');
    const paths = get.json.result.files.map((f: { path: string }) => f.path);
    expect(paths).toContain('c.txt');
    expect(paths).not.toContain('a.txt');
    expect(paths).not.toContain('docs/b.md');
    expect(paths).not.toContain('docs');
  });

  test('update of a missing skill → 404', async () => {
    const res = await t.request('PUT', '/api/v1/skills/ghost', {
      body: { data: md('ghost', 'A skill that was never added') },
    });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });
});

describe('DELETE /api/v1/skills/{name}', () => {
  test('deletes, reports the count, then GET → 404', async () => {
    await add(md('to-delete', 'A skill that will be deleted soon'));
    const res = await t.request('DELETE', '/api/v1/skills/to-delete');
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({
      name: 'to-delete',
      uri: 'viking://user/default/skills/to-delete',
      root_uri: 'viking://user/default/skills',
      privacy_deleted: false,
    });
    expect(res.json.result.estimated_deleted_count).toBeGreaterThanOrEqual(2);
    expect((await t.request('GET', '/api/v1/skills/to-delete')).status).toBe(404);
    expect((await t.request('DELETE', '/api/v1/skills/to-delete')).status).toBe(404);
  });

  test('If-Match: stale → 412 and nothing deleted; a list holding the current revision → deleted', async () => {
    await add(md('guarded-delete', 'A skill deleted only at a known revision'));
    const rev = (await t.request('GET', '/api/v1/skills/guarded-delete?level=0')).json.result.revision;
    const stale = await t.request('DELETE', '/api/v1/skills/guarded-delete', {
      headers: { 'if-match': '"0000"' },
    });
    expect(stale.status, stale.text).toBe(412);
    expect(stale.json.error).toMatchObject({ code: 'CONFLICT', details: { expected: '0000', actual: rev } });
    expect((await t.request('GET', '/api/v1/skills/guarded-delete?level=0')).status).toBe(200);
    // A weak tag never matches a write (strong comparison), even when its value is the revision.
    const weak = await t.request('DELETE', '/api/v1/skills/guarded-delete', {
      headers: { 'if-match': `W/"${rev}"` },
    });
    expect(weak.status, weak.text).toBe(412);
    expect(weak.json.error.details.reason).toBe('weak_etag');
    expect(weak.json.error.message).toContain('RFC 9110');
    expect((await t.request('GET', '/api/v1/skills/guarded-delete?level=0')).status).toBe(200);
    const ok = await t.request('DELETE', '/api/v1/skills/guarded-delete', {
      headers: { 'if-match': `"0000", W/"${rev}", "${rev}"` },
    });
    expect(ok.status, ok.text).toBe(200);
    expect((await t.request('GET', '/api/v1/skills/guarded-delete')).status).toBe(404);
  });
});

describe('POST /api/v1/skills/validate', () => {
  test.each([
    [{ data: md('good-skill', 'A perfectly fine skill description') }, true, 'openviking'],
    [{ data: md('bad.name', 'Fine description but the name is odd'), strict: true }, false, 'openviking'],
    [{ data: '# no frontmatter\n' }, false, 'openviking'],
    [{ data: { description: 'structured without a name' } }, false, 'openviking'],
    [
      {
        data: md('x', 'short'),
        profile: 'agentskills',
        skill_dir_name: 'x',
        target_uri: 'viking://agent/skills',
      },
      true,
      'agentskills',
    ],
  ])('%j → valid=%s (always 200)', async (body, valid, profile) => {
    const res = await t.request('POST', '/api/v1/skills/validate', { body });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.valid).toBe(valid);
    expect(res.json.result.profile).toBe(profile);
    expect(Array.isArray(res.json.result.errors)).toBe(true);
    expect(Array.isArray(res.json.result.warnings)).toBe(true);
  });

  test('a host path is a verdict (200, valid=false, rule host_path), not a refusal', async () => {
    const res = await t.request('POST', '/api/v1/skills/validate', { body: { data: './skills/my-skill' } });
    expect(res.status).toBe(200);
    expect(res.json.result.valid).toBe(false);
    expect(res.json.result.errors[0].rule).toBe('host_path');
  });

  // What add refuses before validating is a verdict here too (200, valid=false), never a 400, and
  // validate never calls valid what add refuses.
  test.each([
    [
      'a NUL in SKILL.md text',
      { data: `${md('nul-text', 'A description long enough')}bo\u0000dy\n` },
      'nul_byte',
    ],
    [
      'a NUL in structured content',
      { data: { name: 'nul-struct', description: 'A description long enough', content: 'a\u0000b' } },
      'nul_byte',
    ],
    [
      'an MCP tool name with no letters',
      { data: { name: '___', description: 'A description long enough', inputSchema: { type: 'object' } } },
      'name',
    ],
    [
      'an MCP tool with a null inputSchema',
      { data: { name: 'calc', inputSchema: null } },
      'data.inputSchema',
    ],
  ])('%s → 200, valid=false (what add refuses)', async (_label, body, ruleOrField) => {
    const res = await t.request('POST', '/api/v1/skills/validate', { body });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.valid).toBe(false);
    const [first] = res.json.result.errors;
    expect([first.rule, first.field]).toContain(ruleOrField);
    const add = await t.request('POST', '/api/v1/skills', { body });
    expect(add.status).toBe(400);
  });

  // OpenViking's validate answers any JSON value of `data` with a verdict; its SDKs pass a caller's
  // value through unchecked, so a number or a list must not turn the verdict into a 400.
  test.each([
    ['a number', 42],
    ['a boolean', true],
    ['null', null],
    ['a list', ['---\nname: listed\ndescription: A skill inside a list\n---\n']],
  ])('data that is %s → 200, valid=false, yaml_format on data (add refuses it)', async (_label, data) => {
    const res = await t.request('POST', '/api/v1/skills/validate', { body: { data } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result).toMatchObject({ valid: false, name: null, description: null, body_lines: 0 });
    expect(res.json.result.errors).toEqual([
      expect.objectContaining({ rule: 'yaml_format', severity: 'error', field: 'data' }),
    ]);
    expect(res.json.result.errors[0].message).toMatch(/SKILL\.md text.*MCP tool.*structured skill/);
    const add = await t.request('POST', '/api/v1/skills', { body: { data } });
    expect(add.status).toBe(400);
  });

  test('source_path and skill_dir_name come back in the verdict ("" when not given), as OpenViking answers', async () => {
    const given = await t.request('POST', '/api/v1/skills/validate', {
      body: {
        data: md('echoed', 'A skill whose origin is echoed'),
        source_path: 'skills/echoed/SKILL.md',
        skill_dir_name: 'echoed',
      },
    });
    expect(given.status, given.text).toBe(200);
    expect(given.json.result).toMatchObject({
      source_path: 'skills/echoed/SKILL.md',
      skill_dir_name: 'echoed',
    });
    const absent = await t.request('POST', '/api/v1/skills/validate', {
      body: {
        data: md('echoed', 'A skill whose origin is echoed'),
        source_path: null,
        skill_dir_name: false,
      },
    });
    expect(absent.json.result).toMatchObject({ source_path: '', skill_dir_name: '' });
  });

  test('MCP tool data is converted then validated; nothing is stored', async () => {
    const res = await t.request('POST', '/api/v1/skills/validate', {
      body: {
        data: {
          name: 'never_stored',
          description: 'An MCP tool that is only validated',
          inputSchema: { type: 'object' },
        },
      },
    });
    expect(res.json.result).toMatchObject({ valid: true, name: 'never-stored' });
    expect((await t.request('GET', '/api/v1/skills/never-stored')).status).toBe(404);
  });
});
