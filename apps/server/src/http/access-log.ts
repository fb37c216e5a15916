/**
 * One structured JSON log line per request.
 */
import type { Context } from 'hono';
import type { Logger } from '../logger.js';
import { flatInfoOf, flatKeys } from '../logging/flat-line.js';
import type { Identity } from '../store/types.js';
import type { AppEnv } from './context.js';

/** What the request line says of one answered request. */
export interface RequestLine {
  requestId: string;
  method: string;
  /** The path, without the query. */
  path: string;
  status: number;
  /** `performance.now()` when the request arrived. */
  startedAt: number;
  /** The client's address (see `clientAddressOf`). */
  remote: string;
  /** The caller, once authenticated. */
  identity: Identity | undefined;
}

/** The request line's keys, in the order they are written. */
const REQUEST_LINE_KEYS = flatKeys([
  'msg',
  'request_id',
  'method',
  'path',
  'status',
  'duration_ms',
  'remote',
  'account_id',
  'user_id',
]);

/**
 * Logs `{msg: 'request', request_id, method, path, status, duration_ms, remote, account_id?,
 * user_id?}` for one answered request (the same line whichever way it was answered). The server's
 * own logger writes it as a flat line (`flat-line.ts`: the same bytes, without pino's general
 * serializer) and skips it when info lines are off; any other logger gets it through `info`.
 */
export function logRequestLine(logger: Logger, line: RequestLine): void {
  const flat = flatInfoOf(logger);
  if (flat !== undefined && !flat.enabled()) return;
  const { identity } = line;
  const duration = Math.round((performance.now() - line.startedAt) * 1000) / 1000;
  if (flat !== undefined) {
    // Undefined fields are left out of the line, as pino leaves them out.
    flat.writeValues(REQUEST_LINE_KEYS, [
      'request',
      line.requestId,
      line.method,
      line.path,
      line.status,
      duration,
      line.remote,
      identity?.accountId,
      identity?.userId,
    ]);
    return;
  }
  logger.info({
    msg: 'request',
    request_id: line.requestId,
    method: line.method,
    path: line.path,
    status: line.status,
    duration_ms: duration,
    remote: line.remote,
    ...(identity ? { account_id: identity.accountId, user_id: identity.userId } : {}),
  });
}

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
  logRequestLine(logger, {
    requestId: c.get('requestId'),
    method: c.req.method,
    path: c.req.path,
    status,
    startedAt: c.get('startedAt'),
    remote: c.get('clientAddress'),
    identity: c.get('identity'),
  });
}
