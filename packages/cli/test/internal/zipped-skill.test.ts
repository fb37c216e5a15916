/** A skill zip read as the server's add reads it: where SKILL.md is, and the name add-skill reads from it. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandInputs, findCollisions } from '../../src/internal/bulk-inputs.js';
import { readZippedSkill } from '../../src/internal/zipped-skill.js';
import { memoryIo } from '../support/memory-io.js';

const enc = new TextEncoder();
const md = (name: string) =>
  enc.encode(`---\nname: ${name}\ndescription: A skill zipped for the tests here\n---\n# ${name}\n`);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-zipped-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readZippedSkill', () => {
  it.each([
    [
      'root',
      { 'SKILL.md': md('a'), 'ref/x.md': md('x') },
      { folderName: null, skillMdPath: 'SKILL.md', files: 2 },
    ],
    [
      'top folder, "\\"',
      { 'kit\\SKILL.md': md('kit'), 'kit\\ref\\x.md': md('x') },
      { folderName: 'kit', skillMdPath: 'kit/SKILL.md', files: 2 },
    ],
    [
      'clutter and generated files left out',
      {
        'kit/': new Uint8Array(),
        'kit/SKILL.md': md('kit'),
        'kit/.overview.md': md('o'),
        'Thumbs.db': md('t'),
        '__MACOSX/kit/._SKILL.md': md('m'),
      },
      { folderName: 'kit', skillMdPath: 'kit/SKILL.md', files: 1 },
    ],
  ])('%s', (_label, entries, expected) => {
    expect(readZippedSkill(zipSync(entries))).toMatchObject({ kind: 'skill', ...expected });
  });
});

describe('add-skill of two zips of one skill', () => {
  it('made on Windows ("\\" in entry names): the second is a collision, as with any other zip', async () => {
    const zip = zipSync({ 'win-kit\\SKILL.md': md('win-kit'), 'win-kit\\ref\\a.md': md('x') });
    writeFileSync(path.join(dir, 'one.zip'), zip);
    writeFileSync(path.join(dir, 'two.zip'), zip);
    const items = await expandInputs(memoryIo({ cwd: dir }), ['one.zip', 'two.zip']);
    expect(items.map((item) => item.name)).toEqual(['win-kit', 'win-kit']);
    expect([...findCollisions(items).entries()].map(([later, first]) => [later.label, first.label])).toEqual([
      ['two.zip', 'one.zip'],
    ]);
  });

  it('a zip the server refuses (two top folders) has no name to collide on', async () => {
    writeFileSync(path.join(dir, 'two-top.zip'), zipSync({ 'a/SKILL.md': md('a'), 'b/SKILL.md': md('b') }));
    const [item] = await expandInputs(memoryIo({ cwd: dir }), ['two-top.zip']);
    expect(item?.name).toBeNull();
  });
});
