/**
 * Local JSON Schema references (`#`, `#/$defs/X`, `#/properties/a/items`): RFC 6901 pointers inside a
 * URI fragment, so segments are percent-decoded, then `~1` → `/` and `~0` → `~`.
 */

/** A resolved local reference. */
export interface ResolvedPointer {
  /** The value the pointer designates. */
  value: unknown;
  /** The decoded segments, e.g. `['$defs', 'Node']` (empty for `#`). */
  segments: string[];
}

/**
 * Splits a local `$ref` (`#` or `#/…`) into decoded pointer segments.
 *
 * @param ref - the `$ref` value
 * @returns the segments, or `null` when `ref` is not a local JSON Pointer fragment
 */
export function parseLocalRef(ref: string): string[] | null {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return null;
  const segments: string[] = [];
  for (const raw of ref.slice(2).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    segments.push(segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return segments;
}

/**
 * Resolves a local `$ref` against the root schema.
 *
 * @param root - the document the reference is relative to (the tool's `inputSchema`)
 * @param ref - `#`, `#/$defs/X`, `#/definitions/X`, `#/properties/a~1b/items`, …
 * @returns the target and its segments, or `null` when the reference is not local or designates nothing
 */
export function resolveLocalRef(root: unknown, ref: string): ResolvedPointer | null {
  const segments = parseLocalRef(ref);
  if (segments === null) return null;
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(0|[1-9][0-9]*)$/.test(segment)) return null;
      current = current[Number(segment)];
    } else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else {
      return null;
    }
    if (current === undefined) return null;
  }
  return { value: current, segments };
}
