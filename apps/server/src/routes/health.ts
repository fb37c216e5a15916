/**
 * `GET /health` (no auth; not enveloped) and `GET /openapi.json`.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { type HealthResult, HealthResultSchema } from '@skillport/core';
import { type Authenticator, extractApiKey } from '../auth/authenticator.js';
import type { AppEnv } from '../http/context.js';

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'health',
  tags: ['system'],
  summary: 'Liveness and auth mode; with a valid key also the caller',
  description:
    'Needs no API key and is not enveloped: `{status: "ok", healthy: true, version, auth_mode}`, plus ' +
    '`{account_id, user_id, role}` when a valid key is sent (API-CONTRACT §Tasks, waiting, health).',
  security: [],
  responses: {
    200: { description: 'Healthy', content: { 'application/json': { schema: HealthResultSchema } } },
  },
});

/** Registers `/health`. */
export function registerHealthRoute(app: OpenAPIHono<AppEnv>, auth: Authenticator, version: string): void {
  app.openapi(healthRoute, async (c) => {
    const result: HealthResult = { status: 'ok', healthy: true, version, auth_mode: auth.mode };
    const key = extractApiKey({ get: (name) => c.req.header(name) });
    const identity = auth.mode === 'api_key' && key ? await auth.tryAuthenticate(key) : null;
    if (identity) {
      result.account_id = identity.accountId;
      result.user_id = identity.userId;
      result.role = identity.role;
    }
    return c.json(result, 200);
  });
}
