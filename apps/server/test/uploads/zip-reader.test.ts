import { zipSync } from 'fflate';
import { describe, expect, test } from 'vitest';
import { readZip } from '../../src/uploads/zip-reader.js';
import { refusal } from '../helpers/refusal.js';
import { buildZip } from '../helpers/zip-builder.js';

const enc = new TextEncoder();
const LIMITS = {
  maxEntries: 100,
  maxUncompressedBytes: 64 * 1024 * 1024,
  maxCompressionRatio: 10_000,
  maxPathDepth: 8,
};

describe('readZip entry count', () => {
  /** A zip whose end-of-central-directory record says 0xffff entries (65,535 or more, ZIP64). */
  function markedZip64Count(): Uint8Array {
    const zip = zipSync({ 'SKILL.md': enc.encode('---\nname: z\ndescription: d\n---\nbody\n') });
    const eocd = zip.length - 22;
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    expect(view.getUint32(eocd, true)).toBe(0x06054b50);
    view.setUint16(eocd + 8, 0xffff, true);
    view.setUint16(eocd + 10, 0xffff, true);
    return zip;
  }

  test('65,535 or more entries over the entry limit → 413 naming the limit, not a ZIP64 format error', () => {
    const error = refusal(() => readZip(markedZip64Count(), LIMITS));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.message).toContain('the limit is 100');
    expect(error.details.limit).toBe(100);
  });

  test('with an entry limit of 65,535 or more, the same archive is refused as ZIP64', () => {
    const error = refusal(() => readZip(markedZip64Count(), { ...LIMITS, maxEntries: 70_000 }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('ZIP64');
  });
});

describe('readZip inflation', () => {
  test('gives back every entry byte for byte, each in a buffer of its own size', () => {
    const files: Record<string, Uint8Array> = {
      'SKILL.md': enc.encode(`---\nname: z\ndescription: d\n---\n${'text '.repeat(5000)}`),
      'empty.txt': new Uint8Array(0),
      'scripts/run.sh': enc.encode('#!/bin/sh\necho run\n'),
      'data.bin': Uint8Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 251),
    };
    const read = readZip(zipSync(files), LIMITS);
    expect(read.map((f) => f.path).sort()).toEqual(Object.keys(files).sort());
    for (const file of read) {
      expect(Buffer.from(file.content).equals(Buffer.from(files[file.path] as Uint8Array))).toBe(true);
      expect(file.content.byteOffset).toBe(0);
      expect(file.content.buffer.byteLength).toBe(file.content.byteLength);
    }
  });

  test('an entry inflating past its declared size → 413 size_mismatch', () => {
    const zip = buildZip([{ name: 'SKILL.md', data: 'x'.repeat(200_000), declaredSize: 1000 }]);
    const error = refusal(() => readZip(zip, LIMITS));
    expect(error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(error.details.reason).toBe('size_mismatch');
  });

  test('an entry inflating to exactly one byte more than declared → 413 size_mismatch', () => {
    const zip = buildZip([{ name: 'SKILL.md', data: 'abcdef', declaredSize: 5 }]);
    expect(refusal(() => readZip(zip, LIMITS)).details.reason).toBe('size_mismatch');
  });

  test('corrupt deflate data → 400 naming the entry', () => {
    const zip = zipSync({
      'SKILL.md': enc.encode('---\nname: z\ndescription: d\n---\nbody body body body\n'),
    });
    // The first byte of the entry's data: final block of the reserved type 3.
    const dataStart = 30 + 'SKILL.md'.length;
    zip[dataStart] = 0xff;
    const error = refusal(() => readZip(zip, LIMITS));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('"SKILL.md" is not valid deflate data');
  });
});

describe('readZip executable files', () => {
  const names = (files: ReturnType<typeof readZip>) =>
    Object.fromEntries(files.map((f) => [f.path, f.executable === true]));

  test('an entry with a Unix mode whose owner may execute it is executable; 644 is not', () => {
    const files = readZip(
      buildZip([
        { name: 'SKILL.md', data: 'x' },
        { name: 'scripts/run.sh', data: '#!/bin/sh\n', mode: 0o100755 },
        { name: 'scripts/owner-only.sh', data: '#!/bin/sh\n', mode: 0o100700 },
        { name: 'scripts/others-only.sh', data: '#!/bin/sh\n', mode: 0o100011 },
        { name: 'notes.md', data: 'n', mode: 0o100644 },
        // Info-ZIP on some systems leaves the file type out: the permission bits still count.
        { name: 'bin/tool', data: 't', mode: 0o755 },
      ]),
      LIMITS,
    );
    expect(names(files)).toEqual({
      'SKILL.md': false,
      'scripts/run.sh': true,
      'scripts/owner-only.sh': true,
      'scripts/others-only.sh': false,
      'notes.md': false,
      'bin/tool': true,
    });
  });

  test('macOS hosts (19) carry Unix modes too', () => {
    const files = readZip(buildZip([{ name: 'run.sh', data: 'r', mode: 0o100755, host: 19 }]), LIMITS);
    expect(files[0]?.executable).toBe(true);
  });

  test('a zip from a host without Unix modes (MS-DOS/Windows: 0, NTFS: 10) marks nothing executable', () => {
    const files = readZip(
      buildZip([
        { name: 'dos.sh', data: 'd', mode: 0o100755, host: 0 },
        { name: 'ntfs.sh', data: 'n', mode: 0o100755, host: 10 },
      ]),
      LIMITS,
    );
    expect(names(files)).toEqual({ 'dos.sh': false, 'ntfs.sh': false });
  });

  test('a zip written without attributes (a library default) marks nothing executable', () => {
    const files = readZip(
      zipSync({ 'SKILL.md': enc.encode('x'), 'run.sh': enc.encode('#!/bin/sh\n') }),
      LIMITS,
    );
    expect(names(files)).toEqual({ 'SKILL.md': false, 'run.sh': false });
  });
});

describe('readZip entry names written with backslashes (Windows zip tools)', () => {
  test('`\\` is read as the folder separator: the files come back under `/` paths', () => {
    const files = readZip(
      buildZip([
        { name: 'skill\\SKILL.md', data: 'x', host: 0 },
        { name: 'skill\\scripts\\run.sh', data: 'r', host: 10 },
        { name: 'skill/docs\\a.md', data: 'a', host: 3 },
      ]),
      LIMITS,
    );
    expect(files.map((f) => f.path)).toEqual(['skill/SKILL.md', 'skill/scripts/run.sh', 'skill/docs/a.md']);
  });

  test('a name given both ways is a duplicate entry (400), naming it', () => {
    const refused = refusal(() =>
      readZip(
        buildZip([
          { name: 'docs\\a.md', data: 'a' },
          { name: 'docs/a.md', data: 'b' },
        ]),
        LIMITS,
      ),
    );
    expect(refused.code).toBe('INVALID_ARGUMENT');
    expect(refused.message).toContain('duplicate entry "docs/a.md"');
  });

  test('after the conversion every path rule applies: `..\\` is a traversal, naming the entry as written', () => {
    const refused = refusal(() =>
      readZip(buildZip([{ name: '..\\..\\evil.txt', data: 'e', host: 0 }]), LIMITS),
    );
    expect(refused.code).toBe('INVALID_ARGUMENT');
    expect(refused.details.reason).toBe('traversal');
    expect(refused.message).toContain('"..\\\\..\\\\evil.txt"');
  });
});
