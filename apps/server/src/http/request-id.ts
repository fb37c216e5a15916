/**
 * `X-Request-Id` on every response: the client's value when it is sane, else a new UUID; plus the
 * per-request start time and telemetry state.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { setResponseHeader } from './response-header.js';

/**
 * Ids echoed as sent: 1–128 characters of letters, digits and `. _ : = -` (trace ids such as
 * `req-123.abc` or `4bf92f35:00f067aa`).
 */
const SANE_ID = /^[A-Za-z0-9._:=-]{1,128}$/;

/**
 * Middleware setting `startedAt` and `telemetry`, then `requestId` and the `X-Request-Id` response
 * header (on every response, errors included). The header goes straight onto Node's response (see
 * `setResponseHeader`), so a request whose route sets no other header costs no `Headers` object.
 */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', performance.now());
    c.set('telemetry', null);
    const given = c.req.header('x-request-id');
    // The length is checked first: the pattern never runs over a long header.
    const id = given !== undefined && given.length <= 128 && SANE_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    setResponseHeader(c, 'X-Request-Id', id);
    await next();
  };
}
