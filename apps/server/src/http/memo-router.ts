/**
 * Hono's default router with the result of each match kept by method and path: the routes of this
 * app (a static `find` beside `{name}/restore`, a `{path}` catching slashes) are beyond Hono's
 * RegExpRouter, so its trie router walks them on every request — about 6 µs for a get of a skill,
 * more than the rest of routing. A path asked again (`/health`, find, list, the skills an agent
 * reads over and over) is routed from memory.
 */
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths remembered at most; past it the memory starts over (any path works, a burst of new ones costs a clear). */
const MAX_PATHS = 2048;
/** Longer paths are routed afresh each time (never kept). */
const MAX_PATH_LENGTH = 256;

/**
 * A router that answers as Hono's default one (`SmartRouter` over `RegExpRouter` and `TrieRouter`)
 * and keeps the result of up to 2,048 method-and-path pairs. A match result depends only on the
 * method, the path and the routes, which are all added before the first request; adding a route
 * forgets every kept result.
 *
 * @example const app = new OpenAPIHono({ router: new MemoRouter() });
 */
export class MemoRouter<T> implements Router<T> {
  name = 'MemoRouter';
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  readonly #kept = new Map<string, Result<T>>();

  add(method: string, path: string, handler: T): void {
    this.#kept.clear();
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_PATH_LENGTH) return this.#inner.match(method, path);
    const key = `${method} ${path}`;
    let result = this.#kept.get(key);
    if (result === undefined) {
      result = this.#inner.match(method, path);
      if (this.#kept.size >= MAX_PATHS) this.#kept.clear();
      this.#kept.set(key, result);
    }
    return result;
  }
}
