/**
 * `scanSkillTree`: every SKILL.md below a folder a person points at (a repository, a skills folder),
 * the one search behind `skillport skills validate <folder>` and `discoverSkills({paths})`, so both
 * find the same skills.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** Folders never searched: dependencies, version control, build output. Other dot folders are. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '.hg', '.svn', 'dist', '.turbo']);

/** A symbolic link {@link scanSkillTree} did not follow. */
export interface SkillTreeSkip {
  /** Absolute path of the link (inside the searched folder). */
  path: string;
  /** `broken_link`: its target does not exist; `link_escape`: it leads outside the searched folder. */
  kind: 'broken_link' | 'link_escape';
  /** One line for people: what and why. */
  reason: string;
}

/** Result of {@link scanSkillTree}. */
export interface SkillTreeScan {
  /**
   * Absolute paths of the SKILL.md files found: the folder's own first, then every nested one
   * depth-first in sorted order (through links at the link's path).
   */
  files: string[];
  /** Links not followed, in the order met. */
  skipped: SkillTreeSkip[];
  /** True when the search stopped at `maxEntries`: some SKILL.md files may be missing. */
  truncated: boolean;
}

/** Options of {@link scanSkillTree}. */
export interface ScanSkillTreeOptions {
  /** Deepest folder level searched, the folder itself being level 0. Default 6. */
  maxDepth?: number;
  /** Most directory entries visited before the search stops (`truncated`). Default 20 000. */
  maxEntries?: number;
}

/**
 * Searches a folder for `SKILL.md` files, nested skills included: a repository with a root SKILL.md
 * and skills below it gives all of them. Dot folders (`.claude/skills`) are searched; `node_modules`,
 * `dist`, `.turbo` and version-control folders are not. Symbolic links are followed when their target
 * stays inside the searched folder, each real folder once (so link loops end); broken links and links
 * leading outside are reported in `skipped`, never followed. Unreadable folders are passed over.
 * A path naming a file gives that file.
 *
 * @param target - the folder (or file) to search; relative paths resolve against `process.cwd()`
 * @param options - `maxDepth` (default 6) and `maxEntries` (default 20 000)
 * @returns the SKILL.md files, the links not followed, and whether the search was cut short
 * @throws the `stat` error (`ENOENT`, …) when `target` cannot be read
 * @example
 * ```ts
 * import { scanSkillTree } from '@skillport/core/node';
 * const { files, skipped } = await scanSkillTree('./my-repo');
 * for (const link of skipped) console.warn(`${link.path}: ${link.reason}`);
 * ```
 */
export async function scanSkillTree(
  target: string,
  options: ScanSkillTreeOptions = {},
): Promise<SkillTreeScan> {
  const maxDepth = options.maxDepth ?? 6;
  const maxEntries = options.maxEntries ?? 20_000;
  const start = path.resolve(target);
  const info = await stat(start);
  if (!info.isDirectory()) return { files: [start], skipped: [], truncated: false };
  const root = await realpath(start);
  const inside = (real: string) => real === root || real.startsWith(root + path.sep);
  const files: string[] = [];
  const skipped: SkillTreeSkip[] = [];
  const seen = new Set<string>([root]);
  let visited = 0;
  let truncated = false;

  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > maxDepth || truncated) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    visited += entries.length;
    if (visited > maxEntries) {
      truncated = true;
      return;
    }
    // SKILL.md first, then the other entries by name (code-unit order).
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
          skipped.push({
            path: full,
            kind: 'broken_link',
            reason: 'broken symbolic link (its target does not exist)',
          });
          continue;
        }
        if (!inside(resolved)) {
          skipped.push({
            path: full,
            kind: 'link_escape',
            reason: `symbolic link leads outside ${start} (to ${resolved})`,
          });
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
      if (!isDirectory || SKIPPED_FOLDERS.has(entry.name)) continue;
      if (!entry.isSymbolicLink()) real = await realpath(full).catch(() => full);
      if (seen.has(real)) continue; // a link back into a folder already searched (or a loop)
      seen.add(real);
      await walk(full, depth + 1);
    }
  };
  await walk(start, 0);
  return { files, skipped, truncated };
}
