/**
 * `GET /health` (liveness) and `GET /ready` (readiness): no auth, not enveloped.
 */
import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import {
  ErrorEnvelopeSchema,
  type HealthResult,
  HealthResultSchema,
  type ReadyResult,
  ReadyResultSchema,
} from '@skillport/core';
import { type Authenticator, extractApiKey } from '../auth/authenticator.js';
import { type FailureThrottle, remoteAddress, throttledError } from '../auth/failure-throttle.js';
import type { AppEnv } from '../http/context.js';
import type { Store } from '../store/types.js';

const healthRoute = createRoute({
  method: 'get',
  path: '/health',
  operationId: 'health',
  tags: ['system'],
  summary: 'Liveness and auth mode; with a valid key also the caller',
  description:
    'Needs no API key and is not enveloped: `{status: "ok", healthy: true, version, auth_mode}`, plus ' +
    '`{account_id, user_id, role}` when a valid key is sent.',
  security: [],
  responses: {
    200: { description: 'Healthy', content: { 'application/json': { schema: HealthResultSchema } } },
    429: {
      description:
        'RESOURCE_EXHAUSTED: a wrong API key after too many from this address or with this key prefix ' +
        '(the same throttle as `/api/v1`; see Retry-After). Without a key, or with a valid one, never.',
      content: { 'application/json': { schema: ErrorEnvelopeSchema } },
    },
  },
});

const readyRoute = createRoute({
  method: 'get',
  path: '/ready',
  operationId: 'ready',
  tags: ['system'],
  summary: 'Readiness for load balancers: database reachable, schema current, not shutting down',
  description:
    'Needs no API key and is not enveloped. 200 `{status: "ready", ready: true, …}` when this replica can ' +
    'serve: the database answers a query and its schema is the version this build needs. 503 ' +
    '`{status: "unavailable", ready: false, reason, …}` otherwise: the database is unreachable, migrations ' +
    'are pending or were made by a newer build, or the replica is shutting down (it answers 503 from the ' +
    'moment it gets SIGTERM, while it finishes in-flight requests, so a load balancer stops sending it ' +
    'new ones). Use `GET /health` for liveness (restart when it fails) and `GET /ready` for routing.',
  security: [],
  responses: {
    200: { description: 'Ready', content: { 'application/json': { schema: ReadyResultSchema } } },
    503: {
      description: 'Not ready; `reason` says why',
      content: { 'application/json': { schema: ReadyResultSchema } },
    },
  },
});

/** What `/ready` checks besides the store. */
export interface Readiness {
  store: Store;
  /** True once the server is shutting down (`/ready` answers 503 then). */
  draining: () => boolean;
}

/** The engine name of a store (`sqlite`, `postgres`), from its description `<engine>:…`. */
function engineOf(store: Store): string {
  const colon = store.description.indexOf(':');
  return colon > 0 ? store.description.slice(0, colon) : store.description;
}

/** Registers `/health` and `/ready`. */
export function registerHealthRoute(
  app: OpenAPIHono<AppEnv>,
  auth: Authenticator,
  version: string,
  readiness: Readiness,
  throttle?: { counts: FailureThrottle; perMinute: number },
): void {
  app.openapi(readyRoute, async (c) => {
    const checked = await readiness.store.checkReady();
    const draining = readiness.draining();
    const ready = checked.ready && !draining;
    const result: ReadyResult = {
      status: ready ? 'ready' : 'unavailable',
      ready,
      version,
      engine: engineOf(readiness.store),
      schema_version: checked.schemaVersion,
      expected_schema_version: checked.expectedSchemaVersion,
    };
    if (draining) result.reason = 'shutting down';
    else if (checked.reason !== undefined) result.reason = checked.reason;
    c.header('cache-control', 'no-store');
    return ready ? c.json(result, 200) : c.json(result, 503);
  });

  app.openapi(healthRoute, async (c) => {
    // Liveness must not depend on the database: if it cannot answer, the last known mode is reported.
    const mode = await auth.refreshMode().catch(() => auth.mode);
    const result: HealthResult = { status: 'ok', healthy: true, version, auth_mode: mode };
    const key = extractApiKey({ get: (name) => c.req.header(name) });
    const identity =
      auth.mode === 'api_key' && key ? await auth.tryAuthenticate(key).catch(() => undefined) : null;
    // A wrong key here counts like anywhere else, so /health is no way around the throttle.
    if (identity === null && key && auth.mode === 'api_key' && throttle) {
      const retryAfter = throttle.counts.fail(remoteAddress(c), key);
      if (retryAfter > 0) throw throttledError(retryAfter, throttle.perMinute);
    }
    if (identity) {
      result.account_id = identity.accountId;
      result.user_id = identity.userId;
      result.role = identity.role;
    }
    return c.json(result, 200);
  });
}
