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
 * Resolves the source argument: `-` reads stdin; a `.json` file is read as a JSON object (an MCP tool
 * or a structured skill); other files and folders are left to the SDK (uploaded, folders zipped);
 * anything else is SKILL.md content.
 * @returns what to hand to `addSkill`, and a label for progress messages.
 */
export async function resolveSource(io: CliIo, raw: string): Promise<{ source: SkillSource; label: string }> {
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
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new CliError(
          `${raw} must hold one JSON object (an MCP tool with "inputSchema", or {name, description, content})`,
        );
      }
      return { source: parsed as SkillSource, label: raw };
    }
    if (info) return { source: full, label: raw };
  }
  return { source: raw, label: 'content' };
}
