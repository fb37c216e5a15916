/**
 * Applying the history retention policy to one skill after a write or delete of it.
 */
import type { SkillKey } from '../store/types.js';
import type { ServiceDeps } from './deps.js';

/**
 * Prunes the history of one skill by the server's retention policy (`deps.retention`). The write
 * before it is already committed, so a failure here changes nothing the caller was told: the
 * housekeeping sweep of the job runner prunes the same history later.
 *
 * @param deps - the services' dependencies (store, policy, clock)
 * @param scope - the skill
 * @param revisions - its history entries after the write (`SkillWriteResult.revisions`), if known
 */
export async function applyRetention(
  deps: ServiceDeps,
  scope: SkillKey,
  revisions = Number.POSITIVE_INFINITY,
): Promise<void> {
  // A live skill loses a revision only past the count rule (and the time rule): with no more entries
  // than `keepLast` nothing can go, so the store is not asked.
  if (revisions <= deps.retention.keepLast) return;
  try {
    await deps.store.pruneHistory(deps.retention, deps.now(), { scope });
  } catch {
    // Left to the next sweep (see above).
  }
}

/**
 * Erases the whole kept history of a deleted skill and every file content only it used.
 *
 * @returns the number of history entries erased
 */
export async function purgeHistory(deps: ServiceDeps, scope: SkillKey): Promise<number> {
  let erased = 0;
  for (;;) {
    const result = await deps.store.pruneHistory({ keepLast: 1, keepForMs: 0 }, deps.now(), { scope });
    erased += result.revisions;
    if (!result.more) return erased;
  }
}
