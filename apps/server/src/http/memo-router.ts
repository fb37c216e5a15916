/**
 * Hono's default router with the result of each match kept by method and path: the routes of this
 * app (a static `find` beside `{name}/restore`, a `{path}` catching slashes) are beyond Hono's
 * RegExpRouter, so its trie router walks them on every request — about 4–6 µs for a get of a skill,
 * more than the rest of routing. A path asked again (`/health`, find, list) is routed from memory,
 * and so is a path that differs from one routed before only in a plain last segment (the skill
 * name of `GET /api/v1/skills/{name}`): a registry of 100,000 skills is read across far more
 * distinct paths than any bounded memory of whole paths holds.
 */
import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths (and path shapes) remembered at most; past it the memory starts over (a burst of new ones costs a clear). */
const MAX_PATHS = 2048;
/** Longer paths are routed afresh each time (never kept). */
const MAX_PATH_LENGTH = 256;
/**
 * A last segment routed by the shape of its path: unreserved URL characters only (no `%`, so no
 * percent-decoding can tell two such segments apart), not starting with a dot (`.`/`..` segments).
 */
const PLAIN_SEGMENT = /^[A-Za-z0-9_~-][A-Za-z0-9._~-]{0,127}$/;
/**
 * The last segment a shape is routed with, standing for any plain segment that is not a static
 * segment of some route (`memo-router-any-segment` is none of this app's).
 */
const STAND_IN = 'memo-router-any-segment';
/** `:name{pattern}` in a route path. */
const PARAM_PATTERN = /:[^/{}]+\{([^}]*)\}/g;

/** A path's shape: what the routes make of the `STAND_IN` in place of its last segment. */
interface Shape<T> {
  result: Result<T>;
  /**
   * `none`: no param value holds the stand-in (the result is the same for every segment); `suffix`:
   * each value holding it ends with it (the last param, or a `{.+}` param reaching the last
   * segment); `unusable`: a value holds it elsewhere (such paths are routed afresh).
   */
  stand: 'none' | 'suffix' | 'unusable';
  /**
   * For `suffix` in the trie form (`[[handler, params][]]`): the distinct params objects as
   * `[name, value, ends in the stand-in]` lists, and per handler the index of its list (-1: its params
   * hold no stand-in and are shared as they are).
   */
  groups: Array<Array<[string, string, boolean]>>;
  groupOf: number[];
}

/**
 * A router that answers as Hono's default one (`SmartRouter` over `RegExpRouter` and `TrieRouter`)
 * and keeps the result of up to 2,048 method-and-path pairs, plus up to 2,048 path shapes: a path
 * whose last segment is plain (see `PLAIN_SEGMENT`) and is no static segment of any route, nor
 * judged differently from the stand-in by a param pattern of any route, is routed as the stand-in
 * path was, with the stand-in replaced by the segment in the params. A match result depends only on
 * the method, the path and the routes, which are all added before the first request; adding a route
 * forgets every kept result.
 *
 * @example const app = new OpenAPIHono({ router: new MemoRouter() });
 */
export class MemoRouter<T> implements Router<T> {
  name = 'MemoRouter';
  readonly #inner: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  readonly #kept = new Map<string, Result<T>>();
  readonly #shapes = new Map<string, Shape<T>>();
  /** Every static segment of the routes added (a segment equal to one may route differently). */
  readonly #staticSegments = new Set<string>();
  /**
   * The param patterns of the routes added, anchored, each with its verdict on the stand-in (a segment
   * must be judged as the stand-in is).
   */
  readonly #patterns: Array<[RegExp, boolean]> = [];
  /** True once a route's param pattern could not be read: shapes are not used. */
  #shapesOff = false;

