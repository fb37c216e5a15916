/**
 * Changes made by other server processes on the same database (replicas), for the MCP sessions held
 * here: every few seconds, one `Store.skillsVersion` read per distinct (account, roots) that an open
 * session watches; a new token means a skill was added, replaced or deleted somewhere.
 */
import type { Store } from '../store/types.js';

/** Watches the skill roots of open sessions by polling the store. */
export interface ChangePoller {
  /** Calls `onChange` when the version of these roots moves; returns the function that stops it. */
  watch(accountId: string, rootUris: readonly string[], onChange: () => void): () => void;
  /** Stops polling. */
  close(): void;
}

interface Watched {
  accountId: string;
  rootUris: readonly string[];
  version: string | null;
  listeners: Set<() => void>;
}

/**
 * Creates the poller.
 *
 * @param store - the store shared with the other processes
 * @param intervalMs - time between polls; 0 = never (nothing is watched)
 */
export function createChangePoller(store: Store, intervalMs: number): ChangePoller {
  const watched = new Map<string, Watched>();
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      for (const entry of [...watched.values()]) {
        if (entry.listeners.size === 0) continue;
        let version: string;
        try {
          version = await store.skillsVersion(entry.accountId, entry.rootUris);
        } catch {
          continue; // the database is busy or gone: try again next time
        }
        const before = entry.version;
        entry.version = version;
        if (before !== null && before !== version) for (const listener of [...entry.listeners]) listener();
      }
    } finally {
      running = false;
    }
  };
  const timer = intervalMs > 0 ? setInterval(() => void tick(), intervalMs) : undefined;
  timer?.unref?.();
  return {
    watch(accountId, rootUris, onChange) {
      if (timer === undefined) return () => {};
      const key = `${accountId}\u0000${rootUris.join('\u0000')}`;
      let entry = watched.get(key);
      if (!entry) {
        entry = { accountId, rootUris, version: null, listeners: new Set() };
        watched.set(key, entry);
        const created = entry;
        // The first token is the baseline; later ones are compared with it.
        store.skillsVersion(accountId, rootUris).then(
          (version) => {
            created.version ??= version;
          },
          () => {},
        );
      }
      const target = entry;
      target.listeners.add(onChange);
      return () => {
        target.listeners.delete(onChange);
        if (target.listeners.size === 0) watched.delete(key);
      };
    },
    close() {
      if (timer !== undefined) clearInterval(timer);
      watched.clear();
    },
  };
}
