/**
 * The four tools: `find_skills`, `get_skill`, `list_skills`, `read_skill_file`. Descriptions are
 * written for the model that calls them; every tool is read-only.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import type { GetSkillResult } from '@skillport/core';
import { z } from 'zod';
import type { SkillRegistry } from '../registry.js';
import { toBase64 } from './base64.js';
import { McpInputError, mcpError, toolError } from './errors.js';
import { skillFileMediaType } from './media-type.js';
import { readPage } from './pages.js';
import { toResourceUri } from './resource-uri.js';
import { checkSkillFilePath, MAX_SKILL_REF_CHARS, parseSkillRef } from './skill-ref.js';

// `ignoreBOM`: keep a leading byte-order mark, so the text is the file exactly as stored.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Largest text a `read_skill_file` or `get_skill` (level 2) result carries, in UTF-16 code units
 * (longer text is cut, with a note giving the `offset` at which `read_skill_file` reads on).
 */
export const MAX_TOOL_TEXT_CHARS = 200_000;

/** Whether `code` is the low (second) half of a surrogate pair. */
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
/** Whether `code` is the high (first) half of a surrogate pair. */
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The piece of `text` a tool result carries from `offset` (UTF-16 code units, ≥ 0): at most
 * {@link MAX_TOOL_TEXT_CHARS} code units, never starting or ending between the two halves of a
 * surrogate pair (an offset between them starts at the pair), with `end`, where the next piece
 * starts (`text.length` when this one reaches the end).
 *
 * @throws McpInputError when `offset` is past the end of a non-empty text
 */
export function textPiece(text: string, offset: number): { piece: string; start: number; end: number } {
  if (offset > 0 && offset >= text.length) {
    throw new McpInputError(
      text.length === 0
        ? `offset ${offset} is past the end of the text, which is empty; read it without an offset`
        : `offset ${offset} is past the end of the text (${text.length} characters); read from offset 0 to ${text.length - 1}`,
    );
  }
  let start = Math.max(0, offset);
  if (start > 0 && isLowSurrogate(text.charCodeAt(start)) && isHighSurrogate(text.charCodeAt(start - 1))) {
    start--;
  }
  let end = Math.min(text.length, start + MAX_TOOL_TEXT_CHARS);
  if (
    end < text.length &&
    isHighSurrogate(text.charCodeAt(end - 1)) &&
    isLowSurrogate(text.charCodeAt(end))
  ) {
    end--;
  }
  return { piece: start === 0 && end === text.length ? text : text.slice(start, end), start, end };
}

/** The note after a piece of a longer text: what was shown and the call that reads on. */
function cutNote(what: string, total: number, start: number, end: number, readOn: string): string {
  const shown = start === 0 ? `the first ${end}` : `characters ${start} to ${end - 1}`;
  return end < total
    ? `[Cut: ${what} has ${total} characters; ${shown} are shown. Read on with read_skill_file ${readOn}.]`
    : `[${what} has ${total} characters; ${shown} are shown, to its end.]`;
}
/** Largest binary file `read_skill_file` returns, in bytes (larger ones: read the resource). */
export const MAX_TOOL_BINARY_BYTES = 1024 * 1024;

const READ_ONLY = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

const NOT_FOUND_HINT = 'Use find_skills or list_skills to see which skills exist.';

const nameField = z
  .string()
  .min(1)
  .max(MAX_SKILL_REF_CHARS)
  .describe(
    'The skill: its name (e.g. "pdf-tools") or its URI as find_skills and list_skills give it ' +
      '(e.g. "viking://agent/skills/pdf-tools"). A name is looked up in your own skills first, then ' +
      'in the shared (agent) skills.',
  );

const targetUriField = z
  .string()
  .max(300)
  .optional()
  .describe(
    'Only this skill root: "viking://~/skills" (your own skills), "viking://agent/skills" (skills ' +
      'shared by your account). Default: both.',
  );

const skillSummary = z.object({
  name: z.string().describe('Skill name; pass it to get_skill'),
  description: z.string().describe('What the skill does and when to use it'),
  uri: z.string().describe('URI of the skill (viking://…/skills/<name>)'),
  root_uri: z.string().describe('The skill root holding it: your own or the shared agent root'),
  tags: z.array(z.string()).describe('Tags from the skill frontmatter'),
});

