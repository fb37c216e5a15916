/**
 * prompts/list names each skill once: a shared skill whose name a skill of the caller's own root
 * also has is not listed again (getting the prompt reads the caller's own), on whichever page the two
 * fall.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { describe, expect, it } from 'vitest';
import { createSkillportMcpServer } from '../src/index.js';
import type { SkillRegistry } from '../src/registry.js';

const USER = 'viking://user/default/skills';
const AGENT = 'viking://agent/skills';

/**
 * A registry of `own` skills in the user root and `shared` in the agent root, listed user root first
 * then by name; `lookups` records each get (`<root> <name>`) and each listing of one root.
 */
function registry(
  own: readonly string[],
  shared: readonly string[],
): { registry: SkillRegistry; lookups: string[] } {
  const items = [
    ...[...own].sort().map((name) => ({ name, root_uri: USER })),
    ...[...shared].sort().map((name) => ({ name, root_uri: AGENT })),
  ].map((s) => ({ ...s, uri: `${s.root_uri}/${s.name}`, description: `skill ${s.name}`, tags: [] }));
  const lookups: string[] = [];
  const notFound = (name: string) =>
    Object.assign(new Error(`Skill "${name}" not found`), { code: 'NOT_FOUND' });
  const isHome = (targetUri: string | undefined) => targetUri === 'viking://~/skills' || targetUri === USER;
  return {
    lookups,
    registry: {
      find: async () => ({ query: '', skills: [] }) as never,
      get: async (name, { targetUri }) => {
        lookups.push(`${targetUri ?? '*'} ${name}`);
        const hit = items.find(
          (s) =>
            s.name === name &&
            (targetUri === undefined || (isHome(targetUri) ? s.root_uri === USER : s.root_uri === targetUri)),
        );
        if (!hit) throw notFound(name);
        return {
          ...hit,
          revision: 'a'.repeat(64),
          content: `# ${name} in ${hit.root_uri}`,
          files: [],
        } as never;
      },
      list: async ({ limit, targetUri }) => {
        if (targetUri !== undefined) lookups.push(`list ${targetUri}`);
        const root = items.filter(
          (s) => targetUri === undefined || s.root_uri === (isHome(targetUri) ? USER : targetUri),
        );
        return { skills: root.slice(0, limit), total: root.length } as never;
      },
      readFile: async () => {
        throw notFound('file');
      },
    },
  };
}

async function connect(reg: SkillRegistry) {
  const server = createSkillportMcpServer(reg);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

/** Every prompt name, walking all pages; `lookups` as each page left it. */
async function listAll(client: Client, lookups: string[]): Promise<{ names: string[]; perPage: number[] }> {
  const names: string[] = [];
  const perPage: number[] = [];
  let cursor: string | undefined;
  do {
    const before = lookups.length;
    const page = await client.listPrompts(cursor ? { cursor } : {});
    names.push(...page.prompts.map((p) => p.name));
    perPage.push(lookups.length - before);
    cursor = page.nextCursor;
  } while (cursor);
  return { names, perPage };
}

const numbered = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);

describe('prompts/list', () => {
  it('lists a name in both roots once, though its two skills are on different pages', async () => {
    // 250 skills of the user root (`dup` among them), then the agent root's `dup` and `only-shared`.
    const { registry: reg, lookups } = registry(['dup', ...numbered('own', 249)], ['dup', 'only-shared']);
    const { client, close } = await connect(reg);

    const { names, perPage } = await listAll(client, lookups);
    expect(perPage).toHaveLength(3);
    // Before: `dup` was listed twice, once on page 1 (user root) and again on page 3 (agent root).
    expect(names.filter((n) => n === 'dup')).toEqual(['dup']);
    expect(names).toContain('only-shared');
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(251);
    // Only the page with shared skills read the user root, in one listing.
    expect(lookups).toEqual(['list viking://~/skills']);

    const prompt = await client.getPrompt({ name: 'dup' });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(`# dup in ${USER}`);
    await close();
  });

  it('costs one read of the user root per page of shared skills, not one per skill', async () => {
    // Before: every shared skill was looked up by name, 100 reads a page (each an HTTP request under
    // `skillport mcp`): 2,000 for 2,000 shared skills, past a server's rate limit.
    const { registry: reg, lookups } = registry([], numbered('shared', 2000));
    const { client, close } = await connect(reg);
    const { names, perPage } = await listAll(client, lookups);
    expect(names).toHaveLength(2000);
    expect(perPage).toEqual(Array.from({ length: 20 }, () => 1));
    await close();
  });

  it('looks shared skills up by name when the user root has more skills than one listing reads', async () => {
    const own = ['dup', ...numbered('own', 1000)];
    const { registry: reg, lookups } = registry(own, ['dup', 'only-shared']);
    const { client, close } = await connect(reg);
    const { names } = await listAll(client, lookups);
    expect(names.filter((n) => n === 'dup')).toEqual(['dup']);
    expect(names).toContain('only-shared');
    expect(names).toHaveLength(1002);
    expect(lookups).toEqual([
      'list viking://~/skills',
      'viking://~/skills dup',
      'viking://~/skills only-shared',
    ]);
    await close();
  });
});
