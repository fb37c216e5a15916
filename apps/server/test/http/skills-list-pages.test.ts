/**
 * `GET /api/v1/skills` a page at a time: bounded page size (default 100, at most 1000), keyset
 * cursors that neither repeat nor skip skills, `total` over every page.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Store } from '../../src/index.js';
import { openEngineStore } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const USER_ROOT = 'viking://user/default/skills';
const AGENT_ROOT = 'viking://agent/skills';
const USER_SKILLS = 1150;
const AGENT_SKILLS = 60;
const enc = new TextEncoder();

let t: TestServer;
let dataDir: string;
/** Every name in listing order: the user root by name, then the agent root by name. */
let expected: string[];

async function put(store: Store, rootUri: string, name: string): Promise<void> {
  const text = `---\nname: ${name}\ndescription: Skill ${name} for the paging test\n---\n\n# ${name}\n`;
  await store.putSkill({
    accountId: 'default',
    rootUri,
    name,
    description: `Skill ${name} for the paging test`,
    tags: [],
    allowedTools: [],
    frontmatter: { name },
    body: `# ${name}\n`,
    sourceMetadata: null,
    files: [{ path: 'SKILL.md', kind: 'definition', content: enc.encode(text) }],
    task: { type: 'add_skill', userId: 'default' },
  });
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-pages-'));
  const store = openEngineStore(dataDir);
  await store.ensureAccount('default');
  await store.ensureUser('default', 'default');
  // Names in a shuffled order, so the listing's order is the store's sort, not insertion order.
  const user = Array.from(
    { length: USER_SKILLS },
    (_, i) => `u-${String((i * 7919) % USER_SKILLS).padStart(4, '0')}`,
  );
  const agent = Array.from(
    { length: AGENT_SKILLS },
    (_, i) => `a-${String((i * 31) % AGENT_SKILLS).padStart(3, '0')}`,
  );
  agent.push('u-0005'); // a name held by both roots is listed once per root
  for (const name of user) await put(store, USER_ROOT, name);
  for (const name of agent) await put(store, AGENT_ROOT, name);
  await store.close();
  expected = [...user.sort(), ...agent.sort()];
  t = await startTestServer({ dataDir, runJobs: false });
}, 120_000);

