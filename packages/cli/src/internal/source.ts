/** Reading the `<path|content>` argument of `add-skill` / `skills add|update`. */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SkillSource } from '@skillport/sdk-node';
import { CliError, type CliIo } from './io.js';

async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
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

/**
 * Resolves the source argument: `-` reads stdin; a `.json` file is read as a JSON object (an MCP tool
 * or a structured skill); other files and folders are left to the SDK (uploaded, folders zipped);
 * anything else is SKILL.md content. With `many`, a `.json` file holding several MCP tools gives them
 * all in `tools`.
 * @returns what to hand to `addSkill`, a label for progress messages, and `tools` when there are several.
 */
export async function resolveSource(
  io: CliIo,
  raw: string,
  options: { many?: boolean } = {},
): Promise<{ source: SkillSource; label: string; tools?: Array<Record<string, unknown>> }> {
  if (raw === '-') return { source: await readStdin(io), label: 'stdin' };
  if (!raw.includes('\n') && raw.length < 4096) {
    const full = path.resolve(io.cwd, raw);
    const info = await stat(full).catch(() => undefined);
    if (info?.isFile() && /\.json$/i.test(full)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(full, 'utf8'));
      } catch (error) {
        throw new CliError(`${raw} is not valid JSON: ${(error as Error).message}`);
      }
      const tools = options.many ? toolsOf(parsed) : undefined;
      if (tools) return { source: tools[0] as SkillSource, label: raw, tools };
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new CliError(
          `${raw} must hold one JSON object (an MCP tool with "inputSchema", or {name, description, content}); ` +
            'for a tools/list answer use add-skill, which adds each tool',
        );
      }
      return { source: parsed as SkillSource, label: raw };
    }
    if (info) return { source: full, label: raw };
  }
  return { source: raw, label: 'content' };
}
