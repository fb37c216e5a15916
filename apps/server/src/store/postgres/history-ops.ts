/**
 * Skill history on PostgreSQL: retention (`Store.pruneHistory`), orphaned file contents, and the
 * change feed (`Store.listChanges`), with the semantics of `store/sqlite/history-ops.ts`.
 */
import type pg from 'pg';
import { DELETED_CAP_WINDOW, keepDeletedOf, keepMostOf } from '../retention.js';
import { type SkillRow, toSkillRecord } from '../sqlite/rows.js';
import type { ChangeFeedEntry, ChangeFeedPage, PruneResult, RetentionPolicy, SkillKey } from '../types.js';

type Queryable = pg.Pool | pg.ClientBase;

/** Stands for "no limit" in SQL parameters (bigint). */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * Deletes those of the given blobs that no live file and no kept revision references any more
 * (inside the caller's transaction). A concurrent write that starts referencing one of them either
 * makes this delete fail its foreign-key check (the transaction is retried) or, having lost the
 * race, fails its own and is retried, writing the blob again.
 *
 * @returns how many were deleted and their total size in bytes
 */
export async function deleteOrphanBlobs(
  client: pg.ClientBase,
  sha256s: readonly string[],
): Promise<{ blobs: number; bytes: number }> {
  const unique = [...new Set(sha256s)].sort();
  if (unique.length === 0) return { blobs: 0, bytes: 0 };
  const { rows } = await client.query<{ size: number }>({
    name: 'skillport-delete-orphan-blobs',
    text: `DELETE FROM blobs b WHERE b.sha256 = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM skill_files f WHERE f.sha256 = b.sha256)
       AND NOT EXISTS (SELECT 1 FROM skill_revision_blobs r WHERE r.sha256 = b.sha256)
     RETURNING b.size`,
    values: [unique],
  });
  return { blobs: rows.length, bytes: rows.reduce((sum, row) => sum + row.size, 0) };
}

/** True for a foreign-key failure from a blob deleted or referenced concurrently (retry the transaction). */
export function isBlobRace(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '23503';
}

/**
 * The history entries of the account's deleted skills past its `keep` most recently deleted (by
 * their deletion's place in the change feed, through the partial index of deletions), of at most
 * {@link DELETED_CAP_WINDOW} skills; a skill added again (live) is not one of them. At most `max`.
 */
async function revisionsPastDeletedCap(
  client: pg.ClientBase,
  accountId: string,
  keep: number,
  max: number,
): Promise<number[]> {
  const { rows } = await client.query<{ seq: number }>(
    `SELECT r.seq FROM (
       SELECT root_uri, name FROM skill_changes WHERE account_id = $1 AND deleted
       ORDER BY seq DESC LIMIT $2 OFFSET $3) c
     JOIN skill_revisions r ON r.account_id = $1 AND r.root_uri = c.root_uri AND r.name = c.name
     WHERE NOT EXISTS (SELECT 1 FROM skills s
                       WHERE s.account_id = $1 AND s.root_uri = c.root_uri AND s.name = c.name)
     ORDER BY r.seq LIMIT $4`,
    [accountId, DELETED_CAP_WINDOW, keep, max],
  );
  return rows.map((r) => Number(r.seq));
}

/** The superseded revisions that `policy` no longer keeps, of one skill or of all; at most `max`. */
async function prunableRevisions(
  client: pg.ClientBase,
  policy: RetentionPolicy,
  now: number,
  scope: SkillKey | undefined,
  max: number,
): Promise<number[]> {
  const cutoff = Number.isFinite(policy.keepForMs) ? now - policy.keepForMs : -NO_LIMIT;
  const keepLast = Number.isFinite(policy.keepLast) ? Math.max(1, Math.floor(policy.keepLast)) : NO_LIMIT;
  if (scope !== undefined) {
    const { rows } = await client.query<{ seq: number }>(
      `SELECT seq FROM (
         SELECT seq, superseded_at, row_number() OVER (ORDER BY seq DESC) AS rank,
           max(superseded_at) OVER () AS deleted_at
         FROM skill_revisions WHERE account_id = $1 AND root_uri = $2 AND name = $3) r
       WHERE superseded_at IS NOT NULL AND (rank > $7 OR (superseded_at <= $4
         AND CASE WHEN EXISTS (SELECT 1 FROM skills WHERE account_id = $1 AND root_uri = $2 AND name = $3)
             THEN rank > $5 ELSE deleted_at <= $4 END))
       ORDER BY seq LIMIT $6`,
      [scope.accountId, scope.rootUri, scope.name, cutoff, keepLast, max, keepMostOf(policy, keepLast)],
    );
    return rows.map((r) => r.seq);
  }
  // Only skills with at least one revision old enough can lose any: start from those (indexed).
  const { rows } = await client.query<{ seq: number }>(
    `WITH keys AS (
       SELECT DISTINCT account_id, root_uri, name FROM skill_revisions
       WHERE superseded_at IS NOT NULL AND superseded_at <= $1),
     ranked AS (
       SELECT r.seq, r.superseded_at, r.account_id, r.root_uri, r.name,
         row_number() OVER w AS rank, max(r.superseded_at) OVER w AS deleted_at
       FROM skill_revisions r JOIN keys k
         ON k.account_id = r.account_id AND k.root_uri = r.root_uri AND k.name = r.name
       WINDOW w AS (PARTITION BY r.account_id, r.root_uri, r.name ORDER BY r.seq DESC
                    ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
     SELECT seq FROM ranked
     WHERE superseded_at IS NOT NULL AND superseded_at <= $1
       AND CASE WHEN EXISTS (SELECT 1 FROM skills s WHERE s.account_id = ranked.account_id
                             AND s.root_uri = ranked.root_uri AND s.name = ranked.name)
           THEN rank > $2 ELSE deleted_at <= $1 END
     ORDER BY seq LIMIT $3`,
    [cutoff, keepLast, max],
  );
  return rows.map((r) => r.seq);
}

/**
 * The body of `Store.pruneHistory` on PostgreSQL (inside one transaction): deletes the history
 * entries the policy no longer keeps, then the blobs that lost their last reference with them.
 *
 * @returns what was deleted; `more` when `maxRevisions` entries were deleted (there may be more)
 */
export async function pruneHistoryTx(
  client: pg.ClientBase,
  policy: RetentionPolicy,
  now: number,
  options: { scope?: SkillKey; deletedOf?: string; maxRevisions?: number },
): Promise<PruneResult> {
  const max = Math.max(1, Math.floor(options.maxRevisions ?? 1000));
  let seqs: number[];
  if (options.deletedOf !== undefined) {
    const keep = keepDeletedOf(policy);
    if (keep === null) return { revisions: 0, blobs: 0, bytes: 0, more: false };
    seqs = await revisionsPastDeletedCap(client, options.deletedOf, keep, max);
  } else {
    // Kept forever by time and not capped by count (or a sweep, which applies no cap): nothing goes.
    const capped = options.scope !== undefined && keepMostOf(policy, 1) < NO_LIMIT;
    if (!Number.isFinite(policy.keepForMs) && !capped)
      return { revisions: 0, blobs: 0, bytes: 0, more: false };
    seqs = await prunableRevisions(client, policy, now, options.scope, max);
  }
  if (seqs.length === 0) return { revisions: 0, blobs: 0, bytes: 0, more: false };
  const { rows } = await client.query<{ sha256: string }>(
    `WITH refs AS (SELECT sha256 FROM skill_revision_blobs WHERE revision_seq = ANY($1::bigint[])),
       gone AS (DELETE FROM skill_revisions WHERE seq = ANY($1::bigint[]))
     SELECT DISTINCT sha256 FROM refs`,
    [seqs],
  );
  const freed = await deleteOrphanBlobs(
    client,
    rows.map((r) => r.sha256),
  );
  return { revisions: seqs.length, blobs: freed.blobs, bytes: freed.bytes, more: seqs.length === max };
}

interface ChangeRow {
  seq: number;
  root_uri: string;
  name: string;
  revision: string;
  deleted: boolean;
  changed_at: number;
  s_seq: number | null;
  id: string | null;
  account_id: string | null;
  description: string | null;
  tags: string | null;
  allowed_tools: string | null;
  s_revision: string | null;
  created_at: number | null;
  updated_at: number | null;
  top: number | null;
}

function toChange(row: ChangeRow): ChangeFeedEntry {
  const live = !row.deleted && row.id !== null;
  const skill = live
    ? toSkillRecord({
        seq: row.s_seq as number,
        id: row.id as string,
        account_id: row.account_id as string,
        root_uri: row.root_uri,
        name: row.name,
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
    deleted: row.deleted,
    changedAt: row.changed_at,
    skill,
  };
}

/** `Store.listChanges` on PostgreSQL: one statement, so the page and `lastSeq` come from one snapshot. */
export async function listChanges(
  db: Queryable,
  accountId: string,
  rootUris: readonly string[],
  options: { afterSeq: number; since: number | null; limit: number },
): Promise<ChangeFeedPage> {
  const afterSeq = Math.max(0, Math.floor(options.afterSeq));
  const limit = Math.max(0, Math.floor(options.limit));
  if (rootUris.length === 0) return { changes: [], lastSeq: afterSeq, more: false };
  const { rows } = await db.query<ChangeRow>(
    `WITH top AS (SELECT max(seq) AS top FROM skill_changes WHERE account_id = $1),
       page AS (
         SELECT c.seq, c.root_uri, c.name, c.revision, c.deleted, c.changed_at, s.seq AS s_seq, s.id,
           s.account_id, s.description, s.tags, s.allowed_tools, s.revision AS s_revision, s.created_at,
           s.updated_at
         FROM skill_changes c LEFT JOIN skills s
           ON NOT c.deleted AND s.account_id = c.account_id AND s.root_uri = c.root_uri AND s.name = c.name
         WHERE c.account_id = $1 AND c.seq > $2 AND c.root_uri = ANY($3::text[]) AND c.changed_at >= $4
         ORDER BY c.seq LIMIT $5)
     SELECT page.*, top.top FROM top LEFT JOIN page ON true ORDER BY page.seq`,
    [accountId, afterSeq, [...rootUris], options.since ?? Number.MIN_SAFE_INTEGER, limit + 1],
  );
  const top = rows[0]?.top ?? 0;
  const found = rows.filter((row) => row.seq !== null);
  const more = found.length > limit;
  const changes = found.slice(0, limit).map(toChange);
  if (more) return { changes, lastSeq: changes.at(-1)?.seq ?? afterSeq, more };
  return { changes, lastSeq: Math.max(afterSeq, top), more: false };
}

/**
 * Fills the change feed from scratch (after a database import): every live skill at its last write,
 * and every deleted skill whose history is kept at its deletion, numbered in time order per account.
 * Runs in the caller's transaction.
 */
export async function rebuildChangeFeed(client: pg.ClientBase): Promise<void> {
  await client.query(`DELETE FROM skill_changes; DELETE FROM skill_feed_counters;`);
  await client.query(
    `INSERT INTO skill_changes (account_id, root_uri, name, seq, revision, deleted, changed_at)
     SELECT account_id, root_uri, name,
       row_number() OVER (PARTITION BY account_id ORDER BY changed_at, tie), revision, deleted, changed_at
     FROM (
       SELECT account_id, root_uri, name, revision, false AS deleted, updated_at AS changed_at, seq AS tie
         FROM skills
       UNION ALL
       SELECT r.account_id, r.root_uri, r.name, r.revision, true, r.superseded_at, r.seq
         FROM skill_revisions r
         WHERE r.seq = (SELECT max(seq) FROM skill_revisions x
                        WHERE x.account_id = r.account_id AND x.root_uri = r.root_uri AND x.name = r.name)
           AND NOT EXISTS (SELECT 1 FROM skills s
                           WHERE s.account_id = r.account_id AND s.root_uri = r.root_uri AND s.name = r.name)
     ) AS latest`,
  );
  await client.query(
    'INSERT INTO skill_feed_counters (account_id, seq) SELECT account_id, max(seq) FROM skill_changes GROUP BY account_id',
  );
}
