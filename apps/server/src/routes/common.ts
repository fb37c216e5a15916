/**
 * Shared pieces of route definitions: error responses, JSON bodies, the success envelope.
 */
import type { OpenAPIHono, RouteConfig, RouteHandler } from '@hono/zod-openapi';
import { ErrorEnvelopeSchema, okEnvelope } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../http/context.js';
import { schemaError } from '../http/errors.js';

/** Error responses every `/api/v1` route may give (status from core's code table). */
export const errorResponses = {
  400: {
    description: 'INVALID_ARGUMENT, INVALID_URI or SKILL_INVALID',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
  401: { description: 'UNAUTHENTICATED', content: { 'application/json': { schema: ErrorEnvelopeSchema } } },
  403: {
    description:
      'PERMISSION_DENIED, or RESOURCE_EXHAUSTED when an add or a restore of a deleted skill would pass the ' +
      'account\'s skill limit (`details {reason: "account_skill_limit", limit, used, setting}`; ' +
      '`SKILLPORT_ACCOUNT_MAX_SKILLS`); nothing was changed',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
  404: { description: 'NOT_FOUND', content: { 'application/json': { schema: ErrorEnvelopeSchema } } },
  413: { description: 'PAYLOAD_TOO_LARGE', content: { 'application/json': { schema: ErrorEnvelopeSchema } } },
  429: {
    description:
      'RESOURCE_EXHAUSTED: rate limit, too many wrong API keys from this address or with this key prefix, or ' +
      '(find) too many finds at once with this key (`details.reason` `finds_in_flight`, ' +
      '`SKILLPORT_MAX_FINDS_PER_KEY`); retry after `Retry-After` seconds',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
  500: {
    description: 'INTERNAL or PROCESSING_ERROR',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
  503: {
    description:
      'UNAVAILABLE: retry after `Retry-After` seconds — the database is locked by another connection ' +
      '(`details.reason` `database_locked`), every worker thread is busy (`workers_busy`), or the server is shutting down',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
  507: {
    description:
      'RESOURCE_EXHAUSTED: the server is out of disk space (`details.reason` `storage_full`), or the write would ' +
      "pass the caller's account quota (`account_quota`) or temp-upload quota (`temp_upload_quota`, with " +
      '`details {limit, used, size, setting}` in bytes); nothing was changed',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
} as const;

/** The 504 of routes that wait. */
export const timeoutResponse = {
  504: {
    description: 'DEADLINE_EXCEEDED: `wait` timed out',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
} as const;

/** The 504 of writes that wait (add, update, restore): the write itself is done. */
export const writeTimeoutResponse = {
  504: {
    description:
      "DEADLINE_EXCEEDED: `wait` timed out after the skill was stored. `details` carry the write's " +
      'result fields (`name`, `uri`, `root_uri`, `revision`, …), `task_id` (follow it with ' +
      '`GET /api/v1/tasks/{task_id}`), `timeout` and `queue_status`; sending the write again would ' +
      'store it again.',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
} as const;

/** The 412 of conditional writes. */
export const preconditionResponse = {
  412: {
    description: 'CONFLICT: stale `If-Match` revision',
    content: { 'application/json': { schema: ErrorEnvelopeSchema } },
  },
} as const;

/** A required JSON request body. */
export function jsonBody<T extends z.ZodType>(schema: T, required = true) {
  return { required, content: { 'application/json': { schema } } };
}

/** The 200 response carrying `{status: 'ok', result}`. */
export function okResponse<T extends z.ZodType>(result: T, id: string, description: string) {
  return { 200: { description, content: { 'application/json': { schema: okEnvelope(result, id) } } } };
}

/** Value of an optional string query parameter, with `''`/`null`/`false` meaning absent. */
export function optionalQuery(value: string | undefined): string | null {
  if (value === undefined) return null;
  const v = value.trim();
  return v === '' || v === 'null' || v === 'false' || v === 'None' ? null : v;
}

/** A request's loose optional (`null`/`false`/absent = not given). */
export function given<T>(value: T | null | false | undefined): T | null {
  return value === null || value === false || value === undefined ? null : value;
}

/**
 * Registers `route` as `app.openapi` does (the same OpenAPI path, validators and handler), except
 * that its declared request headers are read one by one by name (`c.req.header(name)`) before being
 * checked against the route's header schema. The framework's header check asks for every header of
 * the request, which makes Node's adapter build a WHATWG `Headers` object of all of them for each
 * request; reading by name looks them up in Node's own parsed headers. Values, validation errors
 * (400 `INVALID_ARGUMENT` with `validation_errors` at `header`) and `c.req.valid('header')` are the
 * same.
 *
 * @param app - the app
 * @param route - a route whose `request.headers` is a zod object schema (others are registered as is)
 * @param handler - the route's handler
 */
export function openapiHeadersByName<R extends RouteConfig>(
  app: OpenAPIHono<AppEnv>,
  route: R,
  handler: RouteHandler<R, AppEnv>,
): void {
  const headers = route.request?.headers as z.ZodObject | undefined;
  if (headers === undefined || typeof headers !== 'object' || !('shape' in headers)) {
    app.openapi(route, handler as never);
    return;
  }
  // The OpenAPI document lists the route once, headers included, where `app.openapi` would.
  const { middleware, hide, ...documented } = route;
  if (hide !== true) app.openAPIRegistry.registerPath(documented as RouteConfig);
  const names = Object.keys(headers.shape);
  const readHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
    const value: Record<string, string> = {};
    for (const name of names) {
      const found = c.req.header(name);
      if (found !== undefined) value[name] = found;
    }
    const result = await headers.safeParseAsync(value);
    if (!result.success) throw schemaError(result.error.issues, 'header');
    c.req.addValidatedData('header', result.data as Record<string, unknown>);
    await next();
  };
  const { headers: _declared, ...request } = route.request ?? {};
  const own = middleware === undefined ? [] : Array.isArray(middleware) ? middleware : [middleware];
  app.openapi(
    { ...route, hide: true, request, middleware: [...own, readHeaders] } as unknown as R,
    handler as never,
  );
}
