/**
 * The change feed: `GET /api/v1/skills?updated_since=<time>&cursor=<opaque>` pages through the skills
 * written or deleted since a time, in the order the changes were committed, so a mirror or cache can
 * stay in sync. Each skill appears once per pass, with its latest state; one written again after
 * the reader's position comes again later, so following `next_cursor` never misses a change.
 */
import { type ListSkillsResult, SkillportError } from '@skillport/core';
import { skillUri } from '../store/skill-uri.js';
import type { Identity } from '../store/types.js';
import type { ServiceDeps } from './deps.js';
import { checkCursorRoot, encodeListCursor, type FeedCursor } from './list-cursor.js';
import { iso, rootsFor, toListItem } from './skill-reader.js';

/** Most changes in one page. */
export const MAX_FEED_PAGE = 1000;

/**
 * Parses `updated_since`: an ISO 8601 date or date-time (`2026-01-31`, `2026-01-31T09:30:00Z`,
 * with an offset or fractional seconds). A date-time without a zone is read as UTC.
 */
export function parseUpdatedSince(raw: string): number {
  const text = raw.trim();
  const match = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?)(Z|[+-]\d\d:?\d\d)?)?$/i.exec(
    text,
  );
  const ms =
    match === null
      ? Number.NaN
      : Date.parse(
          match[2] === undefined ? `${match[1]}T00:00:00Z` : `${match[1]}T${match[2]}${match[3] ?? 'Z'}`,
        );
  if (Number.isNaN(ms)) {
    throw new SkillportError(
      'INVALID_ARGUMENT',
      `Invalid updated_since ${JSON.stringify(text.slice(0, 80))}: expected an ISO 8601 date or date-time, ` +
        'e.g. "2026-01-31" or "2026-01-31T09:30:00Z"',
      { details: { field: 'updated_since', value: text.slice(0, 80) } },
    );
  }
  return ms;
}

/**
 * One page of the change feed.
 *
 * @param options.updatedSince - ISO 8601 time (ignored with a cursor, which carries it)
 * @param options.cursor - a previous feed page's `next_cursor`, decoded (`list-cursor.ts`)
 * @param options.limit - changes per page (clamped to 1–{@link MAX_FEED_PAGE})
 * @param options.targetUri - one root, else both; must equal the cursor's
 * @returns list's shape: `skills` (written, in change order), `deleted`, `next_cursor`, `has_more`,
 *   `total` = changes in the page
 * @throws SkillportError `INVALID_ARGUMENT` for a malformed time, or a cursor of another root
 */
export async function listSkillChanges(
  deps: ServiceDeps,
  identity: Identity,
  options: {
    updatedSince: string | null;
    cursor: FeedCursor | null;
    limit: number;
    targetUri: string | null;
  },
): Promise<ListSkillsResult> {
  const roots = rootsFor(identity, options.targetUri);
  const root = options.targetUri === null ? null : (roots[0] as string);
  let state: FeedCursor;
  if (options.cursor !== null) {
    state = options.cursor;
    checkCursorRoot(state, root);
  } else {
    state = {
      kind: 'feed',
      seq: 0,
      since: options.updatedSince === null ? null : parseUpdatedSince(options.updatedSince),
      root,
    };
  }
  const limit = Math.min(Math.max(1, Math.floor(options.limit)), MAX_FEED_PAGE);
  const page = await deps.store.listChanges(identity.accountId, roots, {
    afterSeq: state.seq,
    since: state.since,
    limit,
  });
  const skills = [];
  const deleted = [];
  for (const change of page.changes) {
    if (change.skill !== null) {
      skills.push(toListItem(change.skill));
    } else {
      deleted.push({
        type: 'deleted' as const,
        name: change.name,
        uri: skillUri(change.rootUri, change.name),
        root_uri: change.rootUri,
        revision: change.revision,
        deleted_at: iso(change.changedAt),
      });
    }
  }
  const next = encodeListCursor({ ...state, seq: page.lastSeq });
  const common = {
    skills,
    total: skills.length + deleted.length,
    deleted,
    next_cursor: next,
    has_more: page.more,
  };
  return root === null ? { root_uris: roots, ...common } : { root_uri: root, ...common };
}
