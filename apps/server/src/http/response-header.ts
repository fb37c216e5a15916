/**
 * Setting a response header without making Hono build a `Headers` object.
 */
import { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';

/**
 * Sets a header on the response of this request. Served by `@hono/node-server`, the header goes
 * straight onto Node's `ServerResponse` (merged by `writeHead` with whatever the route returns):
 * `c.header()` would make Hono keep a WHATWG `Headers` object for the response, which the adapter
 * then copies back into a plain object — a measurable cost on every request. Elsewhere (in-process
 * `app.fetch`) it falls back to `c.header()`. Either way the header is on every response of the
 * request, errors included.
 *
 * @param c - request context
 * @param name - header name, e.g. `X-Request-Id`
 * @param value - header value
 * @example setResponseHeader(c, 'ETag', `"${revision}"`);
 */
export function setResponseHeader(c: Context<AppEnv>, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (outgoing instanceof ServerResponse && !outgoing.headersSent) outgoing.setHeader(name, value);
  else c.header(name, value);
}
