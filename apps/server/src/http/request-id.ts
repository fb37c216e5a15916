/**
 * `X-Request-Id` on every response (`hono/request-id`): the client's value when it is sane, else a
 * new UUID; plus the per-request start time and telemetry state.
 */
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { requestId as honoRequestId } from 'hono/request-id';
import type { AppEnv } from './context.js';

/**
 * Ids echoed as sent: 1–128 characters of letters, digits and `. _ : = -` (trace ids such as
 * `req-123.abc` or `4bf92f35:00f067aa`). `hono/request-id` itself accepts only `[A-Za-z0-9_=-]`.
 */
const SANE_ID = /^[A-Za-z0-9._:=-]{1,128}$/;

/** Called by `hono/request-id` when the client's id is missing or outside its own character set. */
function clientIdOrNew(c: Context): string {
  const given = c.req.header('x-request-id');
  return given !== undefined && SANE_ID.test(given) ? given : randomUUID();
}

/**
 * Middleware setting `startedAt` and `telemetry`, then `requestId` and the `X-Request-Id` response
 * header (on every response, errors included) through `hono/request-id`.
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  const ids = honoRequestId({ limitLength: 128, generator: clientIdOrNew });
  return async (c, next) => {
    c.set('startedAt', performance.now());
    c.set('telemetry', null);
    await ids(c, next);
  };
}
