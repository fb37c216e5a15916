/**
 * The registry `skillport mcp` fronts: any Skillport server, through the HTTP client, with the
 * caller's URL and key. Changes are noticed by polling the listing.
 */
import type { FindSkillsResult, GetSkillResult, ListSkillsResult } from '@skillport/core';
import type { SkillRegistry } from '@skillport/mcp';
import type { AsyncHTTPClient } from '@skillport/sdk-node';

/** Skills compared by each poll (the first ones of the listing, plus the totals). */
export const POLL_LISTING_LIMIT = 1000;

/** Options of {@link createClientRegistry}. */
export interface ClientRegistryOptions {
  /** How often `watch` polls the server for changes, ms; 0 = never (no list_changed notifications). */
  pollIntervalMs: number;
  /** Told when a poll fails (the server is down, …) and when it answers again. */
  onPollStatus?: (error: unknown | null) => void;
}

/** What a poll compares: every listed skill's root, name and revision, and the total. */
function fingerprint(listing: ListSkillsResult): string {
  return `${listing.total}\n${listing.skills.map((s) => `${s.root_uri}/${s.name}@${s.revision}`).join('\n')}`;
}

/**
 * A {@link SkillRegistry} over the HTTP client.
 *
 * `watch` lists the first {@link POLL_LISTING_LIMIT} skills every `pollIntervalMs` and reports a
 * change when a skill was added, replaced or deleted among them, or a root's total moved.
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
            let last: string | null = null;
            let failing = false;
            let stopped = false;
            let timer: ReturnType<typeof setTimeout> | undefined;
            const poll = async () => {
              try {
                const current = fingerprint(await client.listSkills({ node_limit: POLL_LISTING_LIMIT }));
                if (failing) options.onPollStatus?.(null);
                failing = false;
                if (last !== null && current !== last) onChange();
                last = current;
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
