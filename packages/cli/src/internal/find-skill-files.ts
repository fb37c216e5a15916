/** Finding the SKILL.md files that `skills validate <path…>` checks: the search `discover --path` uses too. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './io.js';

/**
 * The `.json` files at the top level of `dir` (a folder of MCP tool definitions), sorted, as absolute
 * paths; empty when there are none or the folder cannot be read. `add-skill` and `skills validate`
 * both take such a folder when it holds no SKILL.md.
 */
export async function toolJsonFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => !entry.isDirectory() && /\.json$/i.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => path.join(dir, name));
}

/**
 * Files named `skill.md` in another letter case (`skill.md`, `Skill.md`) in `dir` or one folder
 * below it, skipping dot folders and `node_modules`: agents read only `SKILL.md`, so a search that
 * finds no skill names them. Paths are `/`-joined after `shown` (how the caller names `dir`); at
 * most 3; empty when there are none or `dir` cannot be read.
 */
export async function misnamedSkillFiles(dir: string, shown: string): Promise<string[]> {
  const prefix = shown.replace(/[/\\]+$/, '');
  const misnamed = (name: string) => name !== 'SKILL.md' && name.toLowerCase() === 'skill.md';
  const found: string[] = [];
  const top = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of top.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (found.length >= 3) break;
    if (entry.isFile() && misnamed(entry.name)) found.push(`${prefix}/${entry.name}`);
    if (!entry.isDirectory() || entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const below = await readdir(path.join(dir, entry.name), { withFileTypes: true }).catch(() => []);
    const hit = below.find((e) => e.isFile() && misnamed(e.name));
    if (hit) found.push(`${prefix}/${entry.name}/${hit.name}`);
  }
  return found.slice(0, 3);
}

/** The end of a "no SKILL.md" message naming {@link misnamedSkillFiles}, or `''`. */
export function misnamedHint(found: string[]): string {
  return found.length > 0 ? `; found ${found.join(', ')}: the file must be named SKILL.md, in capitals` : '';
}

/** What a search found: SKILL.md files, and the links it did not follow, with the reason. */
export interface SkillFileScan {
  files: string[];
  skipped: Array<{ path: string; reason: string }>;
}

/**
 * Expands a path with `scanSkillTree` of `@skillport/core/node` (the search of `discover --path`): a
 * file is itself; a folder is searched (up to `maxDepth` levels, skipping `node_modules`, `dist` and
 * version-control folders; dot folders such as `.claude/skills` are searched) for `SKILL.md` files —
 * the folder's own first, then every nested one in sorted order. Symbolic links are followed when they
 * stay inside the searched folder (each real folder once, so link loops end); broken links and links
 * leading outside are reported in `skipped`. A folder without any SKILL.md that holds `.json` files at
 * its top level is a folder of MCP tool definitions: those files are returned (see {@link toolJsonFiles}).
 * @throws CliError when the path does not exist or the search finds neither SKILL.md nor `.json` files.
 */
export async function scanSkillFiles(target: string, maxDepth = 6): Promise<SkillFileScan> {
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new CliError(`no such file or folder: ${target}`);
  const { scanSkillTree } = await import('@skillport/core/node');
  const scan = await scanSkillTree(target, { maxDepth });
  const skipped = scan.skipped.map(({ path, reason }) => ({ path, reason }));
  if (scan.files.length === 0) {
    const tools = info.isDirectory() ? await toolJsonFiles(target) : [];
    if (tools.length > 0) return { files: tools, skipped };
    const why =
      skipped.length > 0 ? ` (${skipped.length} link${skipped.length === 1 ? '' : 's'} not followed)` : '';
    const misnamed = info.isDirectory() ? await misnamedSkillFiles(target, target) : [];
    throw new CliError(
      `no SKILL.md in ${target} or its sub-folders${why}, and no .json tool files${misnamedHint(misnamed)}`,
    );
  }
  return { files: scan.files, skipped };
}

/** {@link scanSkillFiles} without the skipped links. */
export async function findSkillFiles(target: string, maxDepth = 6): Promise<string[]> {
  return (await scanSkillFiles(target, maxDepth)).files;
}
