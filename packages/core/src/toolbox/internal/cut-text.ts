/**
 * Cutting text to a length for prompts and tool definitions.
 */

/**
 * `text` cut to at most `max` UTF-16 code units, ending with `…` when cut (trailing blanks before it
 * dropped), never between the two halves of a surrogate pair.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}
