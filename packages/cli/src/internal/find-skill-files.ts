/** Finding the SKILL.md files that `skills validate <path…>` checks. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './io.js';

const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', '.turbo']);

/**
 * Expands a path: a file is itself; a folder holding `SKILL.md` is that file; another folder is
 * searched (up to `maxDepth` levels, skipping `node_modules`, VCS and dot folders) for `SKILL.md` files,
 * returned in sorted order.
 * @throws CliError when the path does not exist or a folder holds no SKILL.md.
 */
export async function findSkillFiles(target: string, maxDepth = 6): Promise<string[]> {
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new CliError(`no such file or folder: ${target}`);
  if (info.isFile()) return [target];
  const direct = path.join(target, 'SKILL.md');
  if (
    await stat(direct).then(
      (s) => s.isFile(),
      () => false,
    )
  )
    return [direct];
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > maxDepth) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isFile() && entry.name === 'SKILL.md') found.push(full);
      else if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.')) {
        await walk(full, depth + 1);
      }
    }
  };
  await walk(target, 0);
  if (found.length === 0) throw new CliError(`no SKILL.md in ${target} or its sub-folders`);
  return found;
}