const findOutput = {
  query: z.string().describe('The query as searched'),
  skills: z
    .array(
      skillSummary.extend({
        score: z.number().describe('Relevance in [0, 1], best first'),
        match_reason: z.string().describe('Which signal matched (name, lexical, …)'),
      }),
    )
    .describe('Matching skills, best first'),
};

const listOutput = {
  skills: z.array(skillSummary.extend({ updated_at: z.string().describe('Last change, ISO 8601') })),
  total: z.number().describe('Skills in the listed root(s) in all'),
  next_cursor: z.string().nullable().describe('Pass as cursor to get the next page; null on the last page'),
};

function jsonText(value: unknown): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
    structuredContent: value as Record<string, unknown>,
  };
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The second block of a get_skill result: where the skill lives and which files it has. */
function describeSkill(skill: GetSkillResult, level: 0 | 1 | 2): string {
  const files = (skill.files ?? []).filter((f) => !f.is_dir && f.kind !== 'summary');
  const lines = [
    `Skill ${skill.name} (${skill.uri}, revision ${skill.revision.slice(0, 12)}).`,
    files.length > 0
      ? `Files (read one with read_skill_file): ${files.map((f) => `${f.path} (${formatSize(f.size)})`).join(', ')}.`
      : 'It has no files besides SKILL.md.',
  ];
  if (level !== 2)
    lines.push('Call get_skill with level 2 for the full instructions before following the skill.');
  return lines.join('\n');
}

/** The tools {@link registerSkillTools} registers, in the order `tools/list` gives them. */
export const SKILL_TOOL_NAMES = ['find_skills', 'get_skill', 'list_skills', 'read_skill_file'] as const;

/**
 * Registers the tools on `server`.
 *
 * @param server - the MCP server
 * @param registry - the registry the tools read
 */
