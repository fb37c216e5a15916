/**
 * The opaque `cursor` of `GET /api/v1/skills`, for both kinds of page it continues: the listing by
 * name (the position is the root being read and the last name returned) and the change feed (the
 * feed position and its `updated_since`). Both carry the root asked for (`target_uri`), so a cursor
 * is refused with another root. A cursor is base64url JSON; clients pass it back unchanged.
 */
import { SkillportError } from '@skillport/core';

/** Where the next page of a listing by name starts. */
export interface NameCursor {
  kind: 'name';
  /** Index of the root being read in the listed roots (0: user root, 1: agent root). */
  rootIndex: number;
  /** The last name returned from that root; the page continues after it. */
  after: string;
  /** The `target_uri` root, or null for both roots. */
  root: string | null;
}

/** Where the next page of the change feed starts. */
export interface FeedCursor {
  kind: 'feed';
  /** The feed position (`seq`) to continue after. */
  seq: number;
  /** `updated_since` in epoch ms, or null. */
  since: number | null;
  /** The `target_uri` root, or null for both roots. */
  root: string | null;
}

export type ListCursor = NameCursor | FeedCursor;

/** Longest name a cursor may carry (names are at most 64 characters; kebab-case spellings too). */
const MAX_NAME = 256;

/**
 * Encodes a cursor. The change feed's form (`{v: 1, s, t, r}`) is the one it has always had, so
 * cursors that mirrors saved keep working.
 */
export function encodeListCursor(cursor: ListCursor): string {
  const wire =
    cursor.kind === 'feed'
      ? { v: 1, s: cursor.seq, t: cursor.since, r: cursor.root }
      : { v: 1, n: cursor.after, i: cursor.rootIndex, r: cursor.root };
  return Buffer.from(JSON.stringify(wire), 'utf8').toString('base64url');
}

function badCursor(reason: string): SkillportError {
  return new SkillportError(
    'INVALID_ARGUMENT',
    `Invalid cursor: ${reason}. Pass back the next_cursor of a previous page unchanged, or start again without it`,
    { details: { field: 'cursor' } },
  );
}

/**
 * Decodes a cursor this server issued.
 *
 * @throws SkillportError `INVALID_ARGUMENT` (`details.field = "cursor"`) for anything else
 */
export function decodeListCursor(raw: string): ListCursor {
  if (raw.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw badCursor('not a cursor this server issued');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw badCursor('not a cursor this server issued');
  }
  const v = value as Record<string, unknown> | null;
  if (v === null || typeof v !== 'object' || v.v !== 1 || !(v.r === null || typeof v.r === 'string')) {
    throw badCursor('not a cursor this server issued');
  }
  const root = v.r as string | null;
  if ('s' in v) {
    if (!Number.isSafeInteger(v.s) || (v.s as number) < 0 || !(v.t === null || Number.isFinite(v.t))) {
      throw badCursor('not a cursor this server issued');
    }
    return { kind: 'feed', seq: v.s as number, since: v.t as number | null, root };
  }
  if (
    typeof v.n !== 'string' ||
    v.n.length > MAX_NAME ||
    v.n.includes('\u0000') || // no name holds one (and PostgreSQL text cannot)
    !(v.i === 0 || v.i === 1) // one of the (at most two) listed roots
  ) {
    throw badCursor('not a cursor this server issued');
  }
  return { kind: 'name', rootIndex: v.i, after: v.n, root };
}

/**
 * Refuses a cursor of another root than the request's.
 *
 * @param cursor - decoded cursor
 * @param root - the request's `target_uri` root, or null for both roots
 * @throws SkillportError `INVALID_ARGUMENT` naming both roots
 */
export function checkCursorRoot(cursor: ListCursor, root: string | null): void {
  if (cursor.root === root) return;
  throw new SkillportError(
    'INVALID_ARGUMENT',
    `This cursor pages ${cursor.root ?? 'both roots'}, not ${root ?? 'both roots'}; pass the same target_uri ` +
      'as for the first page',
    { details: { field: 'cursor', cursor_root: cursor.root, target_uri: root } },
  );
}
