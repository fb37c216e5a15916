import type Database from 'better-sqlite3';
import { DELETED_CAP_WINDOW, keepDeletedOf, keepMostOf } from '../retention.js';
import type { ChangeFeedEntry, ChangeFeedPage, PruneResult, RetentionPolicy, SkillKey } from '../types.js';
import type { Connection } from './connection.js';
import { type SkillRow, toSkillRecord } from './rows.js';
import { deleteOrphanBlobs } from './skill-writes.js';

/** Largest integer SQLite and JavaScript agree on: stands for "no limit" in SQL parameters. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** The superseded revisions that `policy` no longer keeps, of one skill or of all; at most `max`. */
function prunableRevisions(
  conn: Connection,
  policy: RetentionPolicy,
  now: number,
  scope: SkillKey | undefined,
  max: number,
): number[] {
  const cutoff = Number.isFinite(policy.keepForMs) ? now - policy.keepForMs : -NO_LIMIT;
  const keepLast = Number.isFinite(policy.keepLast) ? Math.max(1, Math.floor(policy.keepLast)) : NO_LIMIT;
  const keepMost = keepMostOf(policy, keepLast);
  if (scope !== undefined) {
    const live = conn
      .stmt('SELECT 1 FROM skills WHERE account_id = ? AND root_uri = ? AND name = ?')
      .get(scope.accountId, scope.rootUri, scope.name);
    const rows = conn
      .stmt(
        `SELECT seq FROM (
           SELECT seq, superseded_at, row_number() OVER (ORDER BY seq DESC) AS rank,
             max(superseded_at) OVER () AS deleted_at
           FROM skill_revisions WHERE account_id = @account AND root_uri = @root AND name = @name)
         WHERE superseded_at IS NOT NULL AND (rank > @keepMost OR (superseded_at <= @cutoff
           AND (CASE WHEN @live THEN rank > @keepLast ELSE deleted_at <= @cutoff END)))
         ORDER BY seq LIMIT @max`,
      )
      .all({
        account: scope.accountId,
        root: scope.rootUri,
        name: scope.name,
        cutoff,
        keepLast,
        keepMost,
        live: live === undefined ? 0 : 1,
        max,
      }) as Array<{ seq: number }>;
    return rows.map((r) => r.seq);
  }
  // Only skills with at least one revision old enough can lose any: start from those (indexed).
  const rows = conn
    .stmt(
      `WITH keys AS (
         SELECT DISTINCT account_id, root_uri, name FROM skill_revisions
         WHERE superseded_at IS NOT NULL AND superseded_at <= @cutoff),
       ranked AS (
         SELECT r.seq, r.superseded_at, r.account_id, r.root_uri, r.name,
           row_number() OVER w AS rank, max(r.superseded_at) OVER w AS deleted_at
         FROM skill_revisions r JOIN keys k
           ON k.account_id = r.account_id AND k.root_uri = r.root_uri AND k.name = r.name
         WINDOW w AS (PARTITION BY r.account_id, r.root_uri, r.name ORDER BY r.seq DESC
                      ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
       SELECT seq FROM ranked
       WHERE superseded_at IS NOT NULL AND superseded_at <= @cutoff
         AND (CASE WHEN EXISTS (SELECT 1 FROM skills s WHERE s.account_id = ranked.account_id
                                AND s.root_uri = ranked.root_uri AND s.name = ranked.name)
              THEN rank > @keepLast ELSE deleted_at <= @cutoff END)
       ORDER BY seq LIMIT @max`,
    )
    .all({ cutoff, keepLast, max }) as Array<{ seq: number }>;
  return rows.map((r) => r.seq);
}

/**
 * The history entries of the account's deleted skills past its `keep` most recently deleted (by
 * their deletion's place in the change feed, through the partial index of deletions), of at most
 * {@link DELETED_CAP_WINDOW} skills; a skill added again (live) is not one of them. At most `max`.
 * `CROSS JOIN` keeps those few deletions the outer loop (each probes its skill's revisions by name):
 * SQLite otherwise walked every revision of the account.
 */
