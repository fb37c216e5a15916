/**
 * Waiting for processing jobs (`wait=true`, `POST /api/v1/system/wait`), bounded by a timeout.
 */
import { isSkillportError, SkillportError, type SkillWriteResult } from '@skillport/core';
import type { Identity, QueueCounts } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

const POLL_MS = 10;
const MAX_POLL_MS = 100;

function timedOut(timeoutSeconds: number, counts: QueueCounts): SkillportError {
  return new SkillportError(
    'DEADLINE_EXCEEDED',
    `Processing did not finish within ${timeoutSeconds} s (${counts.pending} pending, ${counts.processing} processing)`,
    { details: { timeout: timeoutSeconds, queue_status: counts } },
  );
}

/** `details.reason` of a wait cut short because this server is shutting down (see {@link stoppedWaiting}). */
const SHUTTING_DOWN = 'shutting_down';

/** Whole seconds since `startedAt` (`Date.now()`), at least 0. */
const secondsSince = (startedAt: number): number => Math.max(0, Math.round((Date.now() - startedAt) / 1000));

/**
 * The wait ended before its timeout because this server began shutting down (SIGTERM: its job runner
 * stopped and handed its running jobs back). The jobs go on in the other servers on the database (or
 * when this one restarts), so the answer says that, not that they took longer than the timeout.
 */
function stoppedWaiting(timeoutSeconds: number, waitedSeconds: number, counts: QueueCounts): SkillportError {
  return new SkillportError(
    'DEADLINE_EXCEEDED',
    `This server is shutting down: it stopped waiting after ${waitedSeconds} s of the ${timeoutSeconds} s ` +
      `asked (${counts.pending} pending, ${counts.processing} processing). The jobs go on when this ` +
      'server starts again (or in another server of this registry, if it has several): wait again with ' +
      'POST /api/v1/system/wait',
    {
      details: {
        timeout: timeoutSeconds,
        queue_status: counts,
        reason: SHUTTING_DOWN,
        waited: waitedSeconds,
      },
    },
  );
}

/**
 * Resolves the effective wait timeout in seconds.
 *
 * @param requested - the request's `timeout` (seconds; null/false/undefined = not given)
 * @param maxSeconds - server limit used when none is given, and the upper bound
 */
export function effectiveTimeout(requested: unknown, maxSeconds: number): number {
  return typeof requested === 'number' && requested > 0 ? Math.min(requested, maxSeconds) : maxSeconds;
}

/**
 * Waits until the caller's jobs (or the given ones) are neither pending nor processing.
 *
 * @param deps - store, job kick, clock
 * @param identity - whose queue
 * @param options.taskIds - narrow to these tasks (default: all of the caller's)
 * @param options.timeoutSeconds - bound, seconds
 * @returns the final counts
 * @throws SkillportError `DEADLINE_EXCEEDED` (504) with `details {timeout, queue_status}` on timeout,
 *   and with `reason: 'shutting_down'` and `waited` (seconds) too when this server began shutting down
 *   first (its message says so, not that the jobs outlasted the timeout)
 */
export async function waitForQueue(
  deps: ServiceDeps,
  identity: Identity,
  options: { taskIds?: readonly string[]; timeoutSeconds: number },
): Promise<QueueCounts> {
  const startedAt = Date.now();
  const deadline = startedAt + options.timeoutSeconds * 1000;
  const query = options.taskIds ? { taskIds: options.taskIds } : {};
  if (deps.waitForJobs) {
    deps.kickJobs();
    const { done, counts, stopped } = await deps.waitForJobs(identity.accountId, identity.userId, {
      ...query,
      timeoutMs: options.timeoutSeconds * 1000,
    });
    if (!done && stopped) throw stoppedWaiting(options.timeoutSeconds, secondsSince(startedAt), counts);
    if (!done) throw timedOut(options.timeoutSeconds, counts);
    return counts;
  }
  let delay = POLL_MS;
  deps.kickJobs();
  for (;;) {
    const counts = await deps.store.queueCounts(identity.accountId, identity.userId, query);
    if (counts.pending + counts.processing === 0) return counts;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw timedOut(options.timeoutSeconds, counts);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
    delay = Math.min(delay * 2, MAX_POLL_MS);
  }
}

/**
 * Waits (`wait=true` of add, update, restore) for the processing job of a skill this request has just
 * stored. The skill is committed before the wait starts, so a timeout does not undo it: the 504 says
 * what was stored and how to follow the job, so a client neither sends the write again (a second
 * revision, or 412 on a stale `If-Match`) nor takes the skill for missing.
 *
 * @param deps - store, job kick, clock, limits (`maxWaitSeconds` caps `timeout`)
 * @param identity - whose queue
 * @param stored - the write's result: `name`, `uri`, `root_uri`, `revision`, `auxiliary_files`,
 *   `replaced`, `warnings` (and `action` on update)
 * @param taskId - the write's processing task
 * @param timeout - the request's `timeout`, seconds (null/false/absent/0 = the server limit)
 * @returns the final queue counts of that task
 * @throws SkillportError `DEADLINE_EXCEEDED` (504) with `details {timeout, queue_status, task_id, name,
 *   uri, root_uri, revision, auxiliary_files, replaced, warnings, action?}` when the job is not done in
 *   time (plus `reason: 'shutting_down'` and `waited` when this server began shutting down first)
 */
export async function waitForStoredSkill(
  deps: ServiceDeps,
  identity: Identity,
  stored: SkillWriteResult,
  taskId: string,
  timeout: unknown,
): Promise<QueueCounts> {
  const timeoutSeconds = effectiveTimeout(timeout, deps.limits.maxWaitSeconds);
  try {
    return await waitForQueue(deps, identity, { taskIds: [taskId], timeoutSeconds });
  } catch (error) {
    if (!isSkillportError(error) || error.code !== 'DEADLINE_EXCEEDED') throw error;
    const counts = error.details?.queue_status as QueueCounts;
    const { status: _success, ...skill } = stored;
    const shuttingDown = error.details?.reason === SHUTTING_DOWN;
    const why = shuttingDown
      ? `this server is shutting down: it stopped waiting for its processing after ${error.details?.waited} s ` +
        `(${counts.pending} pending, ${counts.processing} processing; the job goes on when this server starts ` +
        'again, or in another server of this registry if it has several)'
      : `its processing did not finish within ${timeoutSeconds} s (${counts.pending} pending, ` +
        `${counts.processing} processing)`;
    throw new SkillportError(
      'DEADLINE_EXCEEDED',
      `Skill ${JSON.stringify(stored.name)} is stored (${stored.uri}, revision ${stored.revision}), but ${why}. ` +
        `Do not send it again: follow task ${taskId} with GET /api/v1/tasks/${taskId}, or wait ` +
        'with POST /api/v1/system/wait',
      {
        details: {
          timeout: timeoutSeconds,
          queue_status: counts,
          ...(shuttingDown ? { reason: SHUTTING_DOWN, waited: error.details?.waited } : {}),
          task_id: taskId,
          ...skill,
        },
      },
    );
  }
}
