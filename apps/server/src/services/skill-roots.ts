/**
 * Which skill roots a caller may use: its own user root and its account's agent root.
 */
import { AGENT_SKILL_ROOT, resolveSkillRoot, SkillportError, userSkillRoot } from '@skillport/core';
import type { Identity } from '../store/types.js';

/**
 * Resolves a request's `target_uri` to a root the caller may use.
 *
 * @param identity - the caller
 * @param targetUri - the request's `target_uri` (null/empty = the caller's user root)
 * @returns `viking://user/{userId}/skills` or `viking://agent/skills`
 * @throws SkillportError `INVALID_URI` (core's URI rules); `PERMISSION_DENIED` for another user's root
 * @see the OpenAPI document: `POST /api/v1/skills` (`target_uri`), the skill model of the @skillport/core README
 */
export function resolveCallerRoot(identity: Identity, targetUri: string | null | undefined): string {
  const trimmed = typeof targetUri === 'string' ? targetUri.trim() : null;
  const root = resolveSkillRoot(trimmed === '' ? null : trimmed, { userId: identity.userId });
  const own = userSkillRoot(identity.userId);
  if (root !== own && root !== AGENT_SKILL_ROOT) {
    throw new SkillportError(
      'PERMISSION_DENIED',
      `${root} is another user's skill root; use ${own} (or viking://~/skills) or ${AGENT_SKILL_ROOT}`,
      { details: { uri: targetUri, allowed: [own, AGENT_SKILL_ROOT] } },
    );
  }
  return root;
}
