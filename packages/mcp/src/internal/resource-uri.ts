/**
 * Resource URIs as MCP clients need them. The registry names a file `<skill uri>/<path>` with the
 * path as stored, so a file `docs/my notes #1.md` has the URI `viking://…/docs/my notes #1.md`: not a
 * URI at all (RFC 3986 has no space), and one a client cannot send back, since everything after `#`
 * is a fragment (and a `viking://` URI with a `#` is refused). Resources and embedded resources carry
 * the URI percent-encoded instead (`docs/my%20notes%20%231.md`), and a read decodes its path again.
 */

/** A run of characters that RFC 3986 does not allow as they are in a path (pchar and `/` are kept). */
const UNSAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/]+/gu;

/** A run of percent-escapes. */
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;

/**
 * Percent-encodes a registry URI for MCP: each character outside the unreserved and sub-delim
 * characters, `:`, `@` and `/` becomes its UTF-8 escapes (a `%` too, so a stored `100%.md` reads back).
 * A URI of those characters only (every skill URI, most file URIs) is returned unchanged.
 *
 * @param uri - `viking://…/skills/<name>/<path>` with the path as stored
 * @example toResourceUri('viking://agent/skills/x/docs/my notes.md'); // 'viking://agent/skills/x/docs/my%20notes.md'
 */
export function toResourceUri(uri: string): string {
  return uri.replace(UNSAFE, encodeURIComponent);
}

/**
 * Decodes the percent-escapes of a file path taken from a resource URI ({@link toResourceUri} in
 * reverse). A `%` that does not start a valid UTF-8 escape sequence stays as it is, so a path a
 * client spelled raw (`100%.md`, `café.md`) reads too.
 *
 * @param path - the path part of a resource URI
 */
export function fromResourcePath(path: string): string {
  if (!path.includes('%')) return path;
  return path.replace(ESCAPES, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
