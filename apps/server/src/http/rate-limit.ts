/**
 * Per-caller request rate limit (a token bucket per API key, or per user in dev mode), in memory
 * of one server process. Exceeding it gives 429 `RESOURCE_EXHAUSTED` with `Retry-After`.
 */
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const MAX_BUCKETS = 100_000;

/**
 * Middleware allowing each caller `perMinute` requests per minute, with bursts up to `perMinute`.
 * Runs after authentication (it keys on `identity`).
 *
 * @param perMinute - requests per minute per caller; 0 disables the limit
 * @param now - clock in ms (default `Date.now`)
 */
export function rateLimit(perMinute: number, now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, Bucket>();
  const refillPerMs = perMinute / 60_000;
  return async (c, next) => {
    if (perMinute <= 0) return next();
    const identity = c.get('identity');
    const key = identity.keyId ?? `${identity.accountId}/${identity.userId}`;
    const t = now();
    let bucket = buckets.get(key);
    if (!bucket) {
      if (buckets.size >= MAX_BUCKETS) buckets.clear();
      bucket = { tokens: perMinute, updatedAt: t };
      buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(perMinute, bucket.tokens + (t - bucket.updatedAt) * refillPerMs);
    bucket.updatedAt = t;
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / refillPerMs / 1000));
      throw new SkillportError(
        'RESOURCE_EXHAUSTED',
        `Rate limit of ${perMinute} requests per minute exceeded; retry in ${retryAfter} s`,
        { details: { limit_per_minute: perMinute, retry_after: retryAfter } },
      );
    }
    bucket.tokens -= 1;
    return next();
  };
}
