import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { sha256Hex } from '../revision.js';
import { type SkillRow, type TaskRow, toTaskRecord } from '../sqlite/rows.js';
import {
  type ClaimedTask,
  OVERVIEW_PATH,
  type QueueCounts,
  type TaskCancelOutcome,
  type TaskLease,
  type TaskListFilter,
  type TaskRecord,
} from '../types.js';
import { deleteOrphanBlobs } from './history-ops.js';
import { putBlobs, SKILL_COLUMNS, searchVector } from './skill-writes.js';

type Queryable = pg.Pool | pg.ClientBase;

/**
 * `Store.claimTask` on PostgreSQL, in one statement: a `running` task whose lease expired (its
 * replica died or stalled) is taken over first; else the due retry or released task (`fair_round`
 * NULL) with the earliest `run_at`; else the next new job in fair order (see
 * `fairRoundOfNewTask` in `skill-writes.ts`): lowest `fair_round`, a waiting write (`priority` 0) before other work
 * of the same round, then enqueue order. Each is a probe of its own partial index, whatever the
 * backlog. The task becomes `running` with a fresh lease token, `attempts` + 1. `FOR UPDATE SKIP
 * LOCKED` makes concurrent claimers (other replicas) skip a row being claimed instead of waiting for
 * it, so two processes never claim the same task.
 */
export async function claimTask(
  db: Queryable,
  now: number,
  options: { owner: string; leaseMs: number },
): Promise<ClaimedTask | null> {
  const lease = { token: randomUUID(), owner: options.owner, expiresAt: now + Math.max(1, options.leaseMs) };
  const { rows } = await db.query<TaskRow>(
    `UPDATE tasks SET status = 'running', attempts = attempts + 1, started_at = $1, updated_at = $1,
       lease_owner = $2, lease_token = $3, lease_expires_at = $4
     WHERE seq = coalesce(
       (SELECT seq FROM tasks WHERE status = 'running' AND lease_expires_at <= $1
        ORDER BY lease_expires_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED),
       (SELECT seq FROM tasks WHERE status = 'pending' AND fair_round IS NULL AND run_at <= $1
        ORDER BY run_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED),
       (SELECT seq FROM tasks WHERE status = 'pending' AND fair_round IS NOT NULL AND run_at <= $1
        ORDER BY fair_round, priority, seq LIMIT 1 FOR UPDATE SKIP LOCKED))
     RETURNING *`,
    [now, lease.owner, lease.token, lease.expiresAt],
  );
  const row = rows[0];
  if (row === undefined) return null;
  const task = toTaskRecord(row);
  return { ...task, lease: { taskId: task.id, ...lease } };
}

/** `Store.expireLeases`: leases of the owners `isGone` names end at `now` (one statement per gone owner). */
export async function expireLeases(
  db: Queryable,
  isGone: (owner: string) => boolean,
  now: number,
): Promise<number> {
  const { rows } = await db.query<{ owner: string }>(
    `SELECT DISTINCT lease_owner AS owner FROM tasks WHERE status = 'running' AND lease_owner IS NOT NULL`,
  );
  const gone = rows.map((row) => row.owner).filter((owner) => isGone(owner));
  if (gone.length === 0) return 0;
  const result = await db.query(
    `UPDATE tasks SET lease_expires_at = $1
     WHERE status = 'running' AND lease_owner = ANY($2::text[]) AND lease_expires_at > $1`,
    [now, gone],
  );
  return result.rowCount ?? 0;
}

/** The task row while `lease` is held (running, same token), locked; else undefined. */
async function lockHeldTask(client: pg.ClientBase, lease: TaskLease): Promise<TaskRow | undefined> {
  const { rows } = await client.query<TaskRow>(
    `SELECT * FROM tasks WHERE id = $1 AND status = 'running' AND lease_token = $2 FOR UPDATE`,
    [lease.taskId, lease.token],
  );
  return rows[0];
}

