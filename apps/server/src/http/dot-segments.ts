/**
 * Refuses a request whose raw target has a `.` or `..` path segment (also percent-encoded, as
 * `%2e%2e`). The Node adapter resolves such segments before routing, so
 * `/api/v1/skills/x/files/../../../observer/queue` would otherwise be served as another route; no
 * client of the API sends them, and a path inside a skill never holds one.
 */
import type { Context } from 'hono';
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

/** True when the raw target of the request (as Node received it) has a `.` or `..` path segment. */
export function rawTargetHasDotSegment(c: Context<AppEnv>): boolean {
  const raw = (c.env as { incoming?: { url?: unknown } } | undefined)?.incoming?.url;
  return typeof raw === 'string' && hasDotSegment(raw);
}

/**
 * The answer to a request refused for a dot segment: 400 `INVALID_ARGUMENT` (`details {field:
 * 'path', reason: 'segment'}`).
 */
export function dotSegmentError(c: Context<AppEnv>): Response {
  return sendError(
    c,
    'INVALID_ARGUMENT',
    'The request path has a "." or ".." segment; name resources by their exact path (a file path inside a skill is relative, e.g. "docs/guide.md")',
    { field: 'path', reason: 'segment' },
    400,
  );
}
