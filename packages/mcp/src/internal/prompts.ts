/**
 * Skills as MCP prompts: one prompt per skill, named after it; getting it loads the skill's L2
 * (SKILL.md) into the conversation, with an optional task. Listing is paged (see `pages.ts`).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AGENT_SKILL_ROOT, HOME_SKILL_ROOT, type SkillListItem } from '@skillport/core';
import type { SkillRegistry } from '../registry.js';
import { errorCode, INVALID_PARAMS, mcpError, protocolError } from './errors.js';
import { mapLimit } from './map-limit.js';
import { readPage } from './pages.js';
import { MAX_SKILL_REF_CHARS, parseSkillRef } from './skill-ref.js';

/** Prompts per `prompts/list` page. */
export const PROMPT_PAGE_SIZE = 100;

const TASK_ARGUMENT = {
  name: 'task',
  description: 'What you want done with this skill (optional)',
  required: false,
};

/** Registry reads in flight while a page is checked for shadowed names. */
const CONCURRENCY = 6;
/**
 * Skills of the caller's own root read in one listing to check a page's shared skills against: when
 * that is all of them, the page costs that one read, not one per shared skill.
 */
const OWN_NAMES_LIMIT = 1000;

/**
 * The names of the shared (agent root) skills of `skills` that a skill of the caller's own root
 * shadows. A name in both roots is one prompt, the user root's, as getting it reads that one; the
 * listing gives the user root first, so the two are usually on different pages, and a shared skill
 * is looked up in the user root unless its twin is on the same page: in one listing of that root when
 * it has at most {@link OWN_NAMES_LIMIT} skills, else by name.
 */
async function shadowedSharedSkills(
  registry: SkillRegistry,
  skills: readonly SkillListItem[],
): Promise<Set<string>> {
  const own = new Set(skills.filter((s) => s.root_uri !== AGENT_SKILL_ROOT).map((s) => s.name));
  const shadowed = new Set<string>();
  const unknown: string[] = [];
  for (const s of skills) {
    if (s.root_uri !== AGENT_SKILL_ROOT) continue;
    if (own.has(s.name)) shadowed.add(s.name);
    else unknown.push(s.name);
  }
  if (unknown.length === 0) return shadowed;
  // One listing of the caller's own root answers for the whole page when it holds every skill there
  // (a page of 100 shared skills and no skill of one's own was 100 reads, each an HTTP request under
  // `skillport mcp`: 2,000 to list the prompts of 2,000 shared skills, past any rate limit).
  const listed = await registry.list({ limit: OWN_NAMES_LIMIT, targetUri: HOME_SKILL_ROOT });
  if (listed.has_more !== true && listed.skills.length >= listed.total) {
    const names = new Set(listed.skills.filter((s) => s.root_uri !== AGENT_SKILL_ROOT).map((s) => s.name));
    for (const name of unknown) if (names.has(name)) shadowed.add(name);
    return shadowed;
  }
  const found = await mapLimit(unknown, CONCURRENCY, async (name) => {
    try {
      await registry.get(name, { level: 0, targetUri: HOME_SKILL_ROOT });
      return true;
    } catch (error) {
      if (errorCode(error) === 'NOT_FOUND') return false;
      throw error;
    }
  });
  unknown.forEach((name, i) => {
    if (found[i]) shadowed.add(name);
  });
  return shadowed;
}

/**
 * Installs the prompt handlers on the low-level server (capabilities declared by the caller).
 *
 * @param server - `McpServer.server`
 * @param registry - the registry read
 */
export function registerSkillPrompts(server: Server, registry: SkillRegistry): void {
  server.setRequestHandler(ListPromptsRequestSchema, async (request) => {
    try {
      const page = await readPage(registry, { limit: PROMPT_PAGE_SIZE, cursor: request.params?.cursor });
      const shadowed = await shadowedSharedSkills(registry, page.skills);
      const prompts = page.skills
        .filter((s) => !(s.root_uri === AGENT_SKILL_ROOT && shadowed.has(s.name)))
        .map((s) => ({
          name: s.name,
          title: s.name,
          description: s.description,
          arguments: [TASK_ARGUMENT],
        }));
      return { prompts, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    } catch (error) {
      throw protocolError(error, INVALID_PARAMS);
    }
  });

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const name = request.params.name;
    // As the tools' `name` argument: a prompt is named after its skill, and a name of megabytes
    // would otherwise reach the registry (the CLI's HTTP request for it is refused 431).
    if (name.length > MAX_SKILL_REF_CHARS) {
      throw mcpError(
        INVALID_PARAMS,
        `Invalid prompt name: ${name.length} characters long; a prompt is named after its skill, at most ${MAX_SKILL_REF_CHARS} characters (see prompts/list)`,
      );
    }
    try {
      const ref = parseSkillRef(name);
      const skill = await registry.get(ref.name, {
        level: 2,
        ...(ref.targetUri ? { targetUri: ref.targetUri } : {}),
      });
      const task = request.params.arguments?.task?.trim();
      const files = (skill.files ?? []).filter((f) => f.kind === 'auxiliary').map((f) => f.path);
      const text = [
        `Use the skill "${skill.name}" (${skill.uri}): follow its instructions below.`,
        ...(task ? [`Task: ${task}`] : []),
        '',
        skill.content ?? '',
        ...(files.length > 0
          ? [
              '',
              `Files of this skill (read them with read_skill_file or as resources under ${skill.uri}/): ${files.join(', ')}`,
            ]
          : []),
      ].join('\n');
      return {
        description: skill.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      };
    } catch (error) {
      throw protocolError(error, INVALID_PARAMS);
    }
  });
}
