/**
 * In-process notice of skill changes: every write that goes through the store of the app (add,
 * update, delete, from any route) is announced to subscribers, e.g. the MCP sessions that send
 * `list_changed` notifications. Changes made by another server process on the same database are
 * not seen here.
 */
import type { Store } from '../store/types.js';

/** One change: a skill of a root of an account was written or deleted. */
export interface SkillChange {
  accountId: string;
  /** `viking://user/{id}/skills` or `viking://agent/skills`. */
  rootUri: string;
  name: string;
  kind: 'put' | 'delete';
}

/** The channel changes go through. */
export interface SkillChanges {
  emit(change: SkillChange): void;
  /** Calls `listener` for every later change; returns the function that unsubscribes. */
  subscribe(listener: (change: SkillChange) => void): () => void;
}

/** Creates a change channel (listeners are called synchronously; one that throws is skipped). */
export function createSkillChanges(): SkillChanges {
  const listeners = new Set<(change: SkillChange) => void>();
  return {
    emit(change) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch {
          // a listener's failure must not fail the write that was already committed
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * The store with its skill writes announced on `changes` after they commit: `putSkill` and
 * `deleteSkill` (a delete that found nothing announces nothing). Every other method is the store's
 * own. A new Store method that adds, replaces or deletes skills must be added here.
 *
 * @param store - the store
 * @param changes - where to announce
 * @returns a store with the same methods
 */
export function withSkillChanges(store: Store, changes: SkillChanges): Store {
  // Methods bound once, not on every access (a store method is looked up on every request).
  const bound = new Map<PropertyKey, { value: unknown; fn: unknown }>();
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'putSkill') {
        return async (write: Parameters<Store['putSkill']>[0]) => {
          const result = await target.putSkill(write);
          changes.emit({ accountId: write.accountId, rootUri: write.rootUri, name: write.name, kind: 'put' });
          return result;
        };
      }
      if (property === 'deleteSkill') {
        return async (...args: Parameters<Store['deleteSkill']>) => {
          const deleted = await target.deleteSkill(...args);
          if (deleted !== null) {
            changes.emit({ accountId: args[0], rootUri: args[1], name: args[2], kind: 'delete' });
          }
          return deleted;
        };
      }
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const kept = bound.get(property);
      if (kept !== undefined && kept.value === value) return kept.fn;
      const fn = value.bind(target);
      bound.set(property, { value, fn });
      return fn;
    },
  });
}
