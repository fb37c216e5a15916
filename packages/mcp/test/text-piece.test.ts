/** `textPiece`: the piece of a long text a tool result carries, cut between whole characters. */
import { describe, expect, it } from 'vitest';
import { MAX_TOOL_TEXT_CHARS, textPiece } from '../src/internal/tools.js';

describe('textPiece', () => {
  it('gives a short text whole, and refuses an offset past its end with a message that fits it', () => {
    expect(textPiece('abc', 0)).toEqual({ piece: 'abc', start: 0, end: 3 });
    expect(textPiece('', 0)).toEqual({ piece: '', start: 0, end: 0 });
    expect(() => textPiece('abc', 3)).toThrow('read from offset 0 to 2');
    expect(() => textPiece('', 1)).toThrow('the text, which is empty; read it without an offset');
  });

  it('cuts a long text before a surrogate pair it would split, and starts an offset inside one at the pair', () => {
    const text = `${'a'.repeat(MAX_TOOL_TEXT_CHARS - 1)}😀${'b'.repeat(10)}`;
    const first = textPiece(text, 0);
    expect(first.end).toBe(MAX_TOOL_TEXT_CHARS - 1);
    const next = textPiece(text, MAX_TOOL_TEXT_CHARS);
    expect(next.start).toBe(MAX_TOOL_TEXT_CHARS - 1);
    expect(first.piece + next.piece).toBe(text);
  });
});
