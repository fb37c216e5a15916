/**
 * Options and report shapes of reading a skill folder (`loadSkillDir`, `zipSkillDir`): the limits
 * of the walk and the entries it leaves out.
 */

/** Limits and filters of a skill-folder walk. All optional; see {@link DEFAULT_SKILL_DIR_LIMITS}. */
export interface SkillDirOptions {
  /** Most auxiliary files accepted (SKILL.md not counted). Default 1000. */
  maxFiles?: number;
  /** Most bytes accepted over SKILL.md and every auxiliary file. Default 64 MiB. */
  maxTotalBytes?: number;
  /** Deepest folder nesting below the skill folder. Default 16. */
  maxDepth?: number;
  /**
   * Entry names skipped wherever they occur (reported with reason `ignored`): exact names, or
   * `prefix*` / `*suffix` patterns. Default: VCS and OS clutter (`.git`, `node_modules`, `.DS_Store`,
   * `__MACOSX`) and files that commonly hold secrets (`.env`, `.env.*`, `.npmrc`, `.netrc`, `.pypirc`,
   * `.git-credentials`), so uploading a folder never publishes them by accident.
   */
  ignore?: readonly string[];
}

/**
 * Defaults of {@link SkillDirOptions}: 1000 auxiliary files, 64 MiB in total, 16 folder levels, and
 * VCS/OS clutter and secret-holding files ignored (see {@link SkillDirOptions.ignore}).
 */
export const DEFAULT_SKILL_DIR_LIMITS = {
  maxFiles: 1000,
  maxTotalBytes: 64 * 1024 * 1024,
  maxDepth: 16,
  ignore: [
    '.git',
    'node_modules',
    '.DS_Store',
    '__MACOSX',
    '.env',
    '.env.*',
    '.npmrc',
    '.netrc',
    '.pypirc',
    '.git-credentials',
  ] as readonly string[],
} as const;

/** Why an entry of a skill folder was left out. */
export type SkippedReason = 'symlink' | 'outside_root' | 'ignored' | 'not_a_file' | 'unreadable';

/** An entry of a skill folder that was left out, and why. */
export interface SkippedEntry {
  /** POSIX path relative to the skill folder. */
  path: string;
  reason: SkippedReason;
  message: string;
}
