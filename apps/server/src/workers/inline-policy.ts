/**
 * When work on user text is cheap enough to run in the calling thread. Below this size parsing,
 * validating and extracting the overview of a SKILL.md costs well under a millisecond (p50 0.3 ms,
 * p90 0.6 ms over 1,880 real SKILL.md files up to 16 Ki characters), less than the hop to a worker
 * thread; larger text (up to the 1 MiB limit: ~12 ms at 256 KiB, more with hostile structure) goes to
 * the worker pool with its time budget.
 */

import { frontmatterSize } from '@skillport/core';
import { declaredZipSize, looksLikeZip } from '../uploads/zip-reader.js';

/** Largest text, in UTF-16 code units, processed inline. */
export const INLINE_MAX_CHARS = 16 * 1024;

/**
 * True when text of this length is processed in the calling thread.
 *
 * @param length - `text.length`
 */
export function runsInline(length: number): boolean {
  return length <= INLINE_MAX_CHARS;
}

/**
 * Largest frontmatter, in UTF-16 code units, of a SKILL.md processed inline. YAML costs ~0.7 µs a
 * character whatever its shape (thousands of short keys, aliases, flow maps), so a 16 KiB text that
 * is nearly all frontmatter took ~12 ms of the calling thread; the largest frontmatter among 1,878
 * real SKILL.md is 2,004 characters (p99 927).
 */
export const INLINE_MAX_FRONTMATTER_CHARS = 2048;

/**
 * True when SKILL.md text is processed (parsed, validated) in the calling thread: at most
 * {@link INLINE_MAX_CHARS} characters, of which at most {@link INLINE_MAX_FRONTMATTER_CHARS} of
 * frontmatter, its fences found as the parser finds them (core's `frontmatterSize`). A frontmatter
 * that is never closed counts everything after its opening fence, so such text is decided as before
 * the parser refuses it (`yaml_format`), whichever thread does.
 *
 * @param text - the SKILL.md
 */
export function textRunsInline(text: string): boolean {
  return runsInline(text.length) && (frontmatterSize(text)?.chars ?? 0) <= INLINE_MAX_FRONTMATTER_CHARS;
}

/**
 * Longest `data` string, in UTF-16 code units, that add and update turn into SKILL.md bytes in the
 * calling thread. Turning text into bytes is a UTF-8 encode and two linear scans (a host path, a NUL
 * character): ~0.2 ms at this length, less than the hop to a worker thread, which copies the text
 * there and the text and bytes back; the request's JSON, which holds the text, was already parsed in
 * this thread. Parsing and validating the text are decided apart ({@link textRunsInline}).
 */
export const INLINE_MAX_TEXT_BYTES_CHARS = 256 * 1024;

/**
 * True when a `data` value of add or update is converted to SKILL.md in the calling thread: a string
 * of at most {@link INLINE_MAX_TEXT_BYTES_CHARS} code units, or an object {@link jsonRunsInline} keeps.
 *
 * @param value - the parsed `data`
 */
export function convertsInline(value: unknown): boolean {
  return typeof value === 'string' ? value.length <= INLINE_MAX_TEXT_BYTES_CHARS : jsonRunsInline(value);
}

/** Most JSON values (objects, arrays, scalars) of input processed inline. */
const INLINE_MAX_JSON_NODES = 1000;

/**
 * True when a request value (a `data` object or string) is small enough to convert and validate
 * inline: SKILL.md text as {@link textRunsInline} says; an object of at most
 * {@link INLINE_MAX_CHARS} characters of strings and 1000 values. Stops counting as
 * soon as either bound is passed, so the check itself is cheap on large input.
 *
 * @param value - parsed JSON
 */
export function jsonRunsInline(value: unknown): boolean {
  if (typeof value === 'string') return textRunsInline(value);
  let chars = 0;
  let nodes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') chars += next.length;
    else if (Array.isArray(next)) {
      // Not `for…in`: on an array it lists every index as a string before the first step, so a
      // 200,000-item array cost the request thread ~60-170 ms before it was given up on.
      if (nodes + next.length > INLINE_MAX_JSON_NODES) return false;
      for (let i = 0; i < next.length; i++) {
        nodes += 1;
        chars += i < 10 ? 1 : i < 100 ? 2 : 3; // the index as a key, as `for…in` counted it
        stack.push(next[i]);
      }
    } else if (typeof next === 'object' && next !== null) {
      // `for…in` visits keys one at a time: a 20 000-key object is given up on after 1000.
      for (const key in next) {
        if (++nodes > INLINE_MAX_JSON_NODES) return false;
        chars += key.length;
        stack.push((next as Record<string, unknown>)[key]);
      }
    }
    if (chars > INLINE_MAX_CHARS) return false;
  }
  return true;
}

/** Largest zip upload, in bytes, unpacked inline. */
export const INLINE_MAX_ZIP_BYTES = 64 * 1024;
/** Largest total uncompressed size a zip unpacked inline may declare, in bytes. */
export const INLINE_MAX_UNZIPPED_BYTES = 256 * 1024;
/** Most entries of a zip unpacked inline. */
const INLINE_MAX_ZIP_ENTRIES = 64;

/**
 * True when a temp upload is cheap enough to unpack in the calling thread: anything but a zip (read
 * as SKILL.md text, nothing to inflate), or a zip of at most {@link INLINE_MAX_ZIP_BYTES} whose
 * central directory declares at most 64 entries and {@link INLINE_MAX_UNZIPPED_BYTES} in all — the
 * reader stops any entry that inflates past its declared size, so that bounds the work (well under
 * a millisecond for a typical skill folder, less than the hop to a worker thread). Larger or
 * unreadable archives go to the worker pool with its time budget.
 *
 * @param bytes - the upload
 */
export function uploadRunsInline(bytes: Uint8Array): boolean {
  if (!looksLikeZip(bytes)) return true;
  if (bytes.length > INLINE_MAX_ZIP_BYTES) return false;
  const declared = declaredZipSize(bytes, INLINE_MAX_ZIP_ENTRIES);
  return declared !== null && declared.uncompressedBytes <= INLINE_MAX_UNZIPPED_BYTES;
}
