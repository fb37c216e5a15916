/** Reading the `<path|content>` argument of `add-skill` / `skills add|update`. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { findInvalidUtf8 } from '@skillport/core/base';
import type { SkillSource } from '@skillport/sdk-node';
import { CliError, type CliIo } from './io.js';

/**
 * Reads stdin (the `-` argument) as SKILL.md text, byte for byte (a leading byte order mark kept).
 *
 * @throws CliError when the bytes are not UTF-8 — naming the line, column and byte offset, or UTF-16
 *   when a byte order mark says so — as add refuses such a file given by its path; never decoded with
 *   replacement characters, which would store a changed text
 */
export async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  const bytes = Buffer.concat(chunks);
  const bad = findInvalidUtf8(bytes);
  if (bad) {
    throw new CliError(
      bad.encoding === null
        ? `stdin is not valid UTF-8 at line ${bad.line}, column ${bad.column} (byte offset ${bad.offset}); save it as UTF-8`
        : `stdin is ${bad.encoding}, not UTF-8; save it as UTF-8`,
    );
  }
  return bytes.toString('utf8');
}

/**
 * Reads a `.json` file of MCP tools or a skill object, as `add-skill` and `skills validate` both do:
 * UTF-8, a leading byte order mark (as Windows editors save JSON) ignored.
 *
 * @param file - absolute path
 * @param label - how messages name the file
 * @returns the parsed JSON value
 * @throws CliError when the file is not UTF-8 (naming UTF-16 when a byte order mark says so) or not
 *   JSON, with the line and column (1-based) where it stops being either
 */
export async function readJsonFile(file: string, label: string): Promise<unknown> {
  const bytes = await readFile(file);
  const bad = findInvalidUtf8(bytes);
  if (bad) {
    throw new CliError(
      bad.encoding === null
        ? `${label} is not valid UTF-8 at line ${bad.line}, column ${bad.column} (byte offset ${bad.offset}); save it as UTF-8`
        : `${label} is ${bad.encoding}, not UTF-8; save it as UTF-8`,
    );
  }
  let text = new TextDecoder('utf-8').decode(bytes); // drops a leading byte order mark
  if (text.startsWith('\ufeff')) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 names a character offset ("… in JSON at position 19"), or none at the end of the input.
    const at = /\bat position (\d+)/.exec(message);
    const offset = at ? Math.min(Number(at[1]), text.length) : text.length;
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    const reason = message.replace(/,? *(?:in JSON )?at position \d+.*$/s, '').replace(/^SyntaxError: /, '');
    throw new CliError(`${label} is not valid JSON at line ${line}, column ${column}: ${reason}`);
  }
}

/**
 * The tools of a JSON document holding several MCP tools — a `tools/list` answer (`{"tools": […]}`,
 * also inside `{"result": …}`) or an array of tools — else `undefined`.
 */
export function toolsOf(parsed: unknown): Array<Record<string, unknown>> | undefined {
  const isTool = (t: unknown): t is Record<string, unknown> =>
    typeof t === 'object' && t !== null && typeof (t as { inputSchema?: unknown }).inputSchema === 'object';
  const record = parsed as { tools?: unknown; result?: { tools?: unknown } } | null;
  const list = Array.isArray(parsed) ? parsed : (record?.tools ?? record?.result?.tools);
  return Array.isArray(list) && list.length > 0 && list.every(isTool) ? list : undefined;
}

/** What a `.json` file holds, as `add-skill` and `skills validate` both read it. */
export type JsonSkills =
  | { kind: 'tools'; tools: Array<Record<string, unknown>> }
  | { kind: 'structured'; skill: Record<string, unknown> & { name: string; content: string } };

/**
 * Reads a parsed `.json` file the one way `add-skill` and `skills validate` share: MCP tools (one
 * tool with `inputSchema`, a `tools/list` answer or an array of tools) or one skill object with a
 * string `name` and `content` (`{name, description, content, …}`). Anything else — a package.json, a
 * config file — is refused by both, so validate never passes what add would store as a junk skill.
 * @throws CliError naming both accepted shapes.
 */
export function classifyJson(parsed: unknown, label: string): JsonSkills {
  const tools = toolsOf(parsed);
  if (tools) return { kind: 'tools', tools };
  const record = parsed as Record<string, unknown> | null;
  if (typeof record === 'object' && record !== null && !Array.isArray(record)) {
    if (typeof record.inputSchema === 'object' && record.inputSchema !== null)
      return { kind: 'tools', tools: [record] };
    if (typeof record.name === 'string' && typeof record.content === 'string') {
      return {
        kind: 'structured',
        skill: record as Record<string, unknown> & { name: string; content: string },
      };
    }
  }
  throw new CliError(
    `${label} is not a skill: a .json file must hold an MCP tool (an object with "inputSchema"), a tools/list ` +
      'answer ({"tools": [...]}) or an array of tools, or one skill object {"name", "description", "content"}',
  );
}

/**
 * Resolves the source argument: `-` reads stdin; a `.json` file is read as a JSON object (an MCP tool
 * or a structured skill); other files and folders are left to the SDK (uploaded, folders zipped);
 * anything else is SKILL.md content. With `many`, a `.json` file holding several MCP tools gives them
 * all in `tools`.
 * @returns what to hand to `addSkill`, a label for progress messages, `tools` when there are several,
 *   and `local` (the absolute path) for a file or folder to upload.
 */
export async function resolveSource(
  io: CliIo,
  raw: string,
  options: { many?: boolean } = {},
): Promise<{
  source: SkillSource;
  label: string;
  tools?: Array<Record<string, unknown>>;
  /** Absolute path, when the argument names an existing file or folder to upload. */
  local?: string;
}> {
  if (raw === '-') return { source: await readStdin(io), label: 'stdin' };
  if (!raw.includes('\n') && raw.length < 4096) {
    const full = path.resolve(io.cwd, raw);
    const info = await stat(full).catch(() => undefined);
    if (info?.isFile() && /\.json$/i.test(full)) {
      const parsed = await readJsonFile(full, raw);
      const found = classifyJson(parsed, raw);
      if (found.kind === 'structured') return { source: found.skill as SkillSource, label: raw };
      if (found.tools.length === 1) return { source: found.tools[0] as SkillSource, label: raw };
      if (!options.many) {
        throw new CliError(
          `${raw} holds ${found.tools.length} MCP tools; add them with add-skill, which adds each tool`,
        );
      }
      return { source: found.tools[0] as SkillSource, label: raw, tools: found.tools };
    }
    if (info) return { source: full, label: raw, local: full };
    // Neither a path nor SKILL.md text (which opens with a `---` frontmatter fence): a mistyped path.
    if (!/^\uFEFF?\s*---/.test(raw)) {
      throw new CliError(
        `no such file or folder: ${raw} (${full}); SKILL.md text given inline starts with a "---" frontmatter fence`,
      );
    }
  }
  return { source: raw, label: 'content' };
}
