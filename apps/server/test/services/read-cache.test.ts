import { describe, expect, it } from 'vitest';
import { createReadCache, ownedBytes } from '../../src/services/read-cache.js';

describe('read cache', () => {
  it('serves an entry only under the token it was kept with', () => {
    const cache = createReadCache<string>(1000);
    cache.set('a', 't1', 'A1', 10);
    expect(cache.get('a', 't1')).toBe('A1');
    expect(cache.get('a', 't2')).toBeUndefined();
    // A stale entry is dropped when met.
    expect(cache.get('a', 't1')).toBeUndefined();
    expect(cache.size).toEqual({ entries: 0, bytes: 0 });
  });

  it('shows an entry kept under another token without dropping it, and serves it again once restamped', () => {
    const cache = createReadCache<string>(1000);
    cache.set('a', 't1', 'A1', 10);
    expect(cache.lookup('a', 't1')).toEqual({ value: 'A1', fresh: true });
    expect(cache.lookup('a', 't2')).toEqual({ value: 'A1', fresh: false });
    expect(cache.size).toEqual({ entries: 1, bytes: 10 });
    cache.restamp('a', 't2');
    expect(cache.get('a', 't2')).toBe('A1');
    expect(cache.lookup('a', 't1')).toEqual({ value: 'A1', fresh: false });
    expect(cache.lookup('b', 't2')).toBeUndefined();
    cache.restamp('b', 't2'); // absent: nothing kept
    expect(cache.size).toEqual({ entries: 1, bytes: 10 });
  });

  it('counts a fresh lookup and a restamp as uses (least recently used goes first)', () => {
    const cache = createReadCache<number>(800);
    for (let i = 0; i < 8; i++) cache.set(`k${i}`, 't', i, 100);
    expect(cache.lookup('k0', 't')?.fresh).toBe(true);
    cache.restamp('k1', 't2');
    cache.set('k8', 't', 8, 100);
    expect(cache.lookup('k2', 't')).toBeUndefined();
    expect(cache.get('k0', 't')).toBe(0);
    expect(cache.get('k1', 't2')).toBe(1);
  });

  it('keeps at most its budget, dropping the least recently used first', () => {
    const cache = createReadCache<number>(800);
    for (let i = 0; i < 8; i++) cache.set(`k${i}`, 't', i, 100);
    expect(cache.size).toEqual({ entries: 8, bytes: 800 });
    expect(cache.get('k0', 't')).toBe(0); // k0 is now the most recently used
    cache.set('k8', 't', 8, 100);
    expect(cache.get('k1', 't')).toBeUndefined();
    expect(cache.get('k0', 't')).toBe(0);
    expect(cache.size.bytes).toBeLessThanOrEqual(800);
  });

  it('does not keep a value larger than an eighth of the budget, nor anything with no budget', () => {
    const cache = createReadCache<string>(800);
    cache.set('big', 't', 'x', 101);
    expect(cache.get('big', 't')).toBeUndefined();
    const none = createReadCache<string>(0);
    none.set('a', 't', 'A', 0);
    expect(none.get('a', 't')).toBeUndefined();
  });

  it('keeps entries of a share within it: past the share, its own least recently used go first', () => {
    const cache = createReadCache<number>(1600, { find: 0.5 });
    for (let i = 0; i < 8; i++) cache.set(`get${i}`, 't', i, 100);
    for (let i = 0; i < 20; i++) cache.set(`find${i}`, 't', i, 100, 'find');
    // The share holds at most 800 bytes: its newest 8 entries; every other entry stays.
    for (let i = 0; i < 8; i++) expect(cache.get(`get${i}`, 't')).toBe(i);
    for (let i = 0; i < 12; i++) expect(cache.get(`find${i}`, 't')).toBeUndefined();
    expect(cache.get('find12', 't')).toBe(12); // now the share's most recently used
    cache.set('find20', 't', 20, 100, 'find');
    expect(cache.get('find13', 't')).toBeUndefined();
    expect(cache.get('find12', 't')).toBe(12);
    expect(cache.size).toEqual({ entries: 16, bytes: 1600 });
    // The whole budget still bounds everything: other entries push the least recently used out,
    // the share's included.
    for (let i = 8; i < 16; i++) cache.set(`get${i}`, 't', i, 100);
    expect(cache.size).toEqual({ entries: 16, bytes: 1600 });
    expect(cache.get('find14', 't')).toBeUndefined();
    expect(cache.get('get1', 't')).toBeUndefined();
    expect(cache.get('find12', 't')).toBe(12);
    // A dropped or replaced entry leaves its share's count too.
    cache.set('find21', 't', 21, 150, 'find');
    cache.set('find21', 't', 21, 50, 'find');
    expect(cache.get('find21', 't')).toBe(21);
    // Larger than an eighth of its share: not kept.
    cache.set('find22', 't', 22, 101, 'find');
    expect(cache.get('find22', 't')).toBeUndefined();
    expect(() => cache.set('x', 't', 0, 1, 'unknown')).toThrow();
  });

  it('replaces the value of a key', () => {
    const cache = createReadCache<string>(1000);
    cache.set('a', 't1', 'old', 50);
    cache.set('a', 't2', 'new', 60);
    expect(cache.get('a', 't2')).toBe('new');
    expect(cache.size).toEqual({ entries: 1, bytes: 60 });
  });

  it('keeps bytes in memory of their own, not a slice of the shared allocation pool', () => {
    // Small Buffers made by Buffer.from / Buffer.concat are slices of one shared pool slab.
    const pooled = Buffer.concat([Buffer.from('{"name":'), Buffer.from('"a"}')]);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const kept = ownedBytes(pooled);
    expect(kept.buffer.byteLength).toBe(pooled.byteLength);
    expect(kept.byteOffset).toBe(0);
    expect(kept.equals(pooled)).toBe(true);
    // A Buffer that owns its whole memory is kept as it is (no copy).
    const own = Buffer.from('x'.repeat(10_000));
    expect(own.buffer.byteLength).toBe(own.byteLength);
    expect(ownedBytes(own)).toBe(own);
    const empty = ownedBytes(Buffer.alloc(0));
    expect(empty.byteLength).toBe(0);
  });
});
