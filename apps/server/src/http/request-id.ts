/**
 * `X-Request-Id` on every response: the client's value when it is sane, else a new UUID.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { setResponseHeader } from './response-header.js';

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Middleware setting `requestId`, `startedAt`, and the `X-Request-Id` response header. */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', performance.now());
    c.set('telemetry', null);
    const given = c.req.header('x-request-id');
    const id = given !== undefined && SANE_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    // Set before the handler runs, so every response carries it (errors too); setting it on the
    // finished Response would rebuild it (a costly copy on every request).
    setResponseHeader(c, 'X-Request-Id', id);
    await next();
  };
}
