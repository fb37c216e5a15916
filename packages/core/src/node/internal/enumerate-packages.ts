/**
 * Lists the packages of a project: the root package, its workspace members (npm/yarn `workspaces`,
 * `pnpm-workspace.yaml`) and every package installed in their `node_modules` — flat npm layout,
 * scoped `@scope/name` folders, pnpm's `.pnpm/<id>/node_modules/<name>` store and the symlinks
 * pointing into it. Each package appears once, keyed by its real path.
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { DiscoveredPackage, DiscoveryDiagnostic } from '../discovery/types.js';
import type { Limiter } from './limiter.js';
import { expandWorkspacePatterns } from './workspace-patterns.js';

/** A package with its parsed package.json. */
export interface PackageRecord extends DiscoveredPackage {
  manifest: Record<string, unknown>;
  /** True for the project root itself (declared skills only; never scanned). */
  isRoot: boolean;
}

/** Options of {@link enumeratePackages}. */
export interface EnumerateOptions {
  workspaces: boolean;
  maxPackages: number;
  limiter: Limiter;
}

/** Result of {@link enumeratePackages}: packages in visiting order, plus diagnostics. */
export interface EnumeratedPackages {
  packages: PackageRecord[];
  diagnostics: DiscoveryDiagnostic[];
}

type ReadManifest = { manifest: Record<string, unknown> } | { error: string } | null;

