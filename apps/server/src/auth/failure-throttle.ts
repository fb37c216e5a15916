/**
 * Throttling of failed authentications (key guessing), in memory of one server process. Failures
 * are counted per client address and per key prefix (the first characters of the key sent, as shown
 * in key listings) in a one-minute window. A request whose key is wrong once either count is past
 * the limit gets 429 `RESOURCE_EXHAUSTED` (with `Retry-After`) instead of 401; a request with a
 * valid key is never refused by the throttle — so clients behind one proxy or NAT are not locked out
 * by a neighbour's guessing, and a guesser spreading over many addresses is still counted per prefix.
 *
 * The counts sit behind {@link FailureThrottle}, so they can move to shared storage (several
 * replicas) without touching the callers.
 */
import { SkillportError } from '@skillport/core';
import type { Context } from 'hono';
import { peerAddress } from '../http/client-address.js';
import type { AppEnv } from '../http/context.js';
import { API_KEY_PREFIX_LENGTH } from './api-keys.js';

const WINDOW_MS = 60_000;
/** Most addresses (and, separately, prefixes) tracked; past it the oldest window is dropped. */
const MAX_TRACKED = 50_000;

/**
 * Address of the request's client (`clientAddress`, which honours trusted proxies), else its TCP
 * peer, or `unknown` when not served by the Node adapter (in-process fetch).
 */
export function remoteAddress(c: Context<AppEnv>): string {
  return c.get('clientAddress') ?? peerAddress(c);
}

/** The part of a key failures are counted under (its display prefix, e.g. `sk_AbCdEfG`). */
export function keyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}

/** Counts failed authentications per client address and per key prefix. */
export interface FailureThrottle {
  /**
   * Records one failed authentication of `key` from `address`.
   *
   * @returns seconds until the address or the prefix may fail again without 429 (0: not throttled)
   */
  fail(address: string, key: string): number;
}

class Windows {
  readonly #counts = new Map<string, { start: number; count: number }>();

  /** Adds one failure; returns the count in the current window and when it ends. */
  add(id: string, t: number): { count: number; end: number } {
    let w = this.#counts.get(id);
    if (w === undefined || t - w.start >= WINDOW_MS) {
      this.#counts.delete(id);
      if (this.#counts.size >= MAX_TRACKED) {
        const oldest = this.#counts.keys().next();
        if (oldest.done !== true) this.#counts.delete(oldest.value);
      }
      w = { start: t, count: 0 };
      this.#counts.set(id, w);
    }
    w.count += 1;
    return { count: w.count, end: w.start + WINDOW_MS };
  }
}

/**
 * Creates the throttle.
 *
 * @param perMinute - failures allowed per address and per key prefix per minute; 0 disables
 * @param now - clock in ms (default `Date.now`)
 */
export function createFailureThrottle(perMinute: number, now: () => number = Date.now): FailureThrottle {
  const addresses = new Windows();
  const prefixes = new Windows();
  return {
    fail(address, key) {
      if (perMinute <= 0) return 0;
      const t = now();
      let until = 0;
      for (const w of [addresses.add(address, t), prefixes.add(keyPrefix(key), t)]) {
        if (w.count > perMinute) until = Math.max(until, w.end);
      }
      return until === 0 ? 0 : Math.max(1, Math.ceil((until - t) / 1000));
    },
  };
}

/** The 429 of a throttled failure. */
export function throttledError(retryAfter: number, perMinute: number): SkillportError {
  return new SkillportError(
    'RESOURCE_EXHAUSTED',
    `Too many failed authentications from this address or with this key prefix; retry in ${retryAfter} s ` +
      '(a valid key is always accepted)',
    { details: { retry_after: retryAfter, limit_per_minute: perMinute } },
  );
}
