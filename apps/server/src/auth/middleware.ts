/**
 * Auth middleware: sets `identity` for `/api/v1/*`, keeps root keys off data routes and non-admins
 * off admin routes.
 */
import { isSkillportError, SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import { carriedChangeToken } from '../http/carried-token.js';
import type { AppEnv } from '../http/context.js';
import { type Authenticator, extractApiKey } from './authenticator.js';
import { type FailureThrottle, remoteAddress, throttledError } from './failure-throttle.js';
import { ACCOUNT_HEADER, devIdentityFromHeaders, USER_HEADER } from './identity-headers.js';

/**
 * Middleware resolving the caller.
 *
 * @param auth - the server's authenticator
 * @param access - `data` (admin and user; root refused with 403) or `admin` (root and admin; users 403).
 *   On data routes in dev mode, `X-OpenViking-Account` / `X-OpenViking-User` name the caller (see
 *   `identity-headers.ts`; an invalid one is 400 `INVALID_ARGUMENT`); with keys they are ignored.
 * @param throttle - counts wrong keys per client address and key prefix (a wrong key past its limit
 *   gets 429 instead of 401; a valid key always passes); none = no throttling
 */
export function requireIdentity(
  auth: Authenticator,
  access: 'data' | 'admin',
  throttle?: { counts: FailureThrottle; perMinute: number },
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = extractApiKey({ get: (name) => c.req.header(name) });
    // Read once per request, before anything is read from the store: what the request derives from
    // the store may be reused from the read cache while the token is unchanged.
    // A get the fast path looked at first carries the token it read (after the request arrived).
    const token =
      carriedChangeToken((c.env as { incoming?: unknown } | undefined)?.incoming) ??
      (await auth.changeToken());
    c.set('changeToken', token);
    let identity: Awaited<ReturnType<Authenticator['authenticate']>>;
    try {
      identity = await auth.authenticate(key, token);
    } catch (error) {
      const wrongKey = isSkillportError(error) && error.code === 'UNAUTHENTICATED';
      if (throttle && wrongKey && key !== null && auth.mode === 'api_key') {
        const retryAfter = throttle.counts.fail(remoteAddress(c), key);
        if (retryAfter > 0) throw throttledError(retryAfter, throttle.perMinute);
      }
      throw error;
    }
    // In dev mode OpenViking's identity headers name the caller on data routes, as on an OpenViking
    // dev server; with keys they are ignored (the key alone names the caller).
    if (access === 'data' && auth.mode === 'dev' && identity.keyId === null) {
      identity = devIdentityFromHeaders(identity, (name) => c.req.header(name));
    }
    c.set('identity', identity);
    if (access === 'data' && identity.role === 'root') {
      // Clients written for older OpenViking servers send a root key with identity headers to act as
      // a user; OpenViking no longer allows it, nor does Skillport: the refusal says so.
      const asserted = c.req.header(ACCOUNT_HEADER) !== undefined || c.req.header(USER_HEADER) !== undefined;
      throw new SkillportError(
        'PERMISSION_DENIED',
        'Root keys manage accounts, users and keys only; use an admin or user key for skills' +
          (asserted
            ? ' (X-OpenViking-Account / X-OpenViking-User do not make a key act as another user)'
            : ''),
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
