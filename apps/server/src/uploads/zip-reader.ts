/**
 * A defensive zip reader for uploaded skill folders. It trusts nothing in the archive: entry count,
 * declared sizes and compression ratios are checked before anything is inflated, inflation stops
 * as soon as the running total passes a limit or an entry grows past its declared size, and
 * symlinks, encrypted entries, ZIP64 and unsafe paths are refused.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { firstInvalidUtf8, SkillportError, skillPathConflict } from '@skillport/core';
import { LIMIT_ENV } from '../config.js';
import { checkSkillFilePath } from './safe-path.js';

/** Limits applied while reading a zip. */
export interface ZipLimits {
  maxEntries: number;
  maxUncompressedBytes: number;
  /** Largest uncompressed/compressed ratio, checked for entries and the whole archive above 1 MiB. */
  maxCompressionRatio: number;
  maxPathDepth: number;
}

/** A file read from a zip. */
export interface ZipFile {
  path: string;
  content: Uint8Array;
  /**
   * Whether the entry's Unix mode lets its owner execute it (mode bit 0o100, the one bit git keeps).
   * Only an entry written on a Unix host ("version made by" 3, or 19 for macOS) carries a Unix mode;
   * zips from Windows tools and other writers that record no mode give false.
   */
  executable?: boolean;
}

/** A file entry as the archive's central directory declares it. */
export interface ZipEntryInfo {
  /** Its path as written in the archive (`\\` read as `/`). */
  path: string;
  /** Its declared uncompressed size, bytes (checked against the inflated bytes later). */
  size: number;
}

const RATIO_FLOOR_BYTES = 1024 * 1024;
const EOCD_SIG = 0x06054b50;
const CEN_SIG = 0x02014b50;
const LOC_SIG = 0x04034b50;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFREG = 0o100000;
/** "Version made by" hosts whose external attributes hold a Unix mode: Unix, macOS (Darwin). */
const UNIX_HOSTS = new Set([3, 19]);

/** True when the bytes start like a zip archive (local header or empty-archive end record). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06))
  );
}

function invalid(message: string, details: Record<string, unknown> = {}): SkillportError {
  return new SkillportError('INVALID_ARGUMENT', `Invalid zip upload: ${message}`, {
    details: { field: 'file', ...details },
  });
}

function tooLarge(message: string, details: Record<string, unknown>): SkillportError {
  return new SkillportError('PAYLOAD_TOO_LARGE', `Zip upload refused: ${message}`, {
    details: { field: 'file', ...details },
  });
}

function findEndOfCentralDirectory(view: DataView): number {
  const min = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let i = view.byteLength - 22; i >= min; i--) {
    if (view.getUint32(i, true) === EOCD_SIG) return i;
  }
  throw invalid('no end-of-central-directory record (not a zip, or truncated)');
}

interface CentralEntry {
  /** The entry's path, `\` read as `/` (see {@link readZip}). */
  name: string;
  /** The name as the archive spells it. */
  written: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mode: number;
  /** The host byte of "version made by" (APPNOTE 4.4.2: 0 MS-DOS, 3 Unix, 10 NTFS, 19 macOS, …). */
  host: number;
}

/**
 * An entry's name as UTF-8. A name in another encoding (old tools write the local code page without
 * the zip's UTF-8 flag) is refused rather than stored with U+FFFD in place of its bytes.
 */
function entryName(decoder: TextDecoder, raw: Uint8Array): string {
  try {
    return decoder.decode(raw);
  } catch {
    const valid = Math.max(0, firstInvalidUtf8(raw)); // ≥ 0: the fatal decoder refused `raw`
    const shown = new TextDecoder('utf-8').decode(raw);
    throw invalid(
      `entry name ${JSON.stringify(shown)} is not valid UTF-8 (first bad byte at offset ${valid}); re-create the zip with UTF-8 file names`,
      { path: shown, reason: 'invalid_utf8', offset: valid },
    );
  }
}

