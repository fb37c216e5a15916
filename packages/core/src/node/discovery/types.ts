/**
 * Shapes of skill discovery: options, discovered skills, diagnostics and where each came from.
 *
 * @see the @skillport/core README (`@skillport/core/node`: discovery)
 */
import type { SkillIssue } from '../../types.js';
import type { DiscoveryCache } from './discovery-cache.js';

/**
 * How a skill was found, in the order strategies run:
 * - `declared`: listed under `"skills"` in a package's `package.json`;
 * - `shipped`: a file named exactly `SKILL.md` inside an installed package;
 * - `path`: a file or folder given by the caller in `paths`.
 */
export type DiscoveryStrategy = 'declared' | 'shipped' | 'path';

/** Where a skill or diagnostic came from. `package`/`version`/`packageDir` are set for packages. */
export interface DiscoverySource {
  strategy: DiscoveryStrategy;
  /** Package name from its package.json (`@scope/name`). */
  package?: string;
  /** Package version from its package.json. */
  version?: string;
  /** Real path of the package folder. */
  packageDir?: string;
}

/** A package as seen by discovery (passed to a `trust` predicate). */
export interface DiscoveredPackage {
  name: string;
  version: string;
  /** Real path of the package folder. */
  dir: string;
  /** `workspace` for the project's own workspace members and root, `installed` for dependencies. */
  kind: 'installed' | 'workspace';
}

/**
 * Which packages may contribute skills: an allow-list of package names (an entry `@scope/*` allows a
 * whole scope) or a predicate. It applies to every package, the project's own workspace members
 * included (a predicate can let them through with `pkg.kind === 'workspace'`). Skills given through
 * `paths` are always trusted.
 */
export type DiscoveryTrust = readonly string[] | ((pkg: DiscoveredPackage) => boolean);

/** A skill found by {@link discoverSkills}. */
export interface DiscoveredSkill {
  name: string;
  description: string;
  /** Markdown body of SKILL.md (after the frontmatter). */
  body: string;
  /** Real path of the SKILL.md file. */
  path: string;
  /** Every frontmatter key as parsed. */
  frontmatter: Record<string, unknown>;
  tags: string[];
  allowedTools: string[];
  source: DiscoverySource;
  /**
   * The file's problems that did not stop discovery from using it: the verdict `validateSkill` gives
   * (default profile, the folder's name as `dirName` for a file named SKILL.md), which is what
   * `skillport skills validate` and a server's validate say of the same file, plus discovery's own
   * warnings (`encoding`, `declared_name_mismatch`). An issue of severity `error` here means a
   * registry refuses the skill, though agents may load it; a file discovery cannot use at all is a
   * `parse_error` diagnostic instead.
   */
  issues: SkillIssue[];
}

/**
 * Kinds of {@link DiscoveryDiagnostic}:
 * - `parse_error`: a SKILL.md that cannot be used (no frontmatter, bad YAML, no name or description);
 * - `missing_path`: a declared or given path that does not exist or holds no SKILL.md;
 * - `path_escape`: a declared path that leaves its package folder (not followed);
 * - `invalid_declaration`: a `"skills"` field of the wrong shape;
 * - `name_collision`: a second skill with a name already found (the first is kept);
 * - `untrusted`: a package with skills that the `trust` option does not allow;
 * - `limit_reached`: a bound (packages, skills, depth, entries per package) stopped the search;
 * - `read_error`: a file or folder that exists but cannot be read.
 */
export type DiscoveryDiagnosticKind =
  | 'parse_error'
  | 'missing_path'
  | 'path_escape'
  | 'invalid_declaration'
  | 'name_collision'
  | 'untrusted'
  | 'limit_reached'
  | 'read_error';

/** Something discovery could not use, and why. Never fatal. */
export interface DiscoveryDiagnostic {
  kind: DiscoveryDiagnosticKind;
  /** `error` when a skill was lost (unusable file, bad path), `warning` otherwise. */
  severity: 'error' | 'warning';
  /** One line for humans: what, where, why. */
  message: string;
  /** The file or folder concerned (absolute), when there is one. */
  path: string | null;
  source: DiscoverySource;
  /** The skill name concerned (`name_collision`, `parse_error` when the name was readable). */
  name?: string;
  /** `parse_error`: the parser's issues of severity `error` (rule, field, line, column). */
  issues?: SkillIssue[];
  /** `name_collision`: the skill that was kept. */
  conflictsWith?: { path: string; source: DiscoverySource };
}

/** Options of {@link discoverSkills}. Every field is optional. */
export interface DiscoverSkillsOptions {
  /** Project root whose installed packages are searched. Default `process.cwd()`. */
  cwd?: string;
  /** Run strategy 1 (package.json `"skills"`). Default true. */
  declared?: boolean;
  /** Run strategy 2 (scan of installed packages for `SKILL.md`). Default true. */
  shipped?: boolean;
  /**
   * Strategy 3: files (read as SKILL.md) or folders (searched by `scanSkillTree`: nested skills and dot
   * folders included, links inside the folder followed once), relative to `cwd`.
   */
  paths?: readonly string[];
  /** Which packages may contribute skills. Default: every package. */
  trust?: DiscoveryTrust;
  /** Include the project's workspace members (and their `node_modules`). Default true. */
  workspaces?: boolean;
  /** Deepest folder level searched for `SKILL.md` inside a package or given folder. Default 6. */
  maxDepth?: number;
  /** Most directory entries visited inside one package by the scan. Default 20 000. */
  maxEntriesPerPackage?: number;
  /** Most packages examined. Default 10 000. */
  maxPackages?: number;
  /** Most skills returned. Default 1000. */
  maxSkills?: number;
  /** Filesystem operations in flight. Default 32. */
  concurrency?: number;
  /** Scan results reused across calls, keyed by package path and version; `false` disables. */
  cache?: DiscoveryCache | false;
}

/** Result of {@link discoverSkills}. */
export interface DiscoveryResult {
  /** Usable skills, unique by name and real path, in strategy order (declared, shipped, path). */
  skills: DiscoveredSkill[];
  /** Everything that was skipped, refused or unreadable, with its origin. */
  diagnostics: DiscoveryDiagnostic[];
  /** Counts for reports and benchmarks. */
  stats: { packagesScanned: number; filesRead: number; cacheHits: number };
}
