/**
 * A counting semaphore shared by every walker of one discovery, so the number of filesystem calls in
 * flight stays bounded however many packages are searched in parallel.
 */

/** Runs async work with at most `limit` tasks in flight. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** Creates a {@link Limiter} allowing `limit` concurrent tasks (at least 1). */
export function createLimiter(limit: number): Limiter {
  const max = Math.max(1, Math.floor(limit));
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    active--;
    const next = waiting.shift();
    if (next) {
      active++;
      next();
    }
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active >= max) {
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        active++;
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
