import { OVERVIEW_PATH, type QueueCounts, type TaskRecord } from '../types.js';
import type { Connection } from './connection.js';
import { type SkillRow, type TaskRow, toTaskRecord } from './rows.js';
import { putBlob, writeSearchRow } from './skill-writes.js';

/** `Store.claimTask` (inside an IMMEDIATE transaction): the oldest runnable task becomes `running`. */
export function claimTaskTx(conn: Connection, now: number): TaskRecord | null {
  const row = conn
    .stmt(`SELECT * FROM tasks WHERE status = 'pending' AND run_at <= ? ORDER BY run_at, seq LIMIT 1`)
    .get(now) as TaskRow | undefined;
  if (row === undefined) return null;
  conn
    .stmt(
      `UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = ?, updated_at = ? WHERE seq = ?`,
    )
    .run(now, now, row.seq);
  return toTaskRecord(conn.stmt('SELECT * FROM tasks WHERE seq = ?').get(row.seq) as TaskRow);
}

function getTaskRow(conn: Connection, taskId: string): TaskRow {
  const row = conn.stmt('SELECT * FROM tasks WHERE id = ?').get(taskId) as TaskRow | undefined;
  if (row === undefined) throw new Error(`Unknown task ${JSON.stringify(taskId)}`);
  if (row.status === 'completed' || row.status === 'failed') {
    throw new Error(`Task ${taskId} is already ${row.status}`);
  }
  return row;
}

/**
 * `Store.completeTask` (inside one transaction): writes the overview (`skills.overview`, the
 * `.overview.md` file row, the search row) when the skill still exists at the expected revision, then
 * marks the task completed.
 *
 * @returns whether the overview was written
 * @throws Error when the task is unknown or already finished
 */
export function completeTaskTx(
  conn: Connection,
  taskId: string,
  output: { overview: string | null; revision?: string; result: Record<string, unknown> },
  now: number,
): boolean {
  const task = getTaskRow(conn, taskId);
  const skill = conn.stmt('SELECT * FROM skills WHERE id = ?').get(task.skill_id) as SkillRow | undefined;
  const current =
    skill !== undefined && (output.revision === undefined || output.revision === skill.revision);
  if (current && output.overview !== null) {
    const content = new TextEncoder().encode(output.overview);
    const sha256 = putBlob(conn, content);
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
  }
  conn
    .stmt(`UPDATE tasks SET status = 'completed', result = ?, error = NULL, updated_at = ? WHERE seq = ?`)
    .run(JSON.stringify(output.result), now, task.seq);
  return current && output.overview !== null;
}

/** `Store.failTask`: back to `pending` at `retryAt`, or `failed` when `retryAt` is null. */
export function failTaskTx(
  conn: Connection,
  taskId: string,
  error: string,
  retryAt: number | null,
  now: number,
): void {
  const task = getTaskRow(conn, taskId);
  conn
    .stmt(`UPDATE tasks SET status = ?, run_at = ?, error = ?, updated_at = ? WHERE seq = ?`)
    .run(retryAt === null ? 'failed' : 'pending', retryAt ?? task.run_at, error, now, task.seq);
}

/** `Store.getTask`: only the caller's own task. */
export function getTask(
  conn: Connection,
  accountId: string,
  userId: string,
  taskId: string,
): TaskRecord | null {
  const row = conn
    .stmt('SELECT * FROM tasks WHERE id = ? AND account_id = ? AND user_id = ?')
    .get(taskId, accountId, userId) as TaskRow | undefined;
  return row === undefined ? null : toTaskRecord(row);
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
    .stmt(`DELETE FROM tasks WHERE status IN ('completed', 'failed') AND updated_at < ?`)
    .run(olderThan).changes;
}

/** `Store.requeueStaleTasks`: `running` tasks claimed before `olderThan` go back to `pending` now. */
export function requeueStaleTasks(conn: Connection, olderThan: number, now: number): number {
  return conn
    .stmt(
      `UPDATE tasks SET status = 'pending', run_at = ?, updated_at = ?
       WHERE status = 'running' AND (started_at IS NULL OR started_at < ?)`,
    )
    .run(now, now, olderThan).changes;
}
