/**
 * Where bytes stop being UTF-8: the one answer the CLI's `skills validate`, the server's add and its
 * zip reader give for a SKILL.md or an entry name that is not valid UTF-8.
 *
 * Well-formed UTF-8 is the byte sequences of the Unicode Standard's Table 3-7 (what a fatal
 * `TextDecoder('utf-8')` accepts): no overlong forms (`C0 AF`, `E0 80 AF`), no encoded surrogates
 * (`ED A0 80`), nothing above U+10FFFF. Runtime-neutral, linear in the input, no dependencies.
 */

/** The first ill-formed sequence of some bytes: its byte offset and where it sits in the text. */
export interface InvalidUtf8Position {
  /** Offset, in bytes from the start, of the first byte of the first ill-formed sequence (0-based). */
  offset: number;
  /** Line of that byte (1-based; lines end at LF). */
  line: number;
  /**
   * Column of that byte (1-based): one more than the number of UTF-16 code units decoded between the
   * start of its line and it. A leading byte order mark (`EF BB BF`) is not counted, as editors show it.
   */
  column: number;
  /**
   * `UTF-16LE` or `UTF-16BE` when the bytes start with that encoding's byte order mark (`FF FE` or
   * `FE FF`, as Windows PowerShell 5 and some editors save text), else null: the file is in another
   * encoding, and saving it as UTF-8 is the fix.
   */
  encoding: 'UTF-16LE' | 'UTF-16BE' | null;
}

/**
 * Finds the first byte of the first ill-formed UTF-8 sequence: the byte where a decoder that
 * replaces bad input writes its first U+FFFD.
 *
 * @param bytes - any bytes
 * @returns the byte offset (0-based), or -1 when `bytes` is well-formed UTF-8 (a fatal
 *   `TextDecoder('utf-8')` decodes it)
 * @example
 * ```ts
 * firstInvalidUtf8(new TextEncoder().encode('café')); // -1
 * firstInvalidUtf8(Uint8Array.of(0x43, 0x61, 0x66, 0xe9, 0x20)); // 3 (Latin-1 "é" before a space)
 * firstInvalidUtf8(Uint8Array.of(0x61, 0xed, 0xa0, 0x80)); // 1 (an encoded surrogate)
 * ```
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Table 3-7: the allowed range of the second byte depends on the first; later bytes are 80..BF.
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) low = 0xa0;
      else if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) low = 0x90;
      else if (b === 0xf4) high = 0x8f;
    } else return i;
    const second = bytes[i + 1];
    if (second === undefined || second < low || second > high) return i;
    for (let k = 2; k <= need; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Locates the first ill-formed UTF-8 sequence of some bytes by offset, line and column, for an error
 * that points at it (`SKILL.md is not valid UTF-8: first bad byte at line 3, column 17 (byte offset
 * 33)`).
 *
 * @param bytes - e.g. a SKILL.md as read from disk or uploaded
 * @returns `null` when `bytes` is well-formed UTF-8, otherwise the position of its first bad byte and
 *   the UTF-16 form its byte order mark announces, if any
 */
export function findInvalidUtf8(bytes: Uint8Array): InvalidUtf8Position | null {
  const offset = firstInvalidUtf8(bytes);
  if (offset < 0) return null;
  // Everything before `offset` is well-formed, so this decodes it exactly (a leading BOM dropped).
  const before = new TextDecoder('utf-8').decode(bytes.subarray(0, offset));
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  const encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'UTF-16LE'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'UTF-16BE'
        : null;
  return { offset, line, column: before.length - lineStart + 1, encoding };
}
