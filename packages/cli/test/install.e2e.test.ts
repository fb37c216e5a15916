/**
 * From registry to agent, end to end through the BUILT `skillport` binary and a real server
 * (`skillport serve`, SQLite in a temp folder): install into two agents' folders of a temp project,
 * the lock file, outdated / update, local edits kept, `install --frozen` on a clean checkout,
 * uninstall, `--global`, history / show --revision / restore, retention freeing storage, bulk add,
 * and skills export / import.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCorpus } from '../../../scripts/test-corpus.js';
import { corpusDir, REPO_ROOT, skillCases } from './support/corpus.js';
import { type CliRun, type RunningCliServer, runBin, startCliServer } from './support/processes.js';

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const md = (name: string, body: string) =>
  `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n${body}\n`;

let server: RunningCliServer;
let work: string;

beforeAll(async () => {
  server = await startCliServer({ SKILLPORT_KEEP_REVISIONS: '3', SKILLPORT_KEEP_REVISIONS_DAYS: '0' });
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-agents-'));
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

function cli(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}) {
  return runBin(server, args, options);
}

function ok(run: CliRun): CliRun {
  expect(run.code, `${run.stdout.toString()}\n${run.stderr}`).toBe(0);
  return run;
}

/** A folder with the given files (text or bytes). */
function folder(dir: string, files: Record<string, string | Uint8Array>): string {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** Every file below `dir`: relative path → sha-256. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, prefix: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path.join(d, entry.name), rel);
      else out[rel] = sha(readFileSync(path.join(d, entry.name)));
    }
  };
  walk(dir, '');
  return out;
}

/** A new project folder: a git repository root with the given agent markers (folders end with `/`). */
function project(name: string, markers: string[]): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, '.git'), { recursive: true });
  for (const marker of markers) {
    if (marker.endsWith('/')) mkdirSync(path.join(dir, marker), { recursive: true });
    else writeFileSync(path.join(dir, marker), '');
  }
  return dir;
}

interface Lock {
  lockfileVersion: number;
  skills: Record<
    string,
    {
      server: string;
      root_uri: string;
      revision: string;
      folders: string[];
      files: Array<{ path: string; sha256: string; size: number }>;
    }
  >;
}
const lockOf = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'skillport-lock.json'), 'utf8')) as Lock;

