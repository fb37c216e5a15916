/**
 * Tasks and the queue observer (the OpenAPI document: `GET /api/v1/tasks/{task_id}`, `POST /api/v1/system/wait`, `GET /health`).
 */
import { SkillportError, type TaskResult } from '@skillport/core';
import type { Identity, TaskRecord } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

/** A stored task as the wire result. */
export function toTaskResult(task: TaskRecord): TaskResult {
  const out: TaskResult = {
    task_id: task.id,
    task_type: task.type,
    status: task.status,
    created_at: new Date(task.createdAt).toISOString(),
    updated_at: new Date(task.updatedAt).toISOString(),
  };
  if (task.result) out.result = task.result;
  if (task.error) out.error = task.error;
  return out;
}

/**
 * One of the caller's tasks.
 *
 * @throws SkillportError `NOT_FOUND` (`details {type: 'task', resource}`) for unknown ids and other users' tasks
 */
export async function getTask(deps: ServiceDeps, identity: Identity, taskId: string): Promise<TaskResult> {
  const task = await deps.store.getTask(identity.accountId, identity.userId, taskId);
  if (!task) {
    throw new SkillportError('NOT_FOUND', `Task ${JSON.stringify(taskId.slice(0, 80))} not found`, {
      details: { type: 'task', resource: taskId.slice(0, 200) },
    });
  }
  return toTaskResult(task);
}