function readCentralDirectory(bytes: Uint8Array, limits: ZipLimits): CentralEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEndOfCentralDirectory(view);
  const count = view.getUint16(eocd + 10, true);
  const cdOffset = view.getUint32(eocd + 16, true);
  // 0xffff entries is also how a zip says "65,535 or more: see the ZIP64 record": over a lower entry
  // limit that is the limit's refusal (413, naming it), not a format one.
  if (count === 0xffff && limits.maxEntries < 0xffff) {
    throw tooLarge(`65,535 or more entries; the limit is ${limits.maxEntries} (${LIMIT_ENV.maxZipEntries})`, {
      entries: count,
      limit: limits.maxEntries,
    });
  }
  if (count === 0xffff || cdOffset === 0xffffffff) throw invalid('ZIP64 archives are not supported');
  if (count > limits.maxEntries) {
    throw tooLarge(`${count} entries; the limit is ${limits.maxEntries} (${LIMIT_ENV.maxZipEntries})`, {
      entries: count,
      limit: limits.maxEntries,
    });
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const entries: CentralEntry[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CEN_SIG)
      throw invalid('corrupt central directory');
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    if (p + 46 + nameLength > bytes.length) throw invalid('corrupt central directory');
    const written = entryName(decoder, bytes.subarray(p + 46, p + 46 + nameLength));
    const entry: CentralEntry = {
      flags: view.getUint16(p + 8, true),
      method: view.getUint16(p + 10, true),
      crc: view.getUint32(p + 16, true),
      compressedSize: view.getUint32(p + 20, true),
      size: view.getUint32(p + 24, true),
      mode: (view.getUint32(p + 38, true) >>> 16) & 0xffff,
      host: view.getUint8(p + 5),
      localOffset: view.getUint32(p + 42, true),
      // APPNOTE 4.4.17 asks for `/`; Windows tools (and .NET's ZipFile before 4.6.1) write `\`,
      // which no portable file name holds: it is their folder separator.
      name: written.replaceAll('\\', '/'),
      written,
    };
    if (
      entry.size === 0xffffffff ||
      entry.compressedSize === 0xffffffff ||
      entry.localOffset === 0xffffffff
    ) {
      throw invalid('ZIP64 entries are not supported', { path: entry.name });
    }
    entries.push(entry);
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/**
 * The entry count and the total uncompressed size the archive's central directory declares, read
 * without inflating anything (reading stops after `maxEntries` entries); null when the bytes hold no
 * readable central directory, or one with more than `maxEntries` entries. {@link readZip} never
 * inflates an entry past its declared size, so this bounds the work of reading the archive.
 */
export function declaredZipSize(
  bytes: Uint8Array,
  maxEntries: number,
): { entries: number; uncompressedBytes: number } | null {
  try {
    const entries = readCentralDirectory(bytes, {
      maxEntries,
      maxUncompressedBytes: 0,
      maxCompressionRatio: 0,
      maxPathDepth: 0,
    });
    return { entries: entries.length, uncompressedBytes: entries.reduce((sum, e) => sum + e.size, 0) };
  } catch {
    return null;
  }
}

function sizeMismatch(entry: CentralEntry): SkillportError {
  return tooLarge(
    `entry ${JSON.stringify(entry.name)} inflates past its declared size of ${entry.size} bytes`,
    {
      path: entry.name,
      reason: 'size_mismatch',
    },
  );
}

/**
 * Inflates one entry with the platform's zlib, stopped as soon as the output passes the entry's
 * declared size (zlib checks the bound after each 16 KiB of output), so a lying entry costs no more
 * than its declared size.
 */
function inflateEntry(data: Uint8Array, entry: CentralEntry, budget: number): Uint8Array {
  let out: Buffer;
  try {
    out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') throw sizeMismatch(entry);
    throw invalid(`entry ${JSON.stringify(entry.name)} is not valid deflate data`, { path: entry.name });
  }
  if (out.byteLength > entry.size) throw sizeMismatch(entry);
  if (out.byteLength > budget) {
    throw tooLarge(
      `total uncompressed size exceeds the limit while inflating (${LIMIT_ENV.maxUncompressedBytes})`,
      { path: entry.name },
    );
  }
  // zlib may return a view of a larger output buffer: keep exactly the entry's bytes.
  return out.byteLength === out.buffer.byteLength && out.byteOffset === 0
    ? new Uint8Array(out.buffer, 0, out.byteLength)
    : new Uint8Array(out);
}

interface DataRange {
  /** Offset of the local header. */
  header: number;
  /** Offsets of the compressed data. */
  start: number;
  end: number;
}

/**
 * Where each entry's local header and data lie. Entries must not share bytes: several central
 * directory entries pointing at one compressed record (or overlapping ones) would expand the same
 * bytes many times over while the compressed total, and so the ratio check, counts them each time.
 *
 * @throws SkillportError `INVALID_ARGUMENT` for a corrupt or truncated entry; `PAYLOAD_TOO_LARGE`
 *   (`reason` `overlapping_entries`) when two entries share bytes
 */
function dataRanges(bytes: Uint8Array, entries: readonly CentralEntry[]): DataRange[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ranges = entries.map((entry) => {
    const p = entry.localOffset;
    if (p + 30 > bytes.length || view.getUint32(p, true) !== LOC_SIG) {
      throw invalid(`corrupt local header for ${JSON.stringify(entry.name)}`);
    }
    const start = p + 30 + view.getUint16(p + 26, true) + view.getUint16(p + 28, true);
    const end = start + entry.compressedSize;
    if (end > bytes.length) throw invalid(`entry ${JSON.stringify(entry.name)} is truncated`);
    return { header: p, start, end, name: entry.name };
  });
  const sorted = [...ranges].sort((a, b) => a.header - b.header);
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1] as (typeof sorted)[number];
    const after = sorted[i] as (typeof sorted)[number];
    if (after.header < before.end) {
      throw tooLarge(
        `entries ${JSON.stringify(before.name)} and ${JSON.stringify(after.name)} share compressed data ` +
          '(overlapping entries expand the same bytes many times: a zip bomb technique)',
        { path: after.name, reason: 'overlapping_entries' },
      );
    }
  }
  return ranges;
}

