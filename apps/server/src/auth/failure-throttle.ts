/**
 * Throttling of failed authentications per client address (key guessing), in memory of one
 * server process: after `perMinute` failures within a minute, requests from that address get
 * 429 `RESOURCE_EXHAUSTED` (with `Retry-After`) until the minute has passed.
 */
import { SkillportError } from '@skillport/core';
import type { Context } from 'hono';
import { peerAddress } from '../http/client-address.js';
import type { AppEnv } from '../http/context.js';

const WINDOW_MS = 60_000;
const MAX_TRACKED = 50_000;

/**
 * Address of the request's client (`clientAddress`, which honours trusted proxies), else its TCP
 * peer, or `unknown` when not served by the Node adapter (in-process fetch).
 */
export function remoteAddress(c: Context<AppEnv>): string {
  return c.get('clientAddress') ?? peerAddress(c);
}

/** Counts failures per address in a fixed one-minute window. */
export interface FailureThrottle {
  /**
   * Refuses an address over the limit.
   * @throws SkillportError `RESOURCE_EXHAUSTED` (429) with `details.retry_after` (seconds)
   */
  check(address: string): void;
  /** Records one failed authentication from the address. */
  fail(address: string): void;
}

/**
 * Creates the throttle.
 *
 * @param perMinute - failures allowed per address per minute; 0 disables
 * @param now - clock in ms (default `Date.now`)
 */
export function createFailureThrottle(perMinute: number, now: () => number = Date.now): FailureThrottle {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    check(address) {
      if (perMinute <= 0) return;
      const w = windows.get(address);
      if (!w) return;
      const t = now();
      if (t - w.start >= WINDOW_MS) {
        windows.delete(address);
        return;
      }
      if (w.count >= perMinute) {
        const retryAfter = Math.max(1, Math.ceil((w.start + WINDOW_MS - t) / 1000));
        throw new SkillportError(
          'RESOURCE_EXHAUSTED',
          `Too many failed authentications from this address; retry in ${retryAfter} s`,
          { details: { retry_after: retryAfter, limit_per_minute: perMinute } },
        );
      }
    },
    fail(address) {
      if (perMinute <= 0) return;
      const t = now();
      const w = windows.get(address);
      if (!w || t - w.start >= WINDOW_MS) {
        if (windows.size >= MAX_TRACKED) windows.clear();
        windows.set(address, { start: t, count: 1 });
      } else {
        w.count += 1;
      }
    },
  };
}
