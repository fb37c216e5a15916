/**
 * One structured JSON log line per request.
 */
import type { Context } from 'hono';
import type { Logger } from '../logger.js';
import type { AppEnv } from './context.js';

/**
 * Logs `{msg: 'request', request_id, method, path, status, duration_ms, remote, account_id?,
 * user_id?}` for a request that has been answered (errors included); the request entry
 * (`request-entry.ts`) calls it once per request. Query strings are not logged.
 *
 * @param logger - the app's (redacting) logger
 * @param c - request context, after the request entry set `requestId`, `startedAt` and `clientAddress`
 * @param status - the HTTP status answered
 */
export function logRequest(logger: Logger, c: Context<AppEnv>, status: number): void {
  const identity = c.get('identity');
  logger.info({
    msg: 'request',
    request_id: c.get('requestId'),
    method: c.req.method,
    path: c.req.path,
    status,
    duration_ms: Math.round((performance.now() - c.get('startedAt')) * 1000) / 1000,
    remote: c.get('clientAddress'),
    ...(identity ? { account_id: identity.accountId, user_id: identity.userId } : {}),
  });
}
