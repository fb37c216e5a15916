import { randomUUID } from 'node:crypto';
import {
  type ClaimedTask,
  OVERVIEW_PATH,
  type QueueCounts,
  type TaskCancelOutcome,
  type TaskLease,
  type TaskListFilter,
  type TaskRecord,
} from '../types.js';
import type { Connection } from './connection.js';
import { type SkillRow, type TaskRow, toTaskRecord } from './rows.js';
import { deleteOrphanBlobs, putBlob, writeSearchRow } from './skill-writes.js';

/**
 * `Store.claimTask` (inside an IMMEDIATE transaction, so two processes on one file never claim the
 * same task), in this order: a `running` task whose lease expired (taken over); else the due retry or
 * released task (`fair_round` NULL) with the earliest `run_at`; else the next new job in fair order
 * (see `fairRoundOfNewTask` in `skill-writes.ts`): lowest `fair_round`, a waiting write (`priority` 0) before
 * other work of the same round, then enqueue order. Each is a probe of its own index (the partial ones
 * hold pending tasks only), whatever the backlog. The claim gets a fresh token; `attempts` grows by one.
 */
export function claimTaskTx(
  conn: Connection,
  now: number,
  options: { owner: string; leaseMs: number },
): ClaimedTask | null {
  const row = (conn
    .stmt(
      `SELECT seq FROM tasks WHERE status = 'running' AND lease_expires_at <= ? ORDER BY lease_expires_at, seq LIMIT 1`,
    )
    .get(now) ??
    conn
      .stmt(
        `SELECT seq FROM tasks INDEXED BY tasks_retry_due
           WHERE status = 'pending' AND fair_round IS NULL AND run_at <= ? ORDER BY run_at, seq LIMIT 1`,
      )
      .get(now) ??
    conn
      .stmt(
        `SELECT seq FROM tasks INDEXED BY tasks_fair_order
           WHERE status = 'pending' AND fair_round IS NOT NULL AND run_at <= ?
           ORDER BY fair_round, priority, seq LIMIT 1`,
      )
      .get(now)) as { seq: number } | undefined;
  if (row === undefined) return null;
  const lease = {
    token: randomUUID(),
    owner: options.owner,
    expiresAt: now + Math.max(1, options.leaseMs),
  };
  conn
    .stmt(
      `UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = ?, updated_at = ?,
         lease_owner = ?, lease_token = ?, lease_expires_at = ? WHERE seq = ?`,
    )
    .run(now, now, lease.owner, lease.token, lease.expiresAt, row.seq);
  const task = toTaskRecord(conn.stmt('SELECT * FROM tasks WHERE seq = ?').get(row.seq) as TaskRow);
  return { ...task, lease: { taskId: task.id, ...lease } };
}

/** `Store.expireLeases` (inside one transaction): leases of the owners `isGone` names end at `now`. */
export function expireLeasesTx(conn: Connection, isGone: (owner: string) => boolean, now: number): number {
  const owners = conn
    .stmt(
      `SELECT DISTINCT lease_owner AS owner FROM tasks WHERE status = 'running' AND lease_owner IS NOT NULL`,
    )
    .all() as Array<{ owner: string }>;
  let ended = 0;
  const expire = conn.stmt(
    `UPDATE tasks SET lease_expires_at = ? WHERE status = 'running' AND lease_owner = ? AND lease_expires_at > ?`,
  );
  for (const { owner } of owners) if (isGone(owner)) ended += expire.run(now, owner, now).changes;
  return ended;
}

/** The task row while `lease` is held (running, same token), else undefined. */
function heldTaskRow(conn: Connection, lease: TaskLease): TaskRow | undefined {
  return conn
    .stmt(`SELECT * FROM tasks WHERE id = ? AND status = 'running' AND lease_token = ?`)
    .get(lease.taskId, lease.token) as TaskRow | undefined;
}

/** `Store.renewTaskLease`: moves the lease end while it is held. */
export function renewTaskLeaseTx(conn: Connection, lease: TaskLease, expiresAt: number): boolean {
  return (
    conn
      .stmt(`UPDATE tasks SET lease_expires_at = ? WHERE id = ? AND status = 'running' AND lease_token = ?`)
      .run(expiresAt, lease.taskId, lease.token).changes === 1
  );
}

