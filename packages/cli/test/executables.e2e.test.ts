/**
 * Executable files from a folder to an agent's folder, end to end through the BUILT `skillport`
 * binary and a real server: `add-skill <folder>` with a script of mode 755 → `install` writes it
 * executable (and the lock says so), the other files not; a zip without Unix attributes installs
 * nothing executable; an installed script that lost its execute bit counts as edited and `--force`
 * restores it; `skills export` / `skills import` keep the flag and so the revision.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, type RunningCliServer, runBin, startCliServer } from './support/processes.js';

const md = (name: string) => `---\nname: ${name}\ndescription: Runs the ${name} script\n---\n\n# ${name}\n`;
const SCRIPT = '#!/bin/sh\necho ran\n';

let server: RunningCliServer;
let work: string;

beforeAll(async () => {
  server = await startCliServer();
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-modes-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function ok(run: CliRun): CliRun {
  expect(run.code, `${run.stdout.toString()}\n${run.stderr}`).toBe(0);
  return run;
}

/** Whether the owner may execute `file`. */
const executable = (file: string) => (statSync(file).mode & 0o100) !== 0;

/** A project folder (a git root) where Claude Code is detected. */
function project(name: string): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, '.git'), { recursive: true });
  mkdirSync(path.join(dir, '.claude'), { recursive: true });
  return dir;
}

interface LockedFile {
  path: string;
  executable?: boolean;
}
const lockedFiles = (dir: string, name: string) =>
  (
    JSON.parse(readFileSync(path.join(dir, 'skillport-lock.json'), 'utf8')) as {
      skills: Record<string, { files: LockedFile[] }>;
    }
  ).skills[name]?.files;

describe.skipIf(process.platform === 'win32')('executable files: add → get → install', () => {
  let proj: string;
  let revision: string;

  beforeAll(async () => {
    const source = path.join(work, 'src', 'run-kit');
    mkdirSync(path.join(source, 'scripts'), { recursive: true });
    writeFileSync(path.join(source, 'SKILL.md'), md('run-kit'));
    writeFileSync(path.join(source, 'scripts', 'run.sh'), SCRIPT);
    chmodSync(path.join(source, 'scripts', 'run.sh'), 0o755);
    writeFileSync(path.join(source, 'notes.md'), '# Notes\n');
    chmodSync(path.join(source, 'notes.md'), 0o644);
    revision = ok(await runBin(server, ['add-skill', source, '--wait', '-o', 'json'])).json<{
      revision: string;
    }>().revision;
    proj = project('app');
  });

  it('get lists the script as executable; install writes it executable and records it in the lock', async () => {
    const shown = ok(await runBin(server, ['skills', 'show', 'run-kit', '--files', '-o', 'json'])).json<{
      files: Array<{ path: string; executable?: boolean }>;
    }>();
    expect(shown.files.filter((f) => f.executable === true).map((f) => f.path)).toEqual(['scripts/run.sh']);

    ok(await runBin(server, ['install', 'run-kit'], { cwd: proj }));
    const dir = path.join(proj, '.claude', 'skills', 'run-kit');
    expect(readFileSync(path.join(dir, 'scripts', 'run.sh'), 'utf8')).toBe(SCRIPT);
    expect(executable(path.join(dir, 'scripts', 'run.sh'))).toBe(true);
    expect(executable(path.join(dir, 'notes.md'))).toBe(false);
    expect(executable(path.join(dir, 'SKILL.md'))).toBe(false);
    expect(lockedFiles(proj, 'run-kit')).toEqual([
      { path: 'SKILL.md', sha256: expect.any(String), size: expect.any(Number) },
      { path: 'notes.md', sha256: expect.any(String), size: expect.any(Number) },
      { path: 'scripts/run.sh', sha256: expect.any(String), size: expect.any(Number), executable: true },
    ]);
  });

  it('a script that lost its execute bit counts as edited: install refuses, --force makes it executable again', async () => {
    const script = path.join(proj, '.claude', 'skills', 'run-kit', 'scripts', 'run.sh');
    chmodSync(script, 0o644);
    const refused = await runBin(server, ['install'], { cwd: proj });
    expect(`${refused.stdout.toString()}${refused.stderr}`).toMatch(/scripts\/run\.sh changed/);
    expect(executable(script)).toBe(false);
    ok(await runBin(server, ['install', '--force'], { cwd: proj }));
    expect(executable(script)).toBe(true);
  });

  it('a zip without Unix attributes installs nothing executable', async () => {
    const zip = path.join(work, 'bare-kit.zip');
    const enc = new TextEncoder();
    writeFileSync(
      zip,
      zipSync({ 'SKILL.md': enc.encode(md('bare-kit')), 'scripts/run.sh': enc.encode(SCRIPT) }),
    );
    ok(await runBin(server, ['add-skill', zip, '--wait']));
    const other = project('bare');
    ok(await runBin(server, ['install', 'bare-kit'], { cwd: other }));
    expect(executable(path.join(other, '.claude', 'skills', 'bare-kit', 'scripts', 'run.sh'))).toBe(false);
    expect(lockedFiles(other, 'bare-kit')?.some((f) => 'executable' in f)).toBe(false);
  });

  it('skills export / import keep the flag, so the imported skill has the same revision', async () => {
    const zip = path.join(work, 'export.zip');
    ok(await runBin(server, ['skills', 'export', zip]));
    const second = await startCliServer();
    try {
      const imported = ok(await runBin(second, ['skills', 'import', zip, '-o', 'json'])).json<{
        skills: Array<{ skill: string; revision: string; same_revision: boolean }>;
      }>();
      expect(imported.skills.find((s) => s.skill === 'run-kit')).toMatchObject({
        revision,
        same_revision: true,
      });
      const fresh = project('imported');
      ok(await runBin(second, ['install', 'run-kit'], { cwd: fresh }));
      expect(executable(path.join(fresh, '.claude', 'skills', 'run-kit', 'scripts', 'run.sh'))).toBe(true);
    } finally {
      await second.stop();
    }
  });
});
