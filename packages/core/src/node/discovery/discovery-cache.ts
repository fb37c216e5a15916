/**
 * The discovery cache: what the scan of one installed package found, keyed by its real path and
 * `name@version`, so a second discovery in the same process does no directory walk for unchanged
 * packages.
 */

/** What the scan of one package found (relative POSIX paths of `SKILL.md` files, truncation flag). */
export interface PackageScanEntry {
  files: readonly string[];
  truncated: boolean;
}

/**
 * A cache of package scans. Installed packages (inside a `node_modules` folder) are immutable for a
 * given version, so their scan is reused; workspace members are always rescanned.
 */
export interface DiscoveryCache {
  get(key: string): PackageScanEntry | undefined;
  set(key: string, entry: PackageScanEntry): void;
  /** Forgets every entry. */
  clear(): void;
  /** Number of cached package scans. */
  readonly size: number;
}

/**
 * Creates an empty {@link DiscoveryCache}, e.g. to measure a cold discovery or to share one cache
 * between several project roots.
 *
 * @param maxEntries - most packages kept (oldest forgotten first). Default 20 000.
 * @returns a new cache
 * @example
 * ```ts
 * import { createDiscoveryCache, discoverSkills } from '@skillport/core/node';
 * const cache = createDiscoveryCache();
 * await discoverSkills({ cwd: '.', cache }); // walks packages
 * await discoverSkills({ cwd: '.', cache }); // reuses the walk
 * ```
 */
export function createDiscoveryCache(maxEntries = 20_000): DiscoveryCache {
  const map = new Map<string, PackageScanEntry>();
  return {
    get: (key) => map.get(key),
    set(key, entry) {
      map.delete(key);
      map.set(key, entry);
      if (map.size > maxEntries) {
        const oldest = map.keys().next();
        if (!oldest.done) map.delete(oldest.value);
      }
    },
    clear: () => map.clear(),
    get size() {
      return map.size;
    },
  };
}

/** The cache used when `discoverSkills` is called without a `cache` option. */
export const defaultDiscoveryCache: DiscoveryCache = createDiscoveryCache();
