/** Finding the SKILL.md files that `skills validate <path…>` checks. */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from './io.js';

/** Folders never searched: dependencies, version control, build output. Other dot folders are. */
const SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', '.turbo']);

/** What a search found: SKILL.md files, and the links it did not follow, with the reason. */
export interface SkillFileScan {
  files: string[];
  skipped: Array<{ path: string; reason: string }>;
}

/**
 * Expands a path: a file is itself; a folder is searched (up to `maxDepth` levels, skipping
 * `node_modules`, `dist` and version-control folders; dot folders such as `.claude/skills` are
 * searched) for `SKILL.md` files — the folder's own first, then every nested one in sorted order, so a
 * repository with a root skill and skills below it has all of them checked. Symbolic links are followed
 * when they stay inside the searched folder (each real folder once, so link loops end); broken links and
 * links leading outside are reported in `skipped`.
 * @throws CliError when the path does not exist or the search finds no SKILL.md.
 */
export async function scanSkillFiles(target: string, maxDepth = 6): Promise<SkillFileScan> {
  const info = await stat(target).catch(() => undefined);
  if (!info) throw new CliError(`no such file or folder: ${target}`);
  if (info.isFile()) return { files: [target], skipped: [] };
  const root = await realpath(target);
  const inside = (real: string) => real === root || real.startsWith(root + path.sep);
  const files: string[] = [];
  const skipped: SkillFileScan['skipped'] = [];
  const seen = new Set<string>([root]);
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > maxDepth) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) =>
      a.name === 'SKILL.md' ? -1 : b.name === 'SKILL.md' ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isFile()) {
        if (entry.name === 'SKILL.md') files.push(full);
        continue;
      }
      let real = full;
      let isDirectory = entry.isDirectory();
      if (entry.isSymbolicLink()) {
        const resolved = await realpath(full).catch(() => undefined);
        if (resolved === undefined) {
          skipped.push({ path: full, reason: 'broken symbolic link (its target does not exist)' });
          continue;
        }
        if (!inside(resolved)) {
          skipped.push({ path: full, reason: `symbolic link leads outside ${target} (to ${resolved})` });
          continue;
        }
        const linked = await stat(resolved).catch(() => undefined);
        if (linked?.isFile() && entry.name === 'SKILL.md') {
          files.push(full);
          continue;
        }
        real = resolved;
        isDirectory = linked?.isDirectory() === true;
      }
      if (!isDirectory || SKIPPED.has(entry.name)) continue;
      if (!entry.isSymbolicLink()) real = await realpath(full).catch(() => full);
      if (seen.has(real)) continue; // a link back into a folder already searched (or a loop)
      seen.add(real);
      await walk(full, depth + 1);
    }
  };
  await walk(target, 0);
  if (files.length === 0) {
    const why =
      skipped.length > 0 ? ` (${skipped.length} link${skipped.length === 1 ? '' : 's'} not followed)` : '';
    throw new CliError(`no SKILL.md in ${target} or its sub-folders${why}`);
  }
  return { files, skipped };
}

/** {@link scanSkillFiles} without the skipped links. */
export async function findSkillFiles(target: string, maxDepth = 6): Promise<string[]> {
  return (await scanSkillFiles(target, maxDepth)).files;
}
