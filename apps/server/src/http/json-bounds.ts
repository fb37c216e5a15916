/**
 * Checks on every JSON request body, before any handler sees it, each refused with 400
 * `INVALID_ARGUMENT` naming the field:
 *
 * - depth and size bounds: parsing a deeply nested body is cheap for V8, but serializing it again
 *   (to store `source_metadata`, to write frontmatter YAML, to answer) recurses once per level and
 *   overflows the stack near a few thousand levels;
 * - no lone surrogate (`"\ud800"`) in any string: it has no UTF-8 form, so SKILL.md would store U+FFFD
 *   where `frontmatter` kept the raw code unit — one rule for both: such text is refused;
 * - no `__proto__` key: JavaScript objects cannot hold it as plain data, so it would vanish silently.
 */
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { ServerLimits } from '../config.js';
import type { AppEnv } from './context.js';

/** What was refused where: the path of the value, and which rule (`limit` 0 for rules without one). */
export interface JsonBoundViolation {
  reason: 'json_too_deep' | 'json_too_many_values' | 'invalid_unicode' | 'reserved_key';
  /** Path of the first value past the bound, e.g. `data.metadata.a[0].b` (middle cut as `…` when long). */
  field: string;
  limit: number;
}

function formatPath(path: ReadonlyArray<string | number>): string {
  const parts = path.map((p, i) =>
    typeof p === 'number'
      ? `[${p}]`
      : /^[A-Za-z_$][\w$-]*$/.test(p)
        ? `${i === 0 ? '' : '.'}${p}`
        : `[${JSON.stringify(p.slice(0, 40))}]`,
  );
  const shown = parts.length > 12 ? [...parts.slice(0, 8), '…', ...parts.slice(-3)] : parts;
  return shown.join('').replace(/^\./, '') || '(body)';
}

/**
 * Checks a parsed JSON value without recursion (any depth is safe to inspect).
 *
 * @param value - the parsed body
 * @param maxDepth - deepest nesting allowed: `{"a": {"b": 1}}` has depth 2 (scalars add none)
 * @param maxValues - most values (objects, arrays, scalars) allowed in all
 * @returns the first violation in document order, or null
 */
export function checkJsonBounds(
  value: unknown,
  maxDepth: number,
  maxValues: number,
): JsonBoundViolation | null {
  interface Frame {
    value: unknown;
    depth: number;
    key: string | number | null;
    parent: Frame | null;
  }
  const pathOf = (frame: Frame | null): Array<string | number> => {
    const path: Array<string | number> = [];
    for (let f = frame; f !== null && f.key !== null; f = f.parent) path.unshift(f.key);
    return path;
  };
  const malformed = (text: string): boolean =>
    !(text as unknown as { isWellFormed(): boolean }).isWellFormed();
  const stack: Frame[] = [{ value, depth: 0, key: null, parent: null }];
  let values = 1;
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const next = frame.value;
    if (typeof next === 'string' && malformed(next)) {
      return { reason: 'invalid_unicode', field: formatPath(pathOf(frame)), limit: 0 };
    }
    if (typeof next !== 'object' || next === null) continue;
    if (frame.depth + 1 > maxDepth) {
      return { reason: 'json_too_deep', field: formatPath(pathOf(frame)), limit: maxDepth };
    }
    const keys: Array<string | number> = Array.isArray(next) ? [] : Object.keys(next);
    const count = Array.isArray(next) ? next.length : keys.length;
    if (values + count > maxValues) {
      return { reason: 'json_too_many_values', field: formatPath(pathOf(frame)), limit: maxValues };
    }
    values += count;
    for (const key of keys as string[]) {
      if (key === '__proto__' || malformed(key)) {
        return {
          reason: key === '__proto__' ? 'reserved_key' : 'invalid_unicode',
          field: formatPath([...pathOf(frame), key]),
          limit: 0,
        };
      }
    }
    // Pushed in reverse so values are visited in document order.
    for (let i = count - 1; i >= 0; i--) {
      const key = Array.isArray(next) ? i : (keys[i] as string);
      const child = Array.isArray(next) ? next[i] : (next as Record<string, unknown>)[key as string];
      stack.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return null;
}

function describe(violation: JsonBoundViolation): string {
  switch (violation.reason) {
    case 'json_too_deep':
      return `is nested deeper than the limit of ${violation.limit} levels`;
    case 'json_too_many_values':
      return `passes the limit of ${violation.limit} JSON values in one request`;
    case 'invalid_unicode':
      return 'holds a lone UTF-16 surrogate (e.g. "\\ud800"), which is not valid Unicode text; send well-formed text';
    case 'reserved_key':
      return 'is named "__proto__", which cannot be kept as data; rename the key';
  }
}

/**
 * Middleware refusing JSON bodies past {@link ServerLimits.maxJsonDepth} or
 * {@link ServerLimits.maxJsonValues}, or with a lone surrogate or a `__proto__` key, with 400
 * `INVALID_ARGUMENT` (`details {field, reason, limit?}`; reason `json_too_deep`,
 * `json_too_many_values`, `invalid_unicode`, `reserved_key`). Malformed JSON is left to the route's
 * own parsing (which reports it). A body that parses is parsed only here: `c.req.json()` gives
 * later handlers this value.
 */
export function jsonBounds(
  limits: Pick<ServerLimits, 'maxJsonDepth' | 'maxJsonValues'>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const type = c.req.header('content-type') ?? '';
    if (/\bjson\b/i.test(type)) {
      let body: unknown;
      let parsed = true;
      try {
        body = await c.req.json();
      } catch {
        parsed = false;
      }
      if (parsed) {
        // The route's validator reads the body with `c.req.json()`, which would parse the text
        // again: it gets this parse (a fresh value nothing has touched yet) instead.
        const value = body;
        c.req.json = () => Promise.resolve(value as never);
      }
      const violation = parsed ? checkJsonBounds(body, limits.maxJsonDepth, limits.maxJsonValues) : null;
      if (violation !== null) {
        throw new SkillportError(
          'INVALID_ARGUMENT',
          `Request body field ${violation.field} ${describe(violation)}`,
          {
            details: {
              field: violation.field,
              reason: violation.reason,
              ...(violation.limit > 0 ? { limit: violation.limit } : {}),
            },
          },
        );
      }
    }
    await next();
  };
}