describe('install, lock, outdated, update, frozen, uninstall', () => {
  const binary = new Uint8Array([0, 1, 2, 250, 255, 0, 13, 10]);
  let source: string;
  let proj: string;
  let v1: string;

  beforeAll(async () => {
    source = folder(path.join(work, 'src', 'chart-maker'), {
      'SKILL.md': md('chart-maker', '# Charts\n\nDraw charts from CSV files.'),
      'scripts/plot.py': 'print("plot")\n',
      'assets/palette.bin': binary,
    });
    v1 = ok(await cli(['add-skill', source, '--wait', '-o', 'json'])).json<{ revision: string }>().revision;
    ok(await cli(['add-skill', path.join(REPO_ROOT, 'examples/skills/release-notes'), '--wait']));
    proj = project('app', ['.claude/', '.cursorrules']);
  });

  it('installs for the detected agents, says which, writes the lock and byte-identical files', async () => {
    const run = ok(await cli(['install', 'chart-maker', 'release-notes'], { cwd: path.join(proj) }));
    const out = run.stdout.toString();
    expect(out).toMatch(/Agents: claude-code \(\.claude\/skills\), cursor \(\.cursor\/skills\) — detected/);
    expect(out).toMatch(/chart-maker\s+\w{12}\s+\.claude\/skills\s+installed/);
    for (const agentFolder of ['.claude/skills', '.cursor/skills']) {
      expect(tree(path.join(proj, agentFolder, 'chart-maker'))).toEqual(tree(source));
      expect(tree(path.join(proj, agentFolder, 'release-notes'))).toEqual(
        tree(path.join(REPO_ROOT, 'examples/skills/release-notes')),
      );
    }
    const lock = lockOf(proj);
    expect(lock.lockfileVersion).toBe(1);
    expect(lock.skills['chart-maker']).toMatchObject({
      server: server.url,
      root_uri: 'viking://user/default/skills',
      revision: v1,
      folders: ['.claude/skills', '.cursor/skills'],
    });
    expect(lock.skills['chart-maker']?.files).toEqual(
      Object.entries(tree(source))
        .map(([p, h]) => ({ path: p, sha256: h, size: statSync(path.join(source, p)).size }))
        .sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
    // Nothing generated by the server is installed.
    expect(existsSync(path.join(proj, '.claude/skills/chart-maker/.abstract.md'))).toBe(false);
    const installed = ok(await cli(['installed', '-o', 'json'], { cwd: proj })).json<{
      skills: Array<{ skill: string; folder: string; state: string; agents: string[] }>;
    }>();
    expect(installed.skills.map((s) => [s.skill, s.folder, s.state])).toEqual([
      ['chart-maker', '.claude/skills', 'ok'],
      ['chart-maker', '.cursor/skills', 'ok'],
      ['release-notes', '.claude/skills', 'ok'],
      ['release-notes', '.cursor/skills', 'ok'],
    ]);
  });

  it('a new revision on the server: outdated shows it (exit 1), update installs it', async () => {
    const current = ok(await cli(['outdated'], { cwd: proj }));
    expect(current.stdout.toString()).toMatch(/all 2 installed skills are current/);
    writeFileSync(path.join(source, 'scripts/plot.py'), 'print("plot v2")\n');
    const v2 = ok(await cli(['skills', 'update', 'chart-maker', source, '-o', 'json'])).json<{
      revision: string;
    }>().revision;
    const outdated = await cli(['outdated', '-o', 'json'], { cwd: proj });
    expect(outdated.code).toBe(1);
    expect(
      outdated.json<{ skills: Array<{ skill: string; state: string; latest: string }> }>().skills,
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ skill: 'chart-maker', state: 'outdated', latest: v2 }),
      ]),
    );
    const before = lockOf(proj).skills['chart-maker']?.revision ?? '';
    const update = ok(await cli(['update', '-o', 'json'], { cwd: proj }));
    const results = update.json<{ results: Array<{ skill: string; result: string; detail?: string }> }>()
      .results;
    expect(results.filter((r) => r.skill === 'chart-maker').map((r) => r.result)).toEqual([
      'updated',
      'updated',
    ]);
    // Update says what moved: from which revision, and which files the new one changes.
    expect(results.find((r) => r.skill === 'chart-maker')?.detail).toBe(
      `was ${before.slice(0, 12)}: 1 file changed`,
    );
    expect(results.filter((r) => r.skill === 'release-notes').map((r) => r.result)).toEqual([
      'unchanged',
      'unchanged',
    ]);
    expect(lockOf(proj).skills['chart-maker']?.revision).toBe(v2);
    expect(readFileSync(path.join(proj, '.cursor/skills/chart-maker/scripts/plot.py'), 'utf8')).toBe(
      'print("plot v2")\n',
    );
  });

  it('a file edited by hand is never overwritten silently: update refuses (exit 1) until --force', async () => {
    const edited = path.join(proj, '.claude/skills/chart-maker/SKILL.md');
    writeFileSync(edited, 'my local notes');
    writeFileSync(path.join(source, 'SKILL.md'), md('chart-maker', '# Charts\n\nVersion three.'));
    const v3 = ok(await cli(['skills', 'update', 'chart-maker', source, '-o', 'json'])).json<{
      revision: string;
    }>().revision;
    const before = lockOf(proj).skills['chart-maker']?.revision;
    const refused = await cli(['update', 'chart-maker'], { cwd: proj });
    expect(refused.code).toBe(1);
    expect(refused.stdout.toString()).toMatch(
      /\.claude\/skills\s+refused\s+\.claude\/skills\/chart-maker: SKILL\.md changed; --force replaces it/,
    );
    expect(refused.stderr).toMatch(/not updated \(local edits kept/);
    expect(readFileSync(edited, 'utf8')).toBe('my local notes');
    // All or nothing: the other folder keeps the same revision as the lock says.
    expect(lockOf(proj).skills['chart-maker']?.revision).toBe(before);
    expect(readFileSync(path.join(proj, '.cursor/skills/chart-maker/SKILL.md'), 'utf8')).not.toContain(
      'Version three',
    );
    const installed = ok(await cli(['installed'], { cwd: proj })).stdout.toString();
    expect(installed).toMatch(/chart-maker\s+\w{12}\s+\.claude\/skills\s+claude-code\s+modified, outdated/);
    ok(await cli(['update', 'chart-maker', '--force'], { cwd: proj }));
    expect(readFileSync(edited, 'utf8')).toBe(md('chart-maker', '# Charts\n\nVersion three.'));
    expect(lockOf(proj).skills['chart-maker']?.revision).toBe(v3);
  });

  it('install --frozen on a clean checkout reproduces the same bytes; a changed lock is refused', async () => {
    const clone = project('clone', []);
    cpSync(path.join(proj, 'skillport-lock.json'), path.join(clone, 'skillport-lock.json'));
    const lockBytes = readFileSync(path.join(clone, 'skillport-lock.json'));
    ok(await cli(['install', '--frozen'], { cwd: clone }));
    for (const agentFolder of ['.claude/skills', '.cursor/skills']) {
      expect(tree(path.join(clone, agentFolder))).toEqual(tree(path.join(proj, agentFolder)));
    }
    expect(readFileSync(path.join(clone, 'skillport-lock.json'))).toEqual(lockBytes);
    // A Windows checkout (git core.autocrlf=true) gives every text file CRLF line endings: not an
    // edit, so --frozen passes and leaves the files as git wrote them. The binary file is untouched.
    const crlfFiles: Record<string, string> = {};
    const toCrlf = (d: string) => {
      for (const entry of readdirSync(d, { withFileTypes: true })) {
        const full = path.join(d, entry.name);
        if (entry.isDirectory()) toCrlf(full);
        else if (!readFileSync(full).includes(0)) {
          writeFileSync(full, readFileSync(full, 'utf8').replace(/\r?\n/g, '\r\n'));
          crlfFiles[full] = sha(readFileSync(full));
        }
      }
    };
    toCrlf(path.join(clone, '.claude/skills'));
    expect(Object.keys(crlfFiles).length).toBeGreaterThan(2);
    const crlfRun = ok(await cli(['install', '--frozen', '-o', 'json'], { cwd: clone }));
    expect(
      new Set(crlfRun.json<{ results: Array<{ result: string }> }>().results.map((r) => r.result)),
    ).toEqual(new Set(['unchanged']));
    for (const [file, digest] of Object.entries(crlfFiles)) expect(sha(readFileSync(file))).toBe(digest);
    expect(ok(await cli(['installed', '--offline'], { cwd: clone })).stdout.toString()).not.toMatch(
      /modified/,
    );
    // --frozen never changes the lock: adding an agent is refused, names are refused.
    const more = await cli(['install', '--frozen', '--agent', 'gemini-cli'], { cwd: clone });
    expect(more.code).toBe(1);
    expect(more.stderr).toMatch(/--frozen: the lock file does not list chart-maker → \.gemini\/skills/);
    expect((await cli(['install', '--frozen', 'chart-maker'], { cwd: clone })).code).toBe(1);
    expect(existsSync(path.join(clone, '.gemini'))).toBe(false);
    // The server is chosen as for every other command: --url, else SKILLPORT_URL, else the lock's.
    const moved = project('moved', []);
    const movedLock = JSON.parse(lockBytes.toString()) as Lock;
    const gone = 'http://127.0.0.1:9'; // nothing listens on the discard port
    for (const entry of Object.values(movedLock.skills)) entry.server = gone;
    writeFileSync(path.join(moved, 'skillport-lock.json'), JSON.stringify(movedLock));
    ok(await cli(['install', '--frozen'], { cwd: moved })); // SKILLPORT_URL is the live server
    expect(tree(path.join(moved, '.claude/skills'))).toEqual(tree(path.join(proj, '.claude/skills')));
    rmSync(path.join(moved, '.claude'), { recursive: true });
    rmSync(path.join(moved, '.cursor'), { recursive: true });
    ok(await cli(['install', '--frozen', '--url', server.url], { cwd: moved, env: { SKILLPORT_URL: gone } }));
    expect(tree(path.join(moved, '.cursor/skills'))).toEqual(tree(path.join(proj, '.cursor/skills')));
    const lockOnly = await cli(['install', '--frozen'], { cwd: moved, env: { SKILLPORT_URL: '' } });
    expect(lockOnly.code).toBe(0); // unchanged folders: nothing to download from the lock's server
    rmSync(path.join(moved, '.claude'), { recursive: true });
    const unreachable = await cli(['install', '--frozen'], { cwd: moved, env: { SKILLPORT_URL: '' } });
    expect(unreachable.code).toBe(2);
    expect(`${unreachable.stdout}${unreachable.stderr}`).toContain('127.0.0.1:9');
    expect(readFileSync(path.join(moved, 'skillport-lock.json'), 'utf8')).toBe(JSON.stringify(movedLock));
    // A lock whose hash does not match what the server serves: nothing is written, exit 2.
    const tampered = project('tampered', []);
    const lock = JSON.parse(lockBytes.toString()) as Lock;
    const entry = lock.skills['release-notes']!;
    entry.files[0] = { ...entry.files[0]!, sha256: 'f'.repeat(64) };
    writeFileSync(path.join(tampered, 'skillport-lock.json'), JSON.stringify(lock));
    const bad = await cli(['install', '--frozen'], { cwd: tampered, env: { COLUMNS: '300' } });
    expect(bad.code).toBe(2);
    expect(bad.stdout.toString()).toMatch(
      /release-notes.*failed.*has sha-256 \w{12}… \(\d+ bytes\), expected ffffffffffff…/,
    );
    expect(existsSync(path.join(tampered, '.claude/skills/release-notes'))).toBe(false);
    expect(readdirSync(path.join(tampered, '.claude'))).toEqual(['skills']);
    // install with no lock at all says what to do.
    const empty = await cli(['install'], { cwd: project('empty', []) });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/no lock file at .*: name the skills to install/);
  });

  it('install name@revision pins an earlier revision; --agent chooses folders; uninstall removes them', async () => {
    const other = project('pinned', []);
    const run = ok(
      await cli(['install', `chart-maker@${v1.slice(0, 10)}`, '--agent', 'codex', '-a', 'windsurf'], {
        cwd: other,
      }),
    );
    expect(run.stdout.toString()).toMatch(
      /Agents: codex \(\.agents\/skills\), windsurf \(\.windsurf\/skills\)/,
    );
    expect(lockOf(other).skills['chart-maker']).toMatchObject({
      revision: v1,
      folders: ['.agents/skills', '.windsurf/skills'],
    });
    expect(readFileSync(path.join(other, '.windsurf/skills/chart-maker/scripts/plot.py'), 'utf8')).toBe(
      'print("plot")\n',
    );
    // The lock pins one revision per skill: the latest for one agent moves the other folder along.
    const latest = ok(await cli(['install', 'chart-maker', '--agent', 'codex'], { cwd: other }));
    expect(latest.stdout.toString()).toMatch(/chart-maker\s+\w{12}\s+\.windsurf\/skills\s+updated/);
    const moved = lockOf(other).skills['chart-maker'];
    expect(moved?.revision).not.toBe(v1);
    expect(moved?.folders).toEqual(['.agents/skills', '.windsurf/skills']);
    const states = ok(await cli(['installed', '-o', 'json'], { cwd: other })).json<{
      skills: Array<{ folder: string; state: string }>;
    }>();
    expect(states.skills.map((r) => [r.folder, r.state])).toEqual([
      ['.agents/skills', 'ok'],
      ['.windsurf/skills', 'ok'],
    ]);
    // --agent naming an agent the skill is not installed for: an error, nothing removed.
    const elsewhere = await cli(['uninstall', 'chart-maker', '--agent', 'cursor'], { cwd: other });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toBe(
      'error: chart-maker is not installed in .cursor/skills (the --agent folder); it is in .agents/skills, ' +
        '.windsurf/skills; nothing was removed\n',
    );
    expect(lockOf(other).skills['chart-maker']?.folders).toEqual(['.agents/skills', '.windsurf/skills']);
    writeFileSync(path.join(other, '.agents/skills/chart-maker/extra.txt'), 'mine');
    const refused = await cli(['uninstall', 'chart-maker'], { cwd: other });
    expect(refused.code).toBe(1);
    // What --force does here is remove the edited folder, not replace it.
    expect(refused.stderr).toContain(
      '1 skill not removed (local edits kept: see detail; --force removes them)',
    );
    expect(existsSync(path.join(other, '.agents/skills/chart-maker/extra.txt'))).toBe(true);
    expect(existsSync(path.join(other, '.windsurf/skills/chart-maker'))).toBe(false);
    expect(lockOf(other).skills['chart-maker']?.folders).toEqual(['.agents/skills']);
    ok(await cli(['uninstall', 'chart-maker', '--force'], { cwd: other }));
    expect(existsSync(path.join(other, '.agents/skills/chart-maker'))).toBe(false);
    expect(lockOf(other).skills).toEqual({});
  });

  it('with no agent detected, installs into the shared .agents/skills and says so', async () => {
    const bare = project('bare', []);
    const run = ok(await cli(['install', 'release-notes'], { cwd: bare }));
    expect(run.stdout.toString()).toMatch(/no agent detected, so the shared folder most agents read/);
    expect(existsSync(path.join(bare, '.agents/skills/release-notes/SKILL.md'))).toBe(true);
  });

  it('--global installs into the user folders of the agents set up on the machine, with its own lock', async () => {
    const home = path.join(work, 'home');
    mkdirSync(path.join(home, '.claude'), { recursive: true });
    mkdirSync(path.join(home, '.gemini'), { recursive: true });
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    const run = ok(
      await cli(['install', '--global', 'release-notes'], { cwd: project('anywhere', []), env }),
    );
    expect(run.stdout.toString()).toMatch(
      /claude-code \(~\/\.claude\/skills\), gemini-cli \(~\/\.gemini\/skills\)/,
    );
    expect(existsSync(path.join(home, '.claude/skills/release-notes/SKILL.md'))).toBe(true);
    expect(existsSync(path.join(home, '.gemini/skills/release-notes/template.md'))).toBe(true);
    const lock = JSON.parse(
      readFileSync(path.join(home, '.config/skillport/skillport-lock.json'), 'utf8'),
    ) as Lock;
    expect(lock.skills['release-notes']?.folders).toEqual(['~/.claude/skills', '~/.gemini/skills']);
    expect(existsSync(path.join(work, 'anywhere', 'skillport-lock.json'))).toBe(false);
    const listed = ok(await cli(['installed', '--global', '-o', 'json'], { env })).json<{
      skills: unknown[];
    }>();
    expect(listed.skills).toHaveLength(2);
  });
});

