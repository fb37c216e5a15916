/**
 * Tasks and the queue observer (the OpenAPI document: `GET /api/v1/tasks/{task_id}`, `POST /api/v1/system/wait`, `GET /health`).
 */
import {
  type ComponentStatus,
  SkillportError,
  type SystemStatus,
  type TaskListQuery,
  type TaskResult,
} from '@skillport/core';
import type { Identity, TaskListFilter, TaskRecord, TaskStatus, TaskType } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

const TASK_TYPES: readonly TaskType[] = ['add_skill', 'update_skill'];
const TASK_STATUSES: readonly TaskStatus[] = ['pending', 'running', 'completed', 'failed', 'cancelled'];
/** Default and largest `limit` of `GET /api/v1/tasks` (as the seed server: 50, at most 200). */
export const TASK_LIST_DEFAULT_LIMIT = 50;
export const TASK_LIST_MAX_LIMIT = 200;

/** A stored task as the wire result. */
export function toTaskResult(task: TaskRecord): TaskResult {
  const out: TaskResult = {
    task_id: task.id,
    task_type: task.type,
    status: task.status,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
  };
  if (task.skillUri !== undefined) out.resource_id = task.skillUri;
  if (task.result) out.result = task.result;
  if (task.error) out.error = task.error;
  return out;
}

function notFound(taskId: string): SkillportError {
  return new SkillportError('NOT_FOUND', `Task ${JSON.stringify(taskId.slice(0, 80))} not found`, {
    details: { type: 'task', resource: taskId.slice(0, 200) },
  });
}

/**
 * The caller's tasks, newest first. A `task_type` or `status` outside the known values matches no task
 * (as a filter on the seed server does); `limit` defaults to 50.
 *
 * @throws SkillportError `INVALID_ARGUMENT` (`details.field = "limit"`) for a limit outside 1–200
 */
export async function listTasks(
  deps: ServiceDeps,
  identity: Identity,
  query: TaskListQuery,
): Promise<TaskResult[]> {
  const limit = query.limit === undefined ? TASK_LIST_DEFAULT_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > TASK_LIST_MAX_LIMIT) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `limit must be an integer from 1 to ${TASK_LIST_MAX_LIMIT}, got ${JSON.stringify(query.limit)}`,
      {
        details: { field: 'limit' },
      },
    );
  }
  const type = query.task_type?.trim();
  const status = query.status?.trim();
  if (
    (type && !TASK_TYPES.includes(type as TaskType)) ||
    (status && !TASK_STATUSES.includes(status as TaskStatus))
  ) {
    return [];
  }
  const filter: TaskListFilter = { limit };
  if (type) filter.type = type as TaskType;
  if (status) filter.status = status as TaskStatus;
  if (query.resource_id?.trim()) filter.skillUri = query.resource_id.trim().replace(/\/+$/, '');
  const tasks = await deps.store.listTasks(identity.accountId, identity.userId, filter);
  return tasks.map(toTaskResult);
}

/**
 * Cancels one of the caller's tasks while it is pending: it is never run, and the skill keeps the
 * overview and search entry it had (a new skill is not findable until it is updated). Cancelling a
 * cancelled task returns it unchanged.
 *
 * @throws SkillportError `NOT_FOUND` for unknown ids and other users' tasks; `CONFLICT` (409,
 *   `details {task_id, status}`) when the task is running or finished
 */
export async function cancelTask(deps: ServiceDeps, identity: Identity, taskId: string): Promise<TaskResult> {
  if (taskId.includes('\u0000')) throw notFound(taskId); // no id holds one (PostgreSQL text cannot)
  const outcome = await deps.store.cancelTask(identity.accountId, identity.userId, taskId, deps.now());
  if (outcome === null) throw notFound(taskId);
  const { task } = outcome;
  if (outcome.outcome === 'unchanged' && task.status !== 'cancelled') {
    throw new SkillportError(
      'CONFLICT',
      `Task ${task.id} is ${task.status} and can no longer be cancelled; only pending tasks can`,
      { details: { task_id: task.id, status: task.status } },
    );
  }
  return toTaskResult(task);
}

/**
 * The server's state as the caller sees it: the database (`store`), the caller's processing queue
 * (`queue`) and whether this server runs processing jobs (`jobs`).
 */
export async function systemStatus(deps: ServiceDeps, identity: Identity): Promise<SystemStatus> {
  const components: Record<string, ComponentStatus> = {};
  try {
    const counts = await deps.store.queueCounts(identity.accountId, identity.userId);
    components.store = { name: 'store', is_healthy: true, has_errors: false, status: 'the database answers' };
    components.queue = {
      name: 'queue',
      is_healthy: true,
      has_errors: counts.failed > 0,
      status: `${counts.pending} pending, ${counts.processing} processing, ${counts.completed} completed, ${counts.failed} failed`,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    components.store = {
      name: 'store',
      is_healthy: false,
      has_errors: true,
      status: `not answering: ${message}`,
    };
    components.queue = {
      name: 'queue',
      is_healthy: false,
      has_errors: true,
      status: 'unknown: the store is not answering',
    };
  }
  components.jobs = {
    name: 'jobs',
    is_healthy: true,
    has_errors: false,
    status:
      deps.waitForJobs === null
        ? 'this server runs no processing jobs; other servers on the same database do'
        : 'this server runs processing jobs',
  };
  const errors = Object.values(components)
    .filter((c) => !c.is_healthy)
    .map((c) => `${c.name}: ${c.status}`);
  return { is_healthy: errors.length === 0, errors, components };
}

/**
 * One of the caller's tasks.
 *
 * @throws SkillportError `NOT_FOUND` (`details {type: 'task', resource}`) for unknown ids and other users' tasks
 */
export async function getTask(deps: ServiceDeps, identity: Identity, taskId: string): Promise<TaskResult> {
  if (taskId.includes('\u0000')) throw notFound(taskId); // no id holds one (PostgreSQL text cannot)
  const task = await deps.store.getTask(identity.accountId, identity.userId, taskId);
  if (!task) throw notFound(taskId);
  return toTaskResult(task);
}
