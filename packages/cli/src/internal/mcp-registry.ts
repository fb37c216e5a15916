/**
 * The registry `skillport mcp` fronts: any Skillport server, through the HTTP client, with the
 * caller's URL and key. Changes are noticed by following the server's change feed
 * (`GET /api/v1/skills?updated_since=…`, then `?cursor=…`), or, on a server without one, by
 * comparing listings.
 */
import type { FindSkillsResult, GetSkillResult, ListSkillsResult } from '@skillport/core';
import type { SkillRegistry } from '@skillport/mcp';
import { type AsyncHTTPClient, isApiError } from '@skillport/sdk-node';

/** Skills compared by each poll of a server without a change feed (the first ones of the listing, plus the totals). */
export const POLL_LISTING_LIMIT = 1000;

/** Changes read per change-feed page (the server's maximum). */
export const FEED_PAGE_LIMIT = 1000;

/** Change-feed pages read by one poll at most; the rest are read by the next polls. */
export const FEED_PAGES_PER_POLL = 20;

/**
 * How far before the local clock the feed is first read from, ms: changes are dated by the server's
 * clock, so this much clock difference between this machine and the server loses no change.
 */
export const FEED_CLOCK_MARGIN_MS = 60 * 60 * 1000;

/** Options of {@link createClientRegistry}. */
export interface ClientRegistryOptions {
  /** How often `watch` polls the server for changes, ms; 0 = never (no list_changed notifications). */
  pollIntervalMs: number;
  /** Told when a poll fails (the server is down, …) and when it answers again. */
  onPollStatus?: (error: unknown | null) => void;
  /** The local clock, ms since the epoch (tests). Default `Date.now`. */
  now?: () => number;
}

/** What a listing poll compares: every listed skill's root, name and revision, and the total. */
function fingerprint(listing: ListSkillsResult): string {
  return `${listing.total}\n${listing.skills.map((s) => `${s.root_uri}/${s.name}@${s.revision}`).join('\n')}`;
}

/** A change-feed page as the server answers it; null when the answer is a plain listing (no feed). */
function feedPage(page: ListSkillsResult): { changes: number; cursor: string; more: boolean } | null {
  if (!Array.isArray(page.deleted) || typeof page.next_cursor !== 'string') return null;
  return {
    changes: page.skills.length + page.deleted.length,
    cursor: page.next_cursor,
    more: page.has_more === true,
  };
}

/**
 * Polls for changes: `check` resolves true when skills were added, replaced or deleted since the
 * previous call (never on the first).
 *
 * It follows the change feed from a position taken at the first call, reading at most
 * {@link FEED_PAGES_PER_POLL} pages a call. A server that answers the feed with a plain listing, or
 * refuses it, is watched instead by comparing the first {@link POLL_LISTING_LIMIT} skills of its
 * listing. A position the server no longer accepts starts the feed over (and counts as a change).
 */
function changeWatcher(client: AsyncHTTPClient, now: () => number): () => Promise<boolean> {
  let mode: 'feed' | 'listing' = 'feed';
  let cursor: string | null = null;
  let settled = false; // the first pass over the feed is done: later changes are news
  let lastListing: string | null = null;
  const readListing = async (): Promise<boolean> => {
    const current = fingerprint(await client.listSkills({ node_limit: POLL_LISTING_LIMIT }));
    const changed = lastListing !== null && current !== lastListing;
    lastListing = current;
    return changed;
  };
  return async () => {
    if (mode === 'listing') return readListing();
    let changed = false;
    for (let pages = 0; pages < FEED_PAGES_PER_POLL; pages++) {
      let raw: ListSkillsResult;
      try {
        raw = (await client.listChanges(
          cursor === null
            ? {
                updated_since: new Date(now() - FEED_CLOCK_MARGIN_MS).toISOString(),
                node_limit: FEED_PAGE_LIMIT,
              }
            : { cursor, node_limit: FEED_PAGE_LIMIT },
        )) as ListSkillsResult;
      } catch (error) {
        if (!(isApiError(error) && error.status === 400)) throw error;
        if (cursor === null) {
          // The server does not take `updated_since`: no change feed.
          mode = 'listing';
          return readListing();
        }
        // The position is no longer valid (e.g. the database was replaced): start over.
        cursor = null;
        settled = false;
        return true;
      }
      const page = feedPage(raw);
      if (page === null) {
        mode = 'listing';
        lastListing = fingerprint(raw);
        return false;
      }
      cursor = page.cursor;
      if (settled && page.changes > 0) changed = true;
      if (!page.more) {
        settled = true;
        break;
      }
    }
    return changed;
  };
}

/**
 * A {@link SkillRegistry} over the HTTP client.
 *
 * `watch` polls the server every `pollIntervalMs` and reports a change when a skill was added,
 * replaced or deleted: through the change feed, which costs one small request per poll whatever the
 * number of skills (on a server without one, by comparing the first {@link POLL_LISTING_LIMIT}
 * skills of the listing and the totals).
 *
 * @param client - a client for the server (its URL and key)
 * @param options - see {@link ClientRegistryOptions}
 */
export function createClientRegistry(client: AsyncHTTPClient, options: ClientRegistryOptions): SkillRegistry {
  const target = (targetUri: string | undefined) => (targetUri ? { target_uri: targetUri } : {});
  return {
    async find(query, { limit, targetUri }) {
      return (await client.findSkills(query, { limit, ...target(targetUri) })) as FindSkillsResult;
    },
    async get(name, { level, targetUri }) {
      return (await client.getSkill(name, {
        ...(level !== undefined ? { level } : {}),
        ...target(targetUri),
      })) as GetSkillResult;
    },
    async list({ limit, cursor, targetUri }) {
      return (await client.listSkills({
        node_limit: limit,
        ...(cursor !== undefined ? { cursor } : {}),
        ...target(targetUri),
      })) as ListSkillsResult;
    },
    async readFile(name, path, { targetUri }) {
      const file = await client.getSkillFile(name, path, target(targetUri));
      return { content: file.bytes, sha256: file.sha256 };
    },
    ...(options.pollIntervalMs > 0
      ? {
          watch(onChange: () => void) {
            const check = changeWatcher(client, options.now ?? Date.now);
            let failing = false;
            let stopped = false;
            let timer: ReturnType<typeof setTimeout> | undefined;
            const poll = async () => {
              try {
                const changed = await check();
                if (failing) options.onPollStatus?.(null);
                failing = false;
                if (changed && !stopped) onChange();
              } catch (error) {
                if (!failing) options.onPollStatus?.(error);
                failing = true;
              }
              if (!stopped) timer = setTimeout(poll, options.pollIntervalMs);
            };
            void poll();
            return () => {
              stopped = true;
              if (timer !== undefined) clearTimeout(timer);
            };
          },
        }
      : {}),
  };
}