describe('history, show --revision, restore, and retention freeing storage', () => {
  it('lists revisions, shows an old one, restores it with --if-match', async () => {
    const dir = path.join(work, 'src', 'notes');
    folder(dir, { 'SKILL.md': md('notes', 'One.') });
    const r1 = ok(await cli(['add-skill', dir, '-o', 'json'])).json<{ revision: string }>().revision;
    writeFileSync(path.join(dir, 'SKILL.md'), md('notes', 'Two.'));
    const r2 = ok(await cli(['add-skill', dir, '-o', 'json'])).json<{ revision: string }>().revision;
    const history = ok(await cli(['skills', 'history', 'notes'])).stdout.toString();
    expect(history).toMatch(new RegExp(`${r2.slice(0, 12)}.*current`));
    expect(history).toMatch(new RegExp(`${r1.slice(0, 12)}.*replaced`));
    expect(history.trim().split('\n').slice(-2)).toEqual([
      '2 revisions of viking://user/default/skills/notes',
      "files: SKILL.md and its auxiliary files (the generated .abstract.md and .overview.md are not counted); size: their bytes and the generated .abstract.md's",
    ]);
    const old = ok(await cli(['skills', 'show', 'notes', '--revision', r1.slice(0, 8)]));
    expect(old.stdout.toString()).toBe(md('notes', 'One.'));
    const unknown = await cli(['skills', 'show', 'notes', '--revision', 'abcdef12']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      '\n  list the revisions the server keeps with: skillport skills history notes\n',
    );
    const stale = await cli(['skills', 'restore', 'notes', r1.slice(0, 8), '--if-match', r1]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/CONFLICT/);
    const restored = ok(
      await cli(['skills', 'restore', 'notes', r1.slice(0, 8), '--if-match', r2, '-o', 'json']),
    );
    expect(restored.json<{ action: string; revision: string }>()).toMatchObject({
      action: 'restore',
      revision: r1,
    });
    expect(ok(await cli(['skills', 'show', 'notes'])).stdout.toString()).toBe(md('notes', 'One.'));
  });

  it('retention (last 3 revisions, 0 days here) and remove --purge free the storage of big files', async () => {
    const dir = path.join(work, 'src', 'bulky');
    const sizeOfData = () =>
      readdirSync(server.dataDir).reduce((sum, f) => sum + statSync(path.join(server.dataDir, f)).size, 0);
    const big = () => new Uint8Array(randomBytes(1_500_000));
    // Five versions with a distinct, incompressible 1.5 MB file each.
    for (let i = 0; i < 5; i++) {
      folder(dir, { 'SKILL.md': md('bulky', `Version ${i}.`), 'data.bin': big() });
      ok(await cli(['add-skill', dir]));
    }
    const history = ok(await cli(['skills', 'history', 'bulky', '-o', 'json'])).json<{ total: number }>();
    expect(history.total).toBe(3);
    const before = sizeOfData();
    const removed = ok(await cli(['skills', 'remove', 'bulky', '--purge']));
    expect(removed.stdout.toString()).toMatch(/its history was erased too/);
    expect((await cli(['skills', 'history', 'bulky'])).code).toBe(1);
    // The three kept versions of data.bin (4.5 MB) went; the database shrank accordingly.
    expect(before - sizeOfData()).toBeGreaterThan(3 * 1024 * 1024);
    // Nine CLI processes and 7.5 MB of uploads: more than the default budget on a busy machine.
  }, 120_000);

  it('remove says the skill cannot be restored when the server keeps no history of deleted skills (0 days)', async () => {
    const dir = folder(path.join(work, 'src', 'fleeting'), { 'SKILL.md': md('fleeting', 'Gone soon.') });
    ok(await cli(['add-skill', dir, '--wait']));
    const removed = ok(await cli(['skills', 'remove', 'fleeting'])).stdout.toString();
    expect(removed).toBe(
      'removed viking://user/default/skills/fleeting (1 file: SKILL.md); the server keeps no history ' +
        'of deleted skills, so it cannot be restored\n',
    );
    expect((await cli(['skills', 'history', 'fleeting'])).code).toBe(1);
  });
});

