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
 * - A request that fails (4xx/5xx) is not remembered: a retry runs again. Except a write whose
 *   `wait` ran out (504 `DEADLINE_EXCEEDED` naming its `task_id`): the skill was stored, so that
 *   answer is kept and replayed.
 * - A write from a temp upload (`temp_file_id`) is compared by the upload's file name and bytes, not
 *   its id: the retry of a lost folder or zip upload uploads again under a new id and is the same
 *   request (its new upload is freed when the stored response is replayed).
 */
import { createHash } from 'node:crypto';
import { ServerResponse } from 'node:http';
import { isSkillportError, SkillportError } from '@skillport/core';
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
 * A write naming a temp upload (`temp_file_id`), as the request is compared: the id replaced by the
 * upload's file name and the sha-256 of its bytes. A client that lost the reply uploads the same
 * folder or zip again under a new id (the first one was used up), and that retry is the same
 * request. Null when the body names no temp upload, or one that is unknown or expired (compared as
 * sent; the write itself then fails).
 */
async function tempUploadOf(
  store: Store,
  accountId: string,
  body: string,
  at: number,
): Promise<{ id: string; body: string } | null> {
  if (!body.includes('temp_file_id')) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const id = (parsed as { temp_file_id?: unknown }).temp_file_id;
  if (typeof id !== 'string') return null;
  const upload = await store.getTempUpload(accountId, id, at);
  if (upload === null) return null;
  const content = createHash('sha256').update(upload.content).digest('hex');
  return {
    id,
    body: JSON.stringify({
      ...parsed,
      temp_file_id: { filename: upload.filename, sha256: content },
    }),
  };
}

/**
 * True for the error of a write whose `wait` ran out after the skill was stored (504
 * `DEADLINE_EXCEEDED` whose details name the task): the write is done, so its answer is kept like a
 * success and a retry gets it (what was stored, the task to follow) instead of storing the skill again.
 */
function storedBeforeTimeout(error: unknown): boolean {
  return (
    isSkillportError(error) &&
    error.code === 'DEADLINE_EXCEEDED' &&
    typeof error.details?.task_id === 'string'
  );
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
    const at = now();
    const upload = await tempUploadOf(store, identity.accountId, body, at);
    const hashOf = (text: string) =>
      createHash('sha256').update(`${c.req.method} ${url.pathname}${url.search}\n${text}`).digest('hex');
    // One hash of the request as sent; with a temp upload also one of its content, space-separated:
    // a retry matches by either (the same id resent, or the same bytes uploaded again).
    const hashes = upload === null ? [hashOf(body)] : [hashOf(body), hashOf(upload.body)];
    const requestHash = hashes.join(' ');
    const existing = await store.reserveIdempotencyKey(
      identity.accountId,
      key,
      requestHash,
      at,
      at - IDEMPOTENCY_STALE_MS,
    );
    if (existing !== null) {
      if (!existing.requestHash.split(' ').some((hash) => hashes.includes(hash))) {
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
      // A retry's own new upload of the same content is not needed: free it now, not at its expiry.
      if (upload !== null) await store.takeTempUpload(identity.accountId, upload.id, at).catch(() => null);
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
    // A route's error reaches here as its answer, the error itself in `c.error` (Hono's onError).
    if ((res.status < 200 || res.status >= 300) && !storedBeforeTimeout(c.error)) {
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
