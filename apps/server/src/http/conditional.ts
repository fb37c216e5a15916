/**
 * Conditional requests (RFC 9110 §13): `If-None-Match` against an entity tag.
 */

/**
 * Whether an `If-None-Match` header matches `etag`: one of its comma-separated tags equals it under
 * the weak comparison the header calls for (`W/` ignored), or the header is `*`.
 *
 * @param header - the request's `If-None-Match`, if any
 * @param etag - the current tag, quoted (`"…"`)
 * @returns true when the client's copy is current (answer 304)
 * @example matchesNoneMatch('W/"abc", "def"', '"def"'); // true
 */
export function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