  add(method: string, path: string, handler: T): void {
    this.#kept.clear();
    this.#shapes.clear();
    for (const segment of path.split('/')) {
      if (!segment.startsWith(':') && segment !== '*') this.#staticSegments.add(segment);
    }
    const patterns = [...path.matchAll(PARAM_PATTERN)].map((match) => match[1] as string);
    // A pattern this parse may not read as Hono does (nested braces) or cannot compile: no path is
    // routed by its shape from then on (every one afresh or from the memory of whole paths).
    if (patterns.length !== (path.match(/\{/g)?.length ?? 0)) this.#shapesOff = true;
    for (const pattern of patterns) {
      try {
        const anchored = new RegExp(`^(?:${pattern})$`);
        this.#patterns.push([anchored, anchored.test(STAND_IN)]);
      } catch {
        this.#shapesOff = true;
      }
    }
    this.#inner.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (path.length > MAX_PATH_LENGTH) return this.#inner.match(method, path);
    const key = `${method} ${path}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined) return kept;
    const slash = path.lastIndexOf('/');
    const segment = path.slice(slash + 1);
    const prefix = path.slice(0, slash + 1);
    let result: Result<T> | null = null;
    if (slash > 0 && this.#byShape(segment) && !prefix.includes(STAND_IN)) {
      result = this.#shaped(method, prefix, segment);
    }
    result ??= this.#inner.match(method, path);
    if (this.#kept.size >= MAX_PATHS) this.#kept.clear();
    this.#kept.set(key, result);
    return result;
  }

  /** Whether a path ending in `segment` may be routed by its shape. */
  #byShape(segment: string): boolean {
    if (this.#shapesOff || !PLAIN_SEGMENT.test(segment) || this.#staticSegments.has(segment)) return false;
    for (const [pattern, standIn] of this.#patterns) {
      if (pattern.test(segment) !== standIn) return false;
    }
    return true;
  }

  /**
   * The result for `prefix` + `segment`, from the kept shape of `prefix` (routed once with the
   * stand-in), or null when the shape cannot stand for it.
   */
  #shaped(method: string, prefix: string, segment: string): Result<T> | null {
    const key = `${method} ${prefix}`;
    let shape = this.#shapes.get(key);
    if (shape === undefined) {
      shape = shapeOf(this.#inner.match(method, `${prefix}${STAND_IN}`));
      if (this.#shapes.size >= MAX_PATHS) this.#shapes.clear();
      this.#shapes.set(key, shape);
    }
    if (shape.stand === 'none') return shape.result;
    return shape.stand === 'suffix' ? withSegment(shape, segment) : null;
  }
}

type TrieForm<T> = [Array<[T, Record<string, string>]>];
type RegExpForm<T> = [Array<[T, Record<string, number>]>, string[]];

/** The shape of a result routed with the stand-in as the last segment. */
function shapeOf<T>(result: Result<T>): Shape<T> {
  const [handlers, stash] = result as unknown as RegExpForm<T> | [TrieForm<T>[0], undefined];
  const values =
    stash !== undefined
      ? stash.filter((value) => typeof value === 'string')
      : handlers.flatMap(([, params]) => Object.values(params as Record<string, string>));
  const holding = values.filter((value) => value.includes(STAND_IN));
  const stand =
    holding.length === 0
      ? 'none'
      : holding.every((value) => value.endsWith(STAND_IN))
        ? 'suffix'
        : 'unusable';
  const groups: Shape<T>['groups'] = [];
  const groupOf: number[] = [];
  if (stand === 'suffix' && stash === undefined) {
    const byKey = new Map<string, number>();
    for (const [, params] of handlers as TrieForm<T>[0]) {
      const entries = Object.entries(params).map(([name, value]): [string, string, boolean] => [
        name,
        value,
        value.endsWith(STAND_IN),
      ]);
      if (!entries.some(([, , stands]) => stands)) {
        groupOf.push(-1);
        continue;
      }
      const key = JSON.stringify(entries);
      let index = byKey.get(key);
      if (index === undefined) {
        index = groups.push(entries) - 1;
        byKey.set(key, index);
      }
      groupOf.push(index);
    }
  }
  return { result, stand, groups, groupOf };
}

/** `value` with its stand-in suffix replaced by `segment`. */
function replaced(value: string, segment: string): string {
  return `${value.slice(0, value.length - STAND_IN.length)}${segment}`;
}

/**
 * The shape's result with the stand-in ending a param value replaced by `segment`: in the stash of
 * the RegExpRouter form (`[[handler, indexes][], stash]`), else in each handler's params (the trie
 * form; handlers with equal params share one new object). The kept result itself is never changed.
 */
function withSegment<T>(shape: Shape<T>, segment: string): Result<T> {
  const [handlers, stash] = shape.result as unknown as RegExpForm<T> | [TrieForm<T>[0], undefined];
  if (stash !== undefined) {
    const next = stash.map((value) =>
      typeof value === 'string' && value.endsWith(STAND_IN) ? replaced(value, segment) : value,
    );
    return [handlers, next] as unknown as Result<T>;
  }
  const made = shape.groups.map((entries) => {
    const params: Record<string, string> = {};
    for (const [name, value, stands] of entries) params[name] = stands ? replaced(value, segment) : value;
    return params;
  });
  const out: TrieForm<T>[0] = new Array(handlers.length);
  for (let i = 0; i < handlers.length; i++) {
    const [handler, params] = handlers[i] as [T, Record<string, string>];
    const group = shape.groupOf[i] as number;
    out[i] = [handler, group === -1 ? params : (made[group] as Record<string, string>)];
  }
  return [out] as unknown as Result<T>;
}