afterAll(async () => {
  await t?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function list(query: string) {
  const res = await t.request('GET', `/api/v1/skills${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.result as {
    skills: Array<{ name: string; root_uri: string }>;
    total: number;
    has_more: boolean;
    next_cursor?: string;
    root_uri?: string;
  };
}

/** Follows `next_cursor` from `first` to the end; returns every page. */
async function follow(first: string, extra = '') {
  const pages = [await list(first)];
  for (;;) {
    const last = pages[pages.length - 1];
    if (!last?.has_more) return pages;
    expect(typeof last.next_cursor).toBe('string');
    pages.push(await list(`?cursor=${last.next_cursor}${extra}`));
    expect(pages.length).toBeLessThan(100);
  }
}

describe('GET /api/v1/skills pages', () => {
  test('without node_limit: the first 100 by name, has_more, a cursor, and the total of both roots', async () => {
    const page = await list('');
    expect(page.skills.map((s) => s.name)).toEqual(expected.slice(0, 100));
    expect(page.total).toBe(expected.length);
    expect(page.has_more).toBe(true);
    expect(page.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  test.each([
    ['node_limit=5000', 1000],
    ['node_limit=1000000000000', 1000],
    ['node_limit=9223372036854775807', 1000],
    ['node_limit=99999999999999999999', 1000],
    ['node_limit=1000', 1000],
    ['node_limit=7', 7],
  ])('%s gives a page of %i (larger values are clamped, with has_more)', async (query, size) => {
    const page = await list(`?${query}`);
    expect(page.skills.map((s) => s.name)).toEqual(expected.slice(0, size));
    expect(page.has_more).toBe(true);
    expect(page.total).toBe(expected.length);
  });

  test('node_limit=0: no skills, the total, and a cursor that starts at the beginning', async () => {
    const page = await list('?node_limit=0');
    expect(page.skills).toEqual([]);
    expect(page.total).toBe(expected.length);
    expect(page.has_more).toBe(true);
    const next = await list(`?cursor=${page.next_cursor}&node_limit=3`);
    expect(next.skills.map((s) => s.name)).toEqual(expected.slice(0, 3));
  });

  test('following next_cursor lists every skill once, in order, across both roots', async () => {
    const pages = await follow('?node_limit=250', '&node_limit=250');
    const names = pages.flatMap((p) => p.skills.map((s) => `${s.root_uri}/${s.name}`));
    const roots = [...Array(USER_SKILLS).fill(USER_ROOT), ...Array(AGENT_SKILLS + 1).fill(AGENT_ROOT)];
    expect(names).toEqual(expected.map((name, i) => `${roots[i]}/${name}`));
    for (const page of pages) expect(page.total).toBe(expected.length);
    const last = pages[pages.length - 1];
    expect(last?.has_more).toBe(false);
    expect(last?.next_cursor).toBeUndefined();
  });

  test('a page that ends exactly at the end of the user root continues in the agent root', async () => {
    const start = await list('?node_limit=1000');
    const first = await list(`?cursor=${start.next_cursor}&node_limit=${USER_SKILLS - 1000}`);
    expect(first.skills[first.skills.length - 1]?.name).toBe(expected[USER_SKILLS - 1]);
    expect(first.has_more).toBe(true);
    const next = await list(`?cursor=${first.next_cursor}&node_limit=2`);
    expect(next.skills).toEqual([
      expect.objectContaining({ name: expected[USER_SKILLS], root_uri: AGENT_ROOT }),
      expect.objectContaining({ name: expected[USER_SKILLS + 1], root_uri: AGENT_ROOT }),
    ]);
  });

  test('one root pages on its own; its cursor is refused for another root', async () => {
    const pages = await follow(
      `?target_uri=${AGENT_ROOT}&node_limit=25`,
      `&target_uri=${AGENT_ROOT}&node_limit=25`,
    );
    expect(pages.map((p) => p.skills.length)).toEqual([25, 25, 11]);
    expect(pages.flatMap((p) => p.skills.map((s) => s.name))).toEqual(expected.slice(USER_SKILLS));
    for (const page of pages) expect(page.root_uri).toBe(AGENT_ROOT);
    const mixed = await t.request('GET', `/api/v1/skills?cursor=${pages[0]?.next_cursor}`);
    expect(mixed.status).toBe(400);
    expect(mixed.json.error.details).toMatchObject({ field: 'cursor', cursor_root: AGENT_ROOT });
  });

  test('skills written between pages neither shift nor repeat the pages after the cursor', async () => {
    const first = await list('?node_limit=10');
    // One name sorting before the cursor and one after it.
    for (const name of ['a-early', 'u-0009a']) {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: `---\nname: ${name}\ndescription: Written between two pages\n---\n` },
      });
      expect(res.status, res.text).toBe(200);
    }
    try {
      const second = await list(`?cursor=${first.next_cursor}&node_limit=3`);
      expect(second.skills.map((s) => s.name)).toEqual(['u-0009a', ...expected.slice(10, 12)]);
      expect(second.total).toBe(expected.length + 2);
    } finally {
      for (const name of ['a-early', 'u-0009a']) await t.request('DELETE', `/api/v1/skills/${name}`);
    }
  });

  test('a page read again after a write shows it, also one made by another process on the database', async () => {
    const before = await list('?node_limit=5');
    expect(before.skills.map((s) => s.name)).toEqual(expected.slice(0, 5));
    expect(await list('?node_limit=5')).toEqual(before);
    // Another connection to the same database: another replica, or `skillport db import`.
    const other = openEngineStore(dataDir);
    try {
      await put(other, USER_ROOT, 'u-0000a');
      const after = await list('?node_limit=5');
      expect(after.skills.map((s) => s.name)).toEqual([expected[0], 'u-0000a', ...expected.slice(1, 4)]);
      expect(after.total).toBe(expected.length + 1);
      await other.deleteSkill('default', USER_ROOT, 'u-0000a');
      expect(await list('?node_limit=5')).toEqual(before);
    } finally {
      await other.close();
    }
    // And through the API: a delete drops the skill from the page at once.
    const added = await t.request('POST', '/api/v1/skills', {
      body: { data: '---\nname: u-0000b\ndescription: Écrit entre deux lectures — 読む 📚\n---\n' },
    });
    expect(added.status, added.text).toBe(200);
    const written = (await list('?node_limit=5')).skills.find((s) => s.name === 'u-0000b');
    expect(written).toMatchObject({ description: 'Écrit entre deux lectures — 読む 📚' });
    await t.request('DELETE', '/api/v1/skills/u-0000b?purge=true');
    expect(await list('?node_limit=5')).toEqual(before);
  });

  test.each([
    ['cursor=not-a-cursor!'],
    [`cursor=${Buffer.from('{"v":1,"n":"x","i":7,"r":null}').toString('base64url')}`],
    [
      `cursor=${Buffer.from('{"v":1,"n":"x","i":1,"r":"viking://agent/skills"}').toString('base64url')}&target_uri=viking://agent/skills`,
    ],
  ])('%s → 400 naming the cursor', async (query) => {
    const res = await t.request('GET', `/api/v1/skills?${query}`);
    expect(res.status).toBe(400);
    expect(res.json.error.details.field).toBe('cursor');
  });

  test('a forged cursor whose name holds a NUL → 400 (PostgreSQL answered 500)', async () => {
    const forged = Buffer.from(JSON.stringify({ v: 1, n: 'a\u0000', i: 0, r: null })).toString('base64url');
    const res = await t.request('GET', `/api/v1/skills?cursor=${forged}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.field).toBe('cursor');
  });

  test('a cursor of the listing is not a change feed position: with updated_since → 400', async () => {
    const first = await list('?node_limit=1');
    const res = await t.request('GET', `/api/v1/skills?cursor=${first.next_cursor}&updated_since=2020-01-01`);
    expect(res.status).toBe(400);
    expect(res.json.error.details.field).toBe('cursor');
  });
});

describe('MCP list_skills pages through the same cursors', () => {
  test('every skill once, past the 1000 of one listing page', async () => {
    const client = new Client({ name: 'skillport-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)));
    try {
      const names: string[] = [];
      let cursor: string | null = null;
      for (let calls = 0; calls < 20; calls++) {
        const res = await client.callTool({
          name: 'list_skills',
          arguments: { limit: 200, ...(cursor ? { cursor } : {}) },
        });
        const page = res.structuredContent as {
          skills: Array<{ name: string }>;
          total: number;
          next_cursor: string | null;
        };
        expect(page.total).toBe(expected.length);
        names.push(...page.skills.map((s) => s.name));
        cursor = page.next_cursor;
        if (cursor === null) break;
      }
      expect(names).toEqual(expected);
    } finally {
      await client.close();
    }
  });
});
