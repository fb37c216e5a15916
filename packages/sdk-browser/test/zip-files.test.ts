import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type ZipInput, zipSkillFiles } from '../src/index.js';

const entry = (path: string, data: string): ZipInput => ({ path, data });

describe('zipSkillFiles', () => {
  it.each([
    [
      'a picked folder: its name is stripped',
      [entry('my-skill/SKILL.md', 'S'), entry('my-skill/docs/a.md', 'A')],
      { 'SKILL.md': 'S', 'docs/a.md': 'A' },
    ],
    [
      'a parent folder: files outside the skill folder are left out',
      [entry('repo/README.md', 'R'), entry('repo/skills/x/SKILL.md', 'S'), entry('repo/skills/x/t.txt', 'T')],
      { 'SKILL.md': 'S', 't.txt': 'T' },
    ],
    [
      'macOS metadata is skipped',
      [entry('s/SKILL.md', 'S'), entry('__MACOSX/s/._SKILL.md', 'junk'), entry('s/.DS_Store', 'junk')],
      { 'SKILL.md': 'S' },
    ],
    [
      'files without folders',
      [entry('SKILL.md', 'S'), entry('notes.md', 'N')],
      { 'SKILL.md': 'S', 'notes.md': 'N' },
    ],
    [
      'a nested skill keeps only the outermost SKILL.md as root',
      [entry('a/SKILL.md', 'outer'), entry('a/examples/b/SKILL.md', 'inner')],
      { 'SKILL.md': 'outer', 'examples/b/SKILL.md': 'inner' },
    ],
  ])('%s', async (_title, files, expected) => {
    const zip = await zipSkillFiles(files);
    const entries = Object.fromEntries(
      Object.entries(unzipSync(zip)).map(([name, bytes]) => [name, strFromU8(bytes)]),
    );
    expect(entries).toEqual(expected);
  });

  it('reads File objects (name when there is no relative path) and Blobs', async () => {
    const zip = await zipSkillFiles([
      new File(['---\nname: f\n---\n'], 'SKILL.md'),
      { path: 'data.bin', data: new Blob([new Uint8Array([0, 255, 1])]) },
    ]);
    const entries = unzipSync(zip);
    expect(strFromU8(entries['SKILL.md']!)).toBe('---\nname: f\n---\n');
    expect([...entries['data.bin']!]).toEqual([0, 255, 1]);
  });

  it('gives the same bytes for the same files', async () => {
    const files = [entry('s/SKILL.md', 'S'), entry('s/b.md', 'B')];
    expect(await zipSkillFiles(files)).toEqual(await zipSkillFiles(files));
  });

  it.each([
    ['no SKILL.md', [entry('s/readme.md', 'x')], /no SKILL\.md among the selected files/],
    [
      'two skill folders',
      [entry('a/SKILL.md', 'x'), entry('b/SKILL.md', 'y')],
      /several folders hold a SKILL\.md/,
    ],
    [
      'a path escaping the folder',
      [entry('s/SKILL.md', 'x'), entry('s/../../etc/passwd', 'y')],
      /escapes its folder/,
    ],
  ])('refuses %s', async (_title, files, message) => {
    await expect(zipSkillFiles(files)).rejects.toThrow(message);
  });
});
