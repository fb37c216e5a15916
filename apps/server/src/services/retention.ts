/**
 * Applying the history retention policy to one skill after a write or delete of it.
 */
import type { RetentionPolicy, SkillKey } from '../store/types.js';
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
  return pruneToEnd(deps, { keepLast: 1, keepForMs: 0 }, { scope });
}

/** Calls `Store.pruneHistory` until it reports nothing more; the number of history entries erased. */
async function pruneToEnd(
  deps: ServiceDeps,
  policy: RetentionPolicy,
  options: Parameters<ServiceDeps['store']['pruneHistory']>[2],
): Promise<number> {
  let erased = 0;
  for (;;) {
    const result = await deps.store.pruneHistory(policy, deps.now(), options);
    erased += result.revisions;
    if (!result.more) return erased;
  }
}

/**
 * Keeps the account at its cap of deleted skills with history (`deps.retention.keepDeleted`,
 * `SKILLPORT_KEEP_DELETED_MAX`): erases the whole history of the deleted skills past its most
 * recently deleted ones, as `purge=true` would. Run after each delete; the delete is already
 * committed, so a failure here changes nothing the caller was told (the next delete catches up).
 *
 * @param deps - the services' dependencies (store, policy, clock)
 * @param accountId - the account that deleted a skill
 */
export async function applyDeletedCap(deps: ServiceDeps, accountId: string): Promise<void> {
  if (deps.retention.keepDeleted === undefined || !Number.isFinite(deps.retention.keepDeleted)) return;
  try {
    await pruneToEnd(deps, deps.retention, { deletedOf: accountId });
  } catch {
    // Left to the next delete (see above).
  }
}
