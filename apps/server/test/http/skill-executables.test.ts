/**
 * Executable files through add → store → get on the engine under test: a zip made by `zipSkillDir`
 * from a folder holding a script of mode 755 stores that file as executable (get's `files[]` says
 * `executable: true`, in the revision, kept in history and by a restore); a zip without Unix
 * attributes stores nothing executable; a skill without executable files keeps the revision it
 * always had (its manifest hashes as before).
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSkillDir } from '@skillport/core/node';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let work: string;
const enc = new TextEncoder();
const md = (name: string) => `---\nname: ${name}\ndescription: Runs its script\n---\n\n# ${name}\n`;
const SCRIPT = '#!/bin/sh\necho ran\n';

/** A skill folder on disk: SKILL.md, `scripts/run.sh` of `mode`, `notes.md` of 644. */
function skillFolder(name: string, mode: number): string {
  const dir = path.join(work, `${name}-${mode.toString(8)}`);
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  writeFileSync(path.join(dir, 'SKILL.md'), md(name));
  writeFileSync(path.join(dir, 'scripts', 'run.sh'), SCRIPT);
  chmodSync(path.join(dir, 'scripts', 'run.sh'), mode);
  writeFileSync(path.join(dir, 'notes.md'), '# Notes\n');
  chmodSync(path.join(dir, 'notes.md'), 0o644);
  return dir;
}

async function add(zip: Uint8Array, method: 'POST' | 'PUT' = 'POST', name = '') {
  const form = new FormData();
  form.append('file', new Blob([zip as Uint8Array<ArrayBuffer>]), 'skill.zip');
  const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(up.status, up.text).toBe(200);
  const res = await t.request(method, method === 'POST' ? '/api/v1/skills' : `/api/v1/skills/${name}`, {
    body: { temp_file_id: up.json.result.temp_file_id, wait: true },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.result as { name: string; revision: string };
}

interface ListedFile {
  path: string;
  kind: string;
  is_dir: boolean;
  sha256: string | null;
  executable?: boolean;
}

async function files(name: string, query = ''): Promise<ListedFile[]> {
  const res = await t.request('GET', `/api/v1/skills/${name}?level=0${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.result.files as ListedFile[];
}

/** path → executable flag as get lists it (`undefined` when the key is absent). */
const flags = (list: ListedFile[]) =>
  Object.fromEntries(list.filter((f) => !f.is_dir).map((f) => [f.path, f.executable]));

/** The revision as computed before executable files were recorded: `path\0sha256\n` lines, sorted. */
function plainRevision(list: ListedFile[]): string {
  const lines = list
    .filter((f) => !f.is_dir && f.path !== '.overview.md')
    .map((f) => `${f.path}\0${f.sha256}\n`)
    .sort();
  return createHash('sha256').update(lines.join('')).digest('hex');
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'skillport-modes-'));
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('executable files', () => {
  test('a folder zipped by zipSkillDir with a 755 script → the script is listed executable, nothing else', async () => {
    const written = await add(await zipSkillDir(skillFolder('run-kit', 0o755)));
    const list = await files('run-kit');
    expect(flags(list)).toEqual({
      '.abstract.md': undefined,
      'SKILL.md': undefined,
      'notes.md': undefined,
      'scripts/run.sh': true,
    });
    // The flag is part of the revision: the same bytes without it hash to another one.
    expect(written.revision).not.toBe(plainRevision(list));
    // Reading the file itself is unchanged.
    const raw = await fetch(`${t.url}/api/v1/skills/run-kit/files/scripts/run.sh`);
    expect(await raw.text()).toBe(SCRIPT);
  });

  test('the same folder with a 644 script keeps the revision a skill always had, and no file has the key', async () => {
    const written = await add(await zipSkillDir(skillFolder('plain-kit', 0o644)));
    const list = await files('plain-kit');
    expect(list.every((f) => !('executable' in f))).toBe(true);
    expect(written.revision).toBe(plainRevision(list));
  });

  test('a zip without Unix attributes (as many tools write) stores nothing executable', async () => {
    await add(
      zipSync({
        'SKILL.md': enc.encode(md('bare-kit')),
        'scripts/run.sh': enc.encode(SCRIPT),
      }),
    );
    expect(flags(await files('bare-kit'))).toEqual({
      '.abstract.md': undefined,
      'SKILL.md': undefined,
      'scripts/run.sh': undefined,
    });
  });

  test('making a script executable is a new revision; history and restore keep each version’s flags', async () => {
    const before = await add(await zipSkillDir(skillFolder('mode-kit', 0o644)));
    const after = await add(await zipSkillDir(skillFolder('mode-kit', 0o755)), 'PUT', 'mode-kit');
    expect(after.revision).not.toBe(before.revision);
    expect(flags(await files('mode-kit'))['scripts/run.sh']).toBe(true);
    expect(flags(await files('mode-kit', `&revision=${before.revision}`))['scripts/run.sh']).toBeUndefined();
    expect(flags(await files('mode-kit', `&revision=${after.revision}`))['scripts/run.sh']).toBe(true);

    const back = await t.request('POST', '/api/v1/skills/mode-kit/restore', {
      body: { revision: before.revision, wait: true },
    });
    expect(back.status, back.text).toBe(200);
    expect(back.json.result.revision).toBe(before.revision);
    expect(flags(await files('mode-kit'))['scripts/run.sh']).toBeUndefined();
    const again = await t.request('POST', '/api/v1/skills/mode-kit/restore', {
      body: { revision: after.revision, wait: true },
    });
    expect(again.json.result.revision).toBe(after.revision);
    expect(flags(await files('mode-kit'))['scripts/run.sh']).toBe(true);
  });
});
