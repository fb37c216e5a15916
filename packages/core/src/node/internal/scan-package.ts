/**
 * Strategy 2 of discovery for one package: the `SKILL.md` files inside its published files, found
 * with readdir only and cached by real path and version for installed (immutable) packages.
 */
import path from 'node:path';
import type { DiscoveryCache } from '../discovery/discovery-cache.js';
import type { PackageRecord } from './enumerate-packages.js';
import { findSkillFiles, publishedFilesFilter } from './find-skill-files.js';
import type { Limiter } from './limiter.js';

/** Options of {@link scanPackage}. */
export interface ScanPackageOptions {
  maxDepth: number;
  maxEntries: number;
  limiter: Limiter;
  cache: DiscoveryCache | undefined;
}

/** What {@link scanPackage} found: POSIX paths relative to the package folder. */
export interface PackageScan {
  files: readonly string[];
  truncated: boolean;
  cacheHit: boolean;
}

/** Installed packages live in a `node_modules` folder; workspace members change and are not cached. */
function isCacheable(pkg: PackageRecord): boolean {
  return pkg.kind === 'installed' && pkg.dir.split(path.sep).includes('node_modules') && pkg.version !== '';
}

/** Scans one package for `SKILL.md` files (see {@link findSkillFiles}). Never throws. */
export async function scanPackage(pkg: PackageRecord, options: ScanPackageOptions): Promise<PackageScan> {
  const key = `${pkg.dir}\0${pkg.name}@${pkg.version}\0${options.maxDepth}\0${options.maxEntries}\0${JSON.stringify(pkg.manifest.files ?? null)}`;
  const cacheable = options.cache !== undefined && isCacheable(pkg);
  if (cacheable) {
    const hit = options.cache?.get(key);
    if (hit !== undefined) return { files: hit.files, truncated: hit.truncated, cacheHit: true };
  }
  const found = await findSkillFiles(pkg.dir, {
    maxDepth: options.maxDepth,
    maxEntries: options.maxEntries,
    topLevelFilter: publishedFilesFilter(pkg.manifest.files),
    limiter: options.limiter,
  });
  if (cacheable) options.cache?.set(key, { files: found.files, truncated: found.truncated });
  return { files: found.files, truncated: found.truncated, cacheHit: false };
}
