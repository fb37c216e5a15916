/**
 * `skills import` of a zip holding more than skill folders: every entry left out (a folder without a
 * SKILL.md at its top, a file outside any folder) is reported with the reason, in the table output
 * and in `-o json`; a zip re-made on Windows (backslash entry names) imports like the original; a
 * zip with an entry that could leave its folder is refused whole, saying which entry and why.
 * Against a real server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient } from '@skillport/sdk-node';
import { type RunningServer, startServer } from '@skillport/server';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAgainst } from './support/memory-io.js';

let server: RunningServer;
let dir: string;
let client: AsyncHTTPClient;

const cli = (argv: string[]) =>
  runCliAgainst(argv, { url: server.url, configHome: path.join(dir, 'cfg'), cwd: dir });
const md = (name: string) =>
  strToU8(`---\nname: ${name}\ndescription: Imported in a test\n---\n\n# ${name}\n`);

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-import-skipped-'));
  server = await startServer({ port: 0, dataDir: path.join(dir, 'data'), logger: false, runJobs: false });
  client = new AsyncHTTPClient({ url: server.url });
  writeFileSync(
    path.join(dir, 'mixed.zip'),
    zipSync({
      'kept-skill/SKILL.md': md('kept-skill'),
      'win-skill\\SKILL.md': md('win-skill'),
      'win-skill\\scripts\\run.sh': strToU8('#!/bin/sh\n'),
      'docs/readme.md': strToU8('# Docs\n'),
      'docs/more/guide.md': strToU8('# Guide\n'),
      'notes.txt': strToU8('loose file\n'),
      '__MACOSX/kept-skill/._SKILL.md': new Uint8Array([0, 5, 22, 7]),
    }),
  );
  const unsafe: Record<string, string> = {
    'dots.zip': 'good-skill/../../evil.sh',
    'dots-win.zip': 'good-skill\\..\\..\\evil.sh',
    'parent.zip': '../outside/SKILL.md',
    'absolute.zip': '/etc/skill/SKILL.md',
  };
  for (const [file, entry] of Object.entries(unsafe)) {
    writeFileSync(
      path.join(dir, file),
      zipSync({ 'good-skill/SKILL.md': md('good-skill'), [entry]: strToU8('#!/bin/sh\n') }),
    );
  }
  writeFileSync(
    path.join(dir, 'no-skills.zip'),
    zipSync({ 'docs/readme.md': strToU8('# Docs\n'), 'notes.txt': strToU8('x\n') }),
  );
});
afterAll(async () => {
  client?.close();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('skills import reports what it skipped', () => {
  it('lists each folder that is not a skill and each loose file, with the reason (table)', async () => {
    const result = await cli(['skills', 'import', 'mixed.zip']);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/^kept-skill\s+added/m);
    expect(result.out).toMatch(/^win-skill\s+added/m);
    expect(result.out).toContain(
      'skipped docs/: no SKILL.md at the top of this folder (2 files): not a skill folder\n',
    );
    expect(result.out).toContain('skipped notes.txt: a file outside any skill folder\n');
    expect(result.out).toContain('2 of 2 skills imported from mixed.zip; 2 entries skipped (see above)\n');
    const win = await client.getSkill('win-skill', { level: 0 });
    expect((win.files ?? []).map((f) => f.path)).toContain('scripts/run.sh');
  });

  it('-o json carries them as skipped: [{path, reason, message}]', async () => {
    const result = await cli(['skills', 'import', 'mixed.zip', '-o', 'json']);
    expect(result.code, result.err).toBe(0);
    const json = JSON.parse(result.out) as { skills: unknown[]; skipped: unknown[] };
    expect(json.skills).toHaveLength(2);
    expect(json.skipped).toEqual([
      {
        path: 'docs/',
        reason: 'no_skill_md',
        message: 'no SKILL.md at the top of this folder (2 files): not a skill folder',
      },
      { path: 'notes.txt', reason: 'outside_folder', message: 'a file outside any skill folder' },
    ]);
  });

  it('a zip without any skill folder says what it holds instead', async () => {
    const result = await cli(['skills', 'import', 'no-skills.zip']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('no-skills.zip holds no skill folder (<name>/SKILL.md)');
    expect(result.err).toContain('docs/ (no SKILL.md at the top of this folder');
    expect(result.err).toContain('notes.txt (a file outside any skill folder)');
  });

  it.each([
    ['dots.zip', 'good-skill/../../evil.sh'],
    ['dots-win.zip', 'good-skill\\..\\..\\evil.sh'],
    ['parent.zip', '../outside/SKILL.md'],
    ['absolute.zip', '/etc/skill/SKILL.md'],
  ])(
    '%s: an entry that could leave its folder (%s) refuses the zip, naming the entry',
    async (file, entry) => {
      const result = await cli(['skills', 'import', file]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(
        `${file}: the zip entry ${JSON.stringify(entry)} is not a safe relative path`,
      );
      expect(result.err).toContain('nothing was imported');
      expect(result.err).not.toContain('server');
      await expect(client.getSkill('good-skill')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    },
  );
});
