/**
 * Retention of skill history: which earlier revisions the server keeps, and the defaults.
 *
 * Every write (add, update, restore) keeps the version it replaces in the skill's history, so any of
 * them can be read (`GET /api/v1/skills/{name}?revision=`) or restored. History is bounded by two
 * rules; a superseded revision is deleted once **neither** keeps it:
 *
 * - the last N revisions of each existing skill (`SKILLPORT_KEEP_REVISIONS`, default 10, the current
 *   one included; `all` keeps every one);
 * - revisions superseded less than D days ago (`SKILLPORT_KEEP_REVISIONS_DAYS`, default 30; `0` turns
 *   the rule off; `all` keeps every one).
 *
 * The current revision is always kept. A **deleted** skill keeps its whole history for D days after
 * the deletion (so an accidental delete can be undone with a restore), then the history is deleted;
 * `DELETE …?purge=true` erases it at once. When a revision goes, so does every file content that no
 * kept revision and no live file shares with it (contents are stored once per sha-256 and shared
 * between revisions and skills), and the SQLite file gives the freed pages back to the OS.
 *
 * The count rule applies at each write of the skill; the time rule is applied by the job runner's
 * housekeeping sweep (every 10 minutes by default).
 */
import type { RetentionPolicy } from './types.js';

/** Retention settings as configured (`Infinity` = keep all). */
export interface RetentionOptions {
  /** Newest revisions kept per existing skill, the current one included, ≥ 1 (`SKILLPORT_KEEP_REVISIONS`, default 10). */
  keepRevisions: number;
  /** Days a superseded revision (and a deleted skill's history) is kept, ≥ 0 (`SKILLPORT_KEEP_REVISIONS_DAYS`, default 30). */
  keepDays: number;
}

/** The defaults: the last 10 revisions, and every revision superseded in the last 30 days. */
export const DEFAULT_RETENTION: Readonly<RetentionOptions> = Object.freeze({
  keepRevisions: 10,
  keepDays: 30,
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The store's policy for the given settings (defaults for missing ones).
 *
 * @param options - `keepRevisions` (≥ 1, `Infinity` = all) and `keepDays` (≥ 0, `Infinity` = all)
 * @returns `{keepLast, keepForMs}`
 * @throws RangeError for `keepRevisions` < 1 or a negative `keepDays`
 * @example retentionPolicy({ keepRevisions: 5 }); // { keepLast: 5, keepForMs: 2_592_000_000 }
 */
export function retentionPolicy(options: Partial<RetentionOptions> = {}): RetentionPolicy {
  const keepRevisions = options.keepRevisions ?? DEFAULT_RETENTION.keepRevisions;
  const keepDays = options.keepDays ?? DEFAULT_RETENTION.keepDays;
  if (!(keepRevisions >= 1)) {
    throw new RangeError(`keepRevisions must be at least 1 (the current revision), got ${keepRevisions}`);
  }
  if (!(keepDays >= 0)) throw new RangeError(`keepDays must be 0 or more, got ${keepDays}`);
  return {
    keepLast: Number.isFinite(keepRevisions) ? Math.floor(keepRevisions) : Number.POSITIVE_INFINITY,
    keepForMs: Number.isFinite(keepDays) ? keepDays * DAY_MS : Number.POSITIVE_INFINITY,
  };
}

/**
 * Parses a retention environment value: a non-negative integer, or `all` (keep everything).
 *
 * @param name - the variable's name, for the error
 * @param raw - its value
 * @param min - the smallest number allowed
 * @returns the number, or `Infinity` for `all`
 * @throws Error naming the variable when the value is neither
 */
export function parseRetentionEnv(name: string, raw: string, min: number): number {
  const value = raw.trim().toLowerCase();
  if (value === 'all') return Number.POSITIVE_INFINITY;
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) < min) {
    throw new Error(`${name} must be an integer ≥ ${min} or "all", got ${JSON.stringify(raw)}`);
  }
  return Number(value);
}