describe('outdated and update when the server lost a skill or cannot be asked', () => {
  it('a removed skill: outdated exits 1 and update fails, both saying how to uninstall or restore it', async () => {
    ok(await cli(['add-skill', md('vanishing', 'Soon gone.'), '--wait']));
    ok(await cli(['add-skill', md('staying', 'Still here.'), '--wait']));
    const proj = project('lost-skill', ['.claude/']);
    ok(await cli(['install', 'vanishing', 'staying'], { cwd: proj }));
    ok(await cli(['skills', 'remove', 'vanishing']));
    const outdated = await cli(['outdated'], { cwd: proj, env: { COLUMNS: '300' } });
    expect(outdated.code).toBe(1);
    const hint =
      'removed from the server: skillport uninstall vanishing removes it here; skillport skills history vanishing ' +
      'lists the revisions the server still keeps, to restore one';
    expect(outdated.stdout.toString()).toMatch(/vanishing\s+\w{12}\s+removed from the server\n/);
    expect(outdated.stdout.toString()).toContain(`\n${hint}\n`);
    const update = await cli(['update', '-o', 'json'], { cwd: proj });
    expect(update.code).toBe(1);
    expect(
      update.json<{ results: Array<{ skill: string; result: string; detail?: string }> }>().results,
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ skill: 'vanishing', result: 'failed', detail: hint }),
        expect.objectContaining({ skill: 'staying', result: 'unchanged' }),
      ]),
    );
  });

  it('with no lock file or an empty one, installed, outdated and update say nothing is installed (exit 0)', async () => {
    const proj = project('nothing-here', []);
    const lock = path.join(proj, 'skillport-lock.json');
    for (const command of ['installed', 'outdated', 'update']) {
      const run = ok(await cli([command], { cwd: proj }));
      expect(run.stdout.toString(), command).toBe(
        `nothing installed (no lock file at ${lock}); install skills with skillport install <name>\n`,
      );
    }
    writeFileSync(lock, '{ "lockfileVersion": 1, "skills": {} }\n');
    for (const command of ['installed', 'outdated', 'update']) {
      const run = ok(await cli([command], { cwd: proj }));
      expect(run.stdout.toString(), command).toBe(`nothing installed (${lock} lists no skills)\n`);
    }
  });

  it('a server that cannot be asked: outdated exits 2 and says so, never "current"', async () => {
    ok(await cli(['add-skill', md('far-away', 'Remote.'), '--wait']));
    const proj = project('unreachable', ['.claude/']);
    ok(await cli(['install', 'far-away'], { cwd: proj }));
    const run = await cli(['outdated', '--url', 'http://127.0.0.1:9'], { cwd: proj });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^error: 1 of 1 installed skill could not be checked \(server not reachable: cannot reach the Skillport server at http:\/\/127\.0\.0\.1:9/,
    );
    expect(run.stdout.toString()).not.toContain('current');
  });
});

