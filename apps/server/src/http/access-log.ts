/**
 * One structured JSON log line per request.
 */
import type { MiddlewareHandler } from 'hono';
import { remoteAddress } from '../auth/failure-throttle.js';
import type { Logger } from '../logger.js';
import type { AppEnv } from './context.js';

/**
 * Middleware logging `{msg: 'request', request_id, method, path, status, duration_ms, remote,
 * account_id?, user_id?}` after each request (errors included). Query strings are not logged.
 */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const identity = c.get('identity');
    logger.info({
      msg: 'request',
      request_id: c.get('requestId'),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - c.get('startedAt')) * 1000) / 1000,
      remote: remoteAddress(c),
      ...(identity ? { account_id: identity.accountId, user_id: identity.userId } : {}),
    });
  };
}
