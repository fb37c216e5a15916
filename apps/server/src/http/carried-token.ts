/**
 * The store's change token read for a request before the app saw it (by the fast path of get, see
 * `routes/skill-fast-get.ts`), carried on Node's request so the app's authentication uses that read
 * instead of making another.
 */

const CHANGE_TOKEN = Symbol('skillport.changeToken');

/**
 * Carries `token` on Node's request: a change token read after the request arrived.
 *
 * @param incoming - Node's request
 * @param token - the store's change token
 */
export function carryChangeToken(incoming: object, token: string): void {
  (incoming as { [CHANGE_TOKEN]?: string })[CHANGE_TOKEN] = token;
}

/**
 * The change token carried on Node's request (see {@link carryChangeToken}), if any.
 *
 * @param incoming - Node's request (the adapter's `env.incoming`), or anything else (undefined then)
 */
export function carriedChangeToken(incoming: unknown): string | undefined {
  if (typeof incoming !== 'object' || incoming === null) return undefined;
  const token = (incoming as { [CHANGE_TOKEN]?: unknown })[CHANGE_TOKEN];
  return typeof token === 'string' ? token : undefined;
}
