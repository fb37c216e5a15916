/**
 * Conditional requests (RFC 9110 §13): the syntax of `If-Match` / `If-None-Match`, and
 * `If-None-Match` against an entity tag.
 */
import { SkillportError } from '@skillport/core';

/** Longest part of a refused header value quoted back in the error message. */
const QUOTED_MAX = 80;

/** An `etagc` character (RFC 9110 §8.8.3): `!`, `#`–`~`, or obs-text (U+0080–U+00FF). */
function isEtagChar(code: number): boolean {
  return code === 0x21 || (code >= 0x23 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/** True when `text[from, to)` is one or more `etagc` characters. */
function allEtagChars(text: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) if (!isEtagChar(text.charCodeAt(i))) return false;
  return true;
}

/**
 * Whether one list element is an entity tag: `"…"` or `W/"…"` (RFC 9110 §8.8.3), or — leniently, as
 * the revision is sent that way by many clients — the bare revision (`etagc` characters without quotes).
 */
function isEntityTag(tag: string): boolean {
  const start = tag.startsWith('W/') ? 2 : 0;
  const end = tag.length;
  if (tag.charCodeAt(start) === 0x22) {
    // Quoted: the closing quote is the last character and nothing between them is a quote.
    return (
      end - start >= 2 &&
      tag.charCodeAt(end - 1) === 0x22 &&
      (end - start === 2 || allEtagChars(tag, start + 1, end - 1))
    );
  }
  return allEtagChars(tag, start, end);
}

/**
 * Checks the syntax of an `If-Match` or `If-None-Match` value (RFC 9110 §13.1.1, §13.1.2): `*` alone,
 * or a comma-separated list of entity tags (`"…"`, `W/"…"`, or a bare revision; empty elements are
 * allowed, so an empty value is an empty list). Linear in the value's length.
 *
 * @param header - the header's name, for the message (`If-Match` / `If-None-Match`)
 * @param value - its value; `undefined` (no header) passes
 * @throws SkillportError 400 `INVALID_ARGUMENT` (`details {field: header, reason:
 *   "malformed_entity_tag", value}`) when it is neither: the request is not evaluated, nothing changes
 *   (a syntactically invalid request is a client error, RFC 9110 §15.5.1)
 * @example checkEntityTagList('If-Match', '"abc", W/"def"'); // passes
 */
export function checkEntityTagList(header: string, value: string | undefined): void {
  if (value === undefined) return;
  const trimmed = value.trim();
  if (trimmed === '*') return;
  // One tag (the common case: the ETag sent back as received) is checked without splitting.
  if (trimmed.indexOf(',') === -1 && (trimmed === '' || isEntityTag(trimmed))) return;
  const parts = trimmed.split(',');
  for (const part of parts) {
    const tag = part.trim();
    if (tag === '' || (tag !== '*' && isEntityTag(tag))) continue;
    const shown = value.length > QUOTED_MAX ? `${value.slice(0, QUOTED_MAX)}…` : value;
    const why =
      tag === '*'
        ? '`*` must stand alone'
        : `${JSON.stringify(tag.length > QUOTED_MAX ? `${tag.slice(0, QUOTED_MAX)}…` : tag)} is not an entity tag`;
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Malformed ${header} header ${JSON.stringify(shown)}: ${why}. Send \`*\` or entity tags separated ` +
        'by commas: the revision as returned in `revision` or the `ETag` header, e.g. "3f2a…" (quoted or ' +
        'not; W/"…" for a weak tag) — RFC 9110 §13.1',
      { status: 400, details: { field: header, reason: 'malformed_entity_tag', value: shown } },
    );
  }
}

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
  // The ETag sent back as received.
  if (header === etag) return true;
  return header.split(',').some((t) => {
    const tag = t.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}
