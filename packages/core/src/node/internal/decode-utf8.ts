/**
 * Exact UTF-8 decoding of SKILL.md bytes: the BOM is kept (the text is returned byte-for-byte as
 * written) and invalid sequences are reported instead of silently replaced.
 */

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Decoded text and whether the bytes were valid UTF-8 (invalid sequences become U+FFFD). */
export interface DecodedText {
  text: string;
  valid: boolean;
}

/** Decodes `bytes` as UTF-8 without dropping a leading BOM. */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: strict.decode(bytes), valid: true };
  } catch {
    return { text: lenient.decode(bytes), valid: false };
  }
}