/**
 * `Store.completeTask` (inside one transaction): while `lease` is held, writes the overview
 * (`skills.overview`, the `.overview.md` file row, the search row) when the skill still exists at the
 * expected revision, then marks the task completed.
 *
 * @returns whether the task was completed (false: lease lost, nothing written)
 */
export function completeTaskTx(
  conn: Connection,
  lease: TaskLease,
  output: { overview: string | null; revision?: string; result: Record<string, unknown> },
  now: number,
): boolean {
  const task = heldTaskRow(conn, lease);
  if (task === undefined) return false;
  const skill = conn.stmt('SELECT * FROM skills WHERE id = ?').get(task.skill_id) as SkillRow | undefined;
  const current =
    skill !== undefined && (output.revision === undefined || output.revision === skill.revision);
  if (current && output.overview !== null) {
    const content = new TextEncoder().encode(output.overview);
    const sha256 = putBlob(conn, content);
    const previous = conn
      .stmt('SELECT sha256 FROM skill_files WHERE skill_seq = ? AND path = ?')
      .get(skill.seq, OVERVIEW_PATH) as { sha256: string } | undefined;
    conn
      .stmt('UPDATE skills SET overview = ?, overview_revision = ? WHERE seq = ?')
      .run(output.overview, skill.revision, skill.seq);
    conn
      .stmt(
        `INSERT INTO skill_files (skill_seq, path, kind, size, sha256) VALUES (?, ?, 'summary', ?, ?)
         ON CONFLICT (skill_seq, path) DO UPDATE SET kind = excluded.kind, size = excluded.size, sha256 = excluded.sha256`,
      )
      .run(skill.seq, OVERVIEW_PATH, content.byteLength, sha256);
    writeSearchRow(conn, { ...skill, overview: output.overview });
    // An overview written again (another job run) drops the previous one's content.
    if (previous !== undefined && previous.sha256 !== sha256) deleteOrphanBlobs(conn, [previous.sha256]);
  }
  conn
    .stmt(
      `UPDATE tasks SET status = 'completed', result = ?, error = NULL, updated_at = ?,
         lease_token = NULL, lease_expires_at = NULL WHERE seq = ?`,
    )
    .run(JSON.stringify(output.result), now, task.seq);
  return true;
}

/**
 * `Store.failTask`: back to `pending` at `retryAt`, or `failed` when `retryAt` is null (lease holder
 * only). A retry leaves the fair order (`fair_round` NULL): it runs once `retryAt` has come, before new
 * jobs, as every job waiting for its time does.
 */
export function failTaskTx(
  conn: Connection,
  lease: TaskLease,
  error: string,
  retryAt: number | null,
  now: number,
): boolean {
  const task = heldTaskRow(conn, lease);
  if (task === undefined) return false;
  conn
    .stmt(
      `UPDATE tasks SET status = ?, run_at = ?, error = ?, updated_at = ?,
         lease_token = NULL, lease_expires_at = NULL, fair_round = NULL WHERE seq = ?`,
    )
    .run(retryAt === null ? 'failed' : 'pending', retryAt ?? task.run_at, error, now, task.seq);
  return true;
}

/**
 * `Store.releaseTask`: `pending` again and runnable now, the attempt not counted (lease holder only);
 * like a retry it runs by `run_at`, before new jobs (it was claimed already once).
 */
export function releaseTaskTx(conn: Connection, lease: TaskLease, now: number): boolean {
  return (
    conn
      .stmt(
        `UPDATE tasks SET status = 'pending', run_at = min(run_at, ?), attempts = max(0, attempts - 1),
           updated_at = ?, lease_token = NULL, lease_expires_at = NULL, fair_round = NULL
         WHERE id = ? AND status = 'running' AND lease_token = ?`,
      )
      .run(now, now, lease.taskId, lease.token).changes === 1
  );
}

/** Task columns plus the URI of its skill (null once the skill is deleted). */
const TASK_WITH_SKILL = `SELECT t.*, CASE WHEN s.seq IS NULL THEN NULL ELSE s.root_uri || '/' || s.name END AS skill_uri
  FROM tasks t LEFT JOIN skills s ON s.id = t.skill_id`;

