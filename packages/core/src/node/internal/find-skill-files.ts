/**
 * Finds files named exactly `SKILL.md` below a folder with readdir only: symlinks are not followed,
 * `node_modules` and `.git` are never entered, a folder holding SKILL.md is a skill folder and is not
 * searched further, depth and visited entries are bounded.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Limiter } from './limiter.js';

/** Folder names never entered by the search. */
const NEVER_ENTERED = new Set(['node_modules', '.git', '.hg', '.svn']);

/** Options of {@link findSkillFiles}. */
export interface FindSkillFilesOptions {
  /** Deepest folder level searched (the root is level 0). */
  maxDepth: number;
  /** Most directory entries visited before the search stops (`truncated` then true). */
  maxEntries: number;
  /** When given, only top-level entries accepted by it are searched (a package's `files`). */
  topLevelFilter?: ((name: string) => boolean) | undefined;
  limiter: Limiter;
}

/** Result of {@link findSkillFiles}: sorted POSIX paths relative to the root. */
export interface FoundSkillFiles {
  files: string[];
  truncated: boolean;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Searches `root` for `SKILL.md` files. Unreadable folders are skipped (the search is best effort;
 * discovery reports what it could not read at the level of declared and given paths).
 */
export async function findSkillFiles(root: string, options: FindSkillFilesOptions): Promise<FoundSkillFiles> {
  const found: string[] = [];
  let visited = 0;
  let truncated = false;

  const visit = async (folder: string, rel: string, depth: number): Promise<void> => {
    if (truncated) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await options.limiter.run(() => readdir(folder, { withFileTypes: true }));
    } catch {
      return;
    }
    visited += entries.length;
    if (visited > options.maxEntries) {
      truncated = true;
      return;
    }
    const filter = depth === 0 ? options.topLevelFilter : undefined;
    const skillMd = entries.find((entry) => entry.name === 'SKILL.md' && entry.isFile());
    if (skillMd && (!filter || filter(skillMd.name))) {
      found.push(rel === '' ? 'SKILL.md' : `${rel}/SKILL.md`);
      return;
    }
    if (depth >= options.maxDepth) return;
    const subfolders = entries.filter(
      (entry) => entry.isDirectory() && !NEVER_ENTERED.has(entry.name) && (!filter || filter(entry.name)),
    );
    await Promise.all(
      subfolders.map((entry) =>
        visit(path.join(folder, entry.name), rel === '' ? entry.name : `${rel}/${entry.name}`, depth + 1),
      ),
    );
  };

  await visit(root, '', 0);
  found.sort(compare);
  return { files: found, truncated };
}

/**
 * Builds the top-level filter of a package's `files` field (npm's published-files list): a top-level
 * entry is searched when the first segment of some pattern matches it (`*` wildcards allowed).
 * Negated patterns are ignored. Returns `undefined` (search everything) when `files` is absent.
 */
export function publishedFilesFilter(files: unknown): ((name: string) => boolean) | undefined {
  if (!Array.isArray(files)) return undefined;
  const matchers: RegExp[] = [];
  for (const entry of files) {
    if (typeof entry !== 'string' || entry.startsWith('!')) continue;
    const first = entry.replace(/^\.?\/+/, '').split('/')[0] ?? '';
    if (first === '' || first === '**') return undefined;
    const source = first.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
    matchers.push(new RegExp(`^${source}$`));
  }
  return (name) => matchers.some((matcher) => matcher.test(name));
}
