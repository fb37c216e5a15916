/**
 * JSON of a result whose long text fields are stored as UTF-8 bytes (a SKILL.md, an abstract),
 * written without decoding them: `Buffer.from(JSON.stringify(value))` would decode each into a
 * string — a two-byte string as soon as it holds one character beyond Latin-1 (an emoji, a dash,
 * an arrow: most real SKILL.md) — escape it on V8's slow path and encode it back to UTF-8.
 *
 * JSON escapes only `"`, `\` and characters below U+0020 — in UTF-8 exactly the bytes below 0x20,
 * 0x22 and 0x5C, never part of a multi-byte sequence — so valid UTF-8 is escaped byte by byte. The
 * texts are scanned eight bytes at a time (a word-wide test for those bytes): eight bytes without any
 * are copied as two 32-bit words, and a word holding one is copied up to it, about twice as fast as
 * `JSON.stringify` on the same text.
 */
import { isUtf8 } from 'node:buffer';

/** Bytes an escape adds per byte value: 0 (copied as is), 1 (`\n`, `\"`, …) or 5 (`\u00XX`). */
const EXTRA = new Uint8Array(256);
/** The letter after `\` of a two-byte escape, per byte value. */
const SHORT = new Uint8Array(256);
for (let b = 0; b < 0x20; b++) EXTRA[b] = 5;
for (const [b, letter] of [
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x22, '"'],
  [0x5c, '\\'],
] as const) {
  EXTRA[b] = 1;
  SHORT[b] = letter.charCodeAt(0);
}
const HEX = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

/**
 * Nonzero when a byte of the 32-bit word `w` is below 0x20, 0x22 or 0x5C (the usual "has a byte less
 * than" / "has a zero byte" word tests): the high bit of such bytes is set. The lowest set bit is always
 * such a byte; a byte above it may be flagged by the borrow it causes (e.g. 0x23 above a quote), so
 * only the first flagged byte is taken as one to escape.
 */
function needsEscape(w: number): number {
  const quote = w ^ 0x22222222;
  const backslash = w ^ 0x5c5c5c5c;
  return (
    ((((w - 0x20202020) | 0) & ~w) |
      (((quote - 0x01010101) | 0) & ~quote) |
      (((backslash - 0x01010101) | 0) & ~backslash)) &
    (0x80808080 | 0)
  );
}

/** Most bytes a text of `length` bytes takes as a JSON string literal (every byte as `\u00XX`). */
function mostBytesOf(length: number): number {
  return length * 6 + 2;
}

/** Largest scratch buffer kept between calls (per thread), bytes; a larger one is dropped after use. */
const SCRATCH_KEPT_BYTES = 1 << 20;
let scratch = Buffer.allocUnsafeSlow(0);

/** A buffer of at least `size` bytes to write into (the kept scratch when it is large enough). */
function scratchOf(size: number): Buffer {
  if (size <= scratch.length) return scratch;
  const grown = Buffer.allocUnsafeSlow(Math.max(size, Math.min(scratch.length * 2, SCRATCH_KEPT_BYTES)));
  if (grown.length <= SCRATCH_KEPT_BYTES) scratch = grown;
  return grown;
}

/** The first `length` bytes of `from` in a buffer of their own (owning its memory). */
function ownedCopy(from: Uint8Array, length: number): Buffer {
  const out = Buffer.allocUnsafeSlow(length);
  out.set(from.subarray(0, length));
  return out;
}

/** Writes byte `b` of a text into `out` at `o`, escaped as JSON; returns the offset after it. */
function writeByte(b: number, out: Uint8Array, o: number): number {
  const extra = EXTRA[b] as number;
  if (extra === 0) {
    out[o] = b;
    return o + 1;
  }
  out[o] = 0x5c;
  if (extra === 1) {
    out[o + 1] = SHORT[b] as number;
    return o + 2;
  }
  // \u00XX (lowercase hex, as JSON.stringify writes it)
  out[o + 1] = 0x75;
  out[o + 2] = 0x30;
  out[o + 3] = 0x30;
  out[o + 4] = HEX[b >> 4] as number;
  out[o + 5] = HEX[b & 15] as number;
  return o + 6;
}

/** Index (0–3) of the lowest byte flagged in a nonzero {@link needsEscape} mask: the first to escape. */
function firstFlagged(mask: number): number {
  return (31 - Math.clz32(mask & -mask)) >> 3;
}

