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
 * Whatever the days rule says, a skill keeps at most M revisions (`SKILLPORT_KEEP_REVISIONS_MAX`,
 * default 100, never fewer than N; `all` lifts the cap): without it a key rewriting one skill in a
 * loop grew its history without bound within the days window — storage the account quota does not
 * count, and a history every later write of that skill had to rank.
 *
 * The current revision is always kept. A **deleted** skill keeps its whole history for D days after
 * the deletion (so an accidental delete can be undone with a restore), then the history is deleted;
 * `DELETE …?purge=true` erases it at once. An account keeps the history of at most K deleted skills,
 * its K most recently deleted (`SKILLPORT_KEEP_DELETED_MAX`, default 1000; `0`: none; `all`: no cap):
 * the history of deleted skills counts against no quota, so without the cap a key adding and deleting
 * skills in a loop kept storage for D days that no limit covered. Each delete erases the history of
 * the deleted skills it pushes past the K newest. When a revision goes, so does every file content that no
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
  /**
   * Most revisions kept per skill, the current one included, whatever `keepDays` says; ≥ 1, raised to
   * `keepRevisions` when lower (`SKILLPORT_KEEP_REVISIONS_MAX`, default 100; `Infinity` = no cap).
   */
  keepMost: number;
  /**
   * Deleted skills per account whose history is kept, the most recently deleted ones; ≥ 0
   * (`SKILLPORT_KEEP_DELETED_MAX`, default 1000; `0`: a delete erases the history at once;
   * `Infinity` = no cap).
   */
  keepDeleted: number;
}

/**
 * The defaults: the last 10 revisions, and every revision superseded in the last 30 days, at most
 * 100 per skill; the history of an account's 1000 most recently deleted skills.
 */
export const DEFAULT_RETENTION: Readonly<RetentionOptions> = Object.freeze({
  keepRevisions: 10,
  keepDays: 30,
  keepMost: 100,
  keepDeleted: 1000,
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The store's policy for the given settings (defaults for missing ones).
 *
 * @param options - `keepRevisions` (≥ 1, `Infinity` = all), `keepDays` (≥ 0, `Infinity` = all),
 *   `keepMost` (≥ 1, `Infinity` = no cap; raised to `keepRevisions` when lower) and `keepDeleted`
 *   (≥ 0, `Infinity` = no cap)
 * @returns `{keepLast, keepForMs, keepMost, keepDeleted}`
 * @throws RangeError for `keepRevisions` or `keepMost` < 1, or a negative `keepDays` or `keepDeleted`
 * @example retentionPolicy({ keepRevisions: 5 }); // { keepLast: 5, keepForMs: 2_592_000_000, keepMost: 100, keepDeleted: 1000 }
 */
export function retentionPolicy(options: Partial<RetentionOptions> = {}): RetentionPolicy {
  const keepRevisions = options.keepRevisions ?? DEFAULT_RETENTION.keepRevisions;
  const keepDays = options.keepDays ?? DEFAULT_RETENTION.keepDays;
  const keepMost = options.keepMost ?? DEFAULT_RETENTION.keepMost;
  const keepDeleted = options.keepDeleted ?? DEFAULT_RETENTION.keepDeleted;
  if (!(keepRevisions >= 1)) {
    throw new RangeError(`keepRevisions must be at least 1 (the current revision), got ${keepRevisions}`);
  }
  if (!(keepDays >= 0)) throw new RangeError(`keepDays must be 0 or more, got ${keepDays}`);
  if (!(keepMost >= 1)) throw new RangeError(`keepMost must be at least 1, got ${keepMost}`);
  if (!(keepDeleted >= 0)) throw new RangeError(`keepDeleted must be 0 or more, got ${keepDeleted}`);
  const keepLast = Number.isFinite(keepRevisions) ? Math.floor(keepRevisions) : Number.POSITIVE_INFINITY;
  return {
    keepLast,
    keepForMs: Number.isFinite(keepDays) ? keepDays * DAY_MS : Number.POSITIVE_INFINITY,
    keepMost: Math.max(keepLast, Number.isFinite(keepMost) ? Math.floor(keepMost) : Number.POSITIVE_INFINITY),
    keepDeleted: Number.isFinite(keepDeleted) ? Math.floor(keepDeleted) : Number.POSITIVE_INFINITY,
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

/**
 * The `keepMost` cap of a policy as an SQL parameter: never below `keepLast`, and
 * `Number.MAX_SAFE_INTEGER` (no limit) when absent or `Infinity`. Stores apply it to one skill at a
 * time (the prune after each write of it), where its history is ranked anyway.
 *
 * @param policy - the retention policy
 * @param keepLast - `policy.keepLast` as the store binds it
 * @returns the most revisions that skill keeps
 */
export function keepMostOf(policy: RetentionPolicy, keepLast: number): number {
  const most = policy.keepMost;
  if (most === undefined || !Number.isFinite(most)) return Number.MAX_SAFE_INTEGER;
  return Math.max(keepLast, Math.max(1, Math.floor(most)));
}

/**
 * Deleted skills whose names one {@link Store.pruneHistory} call with `deletedOf` looks at past the
 * `keepDeleted` newest deletions. A delete pushes one skill past the cap, so each delete's prune
 * keeps an account at the cap; a lowered setting catches up by this many per delete (the time rule
 * takes the rest).
 */
export const DELETED_CAP_WINDOW = 16;

/**
 * The `keepDeleted` cap of a policy as an SQL parameter: `null` when there is none (absent or
 * `Infinity`), else the whole number of deleted skills an account keeps the history of.
 *
 * @param policy - the retention policy
 */
export function keepDeletedOf(policy: RetentionPolicy): number | null {
  const keep = policy.keepDeleted;
  if (keep === undefined || !Number.isFinite(keep)) return null;
  return Math.max(0, Math.floor(keep));
}
