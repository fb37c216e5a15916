import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeCorpus } from '../../../../scripts/test-corpus.js';
import {
  isWritableUtf8,
  jsonStringOfUtf8,
  stringifyWithUtf8,
  writeJsonString,
} from '../../src/store/utf8-json.js';
import { corpusSkillTexts } from '../store/corpus.js';

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** What the get result's JSON was before: the texts decoded into the object, then stringified. */
function reference(value: Record<string, unknown>, utf8: Map<string, Uint8Array>): Buffer {
  const decoded: Record<string, unknown> = { ...value };
  for (const [key, bytes] of utf8) decoded[key] = decoder.decode(bytes);
  return Buffer.from(JSON.stringify(decoded));
}

/** A get-result-like object with `abstract` and `content` given as bytes. */
function result(
  abstract: Uint8Array,
  content: Uint8Array,
): [Record<string, unknown>, Map<string, Uint8Array>] {
  const value = {
    name: 'skill-ü',
    description: 'Ünïcode — "quoted" \\ and \n newline',
    tags: ['a', 'ß'],
    frontmatter: { name: 'skill-ü', nested: { list: [1, null, 'x'] } },
    level: undefined,
    abstract: '',
    content: '',
    content_sha256: 'abc',
    files: [{ path: 'SKILL.md', size: 3 }],
    source: null,
  };
  return [
    value,
    new Map([
      ['abstract', abstract],
      ['content', content],
    ]),
  ];
}

describe('JSON of UTF-8 texts without decoding them', () => {
  it.each([
    ['empty', ''],
    ['ASCII with every escape', 'a"b\\c\n\r\t\b\f\u0000\u0001\u001f\u007f end'],
    ['BOM kept', '\ufeff---\nname: x\n---\n'],
    ['beyond Latin-1', 'Grüße — 日本語 🧭 → ✓ \u2028\u2029 é'],
    ['Latin-1 range', '\u0080\u00a0\u00ff'],
  ])('%s: the same bytes as decoding and stringifying', (_label, text) => {
    const bytes = encoder.encode(text);
    expect(isWritableUtf8(bytes)).toBe(true);
    expect(jsonStringOfUtf8(bytes)).toEqual(Buffer.from(JSON.stringify(text)));
    const [value, utf8] = result(bytes, bytes);
    expect(stringifyWithUtf8(value, utf8)).toEqual(reference(value, utf8));
  });

  it('any text (fast-check): the same bytes as decoding and stringifying', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        // Lone surrogates become U+FFFD when encoded, as stored text would.
        const [value, utf8] = result(encoder.encode(a), encoder.encode(b));
        expect(stringifyWithUtf8(value, utf8).equals(reference(value, utf8))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('tells valid UTF-8 from bytes that are not (those are decoded as before)', () => {
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0x61, 0x80, 0x62]]) {
      expect(isWritableUtf8(Uint8Array.from(bad))).toBe(false);
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        if (!isWritableUtf8(bytes)) return;
        expect(jsonStringOfUtf8(bytes).equals(Buffer.from(JSON.stringify(decoder.decode(bytes))))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes every ASCII byte at every place of the eight-byte scan, at any alignment', () => {
    // 19 bytes: two whole eight-byte steps and a tail of three, each position tried with each byte.
    for (let b = 0; b < 0x80; b++) {
      for (let at = 0; at < 19; at++) {
        for (const shift of [0, 1, 3]) {
          const backing = new Uint8Array(shift + 19).fill(0x61);
          const bytes = backing.subarray(shift);
          bytes[at] = b;
          const expected = Buffer.from(JSON.stringify(decoder.decode(bytes)));
          expect(jsonStringOfUtf8(bytes).equals(expected), `byte ${b} at ${at}, shift ${shift}`).toBe(true);
        }
      }
    }
  });

  it('escapes every pair of adjacent ASCII bytes, in a word and across words (a flag the borrow of the byte below sets is not an escape)', () => {
    // E.g. 0x23 ('#') just above a quote, or 0x01 just above a NUL: the word test may flag both.
    const backing = new Uint8Array(20);
    for (let a = 0; a < 0x80; a++) {
      for (let b = 0; b < 0x80; b++) {
        for (const at of [0, 2, 3, 6, 7, 10, 11]) {
          backing.fill(0x61);
          backing[at + 1] = a;
          backing[at + 2] = b;
          const bytes = backing.subarray(1);
          const expected = Buffer.from(JSON.stringify(decoder.decode(bytes)));
          if (!jsonStringOfUtf8(bytes).equals(expected)) {
            expect.fail(`bytes ${a}, ${b} at ${at}`);
          }
        }
      }
    }
  });

  it('writes at an offset and says where the literal ends, for long texts of any bytes (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.nat({ max: 7 }),
        fc.nat({ max: 5 }),
        (raw, shift, offset) => {
          const backing = new Uint8Array(shift + raw.length);
          backing.set(raw, shift);
          const bytes = backing.subarray(shift);
          if (!isWritableUtf8(bytes)) return;
          const expected = Buffer.from(JSON.stringify(decoder.decode(bytes)));
          // Room for the most a literal can take (6 bytes per byte, plus the quotes).
          const room = offset + bytes.length * 6 + 2;
          const out = Buffer.alloc(room, 0xee);
          expect(writeJsonString(bytes, out, offset)).toBe(offset + expected.length);
          expect(out.subarray(offset, offset + expected.length).equals(expected)).toBe(true);
          expect([...out.subarray(0, offset), ...out.subarray(offset + expected.length)]).toEqual(
            Array(room - expected.length).fill(0xee),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('gives one buffer of its own, the exact size (kept or moved to another thread without a copy)', () => {
    const [value, utf8] = result(encoder.encode('abstract "x"'), encoder.encode('# T\n\nbody\n'.repeat(50)));
    const json = stringifyWithUtf8(value, utf8);
    const again = stringifyWithUtf8(value, utf8);
    expect(again.buffer).not.toBe(json.buffer);
    expect(json.byteOffset).toBe(0);
    expect(json.buffer.byteLength).toBe(json.byteLength);
    expect(json.equals(reference(value, utf8))).toBe(true);
  });

  it('leaves out undefined fields and keeps the key order, with no texts as bytes', () => {
    const value = { b: 1, a: undefined, c: 'x', d: [undefined] };
    expect(stringifyWithUtf8(value, new Map())).toEqual(Buffer.from(JSON.stringify(value)));
    expect(stringifyWithUtf8(value, new Map([['c', encoder.encode('y')]])).toString()).toBe(
      '{"b":1,"c":"y","d":[null]}',
    );
  });
});

describeCorpus('JSON of the corpus SKILL.md texts without decoding them', () => {
  it('gives the same bytes as decoding and stringifying, for every SKILL.md', () => {
    for (const { folder, text } of corpusSkillTexts()) {
      const bytes = encoder.encode(text);
      expect(jsonStringOfUtf8(bytes).equals(Buffer.from(JSON.stringify(text))), folder).toBe(true);
    }
  });
});