export function registerSkillTools(server: McpServer, registry: SkillRegistry): void {
  refuseUnknownTools(server, SKILL_TOOL_NAMES);
  server.registerTool(
    'find_skills',
    {
      title: 'Find skills',
      description:
        'Search the Skillport registry for skills that help with a task. A skill is a folder of expert ' +
        'instructions (SKILL.md) and helper files for one kind of work. Describe the task in plain ' +
        'words (e.g. "extract tables from a PDF", "write release notes"). Returns the best matches ' +
        'first with name, description, relevance score (0–1) and URI; then read the one you will use ' +
        'with get_skill (level 2 for its full instructions).',
      inputSchema: {
        query: z.string().min(1).max(1000).describe('What you need to do, in plain words'),
        limit: z.number().int().min(1).max(50).optional().describe('Most results (1–50, default 10)'),
        target_uri: targetUriField,
      },
      outputSchema: findOutput,
      annotations: { title: 'Find skills', ...READ_ONLY },
    },
    async ({ query, limit, target_uri }) => {
      try {
        const found = await registry.find(query, {
          limit: limit ?? 10,
          ...(target_uri ? { targetUri: target_uri } : {}),
        });
        return jsonText({
          query: found.query,
          skills: found.skills.map((s) => ({
            name: s.name,
            description: s.description,
            score: Math.round(s.score * 1000) / 1000,
            match_reason: s.match_reason,
            uri: s.uri,
            root_uri: s.root_uri,
            tags: s.tags,
          })),
        });
      } catch (error) {
        return toolError(error);
      }
    },
  );

  server.registerTool(
    'get_skill',
    {
      title: 'Read a skill',
      description:
        'Read one skill at a level of detail (progressive disclosure): level 0 (default) is a ' +
        'one-paragraph abstract, level 1 an overview of its parameters and when to use it, level 2 the ' +
        'full SKILL.md: the instructions to follow. Start cheap, and load level 2 of the skill you ' +
        "decide to use. The result also lists the skill's auxiliary files (scripts, references, " +
        'templates) for read_skill_file.',
      inputSchema: {
        name: nameField,
        level: z
          .number()
          .int()
          .min(0)
          .max(2)
          .optional()
          .describe('0 = abstract (default), 1 = overview, 2 = full SKILL.md instructions'),
      },
      annotations: { title: 'Read a skill', ...READ_ONLY },
    },
    async ({ name, level }) => {
      try {
        const ref = parseSkillRef(name);
        if (ref.path !== undefined) {
          throw new McpInputError(
            `${name} names a file of skill ${ref.name}; read it with read_skill_file {name: "${ref.name}", path: "${ref.path}"}`,
          );
        }
        const wanted = (level ?? 0) as 0 | 1 | 2;
        const skill = await registry.get(ref.name, {
          level: wanted,
          ...(ref.targetUri ? { targetUri: ref.targetUri } : {}),
        });
        const text = (wanted === 0 ? skill.abstract : wanted === 1 ? skill.overview : skill.content) ?? '';
        // A SKILL.md longer than a tool result carries is cut as read_skill_file cuts it, and read on there.
        const { piece, end } = textPiece(text, 0);
        const blocks: Array<{ type: 'text'; text: string }> = [{ type: 'text', text: piece }];
        if (end < text.length) {
          const sha256 = skill.content_sha256;
          const readOn = JSON.stringify({
            name,
            path: 'SKILL.md',
            offset: end,
            ...(sha256 ? { sha256 } : {}),
          });
          blocks.push({ type: 'text', text: cutNote('SKILL.md', text.length, 0, end, readOn) });
        }
        blocks.push({ type: 'text', text: describeSkill(skill, wanted) });
        return { content: blocks };
      } catch (error) {
        return toolError(error, NOT_FOUND_HINT);
      }
    },
  );

  server.registerTool(
    'list_skills',
    {
      title: 'List skills',
      description:
        'List the skills in the registry by name with their descriptions, one page at a time (your own ' +
        'skills first, then the shared ones). Prefer find_skills to look for a skill by task; use this ' +
        'to browse. Pass next_cursor back as cursor for the next page.',
      inputSchema: {
        target_uri: targetUriField,
        limit: z.number().int().min(1).max(200).optional().describe('Page size (1–200, default 50)'),
        cursor: z.string().max(2000).optional().describe('next_cursor of the previous page'),
      },
      outputSchema: listOutput,
      annotations: { title: 'List skills', ...READ_ONLY },
    },
    async ({ target_uri, limit, cursor }) => {
      try {
        const page = await readPage(registry, { limit: limit ?? 50, cursor, targetUri: target_uri });
        return jsonText({
          skills: page.skills.map((s) => ({
            name: s.name,
            description: s.description,
            uri: s.uri,
            root_uri: s.root_uri,
            tags: s.tags,
            updated_at: s.updated_at,
          })),
          total: page.total,
          next_cursor: page.nextCursor,
        });
      } catch (error) {
        return toolError(error);
      }
    },
  );

  server.registerTool(
    'read_skill_file',
    {
      title: 'Read a skill file',
      description:
        'Read one file of a skill: SKILL.md or an auxiliary file that its instructions refer to (a ' +
        'script, a reference document, a template), by its path inside the skill folder as get_skill ' +
        'lists it (e.g. "scripts/extract.py", "reference/forms.md"). Text comes back as text, images as ' +
        `images, other binary files as an embedded resource. Text longer than ${MAX_TOOL_TEXT_CHARS} ` +
        'characters comes in pieces: a cut piece ends with a note giving the offset to read on from.',
      inputSchema: {
        name: nameField,
        path: z
          .string()
          .min(1)
          .max(1024)
          .describe('Path of the file inside the skill folder, e.g. "scripts/extract.py"'),
        offset: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe(
            'Text files: the character to start from (default 0), as the note after a cut piece gives it',
          ),
        sha256: z
          .string()
          .regex(/^[0-9a-f]{64}$/)
          .optional()
          .describe(
            'The sha256 the note after a cut piece gives: if the file changed since that piece, the call ' +
              'fails instead of returning a piece of the new version (read it again from offset 0)',
          ),
      },
      annotations: { title: 'Read a skill file', ...READ_ONLY },
    },
    async ({ name, path, offset, sha256 }) => {
      try {
        const ref = parseSkillRef(name);
        const filePath = checkSkillFilePath(path.replace(/^\.\//, ''));
        const file = await registry.readFile(
          ref.name,
          filePath,
          ref.targetUri ? { targetUri: ref.targetUri } : {},
        );
        // Pieces of two versions of a file (replaced between two calls) would join into text that
        // never existed: a read-on call names the version its first piece came from.
        if (sha256 !== undefined && file.sha256 !== undefined && file.sha256 !== sha256) {
          throw new McpInputError(
            `${filePath} changed since the piece you read (sha256 ${sha256.slice(0, 12)}…, now ` +
              `${file.sha256.slice(0, 12)}…): the pieces would not fit together; read it again from offset 0`,
          );
        }
        const media = skillFileMediaType(filePath, file.content);
        if (media.text) {
          const text = UTF8.decode(file.content);
          const { piece, start, end } = textPiece(text, offset ?? 0);
          if (start === 0 && end === text.length) return { content: [{ type: 'text', text }] };
          const readOn = JSON.stringify({
            name,
            path,
            offset: end,
            ...(file.sha256 !== undefined ? { sha256: file.sha256 } : {}),
          });
          return {
            content: [
              { type: 'text', text: piece },
              { type: 'text', text: cutNote('this file', text.length, start, end, readOn) },
            ],
          };
        }
        if (offset !== undefined && offset > 0) {
          throw new McpInputError(
            `${filePath} is a binary file (${media.type}): offset applies to text files only; read it without one`,
          );
        }
        if (file.content.length > MAX_TOOL_BINARY_BYTES) {
          throw new McpInputError(
            `${filePath} is a ${formatSize(file.content.length)} ${media.type} file, larger than ` +
              `${formatSize(MAX_TOOL_BINARY_BYTES)}: too large for a tool result`,
          );
        }
        const data = toBase64(file.content);
        if (media.type.startsWith('image/')) {
          return { content: [{ type: 'image', data, mimeType: media.type }] };
        }
        // The embedded resource names the file by URI, percent-encoded as resources/list gives it; a
        // plain name needs the root that holds it.
        const uri = toResourceUri(
          file.uri ??
            `${ref.targetUri ? `${ref.targetUri}/${ref.name}` : (await registry.get(ref.name, { level: 0 })).uri}/${filePath}`,
        );
        return { content: [{ type: 'resource', resource: { uri, mimeType: media.type, blob: data } }] };
      } catch (error) {
        // A missing file of a skill that exists (`details.type` "file"): its file list is the next step.
        const missing = (error as { details?: { type?: unknown } } | null)?.details?.type;
        return toolError(
          error,
          missing === 'file'
            ? `get_skill lists the files of ${JSON.stringify(parseSkillRef(name).name)}.`
            : NOT_FOUND_HINT,
        );
      }
    },
  );
}

/** Longest tool name an "Unknown tool" error repeats. */
const MAX_ECHOED_TOOL_NAME = 80;

/**
 * Answers a `tools/call` of a tool this server does not have with the JSON-RPC error -32602 (invalid
 * params), as the specification's tools error handling asks: unknown tools are protocol errors, while
 * a known tool's bad arguments and failures are results with `isError` the model can act on. The
 * SDK's `McpServer` answers an unknown tool with an `isError` result too, so the `tools/call` handler
 * it registers is wrapped as it is registered (the one hook its public API offers); call this before
 * the first `registerTool`.
 *
 * @param server - the MCP server, before any tool is registered
 * @param names - the names of every tool it will have
 * @see https://modelcontextprotocol.io/specification/2025-11-25/server/tools#error-handling
 */
function refuseUnknownTools(server: McpServer, names: readonly string[]): void {
  const known = new Set(names);
  const lowLevel = server.server;
  const setRequestHandler = lowLevel.setRequestHandler.bind(lowLevel);
  const wrapped: typeof lowLevel.setRequestHandler = (schema, handler) => {
    if ((schema as unknown) !== CallToolRequestSchema) return setRequestHandler(schema, handler);
    // The handler is McpServer's own: a registered tool's call goes to it unchanged.
    lowLevel.setRequestHandler = setRequestHandler;
    const callTool = handler as unknown as (
      request: CallToolRequest,
      extra: Parameters<typeof handler>[1],
    ) => ReturnType<typeof handler>;
    return setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const name = request.params.name;
      if (!known.has(name)) {
        const shown = name.length > MAX_ECHOED_TOOL_NAME ? `${name.slice(0, MAX_ECHOED_TOOL_NAME)}…` : name;
        throw mcpError(
          ErrorCode.InvalidParams,
          `Unknown tool ${JSON.stringify(shown)}: this server's tools are ${names.join(', ')} (see tools/list)`,
        );
      }
      return callTool(request, extra);
    });
  };
  lowLevel.setRequestHandler = wrapped;
}
