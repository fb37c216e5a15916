/**
 * The listeners of `Store.watchTasks` inside one process: each store calls `notify()` after a task it
 * settled is committed; a PostgreSQL store also calls it for settlements other processes announce.
 */
import type { TaskWatch } from './types.js';

/** Listeners of task settlements. */
export interface TaskSignal {
  /** Adds a listener; `shared()` answers the returned watch's `shared`. */
  watch(listener: () => void, shared: () => boolean): TaskWatch;
  /** Calls every listener (a throwing one is skipped, the others still run). */
  notify(): void;
  /** How many watches are open. */
  readonly size: number;
}

/** Creates an empty {@link TaskSignal}. */
export function createTaskSignal(): TaskSignal {
  const listeners = new Set<() => void>();
  return {
    watch(listener, shared) {
      // One entry per watch, even when the same function is passed twice.
      const entry = (): void => listener();
      listeners.add(entry);
      return {
        get shared() {
          return shared();
        },
        close() {
          listeners.delete(entry);
        },
      };
    },
    notify() {
      for (const listener of [...listeners]) {
        try {
          listener();
        } catch {
          // A listener's failure is its own; the others are still told.
        }
      }
    },
    get size() {
      return listeners.size;
    },
  };
}
