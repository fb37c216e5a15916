/**
 * What an MCP client must see of a registry holding the shared corpus, whatever the transport: the
 * same checks run over stdio (`skillport mcp`) and over Streamable HTTP (`/mcp`).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import {
  decode,
  type McpCase,
  PARAPHRASES,
  type SkillCase,
  sha256,
} from '../../../cli/test/support/corpus.js';

type Expected = Map<string, SkillCase | McpCase>;

/** The text of a tool result's first block (fails when the tool reported an error). */
export function toolText(result: unknown, index = 0): string {
  const r = result as CallToolResult;
  expect(r.isError, JSON.stringify(r.content).slice(0, 500)).not.toBe(true);
  const block = r.content[index];
  if (block?.type !== 'text') throw new Error(`block ${index} is ${block?.type}, not text`);
  return block.text;
}

/** Every page of a paginated list, followed through `nextCursor`. */
export async function allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await fetchPage(cursor);
    out.push(...page.items);
    if (!page.nextCursor) return out;
    cursor = page.nextCursor;
  }
  throw new Error('more than 1000 pages: the cursor does not advance');
}

/**
 * Registers the corpus checks (inside the caller's `describe`).
 *
 * @param client - the connected client (read when the tests run)
 * @param expected - name → the corpus entry stored under it (all in the caller's user root)
 */
export function corpusChecks(client: () => Client, expected: () => Expected): void {
  const folders = () =>
    [...expected().values()].filter((e): e is SkillCase => 'dir' in e && e.utf8 && e.name !== null);

  it('find_skills ranks each paraphrased need in the top 3', async () => {
    for (const [name, query] of PARAPHRASES) {
      const result = await client().callTool({ name: 'find_skills', arguments: { query, limit: 3 } });
      const hits = (result.structuredContent as { skills: Array<{ name: string; score: number }> }).skills;
      expect(
        hits.map((h) => h.name),
        query,
      ).toContain(name);
      for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
      expect(JSON.parse(toolText(result)).skills).toEqual(hits);
    }
  });

  it('get_skill gives each corpus SKILL.md byte for byte at level 2, and the abstract at level 0', async () => {
    for (const entry of folders()) {
      const full = await client().callTool({ name: 'get_skill', arguments: { name: entry.name, level: 2 } });
      expect(toolText(full), entry.id).toBe(decode(entry.skillMd));
      for (const path of entry.auxiliary.keys()) expect(toolText(full, 1), entry.id).toContain(path);
    }
    const first = folders()[0]!;
    const abstract = toolText(
      await client().callTool({ name: 'get_skill', arguments: { name: first.name } }),
    );
    expect(abstract).toContain(first.name!);
    expect(abstract.length).toBeLessThan(decode(first.skillMd).length);
  });

  it('read_skill_file gives every auxiliary file of the corpus byte for byte', async () => {
    let files = 0;
    for (const entry of folders()) {
      for (const [path, sha] of entry.auxiliary) {
        const result = await client().callTool({
          name: 'read_skill_file',
          arguments: { name: entry.name, path },
        });
        expect(sha256(new TextEncoder().encode(toolText(result))), `${entry.id} ${path}`).toBe(sha);
        files++;
      }
    }
    expect(files).toBeGreaterThan(100);
  });

  it('list_skills pages through every skill once', async () => {
    const names = await allPages(async (cursor) => {
      const result = await client().callTool({
        name: 'list_skills',
        arguments: { limit: 7, ...(cursor ? { cursor } : {}) },
      });
      const page = result.structuredContent as {
        skills: Array<{ name: string }>;
        next_cursor: string | null;
      };
      return { items: page.skills.map((s) => s.name), nextCursor: page.next_cursor ?? undefined };
    });
    expect(names.sort()).toEqual([...expected().keys()].sort());
  });

  it('resources: every file of every skill, typed, readable at its URI', async () => {
    const resources = await allPages(async (cursor) => {
      const page = await client().listResources(cursor ? { cursor } : {});
      return { items: page.resources, nextCursor: page.nextCursor };
    });
    const byUri = new Map(resources.map((r) => [r.uri, r]));
    expect(byUri.size).toBe(resources.length);
    for (const entry of folders()) {
      const root = `viking://user/default/skills/${entry.name}`;
      const skillMd = byUri.get(`${root}/SKILL.md`);
      expect(skillMd, entry.id).toMatchObject({ mimeType: 'text/markdown', size: entry.skillMd.length });
      for (const path of entry.auxiliary.keys())
        expect(byUri.has(`${root}/${path}`), `${entry.id} ${path}`).toBe(true);
    }
    const sample = folders().find((e) => e.auxiliary.size > 0)!;
    const [path, sha] = [...sample.auxiliary][0]!;
    const read = await client().readResource({ uri: `viking://user/default/skills/${sample.name}/${path}` });
    const content = read.contents[0] as { text?: string };
    expect(sha256(new TextEncoder().encode(content.text ?? ''))).toBe(sha);
  });

  it('prompts: one per skill; getting one loads its SKILL.md', async () => {
    const prompts = await allPages(async (cursor) => {
      const page = await client().listPrompts(cursor ? { cursor } : {});
      return { items: page.prompts, nextCursor: page.nextCursor };
    });
    expect(prompts.map((p) => p.name).sort()).toEqual([...expected().keys()].sort());
    const entry = folders()[0]!;
    const prompt = await client().getPrompt({ name: entry.name!, arguments: { task: 'do the thing' } });
    const message = prompt.messages[0]!;
    expect(message.role).toBe('user');
    const text = (message.content as { text: string }).text;
    expect(text).toContain(decode(entry.skillMd));
    expect(text).toContain('Task: do the thing');
  });
}
