/**
 * Refuses a request whose raw target has a `.` or `..` path segment (also percent-encoded, as
 * `%2e%2e`). The Node adapter resolves such segments before routing, so
 * `/api/v1/skills/x/files/../../../observer/queue` would otherwise be served as another route; no
 * client of the API sends them, and a path inside a skill never holds one.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { sendError } from './errors.js';

/** True when the path part of a raw request target has a `.` or `..` segment. */
export function hasDotSegment(target: string): boolean {
  // Most targets hold neither a `.` nor a `%` (skill names, API paths): nothing to look at.
  if (!target.includes('.') && !target.includes('%')) return false;
  const end = target.search(/[?#]/);
  const pathname = end === -1 ? target : target.slice(0, end);
  for (const segment of pathname.split('/')) {
    if (segment.length > 6) continue;
    const plain = segment.toLowerCase().replaceAll('%2e', '.');
    if (plain === '.' || plain === '..') return true;
  }
  return false;
}

/** The middleware: 400 `INVALID_ARGUMENT` (`details {field: 'path', reason: 'segment'}`) for a dot segment. */
export function refuseDotSegments(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = (c.env as { incoming?: { url?: unknown } } | undefined)?.incoming?.url;
    if (typeof raw === 'string' && hasDotSegment(raw)) {
      return sendError(
        c,
        'INVALID_ARGUMENT',
        'The request path has a "." or ".." segment; name resources by their exact path (a file path inside a skill is relative, e.g. "docs/guide.md")',
        { field: 'path', reason: 'segment' },
        400,
      );
    }
    return next();
  };
}