function withSkillUri(row: TaskRow & { skill_uri: string | null }): TaskRecord {
  return { ...toTaskRecord(row), skillUri: row.skill_uri };
}

/** `Store.getTask`: only the caller's own task. */
export function getTask(
  conn: Connection,
  accountId: string,
  userId: string,
  taskId: string,
): TaskRecord | null {
  const row = conn
    .stmt(`${TASK_WITH_SKILL} WHERE t.id = ? AND t.account_id = ? AND t.user_id = ?`)
    .get(taskId, accountId, userId) as (TaskRow & { skill_uri: string | null }) | undefined;
  return row === undefined ? null : withSkillUri(row);
}

/** `Store.listTasks`: the caller's tasks, newest first, filtered. */
export function listTasks(
  conn: Connection,
  accountId: string,
  userId: string,
  filter: TaskListFilter,
): TaskRecord[] {
  const where = ['t.account_id = ?', 't.user_id = ?'];
  const params: Array<string | number> = [accountId, userId];
  if (filter.type !== undefined) {
    where.push('t.type = ?');
    params.push(filter.type);
  }
  if (filter.status !== undefined) {
    where.push('t.status = ?');
    params.push(filter.status);
  }
  if (filter.skillUri !== undefined) {
    where.push(`s.root_uri || '/' || s.name = ?`);
    params.push(filter.skillUri);
  }
  const limit = Math.max(1, Math.min(200, Math.trunc(filter.limit)));
  const rows = conn
    .stmt(`${TASK_WITH_SKILL} WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC, t.seq DESC LIMIT ?`)
    .all(...params, limit) as Array<TaskRow & { skill_uri: string | null }>;
  return rows.map(withSkillUri);
}

/** `Store.cancelTask` (inside a write transaction): `pending` → `cancelled`; anything else unchanged. */
export function cancelTaskTx(
  conn: Connection,
  accountId: string,
  userId: string,
  taskId: string,
  now: number,
): TaskCancelOutcome | null {
  const changed =
    conn
      .stmt(
        `UPDATE tasks SET status = 'cancelled', updated_at = ?, error = NULL
           WHERE id = ? AND account_id = ? AND user_id = ? AND status = 'pending'`,
      )
      .run(now, taskId, accountId, userId).changes === 1;
  const task = getTask(conn, accountId, userId, taskId);
  if (task === null) return null;
  return { outcome: changed ? 'cancelled' : 'unchanged', task };
}

/** `Store.queueCounts`: the caller's tasks by status, optionally only the given ids. */
export function queueCounts(
  conn: Connection,
  accountId: string,
  userId: string,
  taskIds?: readonly string[],
): QueueCounts {
  const counts: QueueCounts = { pending: 0, processing: 0, completed: 0, failed: 0 };
  let rows: Array<{ status: string; n: number }>;
  if (taskIds === undefined) {
    rows = conn
      .stmt('SELECT status, count(*) AS n FROM tasks WHERE account_id = ? AND user_id = ? GROUP BY status')
      .all(accountId, userId) as Array<{ status: string; n: number }>;
  } else {
    if (taskIds.length === 0) return counts;
    rows = conn
      .stmt(
        `SELECT status, count(*) AS n FROM tasks WHERE account_id = ? AND user_id = ?
           AND id IN (SELECT value FROM json_each(?)) GROUP BY status`,
      )
      .all(accountId, userId, JSON.stringify(taskIds)) as Array<{ status: string; n: number }>;
  }
  for (const { status, n } of rows) {
    if (status === 'pending') counts.pending = n;
    else if (status === 'running') counts.processing = n;
    else if (status === 'completed') counts.completed = n;
    else if (status === 'failed') counts.failed = n;
  }
  return counts;
}

/** `Store.purgeFinishedTasks`: deletes finished tasks not updated since `olderThan`. */
export function purgeFinishedTasks(conn: Connection, olderThan: number): number {
  return conn
    .stmt(`DELETE FROM tasks WHERE status IN ('completed', 'failed', 'cancelled') AND updated_at < ?`)
    .run(olderThan).changes;
}
