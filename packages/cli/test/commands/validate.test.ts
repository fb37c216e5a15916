/** `skills validate` on bytes the server refuses before parsing: it must not call them valid. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/index.js';
import { memoryIo } from '../support/memory-io.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-validate-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const enc = new TextEncoder();
const HEAD = '---\nname: byte-check\ndescription: A skill whose bytes the server checks first\n---\n';

interface Issue {
  rule: string;
  severity: string;
  line?: number;
  column?: number;
}

describe('skills validate: bytes add refuses', () => {
  it.each([
    ['valid UTF-8', enc.encode(`${HEAD}body\n`), null],
    [
      'a byte that is not UTF-8 (0xBA in the body)',
      new Uint8Array([...enc.encode(`${HEAD}ab`), 0xba, ...enc.encode('cd\n')]),
      { rule: 'invalid_utf8', line: 5, column: 3 },
    ],
    // Where add's refusal points (line, column and byte offset of the sequence's first byte).
    [
      'a Latin-1 "é" before a space (E9 20)',
      new Uint8Array([...enc.encode(`${HEAD}ab`), 0xe9, ...enc.encode(' cd\n')]),
      {
        rule: 'invalid_utf8',
        line: 5,
        column: 3,
        message: expect.stringContaining(`offset ${HEAD.length + 2})`),
      },
    ],
    [
      'an encoded surrogate (ED A0 80)',
      new Uint8Array([...enc.encode(`${HEAD}ab`), 0xed, 0xa0, 0x80, ...enc.encode('cd\n')]),
      {
        rule: 'invalid_utf8',
        line: 5,
        column: 3,
        message: expect.stringContaining(`offset ${HEAD.length + 2})`),
      },
    ],
    [
      'a file saved as UTF-16LE (Windows PowerShell 5 `>`)',
      new Uint8Array([0xff, 0xfe, ...Buffer.from(`${HEAD}body\n`, 'utf16le')]),
      {
        rule: 'invalid_utf8',
        line: 1,
        column: 1,
        message: expect.stringContaining(
          'SKILL.md is UTF-16LE (it starts with the byte order mark FF FE), not UTF-8',
        ),
      },
    ],
    ['a NUL character', enc.encode(`${HEAD}bo\u0000dy\n`), { rule: 'nul_byte', line: 5, column: 3 }],
  ])('%s', async (_label, bytes, expected) => {
    const file = path.join(dir, 'SKILL.md');
    writeFileSync(file, bytes);
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(['skills', 'validate', '--no-dir-name', 'SKILL.md', '-o', 'json'], io);
    const [result] = (JSON.parse(io.out()) as { results: Array<{ valid: boolean; errors: Issue[] }> })
      .results;
    if (expected === null) {
      expect(code).toBe(0);
      expect(result?.valid).toBe(true);
    } else {
      expect(code).toBe(1);
      expect(result?.valid).toBe(false);
      expect(result?.errors).toContainEqual(expect.objectContaining({ ...expected, severity: 'error' }));
    }
  });
});

describe('skills validate: a file in UTF-16', () => {
  it.each([
    ['UTF-16LE', new Uint8Array([0xff, 0xfe, ...Buffer.from(`${HEAD}body\n`, 'utf16le')])],
    ['UTF-16BE', new Uint8Array([0xfe, 0xff, ...Buffer.from(`${HEAD}body\n`, 'utf16le').swap16()])],
  ])('%s: the encoding is the one error, not what its bytes read as UTF-8 say', async (encoding, bytes) => {
    const file = path.join(dir, 'utf16', 'SKILL.md');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(['skills', 'validate', '--no-dir-name', 'utf16/SKILL.md', '-o', 'json'], io);
    expect(code).toBe(1);
    const [result] = (JSON.parse(io.out()) as { results: Array<{ errors: Issue[]; warnings: Issue[] }> })
      .results;
    expect(result?.errors.map((e) => e.rule)).toEqual(['invalid_utf8']);
    expect(result?.errors[0]).toMatchObject({ message: expect.stringContaining(`SKILL.md is ${encoding}`) });
    expect(result?.warnings).toEqual([]);
  });
});

describe('skills validate: how files are named', () => {
  it('relative to the working folder inside it, absolute outside it (never ../..)', async () => {
    const inside = path.join(dir, 'project', 'skills', 'named');
    const outside = path.join(dir, 'elsewhere', 'also-named');
    for (const folder of [inside, outside]) {
      mkdirSync(folder, { recursive: true });
      const name = path.basename(folder);
      writeFileSync(path.join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: Named\n---\nbody\n`);
    }
    const io = memoryIo({ cwd: path.join(dir, 'project'), env: {} });
    const code = await runCli(['skills', 'validate', 'skills/named', outside, '-o', 'json'], io);
    expect(code).toBe(0);
    const { results } = JSON.parse(io.out()) as { results: Array<{ file: string }> };
    expect(results.map((r) => r.file)).toEqual([
      path.join('skills', 'named', 'SKILL.md'),
      path.join(outside, 'SKILL.md'),
    ]);
  });
});

describe('skills validate --name-policy: the verdict of add on a server with that policy', () => {
  const run = async (args: string[]) => {
    const folder = path.join(dir, 'policy', 'nul.txt');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      '---\nname: nul.txt\ndescription: A name with a dot in it\n---\nbody\n',
    );
    const io = memoryIo({ cwd: path.join(dir, 'policy'), env: {} });
    const code = await runCli(['skills', 'validate', 'nul.txt', ...args], io);
    return { code, out: io.out(), err: io.err() };
  };

  it('without it, a warning that says what each policy does (never "add refuses" alone)', async () => {
    const { code, out } = await run([]);
    expect(code).toBe(0);
    expect(out).toContain('warning name_allowed_characters');
    expect(out).toContain('default name policy (strict)');
    expect(out).toContain('SKILLPORT_NAME_POLICY=slug stores the skill as "nul-txt"');
  });

  it('strict: an error, exit 1', async () => {
    const { code, out } = await run(['--name-policy', 'strict']);
    expect(code).toBe(1);
    expect(out).toMatch(/error name_allowed_characters .*Add refuses this name \(name policy strict\)/);
  });

  it('slug: valid, naming the stored name', async () => {
    const { code, out } = await run(['--name-policy', 'slug']);
    expect(code).toBe(0);
    expect(out).toMatch(
      /warning name_allowed_characters .*Add stores the skill as "nul-txt" \(name policy slug\)/,
    );
  });

  it('an unknown policy is a usage error naming the choices', async () => {
    const { code, err } = await run(['--name-policy', 'lenient']);
    expect(code).toBe(1);
    expect(err).toContain('--name-policy must be one of strict, slug');
  });
});

describe('skills validate: two skills of one name, as add-skill of the same paths refuses', () => {
  it('the later one is an error naming the earlier; one skill alone is fine', async () => {
    const root = path.join(dir, 'twins');
    const text = (heading: string) =>
      `---\nname: report-maker\ndescription: Builds weekly reports from tickets\n---\n# ${heading}\n`;
    for (const [folder, heading] of [
      ['a-report', 'First'],
      ['b-report', 'Second'],
    ] as const) {
      mkdirSync(path.join(root, folder), { recursive: true });
      writeFileSync(path.join(root, folder, 'SKILL.md'), text(heading));
    }
    const io = memoryIo({ cwd: root, env: {} });
    const code = await runCli(['skills', 'validate', '--no-dir-name', '.', '-o', 'json'], io);
    expect(code).toBe(1);
    const { results } = JSON.parse(io.out()) as {
      results: Array<{ file: string; valid: boolean; errors: Array<Issue & { message: string }> }>;
    };
    expect(results.map((r) => r.valid)).toEqual([true, false]);
    expect(results[1]?.errors[0]).toMatchObject({ rule: 'name_duplicate', line: 2, column: 7 });
    expect(results[1]?.errors[0]?.message).toContain(`like ${path.join('a-report', 'SKILL.md')} before it`);
    const one = memoryIo({ cwd: root, env: {} });
    expect(await runCli(['skills', 'validate', '--no-dir-name', 'b-report', '-o', 'json'], one)).toBe(0);
  });
});

describe('skills validate: a skill file named in the wrong case', () => {
  it('names skill.md and says the file must be SKILL.md, exit 1', async () => {
    const folder = path.join(dir, 'case', 'my-skill');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'skill.md'), `${HEAD}body\n`);
    const io = memoryIo({ cwd: path.join(dir, 'case'), env: {} });
    const code = await runCli(['skills', 'validate', 'my-skill'], io);
    expect(code).toBe(1);
    expect(io.err()).toMatch(/found \S*my-skill\/skill.md: the file must be named SKILL.md, in capitals/);
  });
});

describe('skills validate <file.zip>: the SKILL.md add takes from the zip, as the server reads it', () => {
  const md = (name: string, extra = '') =>
    enc.encode(
      `---\nname: ${name}\ndescription: A skill zipped on another system for tests\n${extra}---\n# ${name}\n`,
    );
  const none = new Uint8Array();
  const run = async (zip: Uint8Array, args: string[] = []) => {
    writeFileSync(path.join(dir, 'upload.zip'), zip);
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(['skills', 'validate', 'upload.zip', '-o', 'json', ...args], io);
    const [result] = (
      JSON.parse(io.out()) as {
        results: Array<{
          file: string;
          valid: boolean;
          name: string | null;
          errors: Issue[];
          warnings: Issue[];
        }>;
      }
    ).results;
    return { code, result };
  };

  it.each([
    // Windows tools write `\` between folders; the server reads it as `/`.
    [
      'Windows: a top folder, "\\" separators',
      { 'win-kit\\SKILL.md': md('win-kit'), 'win-kit\\ref\\a.md': md('x') },
      'win-kit',
      'upload.zip#win-kit/SKILL.md',
    ],
    [
      'Windows: no top folder, folder entries first',
      { 'ref\\': none, 'SKILL.md': md('flat-kit'), 'ref\\a.md': md('x') },
      'flat-kit',
      'upload.zip#SKILL.md',
    ],
    // macOS Archive Utility: folder entries, `__MACOSX/` resource forks and `.DS_Store` beside the folder.
    [
      'macOS: __MACOSX/ and .DS_Store',
      {
        'mac-kit/': none,
        'mac-kit/SKILL.md': md('mac-kit'),
        'mac-kit/.DS_Store': enc.encode('Bud1'),
        '__MACOSX/mac-kit/._SKILL.md': enc.encode('\u0000\u0005'),
      },
      'mac-kit',
      'upload.zip#mac-kit/SKILL.md',
    ],
  ])('%s: valid, named from its SKILL.md', async (_label, entries, name, file) => {
    const { code, result } = await run(zipSync(entries));
    expect(code).toBe(0);
    expect(result).toMatchObject({ valid: true, name, file, errors: [] });
  });

  it.each([
    [
      'an upper-case Skill.md',
      { 'kit/Skill.md': md('kit') },
      /found kit\/Skill\.md: the file must be named SKILL\.md, in capitals/,
    ],
    [
      'two top folders',
      { 'a/SKILL.md': md('a'), 'b/SKILL.md': md('b') },
      /\(found: a\/SKILL\.md, b\/SKILL\.md\)/,
    ],
    [
      'SKILL.md two folders down',
      { 'outer/inner/SKILL.md': md('inner') },
      /\(found: outer\/inner\/SKILL\.md\)/,
    ],
  ])('%s: the error add gives (missing_skill_md), exit 1', async (_label, entries, message) => {
    const { code, result } = await run(zipSync(entries));
    expect(code).toBe(1);
    expect(result?.errors).toEqual([
      expect.objectContaining({
        rule: 'missing_skill_md',
        severity: 'error',
        message: expect.stringMatching(message),
      }),
    ]);
  });

  it("the SKILL.md's own issues, at their line and column; its name against the zip's folder", async () => {
    const broken = await run(zipSync({ 'kit\\SKILL.md': md('kit', 'tags: [a, b\n') }));
    expect(broken.code).toBe(1);
    expect(broken.result?.errors[0]).toMatchObject({ rule: 'yaml_format', line: 4, column: 11 });
    const other = await run(zipSync({ 'folder\\SKILL.md': md('other-name') }));
    expect(other.code).toBe(0);
    expect(other.result?.warnings).toContainEqual(
      expect.objectContaining({ rule: 'name_matches_directory', line: 2 }),
    );
    const unchecked = await run(zipSync({ 'folder\\SKILL.md': md('other-name') }), ['--no-dir-name']);
    expect(unchecked.result?.warnings.map((w) => w.rule)).not.toContain('name_matches_directory');
  });

  it('a file that only starts like a zip is refused as an archive, not read as SKILL.md text', async () => {
    const { code, result } = await run(enc.encode('PK\u0003\u0004 and nothing else'));
    expect(code).toBe(1);
    expect(result?.errors.map((e) => e.rule)).toEqual(['zip_format']);
  });
});

/**
 * Rewrites the central directory record (and local header) of the entry `name` of a zip made by
 * `zipSync`, as other zip tools write what fflate does not: encryption, other methods, ZIP64 fields,
 * lying sizes, duplicate names.
 */