/**
 * Writes the JSON string literal of a UTF-8 text (quotes included) into `out` at `offset`: exactly the
 * bytes of `Buffer.from(JSON.stringify(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)))`
 * for valid UTF-8.
 *
 * Eight bytes are tested at a time. A word with a byte to escape is not walked byte by byte: the bytes
 * before the first such byte are copied with the word, that byte is escaped, and the scan goes on from
 * the byte after it (a markdown text needs an escape every line or so: one per ~40 bytes).
 *
 * @param bytes - valid UTF-8 (check with {@link isWritableUtf8}; invalid input would not be replaced
 *   by U+FFFD)
 * @param out - room for the literal from `offset` (at most 6 bytes per byte of `bytes`, plus 2)
 * @returns the offset after the closing quote
 */
export function writeJsonString(bytes: Uint8Array, out: Uint8Array, offset: number): number {
  const length = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  const outView = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let o = offset;
  out[o++] = 0x22;
  let i = 0;
  // Each word written whole may be partly overwritten by the escape after its clean bytes: `out` has
  // room for 6 bytes per byte still to come, and at least 8 are.
  for (const end = length - 7; i < end; ) {
    const low = view.getInt32(i, true);
    const high = view.getInt32(i + 4, true);
    // Little-endian both ways: the bytes keep their order on any platform.
    outView.setInt32(o, low, true);
    const lowMask = needsEscape(low);
    if (lowMask !== 0) {
      const k = firstFlagged(lowMask);
      o = writeByte(bytes[i + k] as number, out, o + k);
      i += k + 1;
      continue;
    }
    outView.setInt32(o + 4, high, true);
    const highMask = needsEscape(high);
    if (highMask !== 0) {
      const k = firstFlagged(highMask);
      o = writeByte(bytes[i + 4 + k] as number, out, o + 4 + k);
      i += k + 5;
      continue;
    }
    o += 8;
    i += 8;
  }
  for (; i < length; i++) o = writeByte(bytes[i] as number, out, o);
  out[o++] = 0x22;
  return o;
}

/**
 * The JSON string literal (quotes included) of a UTF-8 text, as UTF-8 bytes: exactly
 * `Buffer.from(JSON.stringify(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)))` for valid
 * UTF-8 (see {@link writeJsonString}).
 *
 * @param bytes - valid UTF-8 (check with `isUtf8`; invalid input would not be replaced by U+FFFD)
 * @returns the literal, e.g. `"# Title\n…"` with the newline escaped
 */
export function jsonStringOfUtf8(bytes: Uint8Array): Buffer {
  const out = scratchOf(mostBytesOf(bytes.length));
  return ownedCopy(out, writeJsonString(bytes, out, 0));
}

/** True when `bytes` can be written by {@link stringifyWithUtf8} as they are (valid UTF-8). */
export function isWritableUtf8(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}

/**
 * `Buffer.from(JSON.stringify(value))` of a flat result object, where the fields named in `utf8`
 * are given as valid UTF-8 bytes instead of strings (their value in `value` only holds the key's
 * place in the key order). Other fields are stringified as `JSON.stringify` would; fields whose
 * value is `undefined`, a function or a symbol are left out, as it leaves them out. The result is one
 * buffer of the exact size that owns its memory (kept or moved to another thread as is). Each thread
 * keeps a scratch buffer of up to 1 MiB between calls.
 *
 * @param value - the object, keys in output order
 * @param utf8 - field name → its text as valid UTF-8 (see {@link isWritableUtf8})
 * @returns the JSON as UTF-8 bytes, byte for byte what `Buffer.from(JSON.stringify(…))` gives with
 *   the texts decoded into `value`
 */
export function stringifyWithUtf8(
  value: Record<string, unknown>,
  utf8: ReadonlyMap<string, Uint8Array>,
): Buffer {
  if (utf8.size === 0) return Buffer.from(JSON.stringify(value));
  // The JSON between the texts, and the texts, in order: text parts alternate with byte parts.
  const texts: string[] = [];
  const bytes: Uint8Array[] = [];
  let pending = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const given = utf8.get(key);
    const field = value[key];
    if (
      given === undefined &&
      (field === undefined || typeof field === 'function' || typeof field === 'symbol')
    ) {
      continue;
    }
    pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (given !== undefined) {
      texts.push(pending);
      bytes.push(given);
      pending = '';
    } else {
      pending += JSON.stringify(field);
    }
  }
  texts.push(`${pending}}`);
  // Written into scratch room for the most it can take, then copied out at its exact size (one
  // pass over each text; a copy costs far less than a second pass).
  let most = 0;
  for (const text of texts) most += text.length * 3;
  for (const text of bytes) most += mostBytesOf(text.length);
  const out = scratchOf(most);
  let o = 0;
  for (let i = 0; i < bytes.length; i++) {
    o += out.write(texts[i] as string, o);
    o = writeJsonString(bytes[i] as Uint8Array, out, o);
  }
  o += out.write(texts[bytes.length] as string, o);
  return ownedCopy(out, o);
}
