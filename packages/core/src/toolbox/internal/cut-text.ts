/**
 * Cutting text to a length for prompts and tool definitions.
 */

/**
 * `text` cut to at most `max` UTF-16 code units, ending with `…` when cut (trailing blanks before it
 * dropped), never between the two halves of a surrogate pair.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, pairSafeEnd(text, max - 1)).trimEnd()}…`;
}

/**
 * `end`, or one less when `text` would be cut there between the two halves of a surrogate pair.
 */
export function pairSafeEnd(text: string, end: number): number {
  const last = text.charCodeAt(end - 1);
  return last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}