describe('several skillport commands in one project at once', () => {
  it('installs run side by side: the lock file lists every skill each of them installed', async () => {
    const names = ['side-a', 'side-b', 'side-c', 'side-d', 'side-e', 'side-f'];
    for (const name of names) ok(await cli(['add-skill', md(name, `${name} body.`), '--wait']));
    const proj = project('side-by-side', ['.claude/']);
    const runs = await Promise.all(names.map((name) => cli(['install', name], { cwd: proj })));
    for (const run of runs) ok(run);
    expect(Object.keys(lockOf(proj).skills)).toEqual(names);
    // Each command's last line counts what the lock held when it saved: the last one saw all six.
    const counts = runs.map((r) => Number(/\((\d+) skills?\)\n$/.exec(r.stdout.toString())?.[1]));
    expect(Math.max(...counts)).toBe(names.length);
    expect(readdirSync(proj).sort()).toEqual(['.claude', '.git', 'skillport-lock.json']);
    // And uninstalls side by side remove each one, leaving the others.
    const removed = await Promise.all(
      ['side-a', 'side-c', 'side-e'].map((name) => cli(['uninstall', name], { cwd: proj })),
    );
    for (const run of removed) ok(run);
    expect(Object.keys(lockOf(proj).skills)).toEqual(['side-b', 'side-d', 'side-f']);
    ok(await cli(['install', '--frozen'], { cwd: proj }));
  });
});

