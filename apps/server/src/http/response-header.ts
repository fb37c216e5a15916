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

/**
 * Joins the `Vary` a route set on Node's response (`setResponseHeader`) with the `Vary` of the
 * response the app returns (the CORS step adds `Origin`), so neither replaces the other when the
 * adapter writes the head: a shared cache must key a get on the caller's key and on the origin.
 * Tokens are compared case-insensitively and kept once, the route's first. No-op elsewhere.
 *
 * @param c - request context, after the rest of the chain ran
 */
export function mergeVary(c: Context<AppEnv>): void {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  if (!(outgoing instanceof ServerResponse) || outgoing.headersSent) return;
  const set = outgoing.getHeader('Vary');
  const returned = c.res.headers.get('Vary');
  if (set === undefined || returned === null) return;
  const tokens: string[] = [];
  const seen = new Set<string>();
  for (const token of `${Array.isArray(set) ? set.join(',') : String(set)},${returned}`.split(',')) {
    const name = token.trim();
    if (name === '' || seen.has(name.toLowerCase())) continue;
    seen.add(name.toLowerCase());
    tokens.push(name);
  }
  outgoing.removeHeader('Vary');
  c.res.headers.set('Vary', tokens.join(', '));
}
