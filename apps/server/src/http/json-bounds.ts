/**
 * Checks on every JSON request body, before any handler sees it, each refused with 400
 * `INVALID_ARGUMENT` naming the field:
 *
 * - depth and size bounds: parsing a deeply nested body is cheap for V8, but serializing it again
 *   (to store `source_metadata`, to write frontmatter YAML, to answer) recurses once per level and
 *   overflows the stack near a few thousand levels;
 * - no lone surrogate (`"\ud800"`) in any string: it has no UTF-8 form, so SKILL.md would store U+FFFD
 *   where `frontmatter` kept the raw code unit — one rule for both: such text is refused;
 * - no `__proto__` key: JavaScript objects cannot hold it as plain data, so it would vanish silently;
 * - no object with more keys than allowed: V8 builds such an object slowly (one of 190,000 keys in a
 *   3 MB body took ~100 ms to parse and as long again to walk). A large body's text is scanned for
 *   this and for the value count before it is parsed at all (see {@link scanJsonText}).
 */
import { SkillportError } from '@skillport/core';
import type { MiddlewareHandler } from 'hono';
import type { ServerLimits } from '../config.js';
import type { AppEnv } from './context.js';

/** What was refused where: the path of the value, and which rule (`limit` 0 for rules without one). */
export interface JsonBoundViolation {
  reason:
    | 'json_too_deep'
    | 'json_too_many_values'
    | 'json_too_many_keys'
    | 'invalid_unicode'
    | 'reserved_key';
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
 * @param maxKeys - most keys of one object (default: no limit)
 * @returns the first violation in document order, or null
 */
export function checkJsonBounds(
  value: unknown,
  maxDepth: number,
  maxValues: number,
  maxKeys = Number.POSITIVE_INFINITY,
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
    if (!Array.isArray(next) && count > maxKeys) {
      return { reason: 'json_too_many_keys', field: formatPath(pathOf(frame)), limit: maxKeys };
    }
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

/** Bodies at least this long are scanned before they are parsed (smaller ones parse in well under a millisecond). */
export const JSON_SCAN_MIN_CHARS = 64 * 1024;

/**
 * Scans JSON text, without parsing it, for an object of more than `maxKeys` keys or more than
 * `maxValues` values in all (objects, arrays and scalars, counted as {@link checkJsonBounds} counts
 * them; a repeated key counts each time). Linear in the text: string contents are skipped with
 * `indexOf`. Text that is not JSON, or nested deeper than `maxDepth`, is left to the parser and the
 * walk after it (`null`).
 *
 * @param text - the body
 * @returns the first violation in document order (`field` names the object or array being filled), or null
 */
export function scanJsonText(
  text: string,
  maxDepth: number,
  maxValues: number,
  maxKeys: number,
): JsonBoundViolation | null {
  interface Frame {
    object: boolean;
    /** Keys (object) or values (array) seen so far. */
    count: number;
    expectKey: boolean;
    keyStart: number;
    keyEnd: number;
  }
  const stack: Frame[] = [];
  const pathOf = (): Array<string | number> => {
    const path: Array<string | number> = [];
    for (let i = 0; i < stack.length - 1; i++) {
      const frame = stack[i] as Frame;
      if (!frame.object) path.push(frame.count - 1);
      else {
        try {
          path.push(String(JSON.parse(text.slice(frame.keyStart, frame.keyEnd))));
        } catch {
          path.push('?');
        }
      }
    }
    return path;
  };
  let values = 0;
  const length = text.length;
  let i = 0;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x3a /* : */) {
      i++;
      continue;
    }
    const top = stack.length > 0 ? (stack[stack.length - 1] as Frame) : null;
    if (c === 0x2c /* , */) {
      if (top?.object) top.expectKey = true;
      i++;
      continue;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      i++;
      continue;
    }
    let end: number;
    if (c === 0x22 /* " */) {
      end = i + 1;
      for (;;) {
        const quote = text.indexOf('"', end);
        if (quote < 0) return null;
        let backslashes = 0;
        while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
        end = quote + 1;
        if (backslashes % 2 === 0) break;
      }
      if (top?.expectKey) {
        top.expectKey = false;
        top.keyStart = i;
        top.keyEnd = end;
        if (++top.count > maxKeys) {
          return { reason: 'json_too_many_keys', field: formatPath(pathOf()), limit: maxKeys };
        }
        i = end;
        continue;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      end = i + 1;
    } else {
      // A number, true, false or null: up to the next delimiter.
      end = i + 1;
      while (end < length) {
        const d = text.charCodeAt(end);
        if (d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x0a || d === 0x0d || d === 0x09)
          break;
        end++;
      }
    }
    // A value.
    if (top !== null && !top.object) top.count++;
    if (++values > maxValues) {
      return { reason: 'json_too_many_values', field: formatPath(pathOf()), limit: maxValues };
    }
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= maxDepth) return null;
      stack.push({ object: c === 0x7b, count: 0, expectKey: c === 0x7b, keyStart: 0, keyEnd: 0 });
    }
    i = end;
  }
  return null;
}

function describe(violation: JsonBoundViolation): string {
  switch (violation.reason) {
    case 'json_too_many_keys':
      return `holds more than the limit of ${violation.limit} keys in one object`;
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

function refusal(violation: JsonBoundViolation): SkillportError {
  return new SkillportError(
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

/**
 * Middleware refusing JSON bodies past {@link ServerLimits.maxJsonDepth} or
 * {@link ServerLimits.maxJsonValues}, or with a lone surrogate or a `__proto__` key, with 400
 * `INVALID_ARGUMENT` (`details {field, reason, limit?}`; reason `json_too_deep`,
 * `json_too_many_values`, `invalid_unicode`, `reserved_key`). Malformed JSON is left to the route's
 * own parsing (which reports it). A body that parses is parsed only here: `c.req.json()` gives
 * later handlers this value.
 */
export function jsonBounds(
  limits: Pick<ServerLimits, 'maxJsonDepth' | 'maxJsonValues'> &
    Partial<Pick<ServerLimits, 'maxJsonObjectKeys'>>,
): MiddlewareHandler<AppEnv> {
  const maxKeys = limits.maxJsonObjectKeys ?? Number.POSITIVE_INFINITY;
  return async (c, next) => {
    const method = c.req.method;
    if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return next();
    const type = c.req.header('content-type') ?? '';
    if (/\bjson\b/i.test(type)) {
      let body: unknown;
      let parsed = true;
      let text: string | undefined;
      try {
        text = await c.req.text();
      } catch {
        parsed = false;
      }
      if (text !== undefined) {
        // A large body is scanned before V8 builds it: the scan is linear and cheap, building an
        // object of very many keys is not.
        if (text.length >= JSON_SCAN_MIN_CHARS) {
          const early = scanJsonText(text, limits.maxJsonDepth, limits.maxJsonValues, maxKeys);
          if (early !== null) throw refusal(early);
        }
        try {
          body = JSON.parse(text);
        } catch {
          parsed = false;
        }
      }
      if (parsed) {
        // The route's validator reads the body with `c.req.json()`, which would parse the text
        // again: it gets this parse (a fresh value nothing has touched yet) instead.
        const value = body;
        c.req.json = () => Promise.resolve(value as never);
      }
      const violation = parsed
        ? checkJsonBounds(body, limits.maxJsonDepth, limits.maxJsonValues, maxKeys)
        : null;
      if (violation !== null) throw refusal(violation);
    }
    await next();
  };
}
