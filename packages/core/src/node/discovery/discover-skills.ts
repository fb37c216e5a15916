/**
 * `discoverSkills`: finds the skills a project has at hand — declared by packages, shipped inside
 * installed packages, or at paths the caller names — with a diagnostic for everything it could not use.
 *
 * @see the @skillport/core README (`@skillport/core/node`: discovery)
 */
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { declaredSource, declaresSkills, resolveDeclaredSkills } from '../internal/declared-skills.js';
import { enumeratePackages, type PackageRecord } from '../internal/enumerate-packages.js';
import { resolveExtraPaths } from '../internal/extra-paths.js';
import { createLimiter } from '../internal/limiter.js';
import { readSkillCandidate, type SkillCandidate } from '../internal/read-skill-candidate.js';
import { scanPackage } from '../internal/scan-package.js';
import { defaultDiscoveryCache } from './discovery-cache.js';
import type {
  DiscoveredPackage,
  DiscoveredSkill,
  DiscoverSkillsOptions,
  DiscoveryDiagnostic,
  DiscoveryResult,
  DiscoverySource,
  DiscoveryTrust,
} from './types.js';

/** Defaults of {@link DiscoverSkillsOptions}. */
export const DISCOVERY_DEFAULTS = {
  maxDepth: 6,
  maxEntriesPerPackage: 20_000,
  maxPackages: 10_000,
  maxSkills: 1000,
  concurrency: 32,
} as const;

function trustPredicate(trust: DiscoveryTrust | undefined): (pkg: DiscoveredPackage) => boolean {
  if (trust === undefined) return () => true;
  if (typeof trust === 'function') return trust;
  const exact = new Set(trust.filter((entry) => !entry.endsWith('/*')));
  const scopes = trust.filter((entry) => entry.endsWith('/*')).map((entry) => entry.slice(0, -1));
  return (pkg) => exact.has(pkg.name) || scopes.some((scope) => pkg.name.startsWith(scope));
}

function publicPackage(pkg: PackageRecord): DiscoveredPackage {
  return { name: pkg.name, version: pkg.version, dir: pkg.dir, kind: pkg.kind };
}

function describeSource(source: DiscoverySource): string {
  if (source.package === undefined) return `${source.strategy} path`;
  const version = source.version === undefined ? '' : `@${source.version}`;
  return `${source.strategy} by ${source.package}${version}`;
}

/**
 * Discovers the skills available to a project, in three strategies run in this order:
 *
 * 1. **declared** — each package's `package.json` `"skills"` field: a map
 *    `{"pdf": "./skills/pdf/SKILL.md"}` or a list `["./skills/a", "./skills/b/SKILL.md"]` (a listed
 *    folder without its own SKILL.md contributes the skill folders directly inside it). Paths that do
 *    not exist or leave the package are reported (`missing_path`, `path_escape`), never followed.
 * 2. **shipped** — a readdir-only scan of every installed package (npm and pnpm layouts, scoped
 *    packages, symlinked packages, workspace members and their `node_modules`) for files named exactly
 *    `SKILL.md` within the package's published `files`; nested `node_modules` are not entered; depth
 *    and entries are bounded; results are cached per package path and version.
 * 3. **path** — `options.paths`: a file is read as SKILL.md; a folder is searched with
 *    {@link scanSkillTree} (as `skillport skills validate` does): its own SKILL.md, nested skills and
 *    dot folders; links inside the folder followed once, broken ones reported as `missing_path` and
 *    escaping ones as `path_escape` warnings.
 *
 * Results are de-duplicated by real path (first kept, silently) and by name (first kept, the later one
 * reported as `name_collision` naming both origins). Packages are visited root first, then workspace
 * members by path, then installed packages by name and version. Files that cannot be used become
 * `parse_error` diagnostics; nothing here throws on bad input.
 *
 * @param options - see {@link DiscoverSkillsOptions}: `cwd` (default `process.cwd()`), `declared`
 *   and `shipped` (default true), `paths` (default none), `trust` (default: every package),
 *   `workspaces` (default true), `maxDepth` (6 folder levels), `maxEntriesPerPackage` (20 000),
 *   `maxPackages` (10 000), `maxSkills` (1000), `concurrency` (32), `cache` (a process-wide cache;
 *   `false` disables)
 * @returns `{skills, diagnostics, stats}` — each skill `{name, description, body, path, frontmatter,
 *   tags, allowedTools, source: {strategy, package?, version?, packageDir?}, issues}`, each diagnostic
 *   `{kind, severity, message, path, source, name?, issues?, conflictsWith?}`
 * @throws nothing for bad input (missing folders, unreadable files and broken SKILL.md files become
 *   diagnostics); only an exception thrown by a `trust` predicate propagates
 * @example
 * ```ts
 * import { discoverSkills } from '@skillport/core/node';
 * const { skills, diagnostics } = await discoverSkills({ cwd: '.', trust: ['@acme/*'] });
 * for (const s of skills) console.log(s.name, s.source.package ?? s.path);
 * for (const d of diagnostics) console.warn(`${d.kind}: ${d.message}`);
 * ```
 * @see the @skillport/core README
 */