function patchEntry(
  zip: Uint8Array,
  name: string,
  patch: { flags?: number; method?: number; size?: number; localOffset?: number; rename?: string },
): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const nameBytes = enc.encode(name);
  const at = (p: number, length: number) =>
    out.subarray(p, p + length).every((byte, i) => byte === nameBytes[i]) && length === nameBytes.length;
  for (let p = 0; p + 46 <= out.length; p++) {
    const sig = view.getUint32(p, true);
    if (sig === 0x02014b50 && at(p + 46, view.getUint16(p + 28, true))) {
      if (patch.flags !== undefined) view.setUint16(p + 8, patch.flags, true);
      if (patch.method !== undefined) view.setUint16(p + 10, patch.method, true);
      if (patch.size !== undefined) view.setUint32(p + 24, patch.size, true);
      if (patch.localOffset !== undefined) view.setUint32(p + 42, patch.localOffset, true);
      if (patch.rename !== undefined) out.set(enc.encode(patch.rename), p + 46);
    } else if (sig === 0x04034b50 && at(p + 30, view.getUint16(p + 26, true))) {
      if (patch.flags !== undefined) view.setUint16(p + 6, patch.flags, true);
      if (patch.method !== undefined) view.setUint16(p + 8, patch.method, true);
      if (patch.size !== undefined) view.setUint32(p + 22, patch.size, true);
      if (patch.rename !== undefined) out.set(enc.encode(patch.rename), p + 30);
    }
  }
  return out;
}