function revisionsPastDeletedCap(conn: Connection, accountId: string, keep: number, max: number): number[] {
  const rows = conn
    .stmt(
      `SELECT r.seq FROM (
         SELECT root_uri, name FROM skill_changes WHERE account_id = @account AND deleted = 1
         ORDER BY seq DESC LIMIT @window OFFSET @keep) c
       CROSS JOIN skill_revisions r ON r.account_id = @account AND r.root_uri = c.root_uri AND r.name = c.name
       WHERE NOT EXISTS (SELECT 1 FROM skills s
                         WHERE s.account_id = @account AND s.root_uri = c.root_uri AND s.name = c.name)
       ORDER BY r.seq LIMIT @max`,
    )
    .all({ account: accountId, keep, window: DELETED_CAP_WINDOW, max }) as Array<{ seq: number }>;
  return rows.map((r) => r.seq);
}

/**
 * The body of `Store.pruneHistory` on SQLite (inside one IMMEDIATE transaction): deletes the history
 * entries the policy no longer keeps, then the blobs that lost their last reference with them.
 *
 * @returns what was deleted; `more` when `maxRevisions` entries were deleted (there may be more)
 */
export function pruneHistoryTx(
  conn: Connection,
  policy: RetentionPolicy,
  now: number,
  options: { scope?: SkillKey; deletedOf?: string; maxRevisions?: number },
): PruneResult {
  const max = Math.max(1, Math.floor(options.maxRevisions ?? 1000));
  let seqs: number[];
  if (options.deletedOf !== undefined) {
    const keep = keepDeletedOf(policy);
    if (keep === null) return { revisions: 0, blobs: 0, bytes: 0, more: false };
    seqs = revisionsPastDeletedCap(conn, options.deletedOf, keep, max);
  } else {
    // Kept forever by time and not capped by count (or a sweep, which applies no cap): nothing goes.
    const capped = options.scope !== undefined && keepMostOf(policy, 1) < NO_LIMIT;
    if (!Number.isFinite(policy.keepForMs) && !capped)
      return { revisions: 0, blobs: 0, bytes: 0, more: false };
    seqs = prunableRevisions(conn, policy, now, options.scope, max);
  }
  if (seqs.length === 0) return { revisions: 0, blobs: 0, bytes: 0, more: false };
  const refs = conn.stmt('SELECT sha256 FROM skill_revision_blobs WHERE revision_seq = ?');
  const remove = conn.stmt('DELETE FROM skill_revisions WHERE seq = ?');
  const candidates: string[] = [];
  for (const seq of seqs) {
    for (const row of refs.all(seq) as Array<{ sha256: string }>) candidates.push(row.sha256);
    remove.run(seq); // its skill_revision_blobs rows go with it (ON DELETE CASCADE)
  }
  const freed = deleteOrphanBlobs(conn, candidates);
  return { revisions: seqs.length, blobs: freed.blobs, bytes: freed.bytes, more: seqs.length === max };
}

/**
 * Returns the pages freed by deletions to the operating system: `incremental_vacuum` moves the free
 * pages to the end of the file and truncates it (the database is in `auto_vacuum = INCREMENTAL`
 * mode, see `openConnection`), then a `TRUNCATE` checkpoint copies the WAL back and empties it. A
 * checkpoint that readers hold up is simply partial; the next one finishes the work.
 */
export function releaseFreePages(conn: Connection): void {
  const free = conn.db.pragma('freelist_count', { simple: true }) as number;
  if (free > 0) conn.db.pragma('incremental_vacuum');
  conn.db.pragma('wal_checkpoint(TRUNCATE)');
}

/** The summary columns of `skills` (as `listSkills` with `summary: true`), from the joined `s`. */
const SKILL_SUMMARY = `s.seq AS s_seq, s.id, s.account_id, s.root_uri AS s_root_uri, s.name AS s_name, s.description,
  s.tags, s.allowed_tools, s.revision AS s_revision, s.created_at, s.updated_at`;

interface ChangeRow {
  seq: number;
  root_uri: string;
  name: string;
  revision: string;
  deleted: number;
  changed_at: number;
  s_seq: number | null;
  id: string | null;
  account_id: string | null;
  s_root_uri: string | null;
  s_name: string | null;
  description: string | null;
  tags: string | null;
  allowed_tools: string | null;
  s_revision: string | null;
  created_at: number | null;
  updated_at: number | null;
}

