/**
 * A minimal zip writer for tests: it can write what real tools write and also what attackers write
 * (`../` names, symlink modes, lying sizes), which ordinary zip libraries refuse to produce.
 */
import { crc32 } from 'node:zlib';
import { deflateSync } from 'fflate';

export interface RawZipEntry {
  name: string;
  data: Uint8Array | string;
  /** 0 = stored, 8 = deflate (default). */
  method?: 0 | 8;
  /** Unix mode stored in the external attributes (e.g. `0o120777` for a symlink); default `0o100644`. */
  mode?: number;
  /** Host byte of "version made by" (APPNOTE 4.4.2: 0 MS-DOS, 3 Unix, 19 macOS); default 3. */
  host?: number;
  /** Uncompressed size written to the headers instead of the real one. */
  declaredSize?: number;
  /**
   * Index of an earlier entry whose local record this one points at (no record of its own is
   * written; `data` is ignored): many names, one compressed record.
   */
  sharesDataOf?: number;
}

const enc = new TextEncoder();

/** Builds a zip archive from raw entries, exactly as described. */
export function buildZip(entries: RawZipEntry[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  const written: Array<{ offset: number; central: Uint8Array }> = [];
  for (const entry of entries) {
    if (entry.sharesDataOf !== undefined) {
      const shared = written[entry.sharesDataOf];
      if (shared === undefined) throw new Error(`sharesDataOf ${entry.sharesDataOf}: no such earlier entry`);
      const name = enc.encode(entry.name);
      const central = new Uint8Array(46 + name.length);
      central.set(shared.central.subarray(0, 46));
      new DataView(central.buffer).setUint16(28, name.length, true);
      central.set(name, 46);
      centrals.push(central);
      written.push({ offset: shared.offset, central });
      continue;
    }
    const data = typeof entry.data === 'string' ? enc.encode(entry.data) : entry.data;
    const method = entry.method ?? 8;
    const body = method === 8 ? deflateSync(data) : data;
    const name = enc.encode(entry.name);
    const crc = crc32(data) >>> 0;
    const size = entry.declaredSize ?? data.length;
    const local = new Uint8Array(30 + name.length + body.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, 0x0800, true);
    lv.setUint16(8, method, true);
    lv.setUint32(14, crc, true);
    lv.setUint32(18, body.length, true);
    lv.setUint32(22, size, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    local.set(body, 30 + name.length);
    const central = new Uint8Array(46 + name.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, ((entry.host ?? 3) << 8) | 20, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, method, true);
    cv.setUint32(16, crc, true);
    cv.setUint32(20, body.length, true);
    cv.setUint32(24, size, true);
    cv.setUint16(28, name.length, true);
    cv.setUint32(38, ((entry.mode ?? 0o100644) << 16) >>> 0, true);
    cv.setUint32(42, offset, true);
    central.set(name, 46);
    locals.push(local);
    centrals.push(central);
    written.push({ offset, central });
    offset += local.length;
  }
  const cdSize = centrals.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cdSize, true);
  ev.setUint32(16, offset, true);
  const out = new Uint8Array(offset + cdSize + 22);
  let p = 0;
  for (const part of [...locals, ...centrals, end]) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}
