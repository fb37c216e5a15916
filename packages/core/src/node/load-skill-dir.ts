/**
 * `loadSkillDir`: reads a skill folder from disk — SKILL.md (exact text, parsed) and its auxiliary
 * files — applying the upload rules (no symlinks, nothing outside the folder, bounded size).
 */
import type { ParsedSkill, SkillIssue } from '../types.js';
import { type CollectedFile, collectSkillFiles, readCollectedFiles } from './internal/collect-skill-files.js';
import { parseSkillBytes } from './internal/parse-skill-bytes.js';

import type { SkillDirOptions, SkippedEntry } from './skill-dir-options.js';

/** One auxiliary file of a skill folder. */
export interface SkillDirFile {
  /** POSIX path relative to the skill folder, e.g. `references/api.md`. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** The bytes as stored (binary-safe). */
  content: Uint8Array;
  /**
   * Whether the file's owner may execute it (mode bit 0o100; always false on Windows): what the
   * server records as the file's `executable` flag when the folder is uploaded.
   */
  executable: boolean;
}

/** Result of {@link loadSkillDir}. */
export interface LoadedSkillDir {
  /** Real path of the skill folder (symlinks of the folder itself resolved). */
  dir: string;
  /** SKILL.md as parsed (as far as it could be read). */
  skill: ParsedSkill;
  /** Every problem found by the parser, plus `encoding` when SKILL.md is not valid UTF-8. */
  issues: SkillIssue[];
  /**
   * SKILL.md as text: BOM and line endings kept; byte-exact unless the file is not valid UTF-8
   * (then an `encoding` issue is reported and `skillMdBytes` holds the original bytes).
   */
  skillMd: string;
  /** SKILL.md bytes as stored. */
  skillMdBytes: Uint8Array;
  /** Auxiliary files (everything but the root SKILL.md), sorted by path. */
  files: SkillDirFile[];
  /** Entries left out (symlinks, paths escaping the folder, ignored names, special files). */
  skipped: SkippedEntry[];
}

/**
 * Loads a skill folder: SKILL.md at its root (exact text and parsed) and every auxiliary file below
 * it, recursively, sorted by path.
 *
 * Symlinks are never followed (and reported in `skipped` with reason `symlink`, or `outside_root`
 * when their target escapes the folder); names in `options.ignore` are skipped; sockets and other
 * special files are skipped. Parse problems never throw: they come back in `issues`.
 *
 * @param dir - path of the skill folder (relative paths resolve against `process.cwd()`)
 * @param options - limits: `maxFiles` (default 1000 auxiliary files), `maxTotalBytes` (default
 *   64 MiB over all files), `maxDepth` (default 16 folder levels), `ignore` (default
 *   `.git`, `node_modules`, `.DS_Store`, `__MACOSX`)
 * @returns `{dir, skill, issues, skillMd, skillMdBytes, files: [{path, size, content, executable}], skipped}`
 * @throws SkillportError `NOT_FOUND` when the folder or its SKILL.md is missing,
 *   `INVALID_ARGUMENT` when `dir` is not a folder or SKILL.md is a symlink,
 *   `PAYLOAD_TOO_LARGE` when a limit is exceeded (`details.limit` names it)
 * @example
 * ```ts
 * import { loadSkillDir } from '@skillport/core/node';
 * const { skill, files, issues } = await loadSkillDir('./skills/pdf');
 * console.log(skill.name, files.map((f) => f.path), issues.length);
 * ```
 * @see the skill model of the @skillport/core README (the skill folder)
 */
export async function loadSkillDir(dir: string, options: SkillDirOptions = {}): Promise<LoadedSkillDir> {
  const collected = await collectSkillFiles(dir, options);
  const all: CollectedFile[] = [collected.skillMd, ...collected.files];
  const contents = await readCollectedFiles(all);
  const skillBytes = contents[0] as Uint8Array;
  const { text, skill, issues } = parseSkillBytes(skillBytes, collected.skillMd.absolutePath);
  const files = collected.files.map((file, index) => {
    const content = contents[index + 1] as Uint8Array;
    return { path: file.path, size: content.byteLength, content, executable: file.executable };
  });
  return {
    dir: collected.root,
    skill,
    issues,
    skillMd: text,
    skillMdBytes: skillBytes,
    files,
    skipped: collected.skipped,
  };
}
