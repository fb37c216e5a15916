/** Retry policy of processing jobs. */
export interface BackoffPolicy {
  /** Delay before the first retry, in ms. */
  baseMs: number;
  /** Upper bound of any delay, in ms. */
  maxMs: number;
}

/** 1 s, 2 s, 4 s, … capped at 5 minutes. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 300_000 };

/**
 * Exponential backoff: the delay after the `attempt`-th failure is `baseMs × 2^(attempt−1)`, capped at
 * `maxMs`. Deterministic (no jitter): the retry time is stored on the task (`runAt`) and the task is
 * claimed by one replica at a time, so there is no herd of clients to spread out.
 *
 * @param attempt - failures so far, ≥ 1 (values below 1 count as 1)
 * @param policy - base and cap in ms (default {@link DEFAULT_BACKOFF})
 * @returns the delay in ms
 * @example
 * ```ts
 * backoffDelay(3, { baseMs: 100, maxMs: 1000 }); // 400
 * ```
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(exponent, 40));
}
