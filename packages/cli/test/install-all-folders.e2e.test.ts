/**
 * A skill installed into several agents' folders moves to a new revision in all of them or in none,
 * end to end through the BUILT `skillport` binary and a real server: when one folder cannot be
 * written (a path component is a file, a skills folder on another file system), the folders already
 * written are put back byte for byte, executable bits included, the lock keeps the old revision and
 * no temporary or backup folder is left behind.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, type RunningCliServer, runBin, startCliServer } from './support/processes.js';

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const POSIX = process.platform !== 'win32';

let server: RunningCliServer;
let work: string;

beforeAll(async () => {
  server = await startCliServer();
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-all-folders-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function cli(args: string[], cwd?: string) {
  return runBin(server, args, cwd === undefined ? {} : { cwd });
}

function ok(run: CliRun): CliRun {
  expect(run.code, `${run.stdout.toString()}\n${run.stderr}`).toBe(0);
  return run;
}

/**
 * Every entry below `dir`: relative path → sha-256 and permission bits of a file (`dir/` for a
 * folder), so a comparison sees any byte or mode change.
 */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) {
        out[`${rel}/`] = 'dir';
        walk(full, rel);
      } else {
        out[rel] = `${sha(readFileSync(full))} ${(statSync(full).mode & 0o777).toString(8)}`;
      }
    }
  };
  walk(dir, '');
  return out;
}

/** A skill's source folder: SKILL.md, an executable script and a binary file; `version` in each. */
function source(name: string, version: string): string {
  const dir = path.join(work, 'src', name);
  mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  mkdirSync(path.join(dir, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n# ${name}\n\nVersion ${version}.\n`,
  );
  writeFileSync(path.join(dir, 'scripts/run.sh'), `#!/bin/sh\necho ${version}\n`);
  chmodSync(path.join(dir, 'scripts/run.sh'), 0o755);
  writeFileSync(path.join(dir, 'assets/data.bin'), new Uint8Array([0, 13, 10, 255, version.length]));
  return dir;
}

/** A project (a git repository root) with `name` installed at a first revision for `agents`. */
async function installed(project: string, name: string, agents: string): Promise<string> {
  const dir = path.join(work, project);
  mkdirSync(path.join(dir, '.git'), { recursive: true });
  ok(await cli(['add-skill', source(name, 'one'), '--wait']));
  ok(await cli(['install', name, '--agent', agents], dir));
  return dir;
}

/** Publishes a second revision of `name` (every file changed, the script no longer executable). */
async function publishSecond(name: string): Promise<void> {
  const dir = source(name, 'two, longer');
  chmodSync(path.join(dir, 'scripts/run.sh'), 0o644);
  ok(await cli(['skills', 'update', name, dir]));
}

/** The names in `dir` that a write left behind (temporary or backup folders). */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((entry) => entry.startsWith('.skillport-'));
}

type Result = { skill: string; folder: string; result: string; detail?: string };
const results = (run: CliRun) => run.json<{ results: Result[] }>().results;

