/**
 * JSON of a result whose long text fields are stored as UTF-8 bytes (a SKILL.md, an abstract),
 * written without decoding them: `Buffer.from(JSON.stringify(value))` would decode each into a
 * string — a two-byte string as soon as it holds one character beyond Latin-1 (an emoji, a dash,
 * an arrow: most real SKILL.md) — escape it on V8's slow path and encode it back to UTF-8.
 */
import { isUtf8 } from 'node:buffer';

/**
 * The JSON string literal (quotes included) of a UTF-8 text, as UTF-8 bytes: exactly
 * `Buffer.from(JSON.stringify(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes)))` for valid
 * UTF-8. The bytes are read as Latin-1 (one character per byte) and escaped by `JSON.stringify`,
 * which escapes only `"`, `\` and characters below U+0020 — in UTF-8 exactly the bytes below 0x20,
 * 0x22 and 0x5C, never part of a multi-byte sequence — and is then written back byte for byte.
 *
 * @param bytes - valid UTF-8 (check with `isUtf8`; invalid input would not be replaced by U+FFFD)
 * @returns the literal, e.g. `"# Title\n…"` with the newline escaped
 */
export function jsonStringOfUtf8(bytes: Uint8Array): Buffer {
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return Buffer.from(JSON.stringify(latin1), 'latin1');
}

/** True when `bytes` can be written by {@link stringifyWithUtf8} as they are (valid UTF-8). */
export function isWritableUtf8(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}

/**
 * `Buffer.from(JSON.stringify(value))` of a flat result object, where the fields named in `utf8`
 * are given as valid UTF-8 bytes instead of strings (their value in `value` only holds the key's
 * place in the key order). Other fields are stringified as `JSON.stringify` would; fields whose
 * value is `undefined`, a function or a symbol are left out, as it leaves them out.
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
  const chunks: Buffer[] = [];
  let pending = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const bytes = utf8.get(key);
    const field = value[key];
    if (
      bytes === undefined &&
      (field === undefined || typeof field === 'function' || typeof field === 'symbol')
    ) {
      continue;
    }
    pending += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (bytes !== undefined) {
      chunks.push(Buffer.from(pending), jsonStringOfUtf8(bytes));
      pending = '';
    } else {
      pending += JSON.stringify(field);
    }
  }
  chunks.push(Buffer.from(`${pending}}`));
  return Buffer.concat(chunks);
}