/**
 * Whether an entry is a file its owner may execute: written on a Unix host, a regular file (or a
 * type left unset), owner execute bit set. A zip that records no Unix mode (Windows tools, many
 * libraries) marks nothing executable.
 */
function isExecutableEntry(entry: CentralEntry): boolean {
  if (!UNIX_HOSTS.has(entry.host)) return false;
  const type = entry.mode & S_IFMT;
  return (type === 0 || type === S_IFREG) && (entry.mode & 0o100) !== 0;
}

/**
 * Reads every regular file of a zip archive, in central-directory order. Folder entries and
 * `__MACOSX/` metadata are skipped. A backslash in an entry name is read as the folder separator, as
 * Windows zip tools write it (`scripts\run.sh` is `scripts/run.sh`); the path rules then apply to
 * the result (`..\x` is a traversal), and a refusal names the entry as the archive spells it.
 *
 * @param bytes - the archive
 * @param limits - entry count, total uncompressed bytes, compression ratio, path depth
 * @param inspect - called with every file entry's path and declared size once the paths are checked,
 *   before any compression ratio is judged or anything inflated; what it throws is thrown
 * @returns the files with checked relative paths, `executable` set (true) on files with a Unix mode
 *   that lets the owner execute them
 * @throws SkillportError `PAYLOAD_TOO_LARGE` (413) for a limit; `INVALID_ARGUMENT` (400) for a
 *   corrupt archive, ZIP64, encryption, an unsupported method, a symlink or an unsafe path
 */