describe('bulk add and export / import', () => {
  it('adds a folder of skill folders in one command: one table, a collision refused, exit 1', async () => {
    const collection = folder(path.join(work, 'collection'), {
      'skills/alpha/SKILL.md': md('alpha', 'A.'),
      'skills/alpha/ref/guide.md': 'guide',
      'skills/beta/SKILL.md': md('beta', 'B.'),
      'more/beta-again/SKILL.md': md('beta', 'B again.'),
      'skills/broken/SKILL.md': 'no frontmatter here',
    });
    const run = await cli(['add-skill', collection, path.join(REPO_ROOT, 'examples/mcp/search_web.json')], {
      env: { COLUMNS: '300' },
    });
    expect(run.code).toBe(1);
    const out = run.stdout.toString();
    expect(out).toMatch(/skills\/alpha\s+alpha\s+added/);
    // Inputs are taken in order (more/ before skills/): the first one named beta is added, the next refused.
    expect(out).toMatch(/more\/beta-again\s+beta\s+added/);
    expect(out).toMatch(
      /skills\/beta\s+beta\s+refused\s+CONFLICT: is the skill "beta" like .*more\/beta-again before it/,
    );
    expect(out).toMatch(/skills\/broken\s+refused\s+SKILL_INVALID/);
    expect(out).toMatch(/search_web\.json\s+search-web\s+(added|replaced)/);
    expect(out.trim().split('\n').at(-1)).toMatch(
      /^(3 added, 0|2 added, 1) replaced, 2 refused \(5 inputs\)$/,
    );
    expect(run.stderr).toMatch(/2 of 5 inputs were refused/);
    expect(ok(await cli(['skills', 'show', 'beta'])).stdout.toString()).toContain('B again.');
    // Again: the ones stored are now replaced.
    const again = await cli(['add-skill', path.join(collection, 'skills'), '-o', 'json']);
    const results = again.json<Array<{ input: string; result: string }>>();
    expect(results.find((r) => r.input.endsWith('skills/alpha'))?.result).toBe('replaced');
  });

  it('--wait counts the processing of the jobs this command queued, not every job of the account', async () => {
    const batch = folder(path.join(work, 'batch'), {
      'one/SKILL.md': md('batch-one', 'One.'),
      'two/SKILL.md': md('batch-two', 'Two.'),
      'three/SKILL.md': md('batch-three', 'Three.'),
    });
    const json = ok(await cli(['add-skill', batch, '--wait', '-o', 'json'])).json<
      Array<{ name: string; result: string; task_id: string; task_status: string }>
    >();
    expect(json.map((r) => [r.name, r.result, r.task_status])).toEqual([
      ['batch-one', 'added', 'completed'],
      ['batch-three', 'added', 'completed'],
      ['batch-two', 'added', 'completed'],
    ]);
    // The account's queue now counts those jobs too (and any earlier): the second batch counts its own.
    const queue = ok(await cli(['observer', 'queue', '-o', 'json'])).json<{ completed: number }>();
    expect(queue.completed).toBeGreaterThanOrEqual(3);
    const run = ok(await cli(['add-skill', batch, '--wait'], { env: { COLUMNS: '300' } }));
    expect(run.stdout.toString().trim().split('\n').at(-1)).toBe(
      '0 added, 3 replaced, 0 refused (3 inputs); processing: 3 completed, 0 failed, 0 left',
    );
  });

  it('export into a folder that does not exist, or onto a folder, says so before downloading (exit 1, no stack trace)', async () => {
    ok(await cli(['add-skill', md('export-probe', 'Probe.'), '--wait']));
    const missing = path.join(work, 'no-such-folder', 'backup.zip');
    const run = await cli(['skills', 'export', missing]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `error: cannot write ${missing}: the folder ${path.dirname(missing)} does not exist; create it first or choose another path\n`,
    );
    expect(run.stdout.toString()).toBe('');
    expect(existsSync(path.dirname(missing))).toBe(false);
    const onFolder = await cli(['skills', 'export', work]);
    expect(onFolder.code).toBe(1);
    expect(onFolder.stderr).toBe(
      `error: cannot write ${work}: ${work} is a folder; name a file such as ${path.join(work, 'skills.zip')}\n`,
    );
    expect(readdirSync(work).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('import reports a skill the server refuses in the table and in the error line, exit 1', async () => {
    const zip = path.join(work, 'partly-bad.zip');
    writeFileSync(
      zip,
      zipSync({
        'imported-fine/SKILL.md': strToU8(md('imported-fine', 'Fine.')),
        'bad name/SKILL.md': strToU8(md('bad name', 'Refused.')),
      }),
    );
    const run = await cli(['skills', 'import', zip], { env: { COLUMNS: '300' } });
    expect(run.code).toBe(1);
    expect(run.stdout.toString()).toMatch(
      /bad name\s+refused\s+INVALID_ARGUMENT: Invalid skill name "bad name"/,
    );
    expect(run.stdout.toString()).toContain(`1 of 2 skills imported from ${zip}\n`);
    expect(run.stderr).toBe('error: 1 of 2 skills refused: see detail\n');
  });

  it('export writes every skill of the root as folders; import into another server gives the same revisions', async () => {
    const zip = path.join(work, 'export.zip');
    const exported = ok(await cli(['skills', 'export', zip, '-o', 'json'])).json<{
      skills: Array<{ name: string; revision: string }>;
    }>();
    expect(exported.skills.length).toBeGreaterThan(3);
    const second = await startCliServer();
    try {
      const run = ok(await runBin(second, ['skills', 'import', zip, '-o', 'json']));
      const imported = run.json<{
        skills: Array<{ skill: string; revision: string; same_revision: boolean }>;
      }>();
      expect(imported.skills.map((s) => [s.skill, s.revision])).toEqual(
        exported.skills
          .map((s) => [s.name, s.revision])
          .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
      );
      expect(imported.skills.every((s) => s.same_revision)).toBe(true);
      const alpha = ok(await runBin(second, ['skills', 'show', 'alpha', '--files', '-o', 'json'])).json<{
        files: Array<{ path: string }>;
      }>();
      expect(alpha.files.map((f) => f.path)).toContain('ref/guide.md');
    } finally {
      await second.stop();
    }
  });
});

describeCorpus('bulk add of the whole corpus', () => {
  it('adds ../shared/corpus/skills/ in one command: every valid folder added, the rest refused with reasons', async () => {
    const cases = await skillCases();
    const run = await cli(['add-skill', path.join(corpusDir(), 'skills'), '-o', 'json']);
    expect(run.code).toBe(1);
    const results =
      run.json<Array<{ input: string; result: string; name: string | null; error?: { code: string } }>>();
    expect(results).toHaveLength(cases.length);
    const byFolder = new Map(results.map((r) => [path.basename(r.input), r]));
    for (const skill of cases) {
      const result = byFolder.get(skill.id);
      expect(result, skill.id).toBeDefined();
      if (skill.refusal !== null) {
        expect(result?.result, skill.id).toBe('refused');
      } else if (result?.result === 'refused') {
        // A valid folder is refused only as a collision with an earlier folder of the same name.
        expect(result.error?.code, skill.id).toBe('CONFLICT');
        const earlier = cases.slice(0, cases.indexOf(skill)).filter((c) => c.name === skill.name);
        expect(earlier.length, skill.id).toBeGreaterThan(0);
      }
    }
    expect(results.filter((r) => r.result !== 'refused').length).toBeGreaterThan(30);
  });
});

describe('file counts and deletions with the default retention (history kept after a delete)', () => {
  let keptServer: RunningCliServer;
  beforeAll(async () => {
    keptServer = await startCliServer();
  }, 60_000);
  afterAll(async () => {
    await keptServer?.stop();
  });
  const kept = (args: string[], options: { cwd?: string } = {}) => runBin(keptServer, args, options);

  it('show --files, history and remove count the same files; a deletion is labelled deleted', async () => {
    const dir = folder(path.join(work, 'src', 'counted'), {
      'SKILL.md': md('counted', 'Counted.'),
      'scripts/run.py': 'print(1)\n',
      'docs/guide.md': '# Guide\n',
    });
    ok(await kept(['add-skill', dir, '--wait']));
    const files = ok(await kept(['skills', 'show', 'counted', '--files'])).stdout.toString();
    expect(files).toMatch(/\.overview\.md/); // listed, but not counted
    expect(files.trim().split('\n').at(-1)).toBe(
      '3 files: SKILL.md and 2 auxiliary files (the generated .abstract.md and .overview.md are not ' +
        'counted, nor folders)',
    );
    const history = ok(await kept(['skills', 'history', 'counted'])).stdout.toString();
    expect(history).toMatch(/^[0-9a-f]{12}\s.*\s3\s+\S+ (KiB|B)\s+current$/m);
    const removed = ok(await kept(['skills', 'remove', 'counted'])).stdout.toString();
    expect(removed).toMatch(
      /^removed viking:\/\/user\/default\/skills\/counted \(3 files: SKILL\.md and 2 auxiliary files\); its history is kept/,
    );
    const after = ok(await kept(['skills', 'history', 'counted'])).stdout.toString();
    expect(after).toMatch(/\s3\s+\S+ (KiB|B)\s+deleted \d{4}-\d\d-\d\d \d\d:\d\d$/m);
    expect(after).not.toMatch(/replaced/);
    expect(after).toMatch(/the skill was deleted; restore one with/);
  });

  it('a name starting with "-": validate warns (same rule as the server), hints put it after "--"', async () => {
    const dir = folder(path.join(work, 'src', 'dash-skill'), { 'SKILL.md': md('"-dash-skill"', 'Dash.') });
    const validated = ok(await kept(['skills', 'validate', dir])).stdout.toString();
    expect(validated).toMatch(/warning name_leading_hyphen .*skillport install -- -dash-skill/);
    const added = ok(await kept(['add-skill', dir, '-o', 'json'])).json<{
      warnings: Array<{ rule: string }>;
    }>();
    expect(added.warnings.map((w) => w.rule)).toContain('name_leading_hyphen');
    const removed = ok(await kept(['skills', 'remove', '--', '-dash-skill'])).stdout.toString();
    expect(removed).toContain('restore with: skillport skills restore -- -dash-skill <revision>');
    const history = ok(await kept(['skills', 'history', '--', '-dash-skill'])).stdout.toString();
    expect(history).toContain('restore one with: skillport skills restore -- -dash-skill <revision>');
    const notInstalled = await kept(['uninstall', '--', '-dash-skill'], {
      cwd: project('dash', ['.claude/']),
    });
    expect(notInstalled.stderr).toContain('install it with skillport install -- -dash-skill');
  });
});

describe('install: exit status of a name the server does not know', () => {
  it("is 1 (the caller's mistake, as for skills show), with NOT_FOUND in the table and nothing written", async () => {
    const dir = project('unknown-name', ['.claude/']);
    const run = await cli(['install', 'no-such-skill'], { cwd: dir, env: { COLUMNS: '300' } });
    expect(run.code).toBe(1);
    expect(run.stdout.toString()).toMatch(/no-such-skill\s+\.claude\/skills\s+failed\s+NOT_FOUND: /);
    expect(run.stderr).toMatch(/error: 1 skill not installed\n/);
    expect(run.stderr).not.toMatch(/local edits/);
    expect(readdirSync(path.join(dir, '.claude'))).toEqual([]);
  });
});

describe('install: two skills whose names differ only in letter case', () => {
  // One folder on macOS and Windows: refused on every platform, naming both, whatever --force says.
  const names = ['case-notes', 'Case-Notes'];

  beforeAll(async () => {
    for (const name of names) {
      const dir = folder(path.join(work, 'src-case', name), { 'SKILL.md': md(name, `# ${name}`) });
      ok(await cli(['add-skill', dir, '--wait']));
    }
  });

  const results = (run: CliRun) =>
    run.json<{ results: Array<{ skill: string; folder: string; result: string; detail?: string }> }>()
      .results;

  it('the server keeps both; install given both refuses before changing anything', async () => {
    const listed = ok(await cli(['skills', 'list', '-o', 'json'])).json<{
      skills: Array<{ name: string }>;
    }>();
    expect(listed.skills.map((s) => s.name)).toEqual(expect.arrayContaining(names));
    const dir = project('case-both', ['.claude/']);
    const run = await cli(['install', ...names], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/case-notes and Case-Notes differ only in letter case.*nothing was changed/);
    expect(readdirSync(path.join(dir, '.claude'))).toEqual([]);
    expect(existsSync(path.join(dir, 'skillport-lock.json'))).toBe(false);
  });

  it('a second skill of the same folder name is a conflict, --force or not; the lock keeps the first', async () => {
    const dir = project('case-second', ['.claude/', '.cursor/']);
    ok(await cli(['install', 'case-notes'], { cwd: dir }));
    const lockBefore = readFileSync(path.join(dir, 'skillport-lock.json'), 'utf8');
    for (const extra of [[], ['--force']]) {
      const run = await cli(['install', 'Case-Notes', '-o', 'json', ...extra], { cwd: dir });
      expect(run.code).toBe(1);
      expect(results(run).map((r) => [r.skill, r.folder, r.result])).toEqual([
        ['Case-Notes', '.claude/skills', 'conflict'],
        ['Case-Notes', '.cursor/skills', 'conflict'],
      ]);
      expect(results(run)[0]?.detail).toMatch(
        /^case-notes \(installed here, in the lock file\) and Case-Notes differ only in letter case/,
      );
    }
    const text = await cli(['install', 'Case-Notes'], { cwd: dir });
    expect(text.stderr).toMatch(/1 skill not installed \(names differing only in letter case: see detail\)/);
    expect(readFileSync(path.join(dir, 'skillport-lock.json'), 'utf8')).toBe(lockBefore);
    expect(readdirSync(path.join(dir, '.claude/skills'))).toEqual(['case-notes']);
    expect(readdirSync(path.join(dir, '.cursor/skills'))).toEqual(['case-notes']);
  });

  it('a folder already in the skills folder counts too, even one skillport did not write', async () => {
    const dir = project('case-folder', ['.claude/']);
    folder(path.join(dir, '.claude/skills/Case-Notes'), { 'SKILL.md': 'mine' });
    const run = await cli(['install', 'case-notes', '--force', '-o', 'json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(results(run)).toEqual([
      expect.objectContaining({
        skill: 'case-notes',
        result: 'conflict',
        detail: expect.stringMatching(/^Case-Notes \(\.claude\/skills\/Case-Notes\) and case-notes differ/),
      }),
    ]);
    expect(readdirSync(path.join(dir, '.claude/skills'))).toEqual(['Case-Notes']);
    expect(readFileSync(path.join(dir, '.claude/skills/Case-Notes/SKILL.md'), 'utf8')).toBe('mine');
  });

  it('a lock listing both (written before this rule) installs neither until one is uninstalled', async () => {
    const one = project('case-lock-a', ['.claude/']);
    const two = project('case-lock-b', ['.claude/']);
    ok(await cli(['install', 'case-notes'], { cwd: one }));
    ok(await cli(['install', 'Case-Notes'], { cwd: two }));
    const merged = lockOf(one);
    Object.assign(merged.skills, lockOf(two).skills);
    const dir = project('case-lock', []);
    writeFileSync(path.join(dir, 'skillport-lock.json'), JSON.stringify(merged));
    const run = await cli(['install', '-o', 'json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(results(run).map((r) => [r.skill, r.result])).toEqual([
      ['Case-Notes', 'conflict'],
      ['case-notes', 'conflict'],
    ]);
    expect(existsSync(path.join(dir, '.claude'))).toBe(false);
    const update = await cli(['update', '-o', 'json'], { cwd: dir });
    expect(update.code).toBe(1);
    expect(results(update).map((r) => r.result)).toEqual(['conflict', 'conflict']);
    ok(await cli(['uninstall', 'Case-Notes'], { cwd: dir }));
    ok(await cli(['install'], { cwd: dir }));
    expect(readdirSync(path.join(dir, '.claude/skills'))).toEqual(['case-notes']);
  });
});

describe("install: a skill name outside an agent's naming rule", () => {
  // The server keeps OpenViking's rule ([A-Za-z0-9_-]); the agents read the Agent Skills rule
  // (lowercase letters, digits and single hyphens, the name equal to the folder's), Claude Code its
  // ASCII form. The skill is still installed, byte for byte, with a warning naming each agent.
  beforeAll(async () => {
    const dir = folder(path.join(work, 'src-naming', 'PDF_Tools'), { 'SKILL.md': md('PDF_Tools', '# PDF') });
    ok(await cli(['add-skill', dir, '--wait']));
    ok(await cli(['add-skill', path.join(REPO_ROOT, 'examples/skills/release-notes'), '--wait']));
  });

  it('is installed with a warning per agent folder in detail (and on stderr), exit 0', async () => {
    const dir = project('naming', ['.claude/', '.codex/']);
    const run = ok(await cli(['install', 'PDF_Tools', '-o', 'json'], { cwd: dir }));
    const results = run
      .json<{ results: Array<{ skill: string; folder: string; result: string; warning?: string }> }>()
      .results.map((r) => [r.folder, r.result, r.warning]);
    expect(results).toEqual([
      [
        '.agents/skills',
        'installed',
        expect.stringMatching(/^Codex, Agent Skills .*name_allowed_characters.*the agents may not load it$/),
      ],
      [
        '.claude/skills',
        'installed',
        expect.stringMatching(/^Claude Code: .*a–z.*name_allowed_characters, e\.g\. "pdf-tools"/),
      ],
    ]);
    expect(run.stderr).toMatch(/^warning: PDF_Tools in \.claude\/skills: Claude Code: /m);
    const table = ok(
      await cli(['install', 'PDF_Tools', '--agent', 'cursor'], { cwd: dir, env: { COLUMNS: '400' } }),
    );
    expect(table.stdout.toString()).toMatch(
      /PDF_Tools\s+\w{12}\s+\.cursor\/skills\s+installed\s+warning: Cursor: /,
    );
    expect(readFileSync(path.join(dir, '.claude/skills/PDF_Tools/SKILL.md'), 'utf8')).toBe(
      md('PDF_Tools', '# PDF'),
    );
    // A name every agent reads gives no warning (claude-code, codex and now cursor are detected).
    const clean = ok(await cli(['install', 'release-notes', '-o', 'json'], { cwd: dir }));
    const cleanResults = clean.json<{ results: Array<{ folder: string; warning?: string }> }>().results;
    expect(cleanResults.map((r) => [r.folder, r.warning])).toEqual([
      ['.agents/skills', undefined],
      ['.claude/skills', undefined],
      ['.cursor/skills', undefined],
    ]);
    expect(clean.stderr).not.toMatch(/warning/);
  });
});
