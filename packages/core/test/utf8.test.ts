import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findInvalidUtf8, firstInvalidUtf8 } from '../src/index.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const replacing = new TextDecoder('utf-8', { ignoreBOM: true });
const bytesOf = (...parts: Array<string | number[]>): Uint8Array =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part)] : part)));

/** Bytes that mix well-formed text with every kind of bad sequence, so both outcomes are common. */
const mixedBytes = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 6 }).map((s) => [...Buffer.from(s)]),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 4 }),
      fc.constantFrom([0xed, 0xa0, 0x80], [0xe0, 0x80, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf], [0x0a]),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Uint8Array.from(parts.flat()));

describe('firstInvalidUtf8', () => {
  it('is -1 for well-formed UTF-8, BOM and 4-byte characters included', () => {
    expect(firstInvalidUtf8(bytesOf([0xef, 0xbb, 0xbf], '---\nname: café 技能 😀\n'))).toBe(-1);
    expect(firstInvalidUtf8(new Uint8Array())).toBe(-1);
  });

  it('points at the first byte of a bad sequence, not the byte after it', () => {
    // Latin-1 "é" before a space: E9 starts a three-byte sequence that the space breaks.
    expect(firstInvalidUtf8(bytesOf('Caf', [0xe9], ' x'))).toBe(3);
    // A three-byte sequence cut short by the end of the input.
    expect(firstInvalidUtf8(bytesOf('ab', [0xe2, 0x82]))).toBe(2);
    // A stray continuation byte and a byte that never occurs in UTF-8.
    expect(firstInvalidUtf8(bytesOf('a', [0x80]))).toBe(1);
    expect(firstInvalidUtf8(bytesOf('ab', [0xff]))).toBe(2);
  });

  it('finds overlong forms, encoded surrogates and code points above U+10FFFF', () => {
    expect(firstInvalidUtf8(bytesOf('a', [0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(bytesOf('ab', [0xe0, 0x80, 0xaf]))).toBe(2);
    expect(firstInvalidUtf8(bytesOf('abc', [0xf0, 0x80, 0x80, 0xaf]))).toBe(3);
    expect(firstInvalidUtf8(bytesOf('x', [0xed, 0xa0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(bytesOf('x', [0xf4, 0x90, 0x80, 0x80]))).toBe(1);
    // The edges that are allowed.
    expect(firstInvalidUtf8(bytesOf([0xed, 0x9f, 0xbf], [0xf4, 0x8f, 0xbf, 0xbf], [0xe0, 0xa0, 0x80]))).toBe(
      -1,
    );
  });

  it('agrees with a fatal TextDecoder, and a replacing one writes its first U+FFFD at that byte', () => {
    fc.assert(
      fc.property(mixedBytes, (bytes) => {
        const offset = firstInvalidUtf8(bytes);
        let decodes = true;
        try {
          fatal.decode(bytes);
        } catch {
          decodes = false;
        }
        expect(offset === -1).toBe(decodes);
        if (offset === -1) return;
        const before = fatal.decode(bytes.subarray(0, offset));
        const replaced = replacing.decode(bytes);
        expect(replaced.slice(0, before.length)).toBe(before);
        expect(replaced[before.length]).toBe('\uFFFD');
      }),
      { numRuns: 2000 },
    );
  });
});

describe('findInvalidUtf8', () => {
  it('is null for well-formed UTF-8', () => {
    expect(findInvalidUtf8(bytesOf('---\nname: a\n---\n'))).toBeNull();
  });

  it('gives the offset, line and column of the first bad byte', () => {
    const latin1 = bytesOf('---\nname: latin1\ndescription: Caf', [0xe9], ' skill\n---\n');
    expect(findInvalidUtf8(latin1)).toEqual({ offset: 33, line: 3, column: 17, encoding: null });
    // On a later line after CRLF endings; characters before it count once each (UTF-16 units).
    const crlf = bytesOf('---\r\nname: x\r\ndescription: 技能 ', [0xed, 0xa0, 0x80]);
    expect(findInvalidUtf8(crlf)).toEqual({ offset: 34, line: 3, column: 17, encoding: null });
  });

  it('does not count a leading byte order mark in the column', () => {
    expect(findInvalidUtf8(bytesOf([0xef, 0xbb, 0xbf], 'ab', [0xff]))).toEqual({
      offset: 5,
      line: 1,
      column: 3,
      encoding: null,
    });
  });

  it('names UTF-16 announced by its byte order mark', () => {
    const text = '---\nname: a\n---\n';
    expect(findInvalidUtf8(bytesOf([0xff, 0xfe], [...Buffer.from(text, 'utf16le')]))).toEqual({
      offset: 0,
      line: 1,
      column: 1,
      encoding: 'UTF-16LE',
    });
    expect(findInvalidUtf8(bytesOf([0xfe, 0xff], [...Buffer.from(text, 'utf16le').swap16()]))?.encoding).toBe(
      'UTF-16BE',
    );
    // Without the mark it is only bytes that are not UTF-8.
    expect(findInvalidUtf8(bytesOf('ab', [0xff, 0xfe]))?.encoding).toBeNull();
  });
});
