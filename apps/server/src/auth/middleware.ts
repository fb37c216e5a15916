/**
 * Auth middleware: sets `identity` for `/api/v1/*`, keeps root keys off data routes and non-admins
 * off admin routes.
 */
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.js';
import { type Authenticator, extractApiKey } from './authenticator.js';

/**
 * Middleware resolving the caller.
 *
 * @param auth - the server's authenticator
 * @param access - `data` (admin and user; root refused with 403) or `admin` (root and admin; users 403)
 */
export function requireIdentity(auth: Authenticator, access: 'data' | 'admin'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const identity = await auth.authenticate(extractApiKey({ get: (name) => c.req.header(name) }));
    c.set('identity', identity);
    if (access === 'data' && identity.role === 'root') {
      throw new SkillportError(
        'PERMISSION_DENIED',
        'Root keys manage accounts, users and keys only; use an admin or user key for skills',
        { details: { role: 'root' } },
      );
    }
    if (access === 'admin' && identity.role === 'user') {
      throw new SkillportError('PERMISSION_DENIED', 'Administration needs an admin or root key', {
        details: { role: identity.role },
      });
    }
    await next();
  };
}
