/**
 * Shapes OpenViking's own clients (Python, Go, Rust and TypeScript SDKs and the `ov` CLI) send and
 * read, beyond the contract's other tests. Runs on both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const md = (name: string, frontmatter: string, body = '# Title\n\nBody text.\n') =>
  `---\nname: ${name}\n${frontmatter}---\n\n${body}`;

async function add(data: unknown, extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/v1/skills', { body: { data, wait: true, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.json.result;
}

beforeAll(async () => {
  t = await startTestServer();
  await add(
    md(
      'invoice-parser',
      'description: >-\n  Parse   invoices\n  and receipts into line items\ntags: billing, invoices\nallowed-tools: Bash(pdftotext:*) Read\n',
    ),
  );
  await add(md('invoice-mailer', 'description: "Mail invoices — to customers, with ünïcode"\n'));
  await add(md('invoice-archive', `description: ${'Archive invoices for years. '.repeat(60)}\n`), {
    target_uri: 'viking://agent/skills',
  });
  await add({ name: 'invoice-totals', description: 'Sum invoice totals', content: '# Totals\n' });
});
afterAll(async () => {
  await t.close();
});

describe('find hits carry the L0 abstract', () => {
  test.each([
    [{ query: 'invoices' }],
    [{ query: 'invoice', target_uri: 'viking://agent/skills' }],
    [{ query: 'invoice-parser' }],
  ])('each hit of %j has the abstract get gives at level 0', async (body) => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { limit: 20, ...body } });
    expect(res.status, res.text).toBe(200);
    const hits = res.json.result.skills as { name: string; root_uri: string; abstract: string }[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      const query = `level=0&target_uri=${encodeURIComponent(hit.root_uri)}`;
      const got = await t.request('GET', `/api/v1/skills/${hit.name}?${query}`);
      expect(got.status, got.text).toBe(200);
      expect(hit.abstract, hit.name).toBe(got.json.result.abstract);
      expect(hit.abstract.startsWith(`**${hit.name}**`), hit.abstract).toBe(true);
    }
  });

  test('the abstract of a hit with a folded description, tags and allowed tools', async () => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { query: 'receipts line items' } });
    const hit = res.json.result.skills.find((s: { name: string }) => s.name === 'invoice-parser');
    expect(hit.abstract).toBe(
      '**invoice-parser** — Parse invoices and receipts into line items. Tags: billing, invoices. ' +
        'Allowed tools: Bash(pdftotext:*), Read.\n',
    );
  });
});

describe("viking://user/skills is the caller's own user root", () => {
  // OpenViking's earlier API docs gave `viking://user/skills/...` as the current user's shorthand,
  // and its examples still pass `-p viking://user/skills` to `ov add-skill`.
  const own = 'viking://user/default/skills';

  test.each(['viking://user/skills', 'viking://user/skills/', ' viking://user/skills '])(
    'add, list, find, get, update and delete with target_uri %j use the user root',
    async (target) => {
      const name = 'uidless-root';
      const added = await add(md(name, 'description: Stored through the uid-less root\n'), {
        target_uri: target,
      });
      expect(added.uri).toBe(`${own}/${name}`);
      const query = `target_uri=${encodeURIComponent(target)}`;
      const listed = await t.request('GET', `/api/v1/skills?${query}`);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.json.result.root_uri).toBe(own);
      expect(listed.json.result.skills.map((s: { name: string }) => s.name)).toContain(name);
      const found = await t.request('POST', '/api/v1/skills/find', {
        body: { query: 'uid-less root', target_uri: target },
      });
      expect(found.status, found.text).toBe(200);
      expect(found.json.result.root_uris).toEqual([own]);
      expect(found.json.result.skills.map((s: { name: string }) => s.name)).toContain(name);
      const got = await t.request('GET', `/api/v1/skills/${name}?level=0&${query}`);
      expect(got.status, got.text).toBe(200);
      expect(got.json.result.root_uri).toBe(own);
      const updated = await t.request('PUT', `/api/v1/skills/${name}`, {
        body: { data: md(name, 'description: Updated through the uid-less root\n'), target_uri: target },
      });
      expect(updated.status, updated.text).toBe(200);
      const deleted = await t.request('DELETE', `/api/v1/skills/${name}?${query}`);
      expect(deleted.status, deleted.text).toBe(200);
      expect(deleted.json.result.uri).toBe(`${own}/${name}`);
    },
  );

  test('viking://user/skills/skills stays the root of the user "skills" (another user: 403)', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md('nope', 'description: Not stored\n'), target_uri: 'viking://user/skills/skills' },
    });
    expect(res.status, res.text).toBe(403);
    expect(res.json.error.code).toBe('PERMISSION_DENIED');
  });

  test('a skill URI below it is still not a root: 400 INVALID_URI', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md('nope', 'description: Not stored\n'), target_uri: 'viking://user/skills/nope' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_URI');
  });
});

describe("add's skills and list_only (the ov CLI's --skill and --list)", () => {
  async function upload(bytes: Uint8Array, filename: string): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), filename);
    const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
    expect(res.status, res.text).toBe(200);
    return res.json.result.temp_file_id;
  }
  const skillMd = (name: string) => new TextEncoder().encode(md(name, 'description: Picked from a source\n'));

  test.each([[['picked']], [['picked', 'picked']], [['other', 'picked']]])(
    'skills %j naming the skill of the source stores it',
    async (skills) => {
      const added = await add(md('picked', 'description: Picked from a source\n'), { skills });
      expect(added.name).toBe('picked');
    },
  );

  test.each([[[' picked\t']], [['\npicked ', 'other']]])(
    'skills %j: ASCII blanks around a name are trimmed, as for the name rule',
    async (skills) => {
      const added = await add(md('picked', 'description: Picked from a source\n'), { skills });
      expect(added.name).toBe('picked');
    },
  );

  test.each([
    ['\u00a0selected', 'U+00A0', 'selected'],
    ['selected\ufeff', 'U+FEFF', 'selected'],
    ['sel\u200bected', 'U+200B', 'sel-ected'],
    ['selected\u2028', 'U+2028', 'selected'],
  ])(
    'skills [%j]: an invisible character is refused as the name rule refuses it, with the fix',
    async (entry, shown, fix) => {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: md('selected', 'description: Not stored\n'), skills: ['other', entry], wait: true },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('INVALID_ARGUMENT');
      expect(res.json.error.details).toMatchObject({
        field: 'skills',
        index: 1,
        value: entry,
        fix,
      });
      expect(res.json.error.message).toContain(shown);
      expect((await t.request('GET', '/api/v1/skills/selected')).status).toBe(404);
    },
  );

  test.each([[null], [false], [[]]])('skills %j means "not given"', async (skills) => {
    const added = await add(md('unpicked', 'description: No selection\n'), { skills });
    expect(added.name).toBe('unpicked');
  });

  test('skills not naming the skill of the source → 400, nothing stored, the upload kept for a retry', async () => {
    const id = await upload(skillMd('left-out'), 'SKILL.md');
    const res = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: id, skills: ['wanted', 'also-wanted'], wait: true },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details).toMatchObject({
      field: 'skills',
      missing: ['wanted', 'also-wanted'],
      available: ['left-out'],
    });
    expect(res.json.error.message).toContain('left-out');
    expect((await t.request('GET', '/api/v1/skills/left-out')).status).toBe(404);
    const retry = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: id, skills: ['left-out'], wait: true },
    });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json.result.name).toBe('left-out');
  });

  test('list_only: true → 400 naming the field, nothing stored, the upload kept', async () => {
    const id = await upload(skillMd('only-listed'), 'SKILL.md');
    const res = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id, list_only: true } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details).toMatchObject({ field: 'list_only' });
    expect(res.json.error.message).toContain('/api/v1/skills/validate');
    expect((await t.request('GET', '/api/v1/skills/only-listed')).status).toBe(404);
    const retry = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id, list_only: false } });
    expect(retry.status, retry.text).toBe(200);
  });

  test.each([[{ skills: 'picked' }], [{ skills: [''] }], [{ skills: [' \t'] }], [{ list_only: 'yes' }]])(
    'ill-typed %j → 400 INVALID_ARGUMENT',
    async (extra) => {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: md('typed', 'description: Not stored\n'), ...extra },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    },
  );
});
