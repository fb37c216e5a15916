/**
 * The envelope for unknown routes (404 `NOT_FOUND`) and known paths with the wrong method
 * (405 with `INVALID_ARGUMENT` and an `Allow` header).
 */
import type { Context } from 'hono';
import { clipCodePoints } from '../levels/clip-code-points.js';
import type { AppEnv } from './context.js';
import { sendError } from './errors.js';

/** Most characters of the request path an answer repeats (a path may be 16 KB long). */
const SHOWN_PATH_MAX = 200;

/** A route as registered: method and path template (`/api/v1/skills/{name}`). */
export interface KnownRoute {
  method: string;
  path: string;
}

function toRegExp(template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}/?$`);
}

/** Builds the app's `notFound` handler. */
export function createNotFoundHandler(routes: readonly KnownRoute[]) {
  const compiled = routes.map((r) => ({ method: r.method.toUpperCase(), re: toRegExp(r.path) }));
  return (c: Context<AppEnv>): Response => {
    const path = c.req.path;
    const allowed = [...new Set(compiled.filter((r) => r.re.test(path)).map((r) => r.method))];
    const shown = clipCodePoints(path, SHOWN_PATH_MAX);
    if (allowed.length > 0) {
      c.header('Allow', allowed.join(', '));
      return sendError(
        c,
        'INVALID_ARGUMENT',
        `Method ${c.req.method} is not allowed on ${shown}; allowed: ${allowed.join(', ')}`,
        { method: c.req.method, allowed },
        405,
      );
    }
    return sendError(c, 'NOT_FOUND', `No route ${c.req.method} ${shown}`, { type: 'route', resource: shown });
  };
}