async function readManifest(dir: string, limiter: Limiter): Promise<ReadManifest> {
  let text: string;
  try {
    text = await limiter.run(() => readFile(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return null;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { error: 'package.json is not a JSON object' };
    }
    return { manifest: value as Record<string, unknown> };
  } catch (error) {
    return {
      error: `package.json is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

async function listDir(dir: string, limiter: Limiter): Promise<Dirent[]> {
  try {
    return await limiter.run(() => readdir(dir, { withFileTypes: true }));
  } catch {
    return [];
  }
}

/** Package folders directly under one `node_modules` (scopes expanded; `.pnpm` handled separately). */
async function packageDirsIn(nodeModules: string, limiter: Limiter, realOnly: boolean): Promise<string[]> {
  const entries = await listDir(nodeModules, limiter);
  const accept = (entry: Dirent): boolean =>
    realOnly ? entry.isDirectory() : entry.isDirectory() || entry.isSymbolicLink();
  const dirs: string[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.name.startsWith('.')) return;
      const full = path.join(nodeModules, entry.name);
      if (entry.name.startsWith('@') && (entry.isDirectory() || entry.isSymbolicLink())) {
        for (const scoped of await listDir(full, limiter)) {
          if (accept(scoped)) dirs.push(path.join(full, scoped.name));
        }
      } else if (accept(entry)) {
        dirs.push(full);
      }
    }),
  );
  return dirs.sort();
}

/** Real package folders of pnpm's virtual store: `.pnpm/<id>/node_modules/<name>` (not the symlinks). */
async function pnpmStoreDirs(nodeModules: string, limiter: Limiter): Promise<string[]> {
  const store = path.join(nodeModules, '.pnpm');
  const ids = (await listDir(store, limiter)).filter(
    (entry) => entry.isDirectory() && entry.name !== 'node_modules',
  );
  const nested = await Promise.all(
    ids.map((id) => packageDirsIn(path.join(store, id.name, 'node_modules'), limiter, true)),
  );
  return nested.flat().sort();
}

async function workspaceMemberDirs(
  root: string,
  manifest: Record<string, unknown> | null,
): Promise<string[]> {
  const patterns: string[] = [];
  const declared = manifest?.workspaces;
  const list = Array.isArray(declared)
    ? declared
    : typeof declared === 'object' && declared !== null
      ? (declared as { packages?: unknown }).packages
      : undefined;
  if (Array.isArray(list)) patterns.push(...list.filter((p): p is string => typeof p === 'string'));
  try {
    const yamlText = await readFile(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
    const doc: unknown = parseYaml(yamlText);
    const packages = (doc as { packages?: unknown } | null)?.packages;
    if (Array.isArray(packages)) patterns.push(...packages.filter((p): p is string => typeof p === 'string'));
  } catch {
    // no pnpm workspace file, or one that cannot be read: npm/yarn workspaces only
  }
  return patterns.length === 0 ? [] : expandWorkspacePatterns(root, patterns);
}

/**
 * Lists the packages of the project at `root` (already a real path). Order: the root package, then
 * workspace members sorted by path, then installed packages sorted by name, version and path.
 */
export async function enumeratePackages(
  root: string,
  options: EnumerateOptions,
): Promise<EnumeratedPackages> {
  const { limiter } = options;
  const diagnostics: DiscoveryDiagnostic[] = [];
  const rootManifest = await readManifest(root, limiter);
  const rootJson = rootManifest && 'manifest' in rootManifest ? rootManifest.manifest : null;
  const members = options.workspaces ? await workspaceMemberDirs(root, rootJson) : [];
  const ownDirs = [root, ...members];
  const workspaceSet = new Set<string>(ownDirs);

  const nodeModulesDirs = ownDirs.map((dir) => path.join(dir, 'node_modules'));
  const candidateLists = await Promise.all(
    nodeModulesDirs.map(async (nm) => [
      ...(await packageDirsIn(nm, limiter, false)),
      ...(await pnpmStoreDirs(nm, limiter)),
    ]),
  );
  const installedCandidates = candidateLists.flat();

  const seen = new Set<string>();
  const resolved: Array<{ dir: string; kind: 'installed' | 'workspace'; isRoot: boolean }> = [];
  for (const dir of ownDirs) {
    seen.add(dir);
    resolved.push({ dir, kind: 'workspace', isRoot: dir === root });
  }
  const reals = await Promise.all(
    installedCandidates.map((candidate) => limiter.run(() => realpath(candidate)).catch(() => null)),
  );
  for (const real of reals) {
    if (real === null || seen.has(real)) continue;
    seen.add(real);
    resolved.push({ dir: real, kind: workspaceSet.has(real) ? 'workspace' : 'installed', isRoot: false });
  }

  const records = await Promise.all(
    resolved.map(async (entry): Promise<PackageRecord | null> => {
      const read = entry.isRoot ? rootManifest : await readManifest(entry.dir, limiter);
      if (read === null) return null;
      if ('error' in read) {
        diagnostics.push({
          kind: 'read_error',
          severity: 'warning',
          message: `${path.join(entry.dir, 'package.json')}: ${read.error}; package skipped`,
          path: path.join(entry.dir, 'package.json'),
          source: { strategy: 'declared', packageDir: entry.dir },
        });
        return null;
      }
      const { manifest } = read;
      const name =
        typeof manifest.name === 'string' && manifest.name !== '' ? manifest.name : path.basename(entry.dir);
      const version = typeof manifest.version === 'string' ? manifest.version : '';
      return { name, version, dir: entry.dir, kind: entry.kind, manifest, isRoot: entry.isRoot };
    }),
  );

  const own = records.filter((r): r is PackageRecord => r !== null && r.kind === 'workspace');
  const installed = records
    .filter((r): r is PackageRecord => r !== null && r.kind === 'installed')
    .sort((a, b) => compareKeys([a.name, a.version, a.dir], [b.name, b.version, b.dir]));
  let packages = [...own, ...installed];
  if (packages.length > options.maxPackages) {
    diagnostics.push({
      kind: 'limit_reached',
      severity: 'warning',
      message: `found ${packages.length} packages; only the first ${options.maxPackages} (maxPackages) were searched`,
      path: root,
      source: { strategy: 'shipped' },
    });
    packages = packages.slice(0, options.maxPackages);
  }
  return { packages, diagnostics };
}

function compareKeys(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
