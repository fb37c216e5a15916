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