function changeSql(roots: number): string {
  const marks = Array.from({ length: roots }, () => '?').join(', ');
  return `SELECT c.seq, c.root_uri, c.name, c.revision, c.deleted, c.changed_at, ${SKILL_SUMMARY}
    FROM skill_changes c LEFT JOIN skills s
      ON c.deleted = 0 AND s.account_id = c.account_id AND s.root_uri = c.root_uri AND s.name = c.name
    WHERE c.account_id = ? AND c.seq > ? AND c.root_uri IN (${marks}) AND c.changed_at >= ?
    ORDER BY c.seq LIMIT ?`;
}

function toChange(row: ChangeRow): ChangeFeedEntry {
  const live = row.deleted === 0 && row.id !== null;
  const skill = live
    ? toSkillRecord({
        seq: row.s_seq as number,
        id: row.id as string,
        account_id: row.account_id as string,
        root_uri: row.s_root_uri as string,
        name: row.s_name as string,
        description: row.description as string,
        tags: row.tags as string,
        allowed_tools: row.allowed_tools as string,
        frontmatter: '{}',
        body: '',
        source_metadata: null,
        revision: row.s_revision as string,
        overview: null,
        overview_revision: null,
        created_at: row.created_at as number,
        updated_at: row.updated_at as number,
      } satisfies SkillRow)
    : null;
  return {
    seq: row.seq,
    rootUri: row.root_uri,
    name: row.name,
    revision: row.revision,
    deleted: row.deleted === 1,
    changedAt: row.changed_at,
    skill,
  };
}

/** `Store.listChanges` on SQLite (inside one read transaction, so the page and `lastSeq` agree). */
export function listChanges(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  options: { afterSeq: number; since: number | null; limit: number },
): ChangeFeedPage {
  const afterSeq = Math.max(0, Math.floor(options.afterSeq));
  const limit = Math.max(0, Math.floor(options.limit));
  if (rootUris.length === 0) return { changes: [], lastSeq: afterSeq, more: false };
  const rows = conn
    .stmt(changeSql(rootUris.length))
    .all(
      accountId,
      afterSeq,
      ...rootUris,
      options.since ?? Number.MIN_SAFE_INTEGER,
      limit + 1,
    ) as ChangeRow[];
  const more = rows.length > limit;
  const changes = rows.slice(0, limit).map(toChange);
  if (more) return { changes, lastSeq: (changes.at(-1)?.seq ?? afterSeq) as number, more };
  const top = conn.stmt('SELECT max(seq) AS top FROM skill_changes WHERE account_id = ?').get(accountId) as {
    top: number | null;
  };
  return { changes, lastSeq: Math.max(afterSeq, top.top ?? 0), more: false };
}

/**
 * Fills the change feed (`skill_changes`) from scratch: every live skill at its last write, and
 * every deleted skill whose history is kept at its deletion, in time order. Used when the feed
 * starts (schema version 5) and after a database import. Runs in the caller's transaction.
 *
 * @param db - an open connection, inside a write transaction
 */
export function rebuildChangeFeed(db: Database.Database): void {
  db.exec(`DELETE FROM skill_changes;
INSERT INTO skill_changes (account_id, root_uri, name, revision, deleted, changed_at)
  SELECT account_id, root_uri, name, revision, deleted, changed_at FROM (
    SELECT account_id, root_uri, name, revision, 0 AS deleted, updated_at AS changed_at, seq AS tie
      FROM skills
    UNION ALL
    SELECT r.account_id, r.root_uri, r.name, r.revision, 1, r.superseded_at, r.seq
      FROM skill_revisions r
      WHERE r.seq = (SELECT max(seq) FROM skill_revisions x
                     WHERE x.account_id = r.account_id AND x.root_uri = r.root_uri AND x.name = r.name)
        AND NOT EXISTS (SELECT 1 FROM skills s
                        WHERE s.account_id = r.account_id AND s.root_uri = r.root_uri AND s.name = r.name)
  ) ORDER BY changed_at, tie;`);
}