describe('skills validate <file.zip>: an archive add refuses whatever its SKILL.md says', () => {
  const md = enc.encode(
    '---\nname: kit\ndescription: A skill zipped by another tool for tests\n---\n# Kit\n',
  );
  const run = async (zip: Uint8Array) => {
    writeFileSync(path.join(dir, 'refused.zip'), zip);
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(['skills', 'validate', 'refused.zip', '-o', 'json'], io);
    const [result] = (JSON.parse(io.out()) as { results: Array<{ valid: boolean; errors: Issue[] }> })
      .results;
    return { code, result };
  };
  const kit = (aux: Record<string, Uint8Array>) => zipSync({ 'kit/SKILL.md': md, ...aux }, { level: 0 });
  const x = enc.encode('x');

  // Each is the server's 400 for the same zip (POST /api/v1/skills after a temp upload).
  it.each([
    // A path the path rule refuses: the rule is the server's `details.reason`, the message its message.
    ['a ".." entry', kit({ 'kit/../evil.txt': x }), 'traversal', /Unsafe file path "kit\/\.\.\/evil\.txt"/],
    [
      'a ".." entry written with "\\"',
      kit({ 'kit\\..\\evil.txt': x }),
      'traversal',
      /read as "kit\/\.\.\/evil\.txt"/,
    ],
    ['an absolute path', kit({ '/etc/evil.txt': x }), 'absolute', /Unsafe file path "\/etc\/evil\.txt"/],
    [
      'a name Windows cannot create',
      kit({ 'kit/aux.py': x }),
      'windows_name',
      /^Unsafe file path "kit\/aux\.py": "aux\.py" is a device name Windows reserves/,
    ],
    [
      'a path past the depth limit, its top folder counted',
      kit({ [`kit/${Array.from({ length: 15 }, (_, i) => `d${i}`).join('/')}/f.txt`]: x }),
      'too_deep',
      /nested 17 levels deep; the limit is 16; add refuses it$/,
    ],
    [
      'an encrypted SKILL.md',
      patchEntry(kit({}), 'kit/SKILL.md', { flags: 1 }),
      'zip_format',
      /encrypted entries are not supported \("kit\/SKILL\.md"\)/,
    ],
    [
      'an encrypted auxiliary file',
      patchEntry(kit({ 'kit/secret.txt': x }), 'kit/secret.txt', { flags: 1 }),
      'zip_format',
      /encrypted entries are not supported/,
    ],
    [
      'a symlink',
      zipSync({
        'kit/SKILL.md': md,
        'kit/link': [enc.encode('/etc/passwd'), { os: 3, attrs: 0o120777 << 16 }],
      }),
      'zip_format',
      /symlink entries are not allowed \("kit\/link"\)/,
    ],
    [
      'bzip2 compression',
      patchEntry(kit({ 'kit/b.txt': x }), 'kit/b.txt', { method: 12 }),
      'zip_format',
      /uses compression method 12; only stored and deflate/,
    ],
    [
      'a duplicate SKILL.md (the second with other instructions)',
      patchEntry(kit({ 'kit/SKILL.mx': md }), 'kit/SKILL.mx', { rename: 'kit/SKILL.md' }),
      'zip_format',
      /duplicate entry "kit\/SKILL\.md"/,
    ],
    [
      'a ZIP64 entry',
      patchEntry(kit({ 'kit/a.txt': x }), 'kit/a.txt', { localOffset: 0xffffffff }),
      'zip_format',
      /ZIP64/,
    ],
    [
      'two paths that are one file on macOS and Windows',
      kit({ 'kit/ref.md': x, 'kit/REF.md': x }),
      'path_conflict',
      /"kit\/ref\.md" and "kit\/REF\.md" differ only in letter case/,
    ],
  ])('%s: the error add gives, exit 1', async (_label, zip, rule, message) => {
    const { code, result } = await run(zip);
    expect(code).toBe(1);
    expect(result?.valid).toBe(false);
    expect(result?.errors).toEqual([
      expect.objectContaining({ rule, message: expect.stringMatching(message) }),
    ]);
  });

  it('a SKILL.md declared over the SKILL.md limit is refused for its size without being inflated', async () => {
    // Declared 300 MiB (a zip bomb's SKILL.md): the server refuses it from the archive's directory
    // (413, SKILLPORT_MAX_SKILL_MD_BYTES) before inflating a byte. Its data here is no deflate stream
    // at all, so reading it would fail: the refusal must come from the declared size alone.
    const zip = patchEntry(
      patchEntry(zipSync({ 'kit/SKILL.md': md }, { level: 0 }), 'kit/SKILL.md', { method: 8 }),
      'kit/SKILL.md',
      { size: 300 * 1024 * 1024 },
    );
    const { code, result } = await run(zip);
    expect(code).toBe(1);
    expect(result?.errors).toEqual([
      expect.objectContaining({
        rule: 'upload_limit',
        message: expect.stringMatching(
          /SKILL\.md is 314572800 bytes, more than 1048576 \(max_skill_md_bytes/,
        ),
      }),
    ]);
  });
});
