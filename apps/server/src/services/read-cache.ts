/**
 * A bounded in-memory cache of what readers derived from the store (a skill rendered for `get`, an
 * API key resolved to its caller), each entry stamped with the store's change token
 * (`Store.changeToken`) read *before* the store was read. An entry is served only while the token
 * is unchanged: any commit, by this process or another replica on the same database, retires every
 * entry at once — so the cache can never serve something older than the database, on any replica.
 * A reader that can check an entry against the database more cheaply than rebuilding it (a get
 * result against its skill's stamp) may look at the retired entry (`lookup`) and, once checked,
 * stamp it with the current token (`restamp`).
 * Least recently used entries go first once the entries' sizes add up to more than the budget; an
 * entry found stale by `get` is dropped when met. An entry may be kept in a share of the budget (a
 * kind of entry that many distinct requests each add once, such as `find` results): past its share,
 * that share's own least recently used entries go first, so a flood of them cannot push the others
 * out.
 */

/** Default memory budget, MiB (`SKILLPORT_READ_CACHE_MB`). */
export const DEFAULT_READ_CACHE_MB = 32;

/**
 * Shares of the server's read cache: `find` results hold at most half of it. Each distinct query
 * adds an entry (a few KB for a long query), and agents send many that never come again: without a
 * share of their own, 10,000 such finds would push every kept get result and list page out.
 */
export const READ_CACHE_SHARES = { find: 0.5 } as const;

/**
 * `bytes` in memory of its own, for keeping: the same Buffer when it owns its whole `ArrayBuffer`,
 * else an exact copy. A Buffer under 4 KiB made by `Buffer.from` or `Buffer.concat` is a slice of
 * Node's shared 8 KiB allocation pool, so keeping it would keep the whole pool slab alive (and every
 * short-lived buffer carved from it): at 100,000 skills the cached `get` results held about twice
 * their counted size that way.
 *
 * @param bytes - the bytes to keep
 * @returns `bytes`, or a copy whose `buffer` is exactly `bytes.byteLength` long
 */
export function ownedBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  bytes.copy(copy);
  return copy;
}

/** A cache of values by key, valid for one change token. */
export interface ReadCache<V> {
  /** The value kept for `key` under `token`, or undefined (absent, or stamped with another token). */
  get(key: string, token: string): V | undefined;
  /**
   * The value kept for `key` and whether it was kept under `token` (`fresh`; then it counts as used,
   * as with `get`), or undefined when absent. A value kept under another token is returned, not
   * dropped: the caller checks it and then `restamp`s or replaces it.
   */
  lookup(key: string, token: string): { value: V; fresh: boolean } | undefined;
  /**
   * Stamps the entry of `key` with `token` (the caller checked that its value is still current) and
   * counts it as used; nothing when absent.
   */
  restamp(key: string, token: string): void;
  /**
   * Keeps `value` for `key`, stamped with `token`; `bytes` is its size as counted against the budget
   * (a value larger than an eighth of the budget, or of its share, is not kept). With `share` (a name
   * given to {@link createReadCache}), the entry counts against that share too.
   */
  set(key: string, token: string, value: V, bytes: number, share?: string): void;
  /** Number of entries and bytes held now. */
  readonly size: { entries: number; bytes: number };
}

interface Entry<V> {
  token: string;
  value: V;
  bytes: number;
  share: Share<V> | undefined;
}

/** A share of the budget: its entries in least recently used order and the bytes they hold. */
interface Share<V> {
  max: number;
  held: number;
  entries: Map<string, Entry<V>>;
}

/**
 * Creates a cache holding at most `maxBytes` (as counted by `set`); 0 keeps nothing.
 *
 * @param maxBytes - memory budget in bytes (e.g. `SKILLPORT_READ_CACHE_MB` × 2^20)
 * @param shares - most of the budget each named share may hold, as a fraction (e.g. `{find: 0.5}`)
 * @example
 * ```ts
 * const cache = createReadCache<string>(32 * 2 ** 20);
 * const token = await store.changeToken();
 * const json = cache.get(key, token) ?? render(await store.readSkillView(…));
 * ```
 */
export function createReadCache<V>(maxBytes: number, shares: Record<string, number> = {}): ReadCache<V> {
  const entries = new Map<string, Entry<V>>();
  const budget = Math.max(0, Math.floor(maxBytes));
  let held = 0;
  const shareOf = new Map<string, Share<V>>(
    Object.entries(shares).map(([name, fraction]) => [
      name,
      { max: Math.floor(budget * Math.min(1, Math.max(0, fraction))), held: 0, entries: new Map() },
    ]),
  );

  const drop = (key: string, entry: Entry<V>): void => {
    entries.delete(key);
    held -= entry.bytes;
    if (entry.share !== undefined) {
      entry.share.entries.delete(key);
      entry.share.held -= entry.bytes;
    }
  };

  // Most recently used last: Map iteration order is insertion order.
  const touch = (key: string, entry: Entry<V>): void => {
    entries.delete(key);
    entries.set(key, entry);
    if (entry.share !== undefined) {
      entry.share.entries.delete(key);
      entry.share.entries.set(key, entry);
    }
  };

  return {
    get(key, token) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.token !== token) {
        drop(key, entry);
        return undefined;
      }
      touch(key, entry);
      return entry.value;
    },
    lookup(key, token) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      if (entry.token !== token) return { value: entry.value, fresh: false };
      touch(key, entry);
      return { value: entry.value, fresh: true };
    },
    restamp(key, token) {
      const entry = entries.get(key);
      if (entry === undefined) return;
      entry.token = token;
      touch(key, entry);
    },
    set(key, token, value, bytes, shareName) {
      const share = shareName === undefined ? undefined : shareOf.get(shareName);
      if (shareName !== undefined && share === undefined) throw new Error(`No read-cache share ${shareName}`);
      if (budget === 0 || bytes > budget / 8 || (share !== undefined && bytes > share.max / 8)) return;
      const old = entries.get(key);
      if (old !== undefined) drop(key, old);
      const entry: Entry<V> = { token, value, bytes, share };
      entries.set(key, entry);
      held += bytes;
      if (share !== undefined) {
        share.entries.set(key, entry);
        share.held += bytes;
        for (const [k, e] of share.entries) {
          if (share.held <= share.max) break;
          drop(k, e);
        }
      }
      for (const [k, e] of entries) {
        if (held <= budget) break;
        drop(k, e);
      }
    },
    get size() {
      return { entries: entries.size, bytes: held };
    },
  };
}
