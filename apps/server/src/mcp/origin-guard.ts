/**
 * The DNS-rebinding and cross-site guard of `/mcp` (kept apart from the endpoint, which loads the MCP
 * SDK only when `/mcp` is first used).
 */
import type { MiddlewareHandler } from 'hono';
import type { Authenticator } from '../auth/authenticator.js';
import { isLoopbackHost } from '../config.js';
import type { AppEnv } from '../http/context.js';

/** A JSON-RPC error answer (`id: null`). */
function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Guards `/mcp` against DNS rebinding and cross-site calls (the MCP specification asks servers to
 * check `Origin`): a request with an `Origin` is accepted only from the server's own origin or an
 * origin of `SKILLPORT_CORS_ORIGINS`; in dev mode (no keys) the `Host` must also be a loopback name.
 * Refusals are 403 JSON-RPC errors.
 *
 * @param corsOrigins - origins allowed to call from a browser
 * @param auth - the authenticator (for the live auth mode)
 */
export function mcpOriginGuard(
  corsOrigins: readonly string[],
  auth: Authenticator,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const host = c.req.header('host') ?? '';
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      let sameOrigin = false;
      try {
        sameOrigin = new URL(origin).host === host;
      } catch {
        sameOrigin = false;
      }
      if (!sameOrigin && !corsOrigins.includes(origin)) {
        return rpcError(
          403,
          -32000,
          `Forbidden: requests from origin ${JSON.stringify(origin.slice(0, 200))} are not allowed (add it to SKILLPORT_CORS_ORIGINS)`,
        );
      }
    }
    if (auth.mode === 'dev') {
      const hostname = host.startsWith('[')
        ? host.slice(0, host.indexOf(']') + 1)
        : (host.split(':')[0] ?? '');
      if (!isLoopbackHost(hostname)) {
        return rpcError(
          403,
          -32000,
          `Forbidden: Host ${JSON.stringify(host.slice(0, 200))} is not a loopback name; a server in dev mode answers only to localhost`,
        );
      }
    }
    return next();
  };
}
