/**
 * Expands workspace globs (`packages/*`, `apps/**`, `spec`, `!**\/test/**`) into the member folders
 * holding a package.json — the subset of glob syntax npm, yarn and pnpm workspaces use.
 */
import { access, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';

/** Deepest level a `**` segment descends to. */
const GLOBSTAR_DEPTH = 6;

function segmentRegExp(segment: string): RegExp {
  const source = segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*');
  return new RegExp(`^${source}$`);
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries
      .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

async function expandOne(root: string, pattern: string): Promise<string[]> {
  const segments = pattern
    .replace(/^\.\/+/, '')
    .replace(/\/+$/, '')
    .split('/')
    .filter(Boolean);
  let current = [root];
  for (const segment of segments) {
    const next: string[] = [];
    if (segment === '**') {
      let frontier = current;
      next.push(...frontier);
      for (let depth = 0; depth < GLOBSTAR_DEPTH && frontier.length > 0; depth++) {
        const children = await Promise.all(
          frontier.map(async (dir) => (await subfolders(dir)).map((name) => path.join(dir, name))),
        );
        frontier = children.flat();
        next.push(...frontier);
      }
    } else if (segment.includes('*')) {
      const matcher = segmentRegExp(segment);
      for (const dir of current) {
        for (const name of await subfolders(dir)) if (matcher.test(name)) next.push(path.join(dir, name));
      }
    } else {
      for (const dir of current) next.push(path.join(dir, segment));
    }
    current = next;
  }
  return current;
}

async function hasManifest(dir: string): Promise<boolean> {
  try {
    await access(path.join(dir, 'package.json'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Member folders (real paths, sorted, unique, root excluded) matched by `patterns` under `root`.
 * Patterns starting with `!` exclude what they match.
 */
export async function expandWorkspacePatterns(root: string, patterns: readonly string[]): Promise<string[]> {
  const included = new Set<string>();
  const excluded = new Set<string>();
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const dirs = await expandOne(root, negated ? pattern.slice(1) : pattern);
    for (const dir of dirs) (negated ? excluded : included).add(dir);
  }
  const members: string[] = [];
  for (const dir of [...included].sort()) {
    if (excluded.has(dir) || dir === root || !(await hasManifest(dir))) continue;
    try {
      members.push(await realpath(dir));
    } catch {
      // vanished meanwhile
    }
  }
  return [...new Set(members)].filter((dir) => dir !== root).sort();
}
