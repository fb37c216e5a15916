/**
 * OpenViking's identity headers, `X-OpenViking-Account` and `X-OpenViking-User`, which its SDKs, `ov`
 * CLI and plugins send whenever an account or user is configured. Skillport treats them as OpenViking
 * does (its `dev` and `api_key` auth plugins):
 *
 * - **Dev mode** (no keys): the headers name the caller — account and user default to `default`,
 *   a header given replaces one of them — so a client configured as `acme`/`alice` reads and writes
 *   `viking://user/alice/skills` of account `acme`, as it would on an OpenViking dev server.
 * - **API keys**: the key alone names the caller; both headers are ignored, for every role (root
 *   keys stay refused on data routes). A key cannot be made to act as another user or account.
 */
import { SkillportError, USER_ID_PATTERN } from '@skillport/core';
import type { Identity } from '../store/types.js';

/** The header naming the account (lowercase, as Node gives header names). */
export const ACCOUNT_HEADER = 'x-openviking-account';
/** The header naming the user. */
export const USER_HEADER = 'x-openviking-user';

/** An account id as the admin routes accept it. */
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A header's value trimmed; null when absent or blank (OpenViking reads a blank value as absent). */
function headerValue(get: (name: string) => string | undefined, name: string): string | null {
  const value = get(name)?.trim();
  return value ? value : null;
}

/** Whether `user` is a user id as the admin routes accept it (so it names a usable user root). */
function isUserId(user: string): boolean {
  return user.length <= 128 && USER_ID_PATTERN.test(user) && user !== '.' && user !== '..';
}

function invalid(header: string, value: string, expected: string): SkillportError {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return new SkillportError('INVALID_ARGUMENT', `${header}: ${JSON.stringify(shown)} is not ${expected}`, {
    details: { field: header, reason: 'invalid' },
  });
}

/**
 * The dev-mode caller a request names with OpenViking's identity headers: `identity` (the dev
 * identity) with its account and/or user replaced by the headers given. Role and key stay as they are.
 *
 * @param identity - the dev identity (`default`/`default`, role admin)
 * @param get - reads a request header by lowercase name
 * @returns `identity` itself when neither header is given, else a new identity
 * @throws SkillportError `INVALID_ARGUMENT` (400, `details {field: "X-OpenViking-Account" |
 *   "X-OpenViking-User", reason: "invalid"}`) for an account that is not 1–64 characters of
 *   `[A-Za-z0-9_-]`, or a user that is not 1–128 characters of `[A-Za-z0-9_.@-]` (nor `.` or `..`)
 * @example
 * ```ts
 * devIdentityFromHeaders(DEV_IDENTITY, (n) => ({ 'x-openviking-user': 'alice' })[n]);
 * // { accountId: 'default', userId: 'alice', role: 'admin', keyId: null }
 * ```
 */
export function devIdentityFromHeaders(
  identity: Identity,
  get: (name: string) => string | undefined,
): Identity {
  const account = headerValue(get, ACCOUNT_HEADER);
  const user = headerValue(get, USER_HEADER);
  if (account === null && user === null) return identity;
  if (account !== null && !ACCOUNT_ID.test(account)) {
    throw invalid('X-OpenViking-Account', account, '1–64 characters of [A-Za-z0-9_-] (e.g. "acme")');
  }
  if (user !== null && !isUserId(user)) {
    throw invalid(
      'X-OpenViking-User',
      user,
      '1–128 characters of [A-Za-z0-9_.@-], not "." or ".." (e.g. "alice")',
    );
  }
  return { ...identity, accountId: account ?? identity.accountId, userId: user ?? identity.userId };
}
