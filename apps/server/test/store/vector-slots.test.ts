import { describe, expect, it } from 'vitest';
import { VectorSlots } from '../../src/store/sqlite/vector-ops.js';

/** The bytes of a float32 vector, as stored in `skill_vectors.vector`. */
function bytesOf(values: number[]): Uint8Array {
  const v = Float32Array.from(values);
  return new Uint8Array(v.buffer.slice(0));
}

describe('VectorSlots (in-memory vectors packed in shared chunks)', () => {
  it('keeps each vector exactly, apart from every other, across chunks', () => {
    const slots = new VectorSlots();
    const stored = Array.from({ length: 600 }, (_, i) => slots.store(bytesOf([i, -i, i / 3])));
    stored.forEach((slot, i) => {
      expect(slot.length).toBe(3);
      expect([...slot]).toEqual([...Float32Array.from([i, -i, i / 3])]);
    });
    // Chunks are shared: far fewer buffers than vectors.
    expect(new Set(stored.map((s) => s.buffer)).size).toBeLessThan(10);
  });

  it('overwrites a vector of the same dimension in place, gives back one of another', () => {
    const slots = new VectorSlots();
    const first = slots.store(bytesOf([1, 2]));
    const neighbour = slots.store(bytesOf([9, 9]));
    const again = slots.store(bytesOf([3, 4]), first);
    expect(again).toBe(first);
    expect([...again]).toEqual([3, 4]);
    expect([...neighbour]).toEqual([9, 9]);

    const wider = slots.store(bytesOf([5, 6, 7]), again);
    expect([...wider]).toEqual([5, 6, 7]);
    // The 2-dimension slot given back is reused by the next 2-dimension vector.
    const reused = slots.store(bytesOf([8, 8]));
    expect(reused.buffer).toBe(first.buffer);
    expect(reused.byteOffset).toBe(first.byteOffset);
    expect([...neighbour]).toEqual([9, 9]);
  });

  it('reads bytes at any offset and ignores a trailing partial float', () => {
    const slots = new VectorSlots();
    const raw = new Uint8Array(1 + 8 + 2);
    raw.set(bytesOf([1.5, -2.25]), 1);
    const slot = slots.store(raw.subarray(1));
    expect([...slot]).toEqual([1.5, -2.25]);
    expect(slots.store(new Uint8Array(0)).length).toBe(0);
  });
});
