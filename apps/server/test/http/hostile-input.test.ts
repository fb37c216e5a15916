import { deflateSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { buildZip, type RawZipEntry } from '../helpers/zip-builder.js';

let t: TestServer;
const LIMITS = {
  maxBodyBytes: 64 * 1024,
  maxUploadBytes: 256 * 1024,
  maxZipEntries: 20,
  maxUncompressedBytes: 2 * 1024 * 1024,
  maxCompressionRatio: 50,
  maxFilesPerSkill: 10,
  maxSkillMdBytes: 16 * 1024,
  maxPathDepth: 4,
};
const enc = new TextEncoder();
const SKILL = '---\nname: evil\ndescription: This skill must never be stored by the server\n---\nbody\n';
const skillEntry: RawZipEntry = { name: 'SKILL.md', data: SKILL };

beforeAll(async () => {
  t = await startTestServer({ limits: LIMITS });
});
afterAll(async () => {
  // Nothing of any hostile request was stored.
  const list = await t.request('GET', '/api/v1/skills');
  expect(list.json.result.total).toBe(0);
  await t.close();
});

async function addUpload(bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'upload.zip');
  const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  if (up.status !== 200) return up;
  return t.request('POST', '/api/v1/skills', { body: { temp_file_id: up.json.result.temp_file_id } });
}

