/**
 * `X-Request-Id`: the client's value when it is sane, else a new UUID (set on every response by the
 * request entry, see `request-entry.ts`).
 */
import { randomUUID } from 'node:crypto';

/**
 * Ids echoed as sent: 1–128 characters of letters, digits and `. _ : = -` (trace ids such as
 * `req-123.abc` or `4bf92f35:00f067aa`).
 */
const SANE_ID = /^[A-Za-z0-9._:=-]{1,128}$/;

/**
 * The id of a request: the client's `X-Request-Id` when it is sane (1–128 characters of letters,
 * digits and `. _ : = -`), else a new UUID.
 *
 * @param given - the request's `X-Request-Id`, if any
 * @returns the id to log and echo in `X-Request-Id`
 */
export function requestIdOf(given: string | undefined): string {
  // The length is checked first: the pattern never runs over a long header.
  return given !== undefined && given.length <= 128 && SANE_ID.test(given) ? given : randomUUID();
}
