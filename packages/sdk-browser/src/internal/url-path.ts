/**
 * Caller text placed in a URL path (skill names, task ids, account and key ids, file paths) is
 * checked before any request: URL resolution collapses `.` and `..` segments even when every
 * segment is percent-encoded, so `getSkillFile('x', '../../observer/queue')` would otherwise reach
 * another endpoint. Names are encoded with `encodeURIComponent`, so `/`, `?` and `#` stay inside
 * their segment.
 */
import { InvalidArgumentError } from '../errors.js';

function refuse(
  method: string,
  url: string,
  field: string,
  reason: string,
  message: string,
): InvalidArgumentError {
  return new InvalidArgumentError({
    status: 400,
    code: 'INVALID_ARGUMENT',
    message,
    details: { field, reason },
    requestId: undefined,
    method,
    url,
  });
}

/**
 * One path segment from caller text (a skill name, a task id, …), encoded.
 * @throws InvalidArgumentError (no request sent) for a non-string, empty, `.` or `..` value, or one
 *   with a backslash or control character
 */
export function pathSegment(value: string, field: string, method: string, url: string): string {
  if (typeof value !== 'string' || value.length === 0)
    throw refuse(method, url, field, 'empty', `${field} must be a non-empty string`);
  if (value === '.' || value === '..')
    throw refuse(method, url, field, 'segment', `${field} ${JSON.stringify(value)} is not allowed`);
  if (/[\u0000-\u001f\u007f\\]/.test(value))
    throw refuse(
      method,
      url,
      field,
      'characters',
      `${field} ${JSON.stringify(value.slice(0, 80))} contains a backslash or control character`,
    );
  return encodeURIComponent(value);
}

/**
 * A file path inside a skill folder, each segment encoded.
 * @throws InvalidArgumentError (no request sent) when the path breaks the skill file path rule
 *   (`..`, `.` or empty segments, backslash, control characters, over 1024 characters)
 */
export function filePathSegments(path: string, method: string, url: string): string {
  // The rule of `skillFilePathProblem` in @skillport/core, kept here so the browser bundle imports
  // nothing but ky and fflate at run time.
  const problem = (reason: string, why: string) =>
    refuse(
      method,
      url,
      'path',
      reason,
      `File path ${JSON.stringify(String(path).slice(0, 200))} ${why}; give a path relative to the skill folder, e.g. "docs/guide.md"`,
    );
  if (typeof path !== 'string' || path.length === 0 || path.length > 1024)
    throw problem('length', 'is empty or too long');
  if (/[\u0000-\u001f\u007f\\]/.test(path))
    throw problem('characters', 'contains a backslash or control character');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..')
      throw problem('segment', 'has an empty, "." or ".." segment');
  }
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Last guard before a request leaves: a relative request path with a `.` or `..` segment (also
 * percent-encoded dots, which URL resolution collapses too) is refused.
 */
export function checkRequestPath(path: string, method: string, url: string): void {
  const pathname = path.split('?')[0] ?? '';
  for (const segment of pathname.split('/')) {
    const lowered = segment.toLowerCase().replaceAll('%2e', '.');
    if (lowered === '.' || lowered === '..')
      throw refuse(
        method,
        url,
        'path',
        'segment',
        `request path ${JSON.stringify(path)} has a "." or ".." segment`,
      );
  }
}