describe('zip slip and unsafe paths', () => {
  test.each([
    ['../evil.txt', 'traversal'],
    ['docs/../../evil.txt', 'traversal'],
    ['/etc/cron.d/evil', 'absolute'],
    ['C:/Windows/evil.dll', 'drive_letter'],
    // `\` is read as the folder separator (Windows zip tools write it): the rules apply after that.
    ['..\\evil.txt', 'traversal'],
    ['docs\\..\\..\\evil.txt', 'traversal'],
    ['\\etc\\cron.d\\evil', 'absolute'],
    ['C:\\Windows\\evil.dll', 'drive_letter'],
    ['docs\\\\evil.txt', 'empty_segment'],
    ['docs/./evil.txt', 'empty_segment'],
    ['docs//evil.txt', 'empty_segment'],
    ['a/b/c/d/e.txt', 'too_deep'],
    ['bad\u0001name.txt', 'control_character'],
    ['a'.repeat(256), 'segment_too_long'],
    // 103 characters but 303 bytes in UTF-8: more than ext4, APFS or NTFS holds in one name.
    [`${'\u6587'.repeat(100)}.md`, 'segment_too_long'],
    // Names Windows cannot create (install would fail there, or write another name).
    ['docs/a:b.txt', 'windows_name'],
    ['what?.md', 'windows_name'],
    ['docs/star*.txt', 'windows_name'],
    ['a|b.txt', 'windows_name'],
    ['<tag>.md', 'windows_name'],
    ['say"hi".md', 'windows_name'],
    ['CON.txt', 'windows_name'],
    ['scripts/com1.py', 'windows_name'],
    ['nul', 'windows_name'],
    ['Lpt9.log', 'windows_name'],
    ['notes.txt.', 'windows_name'],
    ['docs /a.txt', 'windows_name'],
  ])('entry %j → 400 reason %s', async (name, reason) => {
    const res = await addUpload(buildZip([skillEntry, { name, data: 'x' }]));
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.reason).toBe(reason);
    expect(res.json.error.message).toContain('Unsafe file path');
  });

  // A folder cannot hold a file and a folder of one name: no client could write such a skill to disk.
  test.each([
    [
      'a file and a folder "docs"',
      [
        { name: 'docs', data: 'x' },
        { name: 'docs/a.txt', data: 'y' },
      ],
    ],
    ['a folder named SKILL.md', [{ name: 'SKILL.md/x.txt', data: 'x' }]],
    [
      'a file "Docs" and a folder "docs" (one name on macOS and Windows)',
      [
        { name: 'Docs', data: 'x' },
        { name: 'docs/a.txt', data: 'y' },
      ],
    ],
    [
      'the folder before the file',
      [
        { name: 'd/e/f.txt', data: 'x' },
        { name: 'd/e', data: 'y' },
      ],
    ],
  ])('%s → 400 reason path_conflict', async (_label, entries) => {
    const res = await addUpload(buildZip([skillEntry, ...entries]));
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.reason).toBe('path_conflict');
  });

  // Names one file on macOS and Windows (case-insensitive, normalization-insensitive file systems):
  // installing such a skill there would silently keep only one of the files.
  test.each([
    [
      'names differing only in letter case',
      [
        { name: 'README.txt', data: 'x' },
        { name: 'readme.txt', data: 'y' },
      ],
      'readme.txt',
    ],
    [
      'a name and SKILL.md differing only in case',
      [
        { name: 'docs/Guide.md', data: 'x' },
        { name: 'skill.md', data: 'y' },
      ],
      'skill.md',
    ],
    [
      'NFC and NFD spellings of one name',
      [
        { name: 'caf\u00e9.txt', data: 'x' },
        { name: 'cafe\u0301.txt', data: 'y' },
      ],
      'cafe\u0301.txt',
    ],
    [
      'folders differing only in case',
      [
        { name: 'Docs/a.txt', data: 'x' },
        { name: 'docs/A.txt', data: 'y' },
      ],
      'docs/A.txt',
    ],
  ])('%s → 400 reason path_conflict', async (_label, entries, path) => {
    const res = await addUpload(buildZip([skillEntry, ...entries]));
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details).toMatchObject({ reason: 'path_conflict', path });
  });

  test('names that only resemble what Windows refuses are fine', async () => {
    const res = await addUpload(
      buildZip([
        { name: 'SKILL.md', data: SKILL.replace('name: evil', 'name: windows-ok') },
        { name: 'console.md', data: 'x' },
        { name: 'con-notes/aux-data.txt', data: 'x' },
        { name: 'com10.txt', data: 'x' },
        { name: '.hidden', data: 'x' },
        { name: 'a.b.c', data: 'x' },
        { name: 'it works!.md', data: 'x' },
      ]),
    );
    expect(res.status, res.text).toBe(200);
    const removed = await t.request('DELETE', '/api/v1/skills/windows-ok');
    expect(removed.status).toBe(200);
  });

  test('folders differing only in case are fine when no two files collide', async () => {
    const res = await addUpload(
      buildZip([
        { name: 'SKILL.md', data: SKILL.replace('name: evil', 'name: case-ok') },
        { name: 'Docs/a.txt', data: 'x' },
        { name: 'docs/b.txt', data: 'y' },
      ]),
    );
    expect(res.status, res.text).toBe(200);
    const removed = await t.request('DELETE', '/api/v1/skills/case-ok');
    expect(removed.status).toBe(200);
  });

  test('an entry name that is not UTF-8 → 400 reason invalid_utf8, naming the byte', async () => {
    const zip = buildZip([skillEntry, { name: 'notes-X.txt', data: 'x' }]);
    // Latin-1 "é" (0xE9) in place of X: what old tools write without the zip's UTF-8 flag.
    for (let at = 0; at < zip.length - 5; at++) {
      if (String.fromCharCode(...zip.subarray(at, at + 7)) === 'notes-X') zip[at + 6] = 0xe9;
    }
    const res = await addUpload(zip);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details).toMatchObject({ reason: 'invalid_utf8', offset: 6 });
    expect(res.json.error.message).toContain('not valid UTF-8');
  });

  test('an entry name with an encoded surrogate → 400 invalid_utf8 naming that byte', async () => {
    const zip = buildZip([skillEntry, { name: 'notes-XYZ.txt', data: 'x' }]);
    for (let at = 0; at < zip.length - 9; at++) {
      if (String.fromCharCode(...zip.subarray(at, at + 9)) === 'notes-XYZ')
        zip.set([0xed, 0xa0, 0x80], at + 6);
    }
    const res = await addUpload(zip);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details).toMatchObject({ reason: 'invalid_utf8', offset: 6 });
  });

  test('symlink entry (unix mode 120777) → 400 reason symlink', async () => {
    const res = await addUpload(
      buildZip([skillEntry, { name: 'link', data: '/etc/passwd', mode: 0o120777 }]),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.details.reason).toBe('symlink');
  });
});

