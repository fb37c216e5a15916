/**
 * Text from the server (a skill's description, tags, body) is written by whoever added the skill. On a
 * terminal, control characters in it are commands: ESC starts sequences that clear the screen, set
 * the window title or write the clipboard (OSC 52), and bidi overrides reorder what a reader sees.
 * These helpers show such characters as `\u001b`-style escapes — the spelling the validator's
 * messages use — so what is printed is what the text holds.
 */

/**
 * C0 controls but tab and newline, DEL, C1 controls (U+0080–U+009F, with the 8-bit CSI U+009B), the
 * bidi embedding, override and isolate characters (U+202A–U+202E, U+2066–U+2069) and the bidi marks
 * (U+061C, U+200E, U+200F): a mark changes the direction of the neutral characters beside it, so
 * `v1.2\u200f-beta` can read as another text; shown escaped, what is printed is what the text holds.
 * One character class: linear in the text's length.
 */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `\u001b` for ESC: four hex digits, lower case. */
function escapeChar(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Shows every control character of `text` as a `\uXXXX` escape, except tab, newline and a carriage
 * return right before a newline (CRLF line ends are kept as they are).
 * @param text - any text.
 * @returns text safe to write to a terminal, lines and tabs as they were.
 * @example escapeTerminalControls('a\u001b[2Jb\r\n') // 'a\\u001b[2Jb\r\n'
 */
export function escapeTerminalControls(text: string): string {
  return text.replace(UNSAFE, (char, offset: number) =>
    char === '\r' && text.charCodeAt(offset + 1) === 10 ? char : escapeChar(char),
  );
}

/**
 * {@link UNSAFE} plus the characters that print as nothing between letters (zero width space, word
 * joiner and the invisible operators U+2060–U+2064, Mongolian vowel separator, byte order mark): in a
 * table cell or a one-line value they would make two different texts look alike. The joiners U+200C
 * and U+200D stay: Persian words and emoji sequences need them.
 */
const UNSAFE_CELL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * Shows control characters, bidi marks and invisible characters of a one-line `text` (a table cell)
 * as `\uXXXX` escapes; newlines and tabs, already made spaces by the caller, would be escaped too.
 * @param text - one line of any text.
 * @returns the text safe to write to a terminal, every character visible.
 * @example escapeCellControls('1\u200f-2\u200b') // '1\\u200f-2\\u200b'
 */
export function escapeCellControls(text: string): string {
  return text.replace(UNSAFE_CELL, escapeChar);
}

/**
 * {@link UNSAFE} plus tab, line feed and carriage return (what cannot appear inside one line), and the
 * characters that print as nothing or as a plain space (no-break and other Unicode spaces, zero width
 * space, line and paragraph separators, byte order mark): in a detail they would hide what was sent.
 */
const UNSAFE_INLINE =
  /[\u0000-\u001f\u007f-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200b\u200e\u200f\u2028-\u202f\u205f-\u2064\u2066-\u2069\u3000\ufeff]/g;

/**
 * Shows every control character of `text` as a `\uXXXX` escape, tab and line breaks included, and
 * every invisible or space-like character other than the ASCII space: for
 * text that must stay on its line (a detail of an error, a cell), where a tab would jump to the next
 * stop and a line break would print a line that seems to be the program's own.
 * @param text - any text.
 * @returns one line of text safe to write to a terminal.
 * @example escapeInlineControls('a\tb\n') // 'a\\u0009b\\u000a'
 */
export function escapeInlineControls(text: string): string {
  return text.replace(UNSAFE_INLINE, escapeChar);
}
