/**
 * Retry timing for HTTP calls: which statuses are worth retrying, how long to wait (exponential
 * backoff with jitter, or the server's `Retry-After` / `retry-after-ms`), and an abortable sleep.
 */

/** Statuses retried: request timeout, conflict/lock, rate limit and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Longest server-requested wait honoured; a longer `Retry-After` falls back to the backoff. */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Milliseconds the server asks to wait, from `retry-after-ms` or `Retry-After` (seconds or an HTTP
 * date), or `undefined` when absent, unreadable or unreasonable (negative, over 60 s).
 */
export function retryAfterMs(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0 && value <= MAX_RETRY_AFTER_MS) return value;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  let wait: number;
  if (Number.isFinite(seconds)) wait = seconds * 1000;
  else {
    const date = Date.parse(header);
    if (Number.isNaN(date)) return undefined;
    wait = date - now;
  }
  if (wait < 0) wait = 0;
  return wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
}

/** Backoff before retry number `retry` (0-based): `base * 2^retry`, capped at 8 s, ±25 % jitter. */
export function backoffMs(retry: number, baseMs: number): number {
  const raw = Math.min(baseMs * 2 ** retry, 8_000);
  return Math.round(raw * (0.75 + Math.random() * 0.5));
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
