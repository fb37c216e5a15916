/**
 * Per-caller request rate limit (a token bucket per API key, or per user in dev mode), in memory
 * of one server process. Exceeding it gives 429 `RESOURCE_EXHAUSTED` with `Retry-After`.
 */
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { Identity } from '../store/types.js';
import type { AppEnv } from './context.js';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

const MAX_BUCKETS = 100_000;

/** The rate limit as middleware, plus the same buckets for requests answered before routing. */
export interface RateLimit extends MiddlewareHandler<AppEnv> {
  /**
   * Takes one request from the caller's bucket when it holds one (true), else takes nothing (false:
   * the middleware would refuse the request now). Always true when the limit is off.
   */
  tryTake(identity: Identity): boolean;
  /**
   * Gives back one request {@link tryTake} took for a request that is then left to the app (which
   * takes its own): the bucket counts it once. Never fills a bucket past the limit; nothing when the
   * limit is off.
   */
  giveBack(identity: Identity): void;
}

/**
 * Middleware allowing each caller `perMinute` requests per minute, with bursts up to `perMinute`.
 * Runs after authentication (it keys on `identity`). Its `tryTake` counts against the same buckets.
 *
 * @param perMinute - requests per minute per caller; 0 disables the limit
 * @param now - clock in ms (default `Date.now`)
 */
export function rateLimit(perMinute: number, now: () => number = Date.now): RateLimit {
  const buckets = new Map<string, Bucket>();
  const refillPerMs = perMinute / 60_000;
  /** The caller's bucket, refilled to now. */
  const bucketOf = (identity: Identity): Bucket => {
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
    return bucket;
  };
  const middleware: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (perMinute <= 0) return next();
    const bucket = bucketOf(c.get('identity'));
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
  return Object.assign(middleware, {
    tryTake(identity: Identity): boolean {
      if (perMinute <= 0) return true;
      const bucket = bucketOf(identity);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
    giveBack(identity: Identity): void {
      if (perMinute <= 0) return;
      const bucket = bucketOf(identity);
      bucket.tokens = Math.min(perMinute, bucket.tokens + 1);
    },
  });
}
