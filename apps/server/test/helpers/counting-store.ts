/**
 * A store of the engine under test on a fresh data folder, counting the searches (`searchAnswer`) and
 * skill reads (`readSkillView`, `readSkillJson`) made through it: for tests of what the server
 * answers from memory instead of the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SearchAnswer, Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore } from './engine.js';

/** What {@link countingStore} gives. */
export interface CountingStore {
  /** The counting store (give it to `startTestServer`). */
  store: Store;
  /** `searchAnswer` calls so far. */
  searches: () => number;
  /** The `limit` option of each `searchAnswer` call so far, in order. */
  searchLimits: () => number[];
  /** `readSkillView` and `readSkillJson` calls so far. */
  views: () => number;
  /** Its data folder (open a second store on it for a replica). */
  dataDir: string;
}

/**
 * Opens the store.
 *
 * @param onCleanup - registers what closes the store and drops its data (run it after the test)
 * @param options.unstable - every search answer says `stable: false`, as an engine would that
 *   consulted something older than the database
 */
export function countingStore(
  onCleanup: (cleanup: () => Promise<void>) => void,
  options: { unstable?: boolean } = {},
): CountingStore {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-counting-'));
  const store = openEngineStore(dataDir);
  onCleanup(async () => {
    await store.close();
    await dropEngineData(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });
  let searches = 0;
  const searchLimits: number[] = [];
  let views = 0;
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'searchAnswer') {
        return async (...args: Parameters<Store['searchAnswer']>): Promise<SearchAnswer> => {
          searches += 1;
          searchLimits.push(args[3].limit);
          const answer = await target.searchAnswer(...args);
          return options.unstable ? { ...answer, stable: false } : answer;
        };
      }
      if (property === 'readSkillView' || property === 'readSkillJson') {
        return (...args: unknown[]) => {
          views += 1;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
  return {
    store: counted,
    searches: () => searches,
    searchLimits: () => [...searchLimits],
    views: () => views,
    dataDir,
  };
}
