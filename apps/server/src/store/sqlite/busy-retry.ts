/**
 * Retrying a call that meets another connection's lock, shared by the SQLite database thread and
 * the search reader threads: SQLite waits a few milliseconds inside each attempt, then the call is
 * retried asynchronously with backoff (5 ms doubling to 100 ms) until its deadline, so the thread
 * keeps serving other calls meanwhile.
 */
import { type SerializedError, serializeError } from '../../workers/thread-errors.js';

const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_RECOVERY', 'SQLITE_LOCKED']);

/** True for an error SQLite raises when a lock is held by another connection. */
export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && BUSY_CODES.has(code);
}

/** The outcome of {@link attemptUntil}, ready to post as a thread's reply. */
export type Attempted<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/**
 * Runs `attempt`, retrying while it fails with a busy/locked error until `deadline` itself (the
 * last wait is cut to end there, so a call fails only after the whole configured wait).
 *
 * @param attempt - the call; may be synchronous (better-sqlite3) or return a promise
 * @param deadline - epoch ms after which a still-busy call fails
 * @returns the value, or the serialized error (a busy one says how long it waited)
 */
export async function attemptUntil<T>(
  attempt: () => T | Promise<T>,
  deadline: number,
): Promise<Attempted<T>> {
  let delay = 5;
  const started = Date.now();
  for (;;) {
    try {
      return { ok: true, value: await attempt() };
    } catch (error) {
      const left = deadline - Date.now();
      if (isBusy(error) && left > 0) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
        delay = Math.min(delay * 2, 100);
        continue;
      }
      const serialized = serializeError(error);
      if (isBusy(error)) {
        serialized.message = `The database is locked by another connection (waited ${Date.now() - started} ms): ${serialized.message}`;
      }
      return { ok: false, error: serialized };
    }
  }
}