/** `Store.renewTaskLease`: moves the lease end while it is held. */
export async function renewTaskLease(db: Queryable, lease: TaskLease, expiresAt: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE tasks SET lease_expires_at = $1 WHERE id = $2 AND status = 'running' AND lease_token = $3`,
    [expiresAt, lease.taskId, lease.token],
  );
  return result.rowCount === 1;
}

/**
 * `Store.releaseTask`: `pending` again and runnable now, the attempt not counted (lease holder only);
 * like a retry it runs by `run_at`, before new jobs (it was claimed once already).
 */
export async function releaseTask(db: Queryable, lease: TaskLease, now: number): Promise<boolean> {
  const result = await db.query(
    `UPDATE tasks SET status = 'pending', run_at = least(run_at, $1), attempts = greatest(0, attempts - 1),
       updated_at = $1, lease_token = NULL, lease_expires_at = NULL, fair_round = NULL
     WHERE id = $2 AND status = 'running' AND lease_token = $3`,
    [now, lease.taskId, lease.token],
  );
  return result.rowCount === 1;
}

/**
 * `Store.completeTask` on PostgreSQL (inside one transaction): while `lease` is held, writes the
 * overview (column, the `.overview.md` file row, the search vector) when the skill still exists at the
 * expected revision, then marks the task completed.
 *
 * @returns whether the task was completed (false: lease lost, nothing written)
 */
export async function completeTaskTx(
  client: pg.ClientBase,
  lease: TaskLease,
  output: { overview: string | null; revision?: string; result: Record<string, unknown> },
  now: number,
): Promise<boolean> {
  const task = await lockHeldTask(client, lease);
  if (task === undefined) return false;
  const found = await client.query<SkillRow>(`SELECT ${SKILL_COLUMNS} FROM skills WHERE id = $1 FOR UPDATE`, [
    task.skill_id,
  ]);
  const skill = found.rows[0];
  const current =
    skill !== undefined && (output.revision === undefined || output.revision === skill.revision);
  if (current && skill !== undefined && output.overview !== null) {
    const content = new TextEncoder().encode(output.overview);
    const sha256 = sha256Hex(content);
    await putBlobs(client, [{ sha256, content }]);
    const previous = await client.query<{ sha256: string }>(
      'SELECT sha256 FROM skill_files WHERE skill_seq = $1 AND path = $2',
      [skill.seq, OVERVIEW_PATH],
    );
    const search = await searchVector({
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
    // An overview written again (another job run) drops the previous one's content.
    const before = previous.rows[0]?.sha256;
    if (before !== undefined && before !== sha256) await deleteOrphanBlobs(client, [before]);
  }
  await client.query(
    `UPDATE tasks SET status = 'completed', result = $1, error = NULL, updated_at = $2,
       lease_token = NULL, lease_expires_at = NULL WHERE seq = $3`,
    [JSON.stringify(output.result), now, task.seq],
  );
  return true;
}

/**
 * `Store.failTask`: back to `pending` at `retryAt`, or `failed` when null (lease holder only). A retry
 * leaves the fair order (`fair_round` NULL): it runs once `retryAt` has come, before new jobs.
 */
export async function failTaskTx(
  client: pg.ClientBase,
  lease: TaskLease,
  error: string,
  retryAt: number | null,
  now: number,
): Promise<boolean> {
  const task = await lockHeldTask(client, lease);
  if (task === undefined) return false;
  await client.query(
    `UPDATE tasks SET status = $1, run_at = $2, error = $3, updated_at = $4, lease_token = NULL,
       lease_expires_at = NULL, fair_round = NULL WHERE seq = $5`,
    [retryAt === null ? 'failed' : 'pending', retryAt ?? task.run_at, error, now, task.seq],
  );
  return true;
}

/** Task columns plus the URI of its skill (null once the skill is deleted). */
const TASK_WITH_SKILL = `SELECT t.*, CASE WHEN s.seq IS NULL THEN NULL ELSE s.root_uri || '/' || s.name END AS skill_uri
  FROM tasks t LEFT JOIN skills s ON s.id = t.skill_id`;

function withSkillUri(row: TaskRow & { skill_uri: string | null }): TaskRecord {
  return { ...toTaskRecord(row), skillUri: row.skill_uri };
}

/** `Store.getTask`: only the caller's own task. */
export async function getTask(
  db: Queryable,
  accountId: string,
  userId: string,
  taskId: string,
): Promise<TaskRecord | null> {
  const { rows } = await db.query<TaskRow & { skill_uri: string | null }>(
    `${TASK_WITH_SKILL} WHERE t.id = $1 AND t.account_id = $2 AND t.user_id = $3`,
    [taskId, accountId, userId],
  );
  return rows[0] === undefined ? null : withSkillUri(rows[0]);
}

/** `Store.listTasks`: the caller's tasks, newest first, filtered. */
export async function listTasks(
  db: Queryable,
  accountId: string,
  userId: string,
  filter: TaskListFilter,
): Promise<TaskRecord[]> {
  const where = ['t.account_id = $1', 't.user_id = $2'];
  const params: Array<string | number> = [accountId, userId];
  if (filter.type !== undefined) {
    params.push(filter.type);
    where.push(`t.type = $${params.length}`);
  }
  if (filter.status !== undefined) {
    params.push(filter.status);
    where.push(`t.status = $${params.length}`);
  }
  if (filter.skillUri !== undefined) {
    params.push(filter.skillUri);
    where.push(`s.root_uri || '/' || s.name = $${params.length}`);
  }
  params.push(Math.max(1, Math.min(200, Math.trunc(filter.limit))));
  const { rows } = await db.query<TaskRow & { skill_uri: string | null }>(
    `${TASK_WITH_SKILL} WHERE ${where.join(' AND ')} ORDER BY t.created_at DESC, t.seq DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(withSkillUri);
}

/** `Store.cancelTask`: `pending` → `cancelled` in one statement; anything else unchanged. */
export async function cancelTask(
  db: Queryable,
  accountId: string,
  userId: string,
  taskId: string,
  now: number,
): Promise<TaskCancelOutcome | null> {
  const result = await db.query(
    `UPDATE tasks SET status = 'cancelled', updated_at = $1, error = NULL
     WHERE id = $2 AND account_id = $3 AND user_id = $4 AND status = 'pending'`,
    [now, taskId, accountId, userId],
  );
  const task = await getTask(db, accountId, userId, taskId);
  if (task === null) return null;
  return { outcome: result.rowCount === 1 ? 'cancelled' : 'unchanged', task };
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
    `DELETE FROM tasks WHERE status IN ('completed', 'failed', 'cancelled') AND updated_at < $1`,
    [olderThan],
  );
  return result.rowCount ?? 0;
}