export function readZip(
  bytes: Uint8Array,
  limits: ZipLimits,
  inspect?: (entries: readonly ZipEntryInfo[]) => void,
): ZipFile[] {
  const entries = readCentralDirectory(bytes, limits).filter(
    (e) => !e.name.startsWith('__MACOSX/') && !e.name.endsWith('/'),
  );
  let declaredTotal = 0;
  let compressedTotal = 0;
  const seen = new Set<string>();
  for (const entry of entries) {
    checkSkillFilePath(entry.name, limits.maxPathDepth, entry.written);
    if ((entry.mode & S_IFMT) === S_IFLNK) {
      throw invalid(`symlink entries are not allowed (${JSON.stringify(entry.name)})`, {
        path: entry.name,
        reason: 'symlink',
      });
    }
    if (entry.flags & 1) throw invalid(`encrypted entries are not supported (${JSON.stringify(entry.name)})`);
    if (entry.method !== 0 && entry.method !== 8) {
      throw invalid(
        `entry ${JSON.stringify(entry.name)} uses compression method ${entry.method}; only stored and deflate are supported`,
      );
    }
    if (seen.has(entry.name))
      throw invalid(`duplicate entry ${JSON.stringify(entry.name)}`, { path: entry.name });
    seen.add(entry.name);
  }
  // Two names of one file on macOS and Windows (letter case, Unicode normalization), or a file that is
  // also the folder of another (`docs` and `docs/a.txt`): no client could write the skill back out
  // there. The rule clients check before uploading (`skillPathConflict` of @skillport/core).
  const conflict = skillPathConflict(seen);
  if (conflict !== null) throw invalid(conflict.message, { path: conflict.path, reason: 'path_conflict' });
  // The caller's own limits on what the archive declares (a SKILL.md over its size limit) come before
  // the ratio checks, so a file refused for its size is named as such, not as a possible zip bomb.
  inspect?.(entries.map((e) => ({ path: e.name, size: e.size })));
  for (const entry of entries) {
    if (
      entry.size >= RATIO_FLOOR_BYTES &&
      entry.size / Math.max(entry.compressedSize, 1) > limits.maxCompressionRatio
    ) {
      throw tooLarge(
        `entry ${JSON.stringify(entry.name)} has a compression ratio above ${limits.maxCompressionRatio}:1 (possible zip bomb; ${LIMIT_ENV.maxCompressionRatio})`,
        { path: entry.name, reason: 'compression_ratio', limit: limits.maxCompressionRatio },
      );
    }
    declaredTotal += entry.size;
    compressedTotal += entry.compressedSize;
  }
  if (declaredTotal > limits.maxUncompressedBytes) {
    throw tooLarge(
      `declared uncompressed size ${declaredTotal} bytes exceeds the limit of ${limits.maxUncompressedBytes} (${LIMIT_ENV.maxUncompressedBytes})`,
      {
        reason: 'uncompressed_size',
        limit: limits.maxUncompressedBytes,
      },
    );
  }
  const ranges = dataRanges(bytes, entries);
  if (
    declaredTotal >= RATIO_FLOOR_BYTES &&
    declaredTotal / Math.max(compressedTotal, 1) > limits.maxCompressionRatio
  ) {
    throw tooLarge(
      `archive compression ratio above ${limits.maxCompressionRatio}:1 (possible zip bomb; ${LIMIT_ENV.maxCompressionRatio})`,
      {
        reason: 'compression_ratio',
        limit: limits.maxCompressionRatio,
      },
    );
  }

  const files: ZipFile[] = [];
  let produced = 0;
  for (const [i, entry] of entries.entries()) {
    const range = ranges[i] as DataRange;
    const data = bytes.subarray(range.start, range.end);
    let content: Uint8Array;
    if (entry.method === 0) {
      if (entry.compressedSize !== entry.size)
        throw invalid(`stored entry ${JSON.stringify(entry.name)} has inconsistent sizes`);
      content = data;
    } else {
      content = inflateEntry(data, entry, limits.maxUncompressedBytes - produced);
    }
    if (content.length !== entry.size) {
      throw invalid(`entry ${JSON.stringify(entry.name)} is shorter than its declared size`, {
        path: entry.name,
      });
    }
    if (crc32(content) >>> 0 !== entry.crc) {
      throw invalid(`entry ${JSON.stringify(entry.name)} fails its CRC check (corrupt archive)`, {
        path: entry.name,
      });
    }
    produced += content.length;
    files.push(
      isExecutableEntry(entry)
        ? { path: entry.name, content, executable: true }
        : { path: entry.name, content },
    );
  }
  return files;
}
