import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { resolveLimits } from '../../src/config.js';
import { extractUploadedSkill } from '../../src/uploads/skill-folder.js';
import { declaredZipSize } from '../../src/uploads/zip-reader.js';
import {
  convertsInline,
  INLINE_MAX_CHARS,
  INLINE_MAX_FRONTMATTER_CHARS,
  INLINE_MAX_TEXT_BYTES_CHARS,
  INLINE_MAX_UNZIPPED_BYTES,
  INLINE_MAX_ZIP_BYTES,
  textRunsInline,
  uploadRunsInline,
} from '../../src/workers/inline-policy.js';

const enc = new TextEncoder();
const SKILL =
  '---\nname: small-folder\ndescription: A small skill folder for the inline policy\n---\n# Use\n';

/** Random (incompressible) bytes from a fixed seed. */
function noise(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('uploadRunsInline', () => {
  test('SKILL.md text (not a zip) is read inline', () => {
    expect(uploadRunsInline(enc.encode(SKILL))).toBe(true);
  });

  test('a small skill folder is unpacked inline, with the same result as in a worker', () => {
    const zip = zipSync({
      'small-folder/SKILL.md': enc.encode(SKILL),
      'small-folder/scripts/run.sh': enc.encode('#!/bin/sh\necho run\n'),
    });
    expect(uploadRunsInline(zip)).toBe(true);
    expect(declaredZipSize(zip, 64)).toEqual({
      entries: 2,
      uncompressedBytes: enc.encode(SKILL).byteLength + '#!/bin/sh\necho run\n'.length,
    });
    const skill = extractUploadedSkill(zip, resolveLimits());
    expect(skill.folderName).toBe('small-folder');
    expect(skill.auxiliary.map((f) => f.path)).toEqual(['scripts/run.sh']);
  });

  test(`a zip over ${INLINE_MAX_ZIP_BYTES} bytes goes to the worker pool`, () => {
    const zip = zipSync({ 'SKILL.md': enc.encode(SKILL), 'data.bin': noise(INLINE_MAX_ZIP_BYTES) });
    expect(zip.byteLength).toBeGreaterThan(INLINE_MAX_ZIP_BYTES);
    expect(uploadRunsInline(zip)).toBe(false);
  });

  test(`a small zip declaring over ${INLINE_MAX_UNZIPPED_BYTES} bytes uncompressed goes to the worker pool`, () => {
    const zip = zipSync({
      'SKILL.md': enc.encode(SKILL),
      'zeros.txt': new Uint8Array(INLINE_MAX_UNZIPPED_BYTES),
    });
    expect(zip.byteLength).toBeLessThan(INLINE_MAX_ZIP_BYTES);
    expect(uploadRunsInline(zip)).toBe(false);
  });

  test('a zip of more than 64 entries goes to the worker pool', () => {
    const folder = (entries: number) => {
      const files: Record<string, Uint8Array> = { 'SKILL.md': enc.encode(SKILL) };
      for (let i = 1; i < entries; i++) files[`f${i}.txt`] = enc.encode('x');
      return zipSync(files);
    };
    expect(declaredZipSize(folder(64), 64)?.entries).toBe(64);
    expect(uploadRunsInline(folder(64))).toBe(true);
    expect(uploadRunsInline(folder(65))).toBe(false);
  });

  test('a zip without a readable central directory goes to the worker pool (which reports it)', () => {
    const zip = zipSync({ 'SKILL.md': enc.encode(SKILL) });
    const truncated = zip.subarray(0, zip.byteLength - 30);
    expect(declaredZipSize(truncated, 64)).toBeNull();
    expect(uploadRunsInline(truncated)).toBe(false);
  });
});

describe('textRunsInline', () => {
  const fm = (yaml: string, body = '# Use\n\nBody.\n') => `---\n${yaml}\n---\n\n${body}`;
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join('\n');

  test('a typical SKILL.md, and one with a long body, run inline', () => {
    expect(textRunsInline(SKILL)).toBe(true);
    expect(textRunsInline(fm('name: a\ndescription: b', 'Text.\n'.repeat(2000)))).toBe(true);
    expect(textRunsInline('# No frontmatter at all\n'.repeat(500))).toBe(true);
  });

  test(`a short text whose frontmatter is over ${INLINE_MAX_FRONTMATTER_CHARS} characters goes to the worker pool`, () => {
    // YAML costs ~0.7 µs a character whatever its shape: 16 KiB of short keys took ~12 ms inline.
    const text = fm(`name: a\ndescription: b\n${keys(1200)}`);
    expect(text.length).toBeLessThanOrEqual(INLINE_MAX_CHARS);
    expect(textRunsInline(text)).toBe(false);
    expect(textRunsInline(fm(`name: a\ndescription: b\n${keys(150)}`))).toBe(true);
  });

  test('fences as the parser reads them: CRLF, a BOM, trailing blanks; no closing fence counts it all', () => {
    const yaml = `name: a\r\ndescription: b\r\n${keys(1200).replaceAll('\n', '\r\n')}`;
    expect(textRunsInline(`\ufeff---  \r\n${yaml}\r\n---\t\r\nbody\r\n`)).toBe(false);
    expect(textRunsInline(`---\n${keys(1200)}`)).toBe(false);
    // A line break the parser does not split on (U+2028), or a dashed line that is no fence, ends nothing.
    expect(textRunsInline(`---\nname: a\u2028---\n${keys(1200)}\n---\nbody\n`)).toBe(false);
    expect(textRunsInline(`---\nname: a\n----\n--- x\n ---\n${keys(1200)}\n---\nbody\n`)).toBe(false);
    expect(textRunsInline(`---\nname: a\n---\n${keys(1200)}\n`)).toBe(true); // the rest is body
  });
});

describe('convertsInline', () => {
  test('SKILL.md text is turned into bytes inline up to its length bound, whatever its frontmatter', () => {
    const keys = Array.from({ length: 1200 }, (_, i) => `k${i}: ${i}`).join('\n');
    const heavy = `---\nname: a\ndescription: b\n${keys}\n---\n\nBody.\n`;
    expect(textRunsInline(heavy)).toBe(false);
    expect(convertsInline(heavy)).toBe(true);
    expect(convertsInline('x'.repeat(INLINE_MAX_TEXT_BYTES_CHARS))).toBe(true);
    expect(convertsInline('x'.repeat(INLINE_MAX_TEXT_BYTES_CHARS + 1))).toBe(false);
  });

  test('an MCP tool or structured skill is decided by its size, as before', () => {
    expect(convertsInline({ name: 'calc', inputSchema: { type: 'object' } })).toBe(true);
    const wide = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(convertsInline({ name: 'wide', inputSchema: { type: 'object', properties: wide } })).toBe(false);
  });

  test('a long array is given up on at the value bound without listing its indexes', () => {
    // `for…in` on an array lists every index as a string first (~60-170 ms of the request thread
    // for 200,000 tags); the check must read only what it counts. The proxy refuses to list keys.
    const huge = new Proxy(
      Array.from({ length: 200_000 }, () => 'tag'),
      {
        ownKeys() {
          throw new Error('listed every index');
        },
      },
    );
    expect(convertsInline({ name: 'tags', tags: huge })).toBe(false);
    expect(convertsInline({ name: 'tags', tags: Array.from({ length: 990 }, () => 'tag') })).toBe(true);
    expect(convertsInline({ name: 'tags', tags: Array.from({ length: 1000 }, () => 'tag') })).toBe(false);
    // The character bound holds for array items as before: 400 items of INLINE_MAX_CHARS / 500
    // characters stay inline, 600 do not.
    const per = Math.floor(INLINE_MAX_CHARS / 500);
    expect(convertsInline({ tags: Array.from({ length: 400 }, () => 'x'.repeat(per)) })).toBe(true);
    expect(convertsInline({ tags: Array.from({ length: 600 }, () => 'x'.repeat(per)) })).toBe(false);
  });
});
