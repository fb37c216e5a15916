/**
 * The first step of every request, in one middleware (one step of Hono's chain instead of four):
 * request id, client address, the dot-segment refusal and the access log line.
 */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../logger.js';
import { logRequest } from './access-log.js';
import { clientAddressOf } from './client-address.js';
import type { AppEnv } from './context.js';
import { dotSegmentError, rawTargetHasDotSegment } from './dot-segments.js';
import { requestIdOf } from './request-id.js';
import { setResponseHeader } from './response-header.js';

/**
 * Middleware run first on every request, in this order:
 *
 * 1. sets `startedAt`, `telemetry` (null) and `requestId` (see `requestIdOf`), and the
 *    `X-Request-Id` response header — on every response, errors included;
 * 2. sets `clientAddress` (see `clientAddressOf`);
 * 3. answers 400 `INVALID_ARGUMENT` (`details {field: 'path', reason: 'segment'}`) for a raw target
 *    with a `.` or `..` segment (see `hasDotSegment`), else runs the rest of the chain;
 * 4. logs the request line (see `logRequest`) with the status answered.
 *
 * @param logger - the app's (redacting) logger
 * @param trusted - trusted proxies, from `parseTrustedProxies` (null trusts none)
 */
export function requestEntry(
  logger: Logger,
  trusted: ((address: string) => boolean) | null,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('startedAt', performance.now());
    c.set('telemetry', null);
    const id = requestIdOf(c.req.header('x-request-id'));
    c.set('requestId', id);
    setResponseHeader(c, 'X-Request-Id', id);
    c.set('clientAddress', clientAddressOf(c, trusted));
    if (rawTargetHasDotSegment(c)) {
      const refused = dotSegmentError(c);
      logRequest(logger, c, refused.status);
      return refused;
    }
    await next();
    logRequest(logger, c, c.res.status);
    return undefined;
  };
}