export async function discoverSkills(options: DiscoverSkillsOptions = {}): Promise<DiscoveryResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const limiter = createLimiter(options.concurrency ?? DISCOVERY_DEFAULTS.concurrency);
  const maxDepth = options.maxDepth ?? DISCOVERY_DEFAULTS.maxDepth;
  const maxEntries = options.maxEntriesPerPackage ?? DISCOVERY_DEFAULTS.maxEntriesPerPackage;
  const maxSkills = options.maxSkills ?? DISCOVERY_DEFAULTS.maxSkills;
  const cache = options.cache === false ? undefined : (options.cache ?? defaultDiscoveryCache);
  const useDeclared = options.declared ?? true;
  const useShipped = options.shipped ?? true;
  const isTrusted = trustPredicate(options.trust);

  const diagnostics: DiscoveryDiagnostic[] = [];
  const candidates: SkillCandidate[] = [];
  const stats = { packagesScanned: 0, filesRead: 0, cacheHits: 0 };

  let packages: PackageRecord[] = [];
  if (useDeclared || useShipped) {
    const root = await realpath(cwd).catch(() => null);
    if (root === null) {
      diagnostics.push({
        kind: 'missing_path',
        severity: 'error',
        message: `project folder ${cwd} does not exist; no packages searched`,
        path: cwd,
        source: { strategy: useDeclared ? 'declared' : 'shipped' },
      });
    } else {
      const listed = await enumeratePackages(root, {
        workspaces: options.workspaces ?? true,
        maxPackages: options.maxPackages ?? DISCOVERY_DEFAULTS.maxPackages,
        limiter,
      });
      packages = listed.packages;
      diagnostics.push(...listed.diagnostics);
    }
  }
  stats.packagesScanned = packages.length;
  const trusted = new Map(packages.map((pkg) => [pkg.dir, isTrusted(publicPackage(pkg))]));
  const untrusted = new Map<string, { strategy: 'declared' | 'shipped'; files: Set<string> }>();
  const noteUntrusted = (
    pkg: PackageRecord,
    strategy: 'declared' | 'shipped',
    files: readonly string[],
  ): void => {
    const entry = untrusted.get(pkg.dir) ?? { strategy, files: new Set<string>() };
    for (const file of files) entry.files.add(file);
    untrusted.set(pkg.dir, entry);
  };

  if (useDeclared) {
    const declaring = packages.filter(declaresSkills);
    const resolved = await Promise.all(declaring.map((pkg) => resolveDeclaredSkills(pkg, limiter)));
    declaring.forEach((pkg, index) => {
      const result = resolved[index];
      if (result === undefined) return;
      if (!trusted.get(pkg.dir)) {
        if (result.files.length > 0)
          noteUntrusted(
            pkg,
            'declared',
            result.files.map((file) => file.path),
          );
        return;
      }
      diagnostics.push(...result.diagnostics);
      for (const file of result.files) {
        const candidate: SkillCandidate = { path: file.path, source: declaredSource(pkg), boundary: pkg.dir };
        if (file.declaredName !== undefined) candidate.declaredName = file.declaredName;
        candidates.push(candidate);
      }
    });
  }

  if (useShipped) {
    const scanned = packages.filter((pkg) => !pkg.isRoot);
    const scans = await Promise.all(
      scanned.map((pkg) => scanPackage(pkg, { maxDepth, maxEntries, limiter, cache })),
    );
    scanned.forEach((pkg, index) => {
      const scan = scans[index];
      if (scan === undefined) return;
      if (scan.cacheHit) stats.cacheHits++;
      const source: DiscoverySource = { strategy: 'shipped', package: pkg.name, packageDir: pkg.dir };
      if (pkg.version !== '') source.version = pkg.version;
      if (scan.truncated) {
        diagnostics.push({
          kind: 'limit_reached',
          severity: 'warning',
          message: `${pkg.name}: stopped after ${maxEntries} entries (maxEntriesPerPackage); some SKILL.md files may be missing`,
          path: pkg.dir,
          source,
        });
      }
      if (!trusted.get(pkg.dir)) {
        if (scan.files.length > 0) {
          noteUntrusted(
            pkg,
            'shipped',
            scan.files.map((rel) => path.join(pkg.dir, ...rel.split('/'))),
          );
        }
        return;
      }
      for (const rel of scan.files) {
        candidates.push({ path: path.join(pkg.dir, ...rel.split('/')), source, boundary: pkg.dir });
      }
    });
  }

  for (const pkg of packages) {
    const entry = untrusted.get(pkg.dir);
    if (entry === undefined) continue;
    const source: DiscoverySource = { strategy: entry.strategy, package: pkg.name, packageDir: pkg.dir };
    if (pkg.version !== '') source.version = pkg.version;
    diagnostics.push({
      kind: 'untrusted',
      severity: 'warning',
      message: `${pkg.name}: ${entry.files.size} skill file(s) ignored because the package is not trusted; add "${pkg.name}" to the trust option to use them`,
      path: pkg.dir,
      source,
    });
  }

  if (options.paths !== undefined && options.paths.length > 0) {
    const extra = await resolveExtraPaths(cwd, options.paths, { maxDepth, maxEntries, limiter });
    diagnostics.push(...extra.diagnostics);
    candidates.push(...extra.candidates);
  }

  const unique = await dedupeByRealPath(candidates, limiter);
  const outcomes = await Promise.all(unique.map((candidate) => readSkillCandidate(candidate, limiter)));
  stats.filesRead = unique.length;

  const skills: DiscoveredSkill[] = [];
  const byName = new Map<string, DiscoveredSkill>();
  let limitReported = false;
  for (const outcome of outcomes) {
    if ('diagnostic' in outcome) {
      diagnostics.push(outcome.diagnostic);
      continue;
    }
    const { skill } = outcome;
    const existing = byName.get(skill.name);
    if (existing !== undefined) {
      diagnostics.push({
        kind: 'name_collision',
        severity: 'warning',
        message: `skill "${skill.name}" at ${skill.path} (${describeSource(skill.source)}) ignored: the name is already taken by ${existing.path} (${describeSource(existing.source)})`,
        path: skill.path,
        source: skill.source,
        name: skill.name,
        conflictsWith: { path: existing.path, source: existing.source },
      });
      continue;
    }
    if (skills.length >= maxSkills) {
      if (!limitReported) {
        limitReported = true;
        diagnostics.push({
          kind: 'limit_reached',
          severity: 'warning',
          message: `more than ${maxSkills} skills found (maxSkills); ${skill.path} and later ones were left out`,
          path: skill.path,
          source: skill.source,
        });
      }
      continue;
    }
    byName.set(skill.name, skill);
    skills.push(skill);
  }
  return { skills, diagnostics, stats };
}

async function dedupeByRealPath(
  candidates: readonly SkillCandidate[],
  limiter: ReturnType<typeof createLimiter>,
): Promise<SkillCandidate[]> {
  const reals = await Promise.all(
    candidates.map((candidate) => limiter.run(() => realpath(candidate.path)).catch(() => candidate.path)),
  );
  const seen = new Set<string>();
  const unique: SkillCandidate[] = [];
  candidates.forEach((candidate, index) => {
    const real = reals[index] ?? candidate.path;
    if (seen.has(real)) return;
    seen.add(real);
    unique.push(candidate);
  });
  return unique;
}