describe('zip bombs and size limits', () => {
  test('declared uncompressed total over the limit → 413 before inflating', async () => {
    const res = await addUpload(
      buildZip([skillEntry, { name: 'big.bin', data: new Uint8Array(3 * 1024 * 1024) }]),
    );
    expect(res.status, res.text).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  test('a declared total over the limit, each entry under the ratio limit → 413 naming its setting', async () => {
    // Every limit's refusal names its setting, as GET /api/v1/system/limits does.
    const data = new Uint8Array(40 * 1024).map((_, i) => (i * 7919) % 251);
    const entries: RawZipEntry[] = [
      skillEntry,
      ...[0, 1].map(
        (i): RawZipEntry => ({ name: `part-${i}.bin`, data, method: 0, declaredSize: 1536 * 1024 }),
      ),
    ];
    const res = await addUpload(buildZip(entries));
    expect(res.status, res.text).toBe(413);
    expect(res.json.error.details.reason).toBe('uncompressed_size');
    expect(res.json.error.message).toContain(
      `exceeds the limit of ${LIMITS.maxUncompressedBytes} (SKILLPORT_MAX_UNCOMPRESSED_BYTES)`,
    );
  });

  test('compression ratio above the limit → 413 reason compression_ratio', async () => {
    const res = await addUpload(
      buildZip([skillEntry, { name: 'zeros.bin', data: new Uint8Array(1536 * 1024) }]),
    );
    expect(res.status, res.text).toBe(413);
    expect(res.json.error.details.reason).toBe('compression_ratio');
    expect(res.json.error.message).toContain('SKILLPORT_MAX_COMPRESSION_RATIO');
  });

  test('an entry lying about its size is cut off while inflating → 413 reason size_mismatch', async () => {
    const res = await addUpload(
      buildZip([skillEntry, { name: 'liar.bin', data: new Uint8Array(1536 * 1024), declaredSize: 100 }]),
    );
    expect(res.status, res.text).toBe(413);
    expect(res.json.error.details.reason).toBe('size_mismatch');
  });

  test('entries sharing one compressed record → 413 reason overlapping_entries, before inflating', async () => {
    // 7 more names for one stored 100 KiB record: 800 KiB expanded from a ~100 KiB archive, every total
    // under its limit and a "compression ratio" of 1 when each entry counts the record again.
    const blob = new Uint8Array(100 * 1024).map((_, i) => (i * 7919) % 251);
    const entries: RawZipEntry[] = [
      skillEntry,
      { name: 'blob.bin', data: blob, method: 0 },
      ...Array.from({ length: 7 }, (_, i) => ({ name: `copy-${i}.bin`, data: '', sharesDataOf: 1 })),
    ];
    const res = await addUpload(buildZip(entries));
    expect(res.status, res.text).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.json.error.details).toMatchObject({ reason: 'overlapping_entries', field: 'file' });
    expect(res.json.error.message).toMatch(/share compressed data/);
  });

  test('more entries than allowed → 413', async () => {
    const entries = [skillEntry, ...Array.from({ length: 25 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' }))];
    const res = await addUpload(buildZip(entries));
    expect(res.status).toBe(413);
    expect(res.json.error.message).toContain(
      `the limit is ${LIMITS.maxZipEntries} (SKILLPORT_MAX_ZIP_ENTRIES)`,
    );
  });

  test('more files per skill than allowed → 413', async () => {
    const entries = [skillEntry, ...Array.from({ length: 12 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' }))];
    const res = await addUpload(buildZip(entries));
    expect(res.status).toBe(413);
    expect(res.json.error.message).toContain(
      `the limit is ${LIMITS.maxFilesPerSkill} (SKILLPORT_MAX_FILES_PER_SKILL)`,
    );
  });

  // 300 KiB is judged from the file, 400 KiB already from the request's length.
  test.each([[300], [400]])('upload of %i KiB, over maxUploadBytes → 413 at temp_upload', async (kib) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(kib * 1024)]), 'big.zip');
    const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    // The limit named is the setting's (GET /api/v1/system/limits), not the request's allowance
    // for the multipart framing around the file.
    expect(res.json.error.details).toMatchObject({ field: 'file', limit: LIMITS.maxUploadBytes });
    expect(res.json.error.message).toContain(
      `the limit is ${LIMITS.maxUploadBytes} bytes (SKILLPORT_MAX_UPLOAD_BYTES)`,
    );
  });

  test('JSON body larger than maxBodyBytes → 413', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: `${SKILL}${'x'.repeat(100 * 1024)}` },
    });
    expect(res.status).toBe(413);
    expect(res.json.error.code).toBe('PAYLOAD_TOO_LARGE');
    // The answer names the setting, as the upload limit's does, and the way to send more.
    expect(res.json.error.details).toEqual({ limit: LIMITS.maxBodyBytes });
    expect(res.json.error.message).toBe(
      `Request body is larger than its limit of ${LIMITS.maxBodyBytes} bytes (SKILLPORT_MAX_BODY_BYTES); ` +
        'send a skill folder or a large SKILL.md as a file: POST /api/v1/resources/temp_upload, then add its temp_file_id',
    );
  });

  // Without Content-Length the limit is enforced while the body streams in.
  const streamed = (text: string) => {
    const bytes = enc.encode(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 8 * 1024)
          controller.enqueue(bytes.slice(at, at + 8 * 1024));
        controller.close();
      },
    });
  };

  test('streamed (chunked) JSON body larger than maxBodyBytes → 413', async () => {
    const res = await fetch(`${t.url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamed(JSON.stringify({ data: `${SKILL}${'x'.repeat(100 * 1024)}` })),
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  test('streamed (chunked) JSON body within maxBodyBytes is read whole', async () => {
    // An invalid skill (nothing stored), so the 400 proves the whole body reached validation.
    const res = await fetch(`${t.url}/api/v1/skills`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamed(JSON.stringify({ data: `---\nname: Bad Name\n---\n${'y'.repeat(12 * 1024)}` })),
      duplex: 'half',
    } as RequestInit);
    const body = (await res.json()) as { error: { code: string } };
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error.code).toBe('SKILL_INVALID');
  });

  test('SKILL.md larger than maxSkillMdBytes → 413 field SKILL.md', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: `${SKILL}${'x'.repeat(20 * 1024)}` },
    });
    expect(res.status).toBe(413);
    expect(res.json.error.details.field).toBe('SKILL.md');
    expect(res.json.error.message).toContain(
      `the limit is ${LIMITS.maxSkillMdBytes} bytes (SKILLPORT_MAX_SKILL_MD_BYTES)`,
    );
  });
});

describe('broken archives and text', () => {
  test('truncated zip → 400', async () => {
    const zip = zipSync({ 'SKILL.md': enc.encode(SKILL) });
    const res = await addUpload(zip.subarray(0, zip.length - 30));
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/zip/i);
  });

  test('corrupted deflate data → 400 (CRC or deflate error)', async () => {
    const zip = buildZip([{ name: 'SKILL.md', data: deflateSync(enc.encode(SKILL)), method: 0 }]);
    // Stored entry whose CRC no longer matches after flipping a byte.
    zip[40] = (zip[40] ?? 0) ^ 0xff;
    const res = await addUpload(zip);
    expect(res.status).toBe(400);
  });

  test('zip without SKILL.md at root or single folder → 400 missing_skill_md', async () => {
    const res = await addUpload(
      buildZip([
        { name: 'a/SKILL.md', data: SKILL },
        { name: 'b/SKILL.md', data: SKILL },
      ]),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.details.reason).toBe('missing_skill_md');
  });

  test.each([
    ['skill.md', [{ name: 'skill.md', data: SKILL }]],
    ['my-skill/Skill.md', [{ name: 'my-skill/Skill.md', data: SKILL }]],
  ])(
    'a zip whose only %s differs from SKILL.md in case → 400 missing_skill_md naming it',
    async (path, entries) => {
      const res = await addUpload(buildZip(entries));
      expect(res.status).toBe(400);
      expect(res.json.error.details).toMatchObject({
        reason: 'missing_skill_md',
        found: [],
        misnamed: [path],
      });
      expect(res.json.error.message).toContain(`found ${path}: the file must be named SKILL.md`);
    },
  );

  test('invalid UTF-8 in an uploaded SKILL.md → 400 invalid_utf8 with line, column and byte offset', async () => {
    const bytes = new Uint8Array([
      ...enc.encode(SKILL.slice(0, 20)),
      0xc3,
      0x28,
      ...enc.encode(SKILL.slice(20)),
    ]);
    const res = await addUpload(bytes);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toMatchObject({ reason: 'invalid_utf8', offset: 20, line: 3, column: 6 });
    expect(res.json.error.message).toContain('line 3, column 6');
  });

  test.each([
    ['UTF-16LE', [0xff, 0xfe], 'FF FE', (text: string) => Buffer.from(text, 'utf16le')],
    ['UTF-16BE', [0xfe, 0xff], 'FE FF', (text: string) => Buffer.from(text, 'utf16le').swap16()],
  ])(
    'a SKILL.md saved as %s (Windows PowerShell 5 writes UTF-16LE) → 400 invalid_utf8 naming the encoding',
    async (encoding, bom, shown, encode) => {
      const res = await addUpload(new Uint8Array([...bom, ...encode(SKILL)]));
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details).toMatchObject({
        reason: 'invalid_utf8',
        encoding,
        offset: 0,
        line: 1,
        column: 1,
      });
      expect(res.json.error.message).toContain(
        `SKILL.md is ${encoding} (it starts with the byte order mark ${shown}), not UTF-8`,
      );
    },
  );

  test.each([
    ['an encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
    ['an overlong "/" (E0 80 AF)', [0xe0, 0x80, 0xaf]],
    ['a code point above U+10FFFF (F4 90 80 80)', [0xf4, 0x90, 0x80, 0x80]],
  ])(
    '%s in an uploaded SKILL.md → 400 invalid_utf8 at its first byte, not past the end',
    async (_label, bad) => {
      const bytes = new Uint8Array([
        ...enc.encode(SKILL.slice(0, 20)),
        ...bad,
        ...enc.encode(SKILL.slice(20)),
      ]);
      const res = await addUpload(bytes);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details).toMatchObject({
        reason: 'invalid_utf8',
        offset: 20,
        line: 3,
        column: 6,
      });
      expect(res.json.error.message).toContain('line 3, column 6 (byte offset 20)');
    },
  );

  test.each([
    [
      'inline data',
      async () =>
        t.request('POST', '/api/v1/skills', { body: { data: SKILL.replace('body', 'bo\u0000dy') } }),
    ],
    ['uploaded file', async () => addUpload(enc.encode(SKILL.replace('body', 'bo\u0000dy')))],
  ])('NUL byte in %s → 400 with line and column', async (_label, send) => {
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.json.error.details).toMatchObject({ reason: 'nul_byte', line: 5, column: 3 });
  });

  test('a NUL escaped into the description → 400 SKILL_INVALID description_nul, as /validate says', async () => {
    const data = '---\nname: nul-desc\ndescription: "Reads invoices\\0 and receipts"\n---\nbody\n';
    const checked = await t.request('POST', '/api/v1/skills/validate', { body: { data } });
    expect(checked.status).toBe(200);
    expect(checked.json.result.valid).toBe(false);
    expect(checked.json.result.errors.map((e: { rule: string }) => e.rule)).toContain('description_nul');
    const res = await t.request('POST', '/api/v1/skills', { body: { data, wait: true } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('SKILL_INVALID');
    expect(JSON.stringify(res.json.error.details)).toContain('description_nul');
  });

  test('a temp_file_id holding a NUL → 404 like any unknown id', async () => {
    const res = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: 'tmp_\u0000' } });
    expect(res.status, res.text).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
  });

  test('temp_upload without a file field → 400', async () => {
    const form = new FormData();
    form.append('upload_mode', 'local');
    const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
    expect(res.status).toBe(400);
    expect(res.json.error.details.field, res.text).toBe('file');
    // Says the field is missing, in words a client understands (not zod's "expected nonoptional").
    expect(res.json.error.message).toBe('Invalid request form: file: Required field is missing');
    expect(res.json.error.details.validation_errors[0]).toMatchObject({
      message: 'Required field is missing',
    });
  });
});
