/** Markdown inline code for values shown in a rendered skill. */

/** Longest value shown in full, in characters. */
const INLINE_MAX = 120;

/**
 * A JSON value as Markdown inline code, truncated past 120 characters; the fence grows when the value
 * itself contains backticks.
 */
export function inlineCode(value: unknown): string {
  let text = JSON.stringify(value) ?? String(value);
  if (text.length > INLINE_MAX) text = `${text.slice(0, INLINE_MAX - 1)}…`;
  return codeSpan(text);
}

/** Wraps text in a Markdown code span whose fence is longer than any backtick run inside. */
export function codeSpan(text: string): string {
  // A scan, not `Math.max(...runs)`: a name of 150,000 backtick runs is more arguments than a call takes.
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = text.charCodeAt(i) === 0x60 ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}
