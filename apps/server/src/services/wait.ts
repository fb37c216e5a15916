/**
 * Waiting for processing jobs (`wait=true`, `POST /api/v1/system/wait`), bounded by a timeout.
 */
import { SkillportError } from '@skillport/core';
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
 * @throws SkillportError `DEADLINE_EXCEEDED` (504) with `details {timeout, queue_status}` on timeout
 */
export async function waitForQueue(
  deps: ServiceDeps,
  identity: Identity,
  options: { taskIds?: readonly string[]; timeoutSeconds: number },
): Promise<QueueCounts> {
  const deadline = Date.now() + options.timeoutSeconds * 1000;
  const query = options.taskIds ? { taskIds: options.taskIds } : {};
  if (deps.waitForJobs) {
    deps.kickJobs();
    const { done, counts } = await deps.waitForJobs(identity.accountId, identity.userId, {
      ...query,
      timeoutMs: options.timeoutSeconds * 1000,
    });
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
