/**
 * When work on user text is cheap enough to run in the calling thread. Below this size parsing,
 * validating and extracting the overview of a SKILL.md costs well under a millisecond (p50 0.3 ms,
 * p90 0.6 ms over 1,880 real SKILL.md files up to 16 Ki characters), less than the hop to a worker
 * thread; larger text (up to the 1 MiB limit: ~12 ms at 256 KiB, more with hostile structure) goes to
 * the worker pool with its time budget.
 */

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
