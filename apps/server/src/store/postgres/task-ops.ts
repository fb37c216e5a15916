import type pg from 'pg';
import { sha256Hex } from '../revision.js';
import { type SkillRow, type TaskRow, toTaskRecord } from '../sqlite/rows.js';
import { OVERVIEW_PATH, type QueueCounts, type TaskRecord } from '../types.js';
import { putBlobs, SKILL_COLUMNS, searchVector } from './skill-writes.js';

type Queryable = pg.Pool | pg.ClientBase;

/**
 * `Store.claimTask` on PostgreSQL: the oldest runnable task becomes `running`, in one statement.
 * `FOR UPDATE SKIP LOCKED` makes concurrent claimers (other replicas) skip a row being claimed instead
 * of waiting for it, so two processes never claim the same task.
 */
export async function claimTask(db: Queryable, now: number): Promise<TaskRecord | null> {
  const { rows } = await db.query<TaskRow>(
    `UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = $1, updated_at = $1
     WHERE seq = (
       SELECT seq FROM tasks WHERE status = 'pending' AND run_at <= $1 ORDER BY run_at, seq
       LIMIT 1 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now],
  );
  return rows[0] === undefined ? null : toTaskRecord(rows[0]);
}

/** The task row, locked; throws when unknown or already finished. */
async function lockOpenTask(client: pg.ClientBase, taskId: string): Promise<TaskRow> {
  const { rows } = await client.query<TaskRow>('SELECT * FROM tasks WHERE id = $1 FOR UPDATE', [taskId]);
  const row = rows[0];
  if (row === undefined) throw new Error(`Unknown task ${JSON.stringify(taskId)}`);
  if (row.status === 'completed' || row.status === 'failed') {
    throw new Error(`Task ${taskId} is already ${row.status}`);
  }
  return row;
}

/**
 * `Store.completeTask` on PostgreSQL (inside one transaction): writes the overview (column, the
 * `.overview.md` file row, the search vector) when the skill still exists at the expected revision,
 * then marks the task completed.
 *
 * @returns whether the overview was written
 * @throws Error when the task is unknown or already finished
 */
export async function completeTaskTx(
  client: pg.ClientBase,
  taskId: string,
  output: { overview: string | null; revision?: string; result: Record<string, unknown> },
  now: number,
): Promise<boolean> {
  const task = await lockOpenTask(client, taskId);
  const found = await client.query<SkillRow>(`SELECT ${SKILL_COLUMNS} FROM skills WHERE id = $1 FOR UPDATE`, [
    task.skill_id,
  ]);
  const skill = found.rows[0];
  const current =
    skill !== undefined && (output.revision === undefined || output.revision === skill.revision);
  const written = current && output.overview !== null;
  if (written && skill !== undefined && output.overview !== null) {
    const content = new TextEncoder().encode(output.overview);
    const sha256 = sha256Hex(content);
    await putBlobs(client, [{ sha256, content }]);
    const search = searchVector({
      name: skill.name,
      tags: JSON.parse(skill.tags) as string[],
      description: skill.description,
      overview: output.overview,
      body: skill.body,
    });
    await client.query(
      'UPDATE skills SET overview = $1, overview_revision = $2, search = $3::tsvector WHERE seq = $4',
      [output.overview, skill.revision, search, skill.seq],
    );
    await client.query(
      `INSERT INTO skill_files (skill_seq, path, kind, size, sha256) VALUES ($1, $2, 'summary', $3, $4)
       ON CONFLICT (skill_seq, path) DO UPDATE SET kind = excluded.kind, size = excluded.size, sha256 = excluded.sha256`,
      [skill.seq, OVERVIEW_PATH, content.byteLength, sha256],
    );
  }
  await client.query(
    `UPDATE tasks SET status = 'completed', result = $1, error = NULL, updated_at = $2 WHERE seq = $3`,
    [JSON.stringify(output.result), now, task.seq],
  );
  return written;
}

/** `Store.failTask` (inside a transaction): back to `pending` at `retryAt`, or `failed` when null. */
export async function failTaskTx(
  client: pg.ClientBase,
  taskId: string,
  error: string,
  retryAt: number | null,
  now: number,
): Promise<void> {
  const task = await lockOpenTask(client, taskId);
  await client.query(
    'UPDATE tasks SET status = $1, run_at = $2, error = $3, updated_at = $4 WHERE seq = $5',
    [retryAt === null ? 'failed' : 'pending', retryAt ?? task.run_at, error, now, task.seq],
  );
}

/** `Store.getTask`: only the caller's own task. */
export async function getTask(
  db: Queryable,
  accountId: string,
  userId: string,
  taskId: string,
): Promise<TaskRecord | null> {
  const { rows } = await db.query<TaskRow>(
    'SELECT * FROM tasks WHERE id = $1 AND account_id = $2 AND user_id = $3',
    [taskId, accountId, userId],
  );
  return rows[0] === undefined ? null : toTaskRecord(rows[0]);
}

/** `Store.queueCounts`: the caller's tasks by status, optionally only the given ids. */
export async function queueCounts(
  db: Queryable,
  accountId: string,
  userId: string,
  taskIds?: readonly string[],
): Promise<QueueCounts> {
  const counts: QueueCounts = { pending: 0, processing: 0, completed: 0, failed: 0 };
  if (taskIds !== undefined && taskIds.length === 0) return counts;
  const { rows } =
    taskIds === undefined
      ? await db.query<{ status: string; n: number }>(
          'SELECT status, count(*) AS n FROM tasks WHERE account_id = $1 AND user_id = $2 GROUP BY status',
          [accountId, userId],
        )
      : await db.query<{ status: string; n: number }>(
          `SELECT status, count(*) AS n FROM tasks WHERE account_id = $1 AND user_id = $2 AND id = ANY($3::text[])
           GROUP BY status`,
          [accountId, userId, [...taskIds]],
        );
  for (const { status, n } of rows) {
    if (status === 'pending') counts.pending = n;
    else if (status === 'running') counts.processing = n;
    else if (status === 'completed') counts.completed = n;
    else if (status === 'failed') counts.failed = n;
  }
  return counts;
}

/** `Store.purgeFinishedTasks`: deletes finished tasks not updated since `olderThan`. */
export async function purgeFinishedTasks(db: Queryable, olderThan: number): Promise<number> {
  const result = await db.query(
    `DELETE FROM tasks WHERE status IN ('completed', 'failed') AND updated_at < $1`,
    [olderThan],
  );
  return result.rowCount ?? 0;
}

/** `Store.requeueStaleTasks`: `running` tasks claimed before `olderThan` go back to `pending` now. */
export async function requeueStaleTasks(db: Queryable, olderThan: number, now: number): Promise<number> {
  const result = await db.query(
    `UPDATE tasks SET status = 'pending', run_at = $1, updated_at = $1
     WHERE status = 'running' AND (started_at IS NULL OR started_at < $2)`,
    [now, olderThan],
  );
  return result.rowCount ?? 0;
}
