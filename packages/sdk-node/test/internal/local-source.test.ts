import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isSkillportError } from '@skillport/core';
import { isLocalError, LocalError } from '@skillport/sdk-browser';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { looksLikePath, readLocalSource } from '../../src/internal/local-source.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-local-'));
  mkdirSync(path.join(dir, 'my-skill', 'docs'), { recursive: true });
  writeFileSync(path.join(dir, 'my-skill', 'SKILL.md'), '---\nname: my-skill\ndescription: d\n---\n');
  writeFileSync(path.join(dir, 'my-skill', 'docs', 'a.md'), 'A');
  writeFileSync(path.join(dir, 'outside.txt'), 'secret');
  symlinkSync(path.join(dir, 'outside.txt'), path.join(dir, 'my-skill', 'link.txt'));
  writeFileSync(path.join(dir, 'single.md'), '---\nname: single\ndescription: d\n---\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('looksLikePath', () => {
  it.each([
    ['./skills/a', true],
    ['skills/a', true],
    ['C:\\skills\\a', true],
    ['~/skills/a', true],
    ['SKILL.md', true],
    ['bundle.zip', true],
    ['---\nname: a\n---\n', false],
    ['just words', false],
    ['', false],
  ])('%j → %s', (value, expected) => {
    expect(looksLikePath(value)).toBe(expected);
  });
});

describe('readLocalSource', () => {
  it('zips a folder with SKILL.md at the root, leaving symlinks out', async () => {
    const upload = (await readLocalSource(path.join(dir, 'my-skill')))!;
    expect(upload).toMatchObject({ kind: 'folder', filename: 'my-skill.zip' });
    const entries = unzipSync(upload.bytes);
    expect(Object.keys(entries).sort()).toEqual(['SKILL.md', 'docs/a.md']);
    expect(strFromU8(entries['docs/a.md']!)).toBe('A');
  });

  it('reads a file as is', async () => {
    const upload = (await readLocalSource(path.join(dir, 'single.md')))!;
    expect(upload).toMatchObject({ kind: 'file', filename: 'single.md' });
    expect(strFromU8(upload.bytes)).toBe('---\nname: single\ndescription: d\n---\n');
  });

  it('leaves content alone', async () => {
    expect(await readLocalSource('---\nname: a\ndescription: b\n---\n')).toBeUndefined();
    expect(await readLocalSource('plain words')).toBeUndefined();
  });

  it('refuses a path-like string that names nothing', async () => {
    await expect(readLocalSource(path.join(dir, 'missing-folder'))).rejects.toThrow(/no such file or folder/);
  });

  it('refuses with a LocalError carrying the code the server gives the same mistake', async () => {
    const missing = path.join(dir, 'missing-folder');
    const notFound = await readLocalSource(missing).catch((error: unknown) => error);
    expect(isLocalError(notFound)).toBe(true);
    expect(notFound).toMatchObject({ code: 'NOT_FOUND', details: { field: 'source', path: missing } });
    // A folder without SKILL.md: the zipper's own code and details, the zipper's error as the cause.
    mkdirSync(path.join(dir, 'not-a-skill'), { recursive: true });
    writeFileSync(path.join(dir, 'not-a-skill', 'README.md'), '# no skill here\n');
    const noSkill = await readLocalSource(path.join(dir, 'not-a-skill')).catch((error: unknown) => error);
    expect(noSkill).toBeInstanceOf(LocalError);
    expect(noSkill).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/No SKILL\.md/) });
    expect(isSkillportError((noSkill as Error).cause)).toBe(true);
  });

  // What the server's add answers for the same folder (400, this reason and message), before uploading.
  it.runIf(process.platform !== 'win32')(
    'refuses a folder holding a file path the server refuses',
    async () => {
      const skill = path.join(dir, 'aux-skill');
      mkdirSync(skill, { recursive: true });
      writeFileSync(path.join(skill, 'SKILL.md'), '---\nname: aux-skill\ndescription: d\n---\n');
      writeFileSync(path.join(skill, 'aux.py'), 'print(1)\n');
      const refused = await readLocalSource(skill).catch((error: unknown) => error);
      expect(isLocalError(refused)).toBe(true);
      expect(refused).toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(
          /^Unsafe file path "aux\.py": "aux\.py" is a device name Windows reserves/,
        ),
        details: { field: 'path', path: 'aux.py', reason: 'windows_name' },
      });
    },
  );

  it.runIf(process.platform === 'linux')(
    'a path that is neither a file nor a folder → INVALID_ARGUMENT',
    async () => {
      const special = await readLocalSource('/dev/null').catch((error: unknown) => error);
      expect(isLocalError(special)).toBe(true);
      expect(special).toMatchObject({ code: 'INVALID_ARGUMENT', details: { reason: 'not_file_or_folder' } });
    },
  );
});
