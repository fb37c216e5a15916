/**
 * Structural equality and cycle detection for parsed YAML values (plain objects, arrays, scalars).
 * Private to `@skillport/core`.
 */

/**
 * Whether `a` and `b` hold the same data: same scalars (`Object.is`), arrays of equal items in
 * order, objects with the same own keys and equal values. Safe on cyclic values.
 */
export function deepEqual(a: unknown, b: unknown, seen: Map<object, object> = new Map()): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (seen.get(a) === b) return true;
  seen.set(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(right, key) || !deepEqual(left[key], right[key], seen)) return false;
  }
  return true;
}

/**
 * Whether `value` contains itself (a YAML alias used inside its own anchor, `&a [*a]`), which no
 * JSON consumer can represent.
 */
export function hasCycle(value: unknown, ancestors: Set<object> = new Set()): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (ancestors.has(value)) return true;
  ancestors.add(value);
  for (const child of Object.values(value)) {
    if (hasCycle(child, ancestors)) return true;
  }
  ancestors.delete(value);
  return false;
}
