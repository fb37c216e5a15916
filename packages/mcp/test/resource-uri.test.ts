/**
 * A file whose name has characters a URI cannot hold as they are (a space, `#`, `%`, non-ASCII) is
 * listed under a percent-encoded URI, and that URI reads the file back; so does the raw spelling.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, EmbeddedResource } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSkillportMcpServer } from '../src/index.js';
import { fromResourcePath, toResourceUri } from '../src/internal/resource-uri.js';
import type { SkillRegistry } from '../src/registry.js';

const ROOT = 'viking://user/default/skills';
const SKILL = `${ROOT}/odd-names`;
const bytes = (s: string) => new TextEncoder().encode(s);
const FILES: Record<string, Uint8Array> = {
  'SKILL.md': bytes('---\nname: odd-names\ndescription: Files with odd names\n---\n# Odd\n'),
  'docs/my notes #1 100%.md': bytes('# hash\n'),
  'docs/café ü.md': bytes('# accents\n'),
  'docs/中文.md': bytes('# cjk\n'),
  'docs/a%20b.md': bytes('# a literal percent-two-zero\n'),
  'data/blob #2.bin': new Uint8Array([0, 1, 2, 255]),
};

function notFound(message: string): Error {
  return Object.assign(new Error(message), { code: 'NOT_FOUND' });
}

const registry: SkillRegistry = {
  find: async () => ({ query: '', skills: [] }) as never,
  get: async (name) => {
    if (name !== 'odd-names') throw notFound(`Skill "${name}" not found`);
    return {
      name,
      uri: SKILL,
      root_uri: ROOT,
      description: 'Files with odd names',
      revision: 'a'.repeat(64),
      files: Object.entries(FILES).map(([path, content]) => ({
        name: path.slice(path.lastIndexOf('/') + 1),
        uri: `${SKILL}/${path}`,
        path,
        is_dir: false,
        kind: path === 'SKILL.md' ? 'definition' : 'auxiliary',
        size: content.length,
        sha256: null,
      })),
    } as never;
  },
  list: async () =>
    ({
      skills: [
        { name: 'odd-names', uri: SKILL, root_uri: ROOT, description: 'Files with odd names', tags: [] },
      ],
      total: 1,
    }) as never,
  readFile: async (name, path) => {
    const content = FILES[path];
    if (name !== 'odd-names' || content === undefined) throw notFound(`no file ${JSON.stringify(path)}`);
    return { uri: `${SKILL}/${path}`, content };
  },
};

/** RFC 3986 URI characters: unreserved, reserved and `%` of an escape. */
const URI_CHARS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

let client: Client;
let close: () => Promise<void>;

beforeEach(async () => {
  const server = createSkillportMcpServer(registry);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  close = async () => {
    await client.close();
    await server.close();
  };
});
afterEach(() => close());

describe('resource URIs of files with odd names', () => {
  it('lists every file under a URI of URI characters only, with no fragment, that reads the file back', async () => {
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(Object.keys(FILES).length);
    for (const resource of resources) {
      // Before: `…/docs/my notes #1 100%.md` was listed as it is, and reading it failed with
      // -32602 (`contains the character "#"`).
      expect(resource.uri).toMatch(URI_CHARS);
      expect(resource.uri).not.toContain('#');
      const path = resource.name.slice('odd-names/'.length);
      const read = await client.readResource({ uri: resource.uri });
      const content = read.contents[0] as { uri: string; text?: string; blob?: string };
      expect(content.uri).toBe(resource.uri);
      const got = content.text !== undefined ? bytes(content.text) : Buffer.from(content.blob!, 'base64');
      expect(new Uint8Array(got), path).toEqual(FILES[path]);
    }
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`${SKILL}/docs/my%20notes%20%231%20100%25.md`);
    expect(uris).toContain(`${SKILL}/docs/caf%C3%A9%20%C3%BC.md`);
    expect(uris).toContain(`${SKILL}/docs/a%2520b.md`);
    expect(uris).toContain(`${SKILL}/SKILL.md`);
  });

  it('reads a path a client spelled raw or percent-encoded by a URL parser', async () => {
    const text = async (uri: string) =>
      ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await text(`${SKILL}/docs/café ü.md`)).toBe('# accents\n');
    expect(await text(new URL(`${SKILL}/docs/中文.md`).href)).toBe('# cjk\n');
    await expect(client.readResource({ uri: `${SKILL}/docs/%2E%2E/SKILL.md` })).rejects.toThrow(/"\."|\.\./);
  });

  it('read_skill_file gives a binary file as an embedded resource at its encoded URI', async () => {
    const result = (await client.callTool({
      name: 'read_skill_file',
      arguments: { name: 'odd-names', path: 'data/blob #2.bin' },
    })) as CallToolResult;
    const block = result.content[0] as EmbeddedResource;
    expect(block.type).toBe('resource');
    expect(block.resource.uri).toBe(`${SKILL}/data/blob%20%232.bin`);
    const again = await client.readResource({ uri: block.resource.uri });
    expect((again.contents[0] as { blob: string }).blob).toBe((block.resource as { blob: string }).blob);
  });
});

describe('toResourceUri / fromResourcePath', () => {
  it('leaves URIs of URI characters alone and round-trips the rest', () => {
    for (const uri of [
      `${ROOT}/x/SKILL.md`,
      'viking://~/skills/x/a:b@c!$&()*+,;=.md',
      'viking://agent/skills/x',
    ]) {
      expect(toResourceUri(uri)).toBe(uri);
    }
    for (const path of Object.keys(FILES)) expect(fromResourcePath(toResourceUri(path))).toBe(path);
    expect(fromResourcePath('100%.md')).toBe('100%.md');
    expect(fromResourcePath('bad%C3.md')).toBe('bad%C3.md');
  });
});
