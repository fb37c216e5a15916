/**
 * File contents a caller hands over for good: a store that works in another thread may move
 * (transfer) such buffers there instead of copying them, which leaves them empty (detached) here.
 * Only buffers marked by their owner are moved; everything else is copied as usual.
 */

const handedOver = new WeakSet<Uint8Array>();

/** Views smaller than this are copied anyway (cheap, and small Buffers may share a pooled slab). */
const MOVE_MIN_BYTES = 64 * 1024;

/**
 * Marks `view` as handed over: its owner will not read it after passing it to the store.
 *
 * @returns `view`
 */
export function handOver(view: Uint8Array): Uint8Array {
  handedOver.add(view);
  return view;
}

/**
 * The buffer a store may move for `view`: marked, large, and spanning its whole `ArrayBuffer`
 * (so no other view sees the buffer emptied); else null.
 */
export function movableBuffer(view: Uint8Array): ArrayBuffer | null {
  if (!handedOver.has(view) || view.byteLength < MOVE_MIN_BYTES) return null;
  const buffer = view.buffer;
  if (!(buffer instanceof ArrayBuffer)) return null;
  return view.byteOffset === 0 && view.byteLength === buffer.byteLength ? buffer : null;
}
