/**
 * The registry the `/mcp` route's MCP server reads: the server's own services, as one caller.
 */
import { AGENT_SKILL_ROOT, type FindSkillsResult, SkillportError, userSkillRoot } from '@skillport/core';
import type { SkillRegistry } from '@skillport/mcp';
import type { ServiceDeps } from '../services/deps.js';
import { decodeListCursor } from '../services/list-cursor.js';
import type { SkillChanges } from '../services/skill-changes.js';
import { readSkillFile } from '../services/skill-file.js';
import { findSkillsJson, getSkill, listSkills } from '../services/skill-reader.js';
import type { Identity } from '../store/types.js';
import type { ChangePoller } from './change-poller.js';

/**
 * A {@link SkillRegistry} over the services with `identity`'s rights: its user root and its account's
 * agent root. `watch` reports changes to those two roots: at once for writes through this server
 * process, within a poll interval for writes through other processes on the same database.
 *
 * @param deps - the services' dependencies
 * @param identity - the caller (from the API key that opened the MCP session)
 * @param changes - the app's change channel
 * @param poller - the store poller (changes by other processes)
 */
export function createServiceRegistry(
  deps: ServiceDeps,
  identity: Identity,
  changes: SkillChanges,
  poller: ChangePoller,
): SkillRegistry {
  const ownRoot = userSkillRoot(identity.userId);
  return {
    // As `POST /api/v1/skills/find`: a find asked again while the database is unchanged is answered
    // from the read cache (the same kept bytes, shared with the REST route's callers of this identity).
    find: async (query, options) =>
      JSON.parse(
        (
          await findSkillsJson(deps, identity, {
            query,
            limit: options.limit,
            scoreThreshold: null,
            targetUri: options.targetUri ?? null,
            levels: null,
          })
        ).toString('utf8'),
      ) as FindSkillsResult,
    get: (name, options) =>
      getSkill(deps, identity, name, {
        level: options.level ?? null,
        includeContent: null,
        includeFiles: true,
        includeSource: false,
        targetUri: options.targetUri ?? null,
      }),
    list: (options) => {
      const cursor = options.cursor === undefined ? null : decodeListCursor(options.cursor);
      if (cursor !== null && cursor.kind !== 'name') {
        throw new SkillportError('INVALID_ARGUMENT', 'Invalid cursor: not a cursor of the listing by name', {
          details: { field: 'cursor' },
        });
      }
      return listSkills(deps, identity, {
        limit: options.limit,
        cursor,
        targetUri: options.targetUri ?? null,
      });
    },
    async readFile(name, path, options) {
      const read = await readSkillFile(deps, identity, name, path, options.targetUri ?? null);
      return { uri: read.uri, content: read.file.content, sha256: read.file.sha256 };
    },
    watch(onChange) {
      const local = changes.subscribe((change) => {
        if (change.accountId !== identity.accountId) return;
        if (change.rootUri === ownRoot || change.rootUri === AGENT_SKILL_ROOT) onChange();
      });
      const remote = poller.watch(identity.accountId, [ownRoot, AGENT_SKILL_ROOT], onChange);
      return () => {
        local();
        remote();
      };
    },
  };
}
