/**
 * Skills as MCP resources: every file of every skill (SKILL.md and its auxiliary files) under its
 * `viking://` URI, with its media type; URI templates for reading any file directly; completion of
 * skill names in those templates. Listing is paged by skills (see `pages.ts`).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ReadResourceRequestSchema,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { SkillListItem } from '@skillport/core';
import type { SkillRegistry } from '../registry.js';
import { toBase64 } from './base64.js';
import { errorCode, mcpError, protocolError, RESOURCE_NOT_FOUND } from './errors.js';
import { mapLimit } from './map-limit.js';
import { mediaTypeFromName, skillFileMediaType } from './media-type.js';
import { readPage } from './pages.js';
import { fromResourcePath, toResourceUri } from './resource-uri.js';
import { checkSkillFilePath, parseSkillRef } from './skill-ref.js';

// `ignoreBOM`: keep a leading byte-order mark, so the text is the file exactly as stored.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Most skills per `resources/list` page (each gives SKILL.md and its auxiliary files). Clients that
 * list every resource walk all pages and give up past a cap (the official TypeScript SDK's v2 client:
 * 64 pages, so at 25 skills a page a registry of 1,600 skills could not be listed at all); 100 a page
 * lists 6,400 skills within that cap.
 */
export const RESOURCE_PAGE_SKILLS = 100;
/** Skills read from the registry at a time while a page is built. */
const RESOURCE_CHUNK_SKILLS = 25;
/**
 * A page takes no further chunk of skills once it holds this many resources, so a page of skills
 * with hundreds of files each stays as large as one chunk of them.
 */
export const RESOURCE_PAGE_TARGET = 1000;
/** Registry reads in flight while a page is built. */
const CONCURRENCY = 6;
/** Most names a completion returns (MCP caps `values` at 100). */
const MAX_COMPLETIONS = 100;

const TEMPLATES = [
  {
    uriTemplate: 'viking://~/skills/{name}/{+path}',
    name: 'own-skill-file',
    title: 'File of one of your skills',
    description:
      'A file of a skill in your own skill root: SKILL.md (the instructions) or an auxiliary file such ' +
      'as scripts/run.py. Reading viking://~/skills/{name} gives its SKILL.md.',
  },
  {
    uriTemplate: 'viking://agent/skills/{name}/{+path}',
    name: 'shared-skill-file',
    title: 'File of a shared skill',
    description:
      'A file of a skill shared by your account (the agent root): SKILL.md or an auxiliary file. ' +
      'Reading viking://agent/skills/{name} gives its SKILL.md.',
  },
  {
    uriTemplate: 'viking://user/{user_id}/skills/{name}/{+path}',
    name: 'user-skill-file',
    title: 'File of a skill in a user root',
    description: 'A file of a skill in the skill root of user {user_id} (only your own user id is readable).',
  },
];

/** The resources of one skill: SKILL.md first, then its auxiliary files by path. */
async function skillResources(registry: SkillRegistry, item: SkillListItem): Promise<Resource[]> {
  let files: Array<{ path: string; size: number; kind: string; uri: string }>;
  try {
    const skill = await registry.get(item.name, { level: 0, targetUri: item.root_uri });
    files = (skill.files ?? []).filter((f) => !f.is_dir && f.kind !== 'summary');
  } catch (error) {
    if (errorCode(error) === 'NOT_FOUND') return []; // deleted since the listing
    throw error;
  }
  files.sort((a, b) =>
    a.kind === 'definition' ? -1 : b.kind === 'definition' ? 1 : a.path < b.path ? -1 : 1,
  );
  return files.map((f) => {
    const mimeType = mediaTypeFromName(f.path);
    const definition = f.kind === 'definition';
    return {
      uri: toResourceUri(f.uri),
      name: `${item.name}/${f.path}`,
      title: definition ? `${item.name} — SKILL.md` : `${item.name} — ${f.path}`,
      description: definition ? item.description : `Auxiliary file of the skill ${item.name}`,
      ...(mimeType !== null ? { mimeType } : {}),
      size: f.size,
    };
  });
}

/**
 * Installs the resource handlers on the low-level server (capabilities declared by the caller).
 *
 * @param server - `McpServer.server`
 * @param registry - the registry read
 */
export function registerSkillResources(server: Server, registry: SkillRegistry): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES }));

  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    try {
      const resources: Resource[] = [];
      let cursor = request.params?.cursor;
      for (let taken = 0; taken < RESOURCE_PAGE_SKILLS; taken += RESOURCE_CHUNK_SKILLS) {
        const chunk = await readPage(registry, { limit: RESOURCE_CHUNK_SKILLS, cursor });
        for (const files of await mapLimit(chunk.skills, CONCURRENCY, (s) => skillResources(registry, s))) {
          resources.push(...files);
        }
        cursor = chunk.nextCursor ?? undefined;
        if (cursor === undefined || resources.length >= RESOURCE_PAGE_TARGET) break;
      }
      return { resources, ...(cursor !== undefined ? { nextCursor: cursor } : {}) };
    } catch (error) {
      throw protocolError(error, RESOURCE_NOT_FOUND);
    }
  });

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    try {
      if (!/^viking:\/\//i.test(uri)) {
        throw mcpError(RESOURCE_NOT_FOUND, `Unknown resource ${uri}: skill files have viking:// URIs`);
      }
      const ref = parseSkillRef(uri);
      // The path as listed is percent-encoded (a space or `#` in a file name): read the stored name.
      const path = checkSkillFilePath(ref.path === undefined ? 'SKILL.md' : fromResourcePath(ref.path));
      const file = await registry.readFile(ref.name, path, ref.targetUri ? { targetUri: ref.targetUri } : {});
      const media = skillFileMediaType(path, file.content);
      const content = media.text
        ? { uri, mimeType: media.type, text: UTF8.decode(file.content) }
        : { uri, mimeType: media.type, blob: toBase64(file.content) };
      return { contents: [content] };
    } catch (error) {
      throw protocolError(error, RESOURCE_NOT_FOUND);
    }
  });

  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    if (argument.name !== 'name') return { completion: { values: [] } };
    const template =
      ref.type === 'ref/resource' ? TEMPLATES.find((t) => t.uriTemplate === ref.uri) : undefined;
    if (ref.type === 'ref/resource' && template === undefined) return { completion: { values: [] } };
    const targetUri = template?.uriTemplate.startsWith('viking://agent/')
      ? 'viking://agent/skills'
      : template?.uriTemplate.startsWith('viking://~/')
        ? 'viking://~/skills'
        : undefined;
    try {
      const listed = await registry.list({ limit: 1000, ...(targetUri ? { targetUri } : {}) });
      const prefix = argument.value.toLowerCase();
      const names = [...new Set(listed.skills.map((s) => s.name))].filter((n) =>
        n.toLowerCase().startsWith(prefix),
      );
      return {
        completion: {
          values: names.slice(0, MAX_COMPLETIONS),
          total: names.length,
          hasMore: names.length > MAX_COMPLETIONS || listed.total > listed.skills.length,
        },
      };
    } catch (error) {
      throw protocolError(error, RESOURCE_NOT_FOUND);
    }
  });
}