describe("one skill, several agents' folders: all of them or none", () => {
  it('update: a folder that cannot be written leaves every folder and the lock as they were', async () => {
    const proj = await installed('update-blocked', 'fold-update', 'claude-code,gemini-cli');
    const lockBefore = readFileSync(path.join(proj, 'skillport-lock.json'));
    expect(Object.keys(snapshot(path.join(proj, '.claude/skills/fold-update')))).toHaveLength(5);
    if (POSIX) {
      expect(statSync(path.join(proj, '.claude/skills/fold-update/scripts/run.sh')).mode & 0o111).not.toBe(0);
    }
    const claudeBefore = snapshot(path.join(proj, '.claude/skills/fold-update'));
    await publishSecond('fold-update');
    // The second folder's path runs through a file: nothing can be created there, not even as root.
    rmSync(path.join(proj, '.gemini'), { recursive: true });
    writeFileSync(path.join(proj, '.gemini'), 'not a folder\n');

    const run = await cli(['update', '-o', 'json'], proj);
    expect(run.code, run.stderr).toBe(2);
    const rows = results(run);
    expect(rows.map((r) => [r.folder, r.result])).toEqual([
      ['.claude/skills', 'skipped'],
      ['.gemini/skills', 'failed'],
    ]);
    expect(rows[1]?.detail).toMatch(/\.gemini is a file, not a folder/);
    expect(rows[0]?.detail).toMatch(/another folder of this skill could not be written/);

    expect(snapshot(path.join(proj, '.claude/skills/fold-update'))).toEqual(claudeBefore);
    expect(readFileSync(path.join(proj, '.gemini'), 'utf8')).toBe('not a folder\n');
    expect(readFileSync(path.join(proj, 'skillport-lock.json'))).toEqual(lockBefore);
    expect(leftovers(path.join(proj, '.claude'))).toEqual([]);
    expect(leftovers(proj)).toEqual([]);
    // The folder that was left alone is not reported as edited by hand.
    const state = ok(await cli(['installed', '--offline', '-o', 'json'], proj)).json<{
      skills: Array<{ folder: string; state: string }>;
    }>();
    expect(state.skills.find((s) => s.folder === '.claude/skills')?.state).toBe('ok');

    // Once the folder can be written again, update moves both.
    rmSync(path.join(proj, '.gemini'));
    ok(await cli(['update'], proj));
    for (const folder of ['.claude/skills', '.gemini/skills']) {
      expect(readFileSync(path.join(proj, folder, 'fold-update/scripts/run.sh'), 'utf8')).toContain('two');
    }
    expect(readFileSync(path.join(proj, 'skillport-lock.json'))).not.toEqual(lockBefore);
  });

  it('install for one more agent whose folder cannot be created: no folder moves, the lock is unchanged', async () => {
    const proj = await installed('install-blocked', 'fold-install', 'claude-code,cursor');
    const lockBefore = readFileSync(path.join(proj, 'skillport-lock.json'));
    const before = {
      claude: snapshot(path.join(proj, '.claude/skills/fold-install')),
      cursor: snapshot(path.join(proj, '.cursor/skills/fold-install')),
    };
    await publishSecond('fold-install');
    writeFileSync(path.join(proj, '.gemini'), 'not a folder\n');

    // The latest revision for gemini-cli moves the folders the skill is already in along with it.
    const run = await cli(['install', 'fold-install', '--agent', 'gemini-cli', '-o', 'json'], proj);
    expect(run.code, run.stderr).toBe(2);
    expect(results(run).map((r) => [r.folder, r.result])).toEqual([
      ['.claude/skills', 'skipped'],
      ['.cursor/skills', 'skipped'],
      ['.gemini/skills', 'failed'],
    ]);
    expect(snapshot(path.join(proj, '.claude/skills/fold-install'))).toEqual(before.claude);
    expect(snapshot(path.join(proj, '.cursor/skills/fold-install'))).toEqual(before.cursor);
    expect(readFileSync(path.join(proj, 'skillport-lock.json'))).toEqual(lockBefore);
    for (const dir of [proj, path.join(proj, '.claude'), path.join(proj, '.cursor')]) {
      expect(leftovers(dir)).toEqual([]);
    }
  });

  // A skills folder that is a symbolic link to another file system (here /dev/shm, a tmpfs on
  // Linux): the new files are written beside it, but cannot be renamed into it (EXDEV), so its swap
  // fails after the first folder's has succeeded.
  const shm = '/dev/shm';
  const otherFileSystem =
    process.platform === 'linux' &&
    existsSync(shm) &&
    statSync(shm).dev !== statSync(os.tmpdir()).dev &&
    (() => {
      try {
        rmSync(mkdtempSync(path.join(shm, 'skillport-probe-')), { recursive: true });
        return true;
      } catch {
        return false;
      }
    })();

  it.runIf(otherFileSystem)(
    'update: when the second folder cannot be swapped in, the first one, already swapped, is put back',
    async () => {
      const proj = await installed('swap-fails', 'fold-swap', 'claude-code,cursor');
      const elsewhere = mkdtempSync(path.join(shm, 'skillport-all-folders-'));
      try {
        // Move .cursor/skills to the other file system and link it back.
        cpSync(path.join(proj, '.cursor/skills'), path.join(elsewhere, 'skills'), { recursive: true });
        rmSync(path.join(proj, '.cursor/skills'), { recursive: true });
        symlinkSync(path.join(elsewhere, 'skills'), path.join(proj, '.cursor/skills'));
        expect(lstatSync(path.join(proj, '.cursor/skills')).isSymbolicLink()).toBe(true);
        ok(await cli(['installed', '--offline'], proj));
        const lockBefore = readFileSync(path.join(proj, 'skillport-lock.json'));
        const before = {
          claude: snapshot(path.join(proj, '.claude/skills/fold-swap')),
          cursor: snapshot(path.join(proj, '.cursor/skills/fold-swap')),
        };
        await publishSecond('fold-swap');

        const run = await cli(['update', '-o', 'json'], proj);
        expect(run.code, run.stderr).toBe(2);
        const rows = results(run);
        expect(rows.map((r) => [r.folder, r.result])).toEqual([
          ['.claude/skills', 'skipped'],
          ['.cursor/skills', 'failed'],
        ]);
        expect(rows[0]?.detail).toMatch(/put back as it was/);
        expect(rows[1]?.detail).toMatch(/EXDEV/);
        expect(snapshot(path.join(proj, '.claude/skills/fold-swap'))).toEqual(before.claude);
        expect(snapshot(path.join(proj, '.cursor/skills/fold-swap'))).toEqual(before.cursor);
        expect(readFileSync(path.join(proj, 'skillport-lock.json'))).toEqual(lockBefore);
        for (const dir of [proj, path.join(proj, '.claude'), path.join(proj, '.cursor'), elsewhere]) {
          expect(leftovers(dir)).toEqual([]);
        }
        const state = ok(await cli(['installed', '--offline', '-o', 'json'], proj)).json<{
          skills: Array<{ folder: string; state: string }>;
        }>();
        expect(state.skills.map((s) => [s.folder, s.state])).toEqual([
          ['.claude/skills', 'ok'],
          ['.cursor/skills', 'ok'],
        ]);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    },
  );
});
