/**
 * resources/list pages: up to 100 skills a page, so a client that walks every page under a page cap
 * (the official TypeScript SDK's v2 client stops at 64) lists a registry of thousands of skills; a
 * page of skills with many files each stops early, so pages stay small.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createSkillportMcpServer } from '../src/index.js';
import type { SkillRegistry } from '../src/registry.js';

const ROOT = 'viking://user/default/skills';
/** Pages a client walks before it gives up (`listMaxPages` of `@modelcontextprotocol/client` 2.x). */
const CLIENT_PAGE_CAP = 64;

/** A registry of `count` skills with `files` files each, paged by cursor as the server's listing is. */
function registry(count: number, files: number): SkillRegistry {
  const names = Array.from({ length: count }, (_, i) => `skill-${String(i).padStart(5, '0')}`);
  return {
    find: async () => ({ query: '', skills: [] }) as never,
    get: async (name) =>
      ({
        name,
        uri: `${ROOT}/${name}`,
        root_uri: ROOT,
        revision: 'a'.repeat(64),
        files: Array.from({ length: files }, (_, i) => {
          const path = i === 0 ? 'SKILL.md' : `refs/file-${i}.md`;
          const kind = i === 0 ? 'definition' : 'auxiliary';
          return {
            name: path,
            uri: `${ROOT}/${name}/${path}`,
            path,
            is_dir: false,
            kind,
            size: 1,
            sha256: null,
          };
        }),
      }) as never,
    list: async ({ limit, cursor }) => {
      const start = cursor === undefined ? 0 : Number(cursor);
      const skills = names.slice(start, start + limit).map((name) => ({
        name,
        uri: `${ROOT}/${name}`,
        root_uri: ROOT,
        description: name,
        tags: [],
      }));
      const end = start + skills.length;
      return {
        skills,
        total: names.length,
        has_more: end < names.length,
        ...(end < names.length ? { next_cursor: String(end) } : {}),
      } as never;
    },
    readFile: async () => {
      throw Object.assign(new Error('no file'), { code: 'NOT_FOUND' });
    },
  };
}

async function listAll(reg: SkillRegistry): Promise<Resource[][]> {
  const server = createSkillportMcpServer(reg);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  const pages: Resource[][] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor ? { cursor } : {});
    pages.push(page.resources);
    cursor = page.nextCursor;
  } while (cursor && pages.length < 1000);
  await client.close();
  await server.close();
  return pages;
}

describe('resources/list pages', () => {
  it('lists 2,000 skills within the 64 pages a client walks at most, each skill once', async () => {
    const pages = await listAll(registry(2000, 1));
    // Before: 25 skills a page, 80 pages; a client walking every page gave up at 64.
    expect(pages.length).toBe(20);
    expect(pages.length).toBeLessThanOrEqual(CLIENT_PAGE_CAP);
    const uris = pages.flat().map((r) => r.uri);
    expect(uris).toHaveLength(2000);
    expect(new Set(uris).size).toBe(2000);
    expect(uris[0]).toBe(`${ROOT}/skill-00000/SKILL.md`);
    expect(uris.at(-1)).toBe(`${ROOT}/skill-01999/SKILL.md`);
  });

  it('stops a page early when its skills have many files', async () => {
    const pages = await listAll(registry(60, 100));
    expect(pages.map((p) => p.length)).toEqual([2500, 2500, 1000]);
    expect(new Set(pages.flat().map((r) => r.uri)).size).toBe(6000);
  });
});
