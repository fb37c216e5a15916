/**
 * `Idempotency-Key` on the writes a client may retry after losing the reply (add, update, restore):
 * the first request with a key runs and, when it succeeds (2xx), its response is stored in the
 * database for {@link IDEMPOTENCY_KEY_TTL_MS}; a retry with the same key and the same request gets that
 * response again (`Idempotent-Replayed: true`) and changes nothing. The key is scoped to the caller
 * (account and user).
 *
 * - Same key, different request (method, path, query or body) → 422 `INVALID_ARGUMENT`
 *   (`details.reason` `idempotency_key_reused`).
 * - Same key while the first request still runs → 409 `CONFLICT` (`idempotency_key_in_progress`,
 *   `Retry-After: 1`).
 * - A request that fails (4xx/5xx) is not remembered: a retry runs again.
 */
import { createHash } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { Store } from '../store/types.js';
import type { AppEnv } from './context.js';

/** How long a successful response is kept for retries: 24 h. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A reservation whose request has not finished after this long is taken over (its process died). */
export const IDEMPOTENCY_STALE_MS = 10 * 60 * 1000;
/** Longest key accepted (printable ASCII). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** Response headers replayed with the stored body. */
const KEPT_HEADERS = ['etag', 'content-type'];

interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The middleware, for routes that run after authentication.
 *
 * @param store - where keys and responses are kept (shared by every replica)
 * @param now - clock in ms
 */
export function idempotency(store: Store, now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const sent = c.req.header('idempotency-key');
    if (sent === undefined || (c.req.method !== 'POST' && c.req.method !== 'PUT')) return next();
    if (!KEY_SHAPE.test(sent)) {
      throw new SkillportError(
        'INVALID_ARGUMENT',
        `Idempotency-Key must be 1–${MAX_IDEMPOTENCY_KEY_LENGTH} printable ASCII characters (e.g. a UUID)`,
        { details: { field: 'Idempotency-Key', reason: 'invalid_idempotency_key' } },
      );
    }
    const identity = c.get('identity');
    // The key holds no space, so `user key` cannot collide between users.
    const key = `${identity.userId} ${sent}`;
    const url = new URL(c.req.url);
    // The body as the JSON checks parsed it (whitespace does not matter; a different value does).
    const body = c.req.header('content-type')?.includes('json') ? await c.req.text() : '';
    const requestHash = createHash('sha256')
      .update(`${c.req.method} ${url.pathname}${url.search}\n${body}`)
      .digest('hex');
    const at = now();
    const existing = await store.reserveIdempotencyKey(
      identity.accountId,
      key,
      requestHash,
      at,
      at - IDEMPOTENCY_STALE_MS,
    );
    if (existing !== null) {
      if (existing.requestHash !== requestHash) {
        throw new SkillportError(
          'INVALID_ARGUMENT',
          'This Idempotency-Key was used for a different request (method, path or body); use a new key for a new request',
          { status: 422, details: { field: 'Idempotency-Key', reason: 'idempotency_key_reused' } },
        );
      }
      if (existing.response === null) {
        throw new SkillportError(
          'CONFLICT',
          'A request with this Idempotency-Key is still running; retry shortly to get its result',
          { details: { reason: 'idempotency_key_in_progress', retry_after: 1 } },
        );
      }
      const stored = JSON.parse(existing.response) as StoredResponse;
      return new Response(stored.body, {
        status: stored.status,
        headers: { ...stored.headers, 'idempotent-replayed': 'true' },
      });
    }
    try {
      await next();
    } catch (error) {
      await store.releaseIdempotencyKey(identity.accountId, key).catch(() => undefined);
      throw error;
    }
    const res = c.res;
    if (res.status < 200 || res.status >= 300) {
      await store.releaseIdempotencyKey(identity.accountId, key).catch(() => undefined);
      return;
    }
    const headers: Record<string, string> = {};
    // Routes may set headers straight on Node's response (see setResponseHeader).
    const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    for (const name of KEPT_HEADERS) {
      const value =
        res.headers.get(name) ?? (outgoing instanceof ServerResponse ? outgoing.getHeader(name) : undefined);
      if (typeof value === 'string') headers[name] = value;
    }
    const stored: StoredResponse = { status: res.status, headers, body: await res.clone().text() };
    // The write is done: a failure to remember it must not turn its success into an error.
    await store.finishIdempotencyKey(identity.accountId, key, JSON.stringify(stored)).catch(() => undefined);
  };
}
