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

/** 250 skills of the user root (`dup` among them), then the agent root's `dup` and `only-shared`. */
function registry(): { registry: SkillRegistry; lookups: string[] } {
  const own = ['dup', ...Array.from({ length: 249 }, (_, i) => `own-${String(i).padStart(3, '0')}`)].sort();
  const items = [
    ...own.map((name) => ({ name, root_uri: USER })),
    { name: 'dup', root_uri: AGENT },
    { name: 'only-shared', root_uri: AGENT },
  ].map((s) => ({ ...s, uri: `${s.root_uri}/${s.name}`, description: `skill ${s.name}`, tags: [] }));
  const lookups: string[] = [];
  const notFound = (name: string) =>
    Object.assign(new Error(`Skill "${name}" not found`), { code: 'NOT_FOUND' });
  return {
    lookups,
    registry: {
      find: async () => ({ query: '', skills: [] }) as never,
      get: async (name, { targetUri }) => {
        lookups.push(`${targetUri ?? '*'} ${name}`);
        const home = targetUri === 'viking://~/skills' || targetUri === USER;
        const hit = items.find(
          (s) =>
            s.name === name &&
            (targetUri === undefined || (home ? s.root_uri === USER : s.root_uri === targetUri)),
        );
        if (!hit) throw notFound(name);
        return {
          ...hit,
          revision: 'a'.repeat(64),
          content: `# ${name} in ${hit.root_uri}`,
          files: [],
        } as never;
      },
      list: async ({ limit }) => ({ skills: items.slice(0, limit), total: items.length }) as never,
      readFile: async () => {
        throw notFound('file');
      },
    },
  };
}

describe('prompts/list', () => {
  it('lists a name in both roots once, though its two skills are on different pages', async () => {
    const { registry: reg, lookups } = registry();
    const server = createSkillportMcpServer(reg);
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 't', version: '1' });
    await client.connect(clientSide);

    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listPrompts(cursor ? { cursor } : {});
      names.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Before: `dup` was listed twice, once on page 1 (user root) and again on page 3 (agent root).
    expect(names.filter((n) => n === 'dup')).toEqual(['dup']);
    expect(names).toContain('only-shared');
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(251);
    // Only the shared skills were looked up in the user root.
    expect(lookups.sort()).toEqual(['viking://~/skills dup', 'viking://~/skills only-shared']);

    const prompt = await client.getPrompt({ name: 'dup' });
    expect((prompt.messages[0]!.content as { text: string }).text).toContain(`# dup in ${USER}`);
    await client.close();
    await server.close();
  });
});
