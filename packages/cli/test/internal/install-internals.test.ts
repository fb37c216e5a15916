/**
 * The parts of `skillport install` that work on disk: the agent table and detection, the lock file,
 * folder states and atomic folder writes, and the expansion of bulk-add inputs.
 */
import { createHash } from 'node:crypto';
import {
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
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { AGENTS, detectAgents, displayFolder, skillsFolder, userScope } from '../../src/internal/agents.js';
import { expandInputs, findCollisions } from '../../src/internal/bulk-inputs.js';
import {
  chooseAgents,
  findProjectRoot,
  foldersOf,
  lockEntry,
  parseSkillSpec,
  resolveFolder,
} from '../../src/internal/installer.js';
import { CliError } from '../../src/internal/io.js';
import {
  emptyLock,
  LOCK_FILE_NAME,
  readLock,
  renderLock,
  saveLock,
  writeLock,
} from '../../src/internal/lock-file.js';
import { readFolderState, writeSkillFolder, writeSkillFolders } from '../../src/internal/skill-folder.js';
import { memoryIo } from '../support/memory-io.js';

const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-install-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const sha = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const md = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n\n# ${name}\n`;

describe('agent table', () => {
  it('has one entry per documented agent, each with a source link and distinct id', () => {
    const ids = AGENTS.map((a) => a.id);
    expect(ids).toEqual([
      'claude-code',
      'codex',
      'cursor',
      'gemini-cli',
      'github-copilot',
      'opencode',
      'goose',
      'windsurf',
      'cline',
      'agents',
    ]);
    for (const agent of AGENTS) {
      expect(agent.source, agent.id).toMatch(/^https:\/\//);
      expect(agent.project, agent.id).toMatch(/^\.[a-z]+\/skills$/);
    }
  });

  it.each([
    ['claude-code', '.claude/skills', '~/.claude/skills'],
    ['codex', '.agents/skills', '~/.agents/skills'],
    ['cursor', '.cursor/skills', '~/.cursor/skills'],
    ['gemini-cli', '.gemini/skills', '~/.gemini/skills'],
    ['github-copilot', '.github/skills', '~/.copilot/skills'],
    ['opencode', '.opencode/skills', '~/.config/opencode/skills'],
    ['goose', '.goose/skills', '~/.config/goose/skills'],
    ['windsurf', '.windsurf/skills', '~/.codeium/windsurf/skills'],
    ['cline', '.cline/skills', '~/.cline/skills'],
  ])('%s: project %s, user %s', (id, project, user) => {
    const agent = AGENTS.find((a) => a.id === id)!;
    const root = '/work/project';
    const projectScope = { kind: 'project' as const, root };
    expect(displayFolder(skillsFolder(agent, projectScope), projectScope)).toBe(project);
    const home = userScope({ HOME: '/home/ada' });
    expect(displayFolder(skillsFolder(agent, home), home)).toBe(user);
  });

  it('XDG_CONFIG_HOME moves the folders kept under ~/.config', () => {
    const scope = userScope({ HOME: '/home/ada', XDG_CONFIG_HOME: '/cfg' });
    const goose = AGENTS.find((a) => a.id === 'goose')!;
    expect(skillsFolder(goose, scope)).toBe(path.join('/cfg', 'goose', 'skills'));
  });

  it('detects the agents a project uses by their folders and files, in table order', async () => {
    const root = temp();
    mkdirSync(path.join(root, '.cursor'));
    writeFileSync(path.join(root, 'CLAUDE.md'), '# notes');
    mkdirSync(path.join(root, '.github', 'workflows'), { recursive: true }); // not Copilot by itself
    const found = await detectAgents({ kind: 'project', root });
    expect(found.map((d) => [d.agent.id, d.evidence])).toEqual([
      ['claude-code', 'CLAUDE.md'],
      ['cursor', '.cursor'],
    ]);
  });

  it('chooses: --agent ids, all = every detected one, none given = detected, else the shared folder', async () => {
    const root = temp();
    const scope = { kind: 'project' as const, root };
    const none = await chooseAgents(undefined, scope);
    expect(none).toMatchObject({ how: 'fallback' });
    expect(foldersOf(none.agents, scope)).toEqual(['.agents/skills']);
    await expect(chooseAgents(['all'], scope)).rejects.toThrow(/no agent detected/);
    mkdirSync(path.join(root, '.windsurf'));
    writeFileSync(path.join(root, '.clinerules'), '');
    expect(foldersOf((await chooseAgents(undefined, scope)).agents, scope)).toEqual([
      '.windsurf/skills',
      '.cline/skills',
    ]);
    expect(foldersOf((await chooseAgents(['all'], scope)).agents, scope)).toEqual([
      '.windsurf/skills',
      '.cline/skills',
    ]);
    const given = await chooseAgents(['codex,agents', 'cursor'], scope);
    expect(given.how).toBe('given');
    // Codex and the shared folder are one folder.
    expect(foldersOf(given.agents, scope)).toEqual(['.agents/skills', '.cursor/skills']);
    await expect(chooseAgents(['vim'], scope)).rejects.toThrow(
      /unknown agent "vim": expected one of claude-code/,
    );
  });

  it('finds the project root: the lock file, else the repository root, else the working folder', async () => {
    const repo = temp();
    mkdirSync(path.join(repo, '.git'));
    const deep = path.join(repo, 'packages', 'app', 'src');
    mkdirSync(deep, { recursive: true });
    expect(await findProjectRoot(deep)).toBe(repo);
    writeFileSync(path.join(repo, 'packages', 'app', LOCK_FILE_NAME), renderLock(emptyLock()));
    expect(await findProjectRoot(deep)).toBe(path.join(repo, 'packages', 'app'));
    const plain = temp();
    expect(await findProjectRoot(plain)).toBe(plain);
  });

  it.each([
    ['pdf-tools', { name: 'pdf-tools' }],
    ['pdf-tools@9B1D4F0C', { name: 'pdf-tools', revision: '9b1d4f0c' }],
  ])('parses %s', (spec, expected) => {
    expect(parseSkillSpec(spec)).toEqual(expected);
  });

  it.each(['pdf tools', 'pdf@xyz', '@abc', 'a@12'])('refuses %s', (spec) => {
    expect(() => parseSkillSpec(spec)).toThrow(CliError);
  });
});

describe('lock file', () => {
  const entry = {
    server: 'http://127.0.0.1:1933',
    root_uri: 'viking://user/default/skills',
    name: 'b-skill',
    revision: 'a'.repeat(64),
    folders: ['.cursor/skills', '.claude/skills', '.cursor/skills'],
    files: [
      { path: 'z.txt', sha256: 'b'.repeat(64), size: 3 },
      { path: 'SKILL.md', sha256: 'c'.repeat(64), size: 10 },
    ],
  };

  it('is written deterministically: skills by name, folders and files sorted, a trailing newline', async () => {
    const dir = temp();
    const file = path.join(dir, LOCK_FILE_NAME);
    const lock = emptyLock();
    lock.skills['b-skill'] = entry;
    lock.skills['a-skill'] = { ...entry, name: 'a-skill' };
    await writeLock(file, lock);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed.skills)).toEqual(['a-skill', 'b-skill']);
    expect(parsed.skills['b-skill'].folders).toEqual(['.claude/skills', '.cursor/skills']);
    expect(parsed.skills['b-skill'].files.map((f: { path: string }) => f.path)).toEqual([
      'SKILL.md',
      'z.txt',
    ]);
    expect(await readLock(file)).toEqual(parsed);
    expect(renderLock(parsed)).toBe(text);
    expect(readdirSync(dir)).toEqual([LOCK_FILE_NAME]); // no temporary file left
  });

  it('reads a lock saved with a byte order mark and CRLF line ends (Windows editors, PowerShell 5)', async () => {
    const file = path.join(temp(), LOCK_FILE_NAME);
    const lock = emptyLock();
    lock.skills['b-skill'] = entry;
    writeFileSync(file, `\uFEFF${renderLock(lock).replaceAll('\n', '\r\n')}`);
    expect(await readLock(file)).toEqual(JSON.parse(renderLock(lock)));
  });

  it('a missing file is null', async () => {
    expect(await readLock(path.join(temp(), LOCK_FILE_NAME))).toBeNull();
  });

  it('saves only what a command changed: commands that read the same lock and save at once keep the skills of the others', async () => {
    const file = path.join(temp(), LOCK_FILE_NAME);
    const start = emptyLock();
    start.skills.kept = { ...entry, name: 'kept' };
    start.skills.gone = { ...entry, name: 'gone' };
    await writeLock(file, start);
    // Each command read `start`; one adds a skill, one changes `kept`, one removes `gone`, all at once.
    const commands = ['one', 'two', 'three', 'four', 'five'].map((name) => {
      const lock = structuredClone(start);
      lock.skills[name] = { ...entry, name };
      return lock;
    });
    const changed = structuredClone(start);
    changed.skills.kept = { ...entry, name: 'kept', revision: 'd'.repeat(64) };
    const removed = structuredClone(start);
    delete removed.skills.gone;
    await Promise.all([...commands, changed, removed].map((lock) => saveLock(file, start, lock)));
    const saved = await readLock(file);
    expect(Object.keys(saved?.skills ?? {})).toEqual(['five', 'four', 'kept', 'one', 'three', 'two']);
    expect(saved?.skills.kept?.revision).toBe('d'.repeat(64));
    expect(readdirSync(path.dirname(file))).toEqual([LOCK_FILE_NAME]); // the hold is given back
  });

  it('a hold left by a process that is gone is taken over; a live one is waited for', async () => {
    const file = path.join(temp(), LOCK_FILE_NAME);
    const lock = emptyLock();
    lock.skills.solo = { ...entry, name: 'solo' };
    // No process has id 2^22 + 1 (above Linux's pid_max default of 2^22).
    writeFileSync(`${file}.hold`, `4194305 ${os.hostname()}\n`);
    expect(Object.keys((await saveLock(file, emptyLock(), lock)).skills)).toEqual(['solo']);
    expect(existsSync(`${file}.hold`)).toBe(false);
    // This process holds it: the save waits until the hold is given back.
    writeFileSync(`${file}.hold`, `${process.pid} ${os.hostname()}\n`);
    const next = structuredClone(lock);
    next.skills.after = { ...entry, name: 'after' };
    let saved = false;
    const saving = saveLock(file, lock, next).then(() => {
      saved = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(saved).toBe(false);
    rmSync(`${file}.hold`);
    await saving;
    expect(Object.keys((await readLock(file))?.skills ?? {})).toEqual(['after', 'solo']);
  });

  it.each([
    ['not JSON', '{', /not valid JSON/],
    [
      'a newer version',
      JSON.stringify({ lockfileVersion: 2, skills: {} }),
      /lockfileVersion 2; this skillport reads version 1 \(upgrade skillport\)/,
    ],
    ['no version', JSON.stringify({ skills: {} }), /lockfileVersion undefined/],
    [
      'a bad hash',
      JSON.stringify({ lockfileVersion: 1, skills: { 'b-skill': { ...entry, revision: 'xyz' } } }),
      /malformed at skills\.b-skill\.revision/,
    ],
    [
      'a key naming another skill',
      JSON.stringify({ lockfileVersion: 1, skills: { other: entry } }),
      /the entry "other" names the skill "b-skill"/,
    ],
    [
      'a file path leaving the skill folder',
      JSON.stringify({
        lockfileVersion: 1,
        skills: {
          'b-skill': { ...entry, files: [{ path: '../../.bashrc', sha256: 'b'.repeat(64), size: 1 }] },
        },
      }),
      /malformed at skills\.b-skill\.files\.0\.path/,
    ],
    [
      'a folder outside the project',
      JSON.stringify({ lockfileVersion: 1, skills: { 'b-skill': { ...entry, folders: ['../elsewhere'] } } }),
      /malformed at skills\.b-skill\.folders\.0/,
    ],
    [
      'an absolute folder',
      JSON.stringify({ lockfileVersion: 1, skills: { 'b-skill': { ...entry, folders: ['/etc/skills'] } } }),
      /malformed at skills\.b-skill\.folders\.0/,
    ],
  ])('refuses %s, naming the file', async (_label, text, message) => {
    const file = path.join(temp(), LOCK_FILE_NAME);
    writeFileSync(file, text);
    const error = await readLock(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(message);
  });
});

describe('lock folders and entries', () => {
  it('resolves a project folder inside the project and refuses one outside it or in the home folder', () => {
    const root = temp();
    const project = { kind: 'project' as const, root };
    expect(resolveFolder('.claude/skills', project)).toBe(path.join(root, '.claude', 'skills'));
    expect(() => resolveFolder('../other/skills', project)).toThrow(
      /outside the project: \.\.\/other\/skills/,
    );
    expect(() => resolveFolder('~/.claude/skills', project)).toThrow(/names a folder of the home folder/);
    const user = userScope({ HOME: root, XDG_CONFIG_HOME: path.join(root, '.config') });
    expect(resolveFolder('~/.claude/skills', user)).toBe(path.join(root, '.claude', 'skills'));
    expect(() => resolveFolder('.claude/skills', user)).toThrow(/user lock file names a project folder/);
  });

  it('an entry keeps the folders installed before, pins the new revision and files, and trims the URL', () => {
    const previous = {
      server: 'http://registry.example',
      root_uri: 'viking://user/default/skills',
      name: 'notes',
      revision: 'a'.repeat(64),
      folders: ['.claude/skills'],
      files: [{ path: 'SKILL.md', sha256: 'b'.repeat(64), size: 4 }],
    };
    const remote = {
      name: 'notes',
      rootUri: 'viking://user/default/skills',
      revision: 'c'.repeat(64),
      files: [
        { path: 'SKILL.md', sha256: 'd'.repeat(64), size: 5 },
        { path: 'ref/guide.md', sha256: 'e'.repeat(64), size: 6 },
      ],
    };
    expect(lockEntry('http://registry.example/', remote, ['.cursor/skills'], previous)).toEqual({
      server: 'http://registry.example',
      root_uri: 'viking://user/default/skills',
      name: 'notes',
      revision: 'c'.repeat(64),
      folders: ['.claude/skills', '.cursor/skills'],
      files: remote.files,
    });
  });
});

describe('skill folders', () => {
  const files = new Map<string, Uint8Array>([
    ['SKILL.md', new TextEncoder().encode(md('demo'))],
    ['scripts/run.sh', new TextEncoder().encode('#!/bin/sh\n')],
    ['bin/data.bin', new Uint8Array([0, 255, 1])],
  ]);
  const digests = [...files].map(([p, b]) => ({ path: p, sha256: sha(b), size: b.byteLength }));

  it.runIf(process.platform === 'linux')(
    'an install target or lock folder that cannot be created fails at once, naming it (/proc)',
    async () => {
      const refused = writeSkillFolder('/proc/skillport-nope/skills', 'demo', files);
      await expect(refused).rejects.toBeInstanceOf(CliError);
      await expect(refused).rejects.toThrow(
        'cannot create the folder /proc/skillport-nope/skills: /proc exists',
      );
      await expect(writeLock('/proc/skillport-nope/skillport.lock', emptyLock())).rejects.toThrow(
        'cannot create the folder /proc/skillport-nope',
      );
    },
  );

  it('writes a folder whole and reads it back as intact; edits, additions and removals are seen', async () => {
    const skills = path.join(temp(), '.claude', 'skills');
    await writeSkillFolder(skills, 'demo', files);
    const dir = path.join(skills, 'demo');
    expect(await readFolderState(dir, digests)).toEqual({ kind: 'intact' });
    expect([...readFileSync(path.join(dir, 'bin/data.bin'))]).toEqual([0, 255, 1]);
    expect(readdirSync(path.dirname(skills))).toEqual(['skills']); // no temporary folder left beside it
    writeFileSync(path.join(dir, 'SKILL.md'), 'edited');
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    rmSync(path.join(dir, 'scripts/run.sh'));
    expect(await readFolderState(dir, digests)).toEqual({
      kind: 'modified',
      changed: ['SKILL.md'],
      added: ['notes.txt'],
      removed: ['scripts/run.sh'],
    });
    expect(await readFolderState(path.join(skills, 'other'), digests)).toEqual({ kind: 'missing' });
    // A part of the path is a file: no folder there either (not an error).
    expect(await readFolderState(path.join(dir, 'SKILL.md', 'demo'), digests)).toEqual({ kind: 'missing' });
    expect(await readFolderState(dir, null)).toMatchObject({ kind: 'foreign' });
  });

  it('line endings converted by git (core.autocrlf) are not edits; other byte changes still are', async () => {
    const crlf = (text: string) => text.replace(/\n/g, '\r\n');
    const lfText = { 'SKILL.md': md('demo'), 'scripts/run.sh': '#!/bin/sh\necho hi\n' };
    const crlfText = { 'notes.txt': 'served\r\nwith CRLF\r\n' };
    const served = new Map<string, Uint8Array>(
      [
        ...Object.entries(lfText),
        ...Object.entries(crlfText),
        // Binary (it holds a NUL byte): its byte 10 is data, so no line-ending conversion applies.
        ['bin/data.bin', '\0x\ny'],
      ].map(([p, t]) => [p as string, new TextEncoder().encode(t)] as const),
    );
    const locked = [...served].map(([p, b]) => ({ path: p, sha256: sha(b), size: b.byteLength }));
    const skills = path.join(temp(), 'skills');
    await writeSkillFolder(skills, 'demo', served);
    const dir = path.join(skills, 'demo');
    // A Windows checkout with core.autocrlf=true: LF files arrive with CRLF.
    for (const [file, text] of Object.entries(lfText)) writeFileSync(path.join(dir, file), crlf(text));
    // A checkout with core.autocrlf=input or false of a file git stored normalized: CRLF became LF.
    writeFileSync(path.join(dir, 'notes.txt'), 'served\nwith CRLF\n');
    expect(await readFolderState(dir, locked)).toEqual({ kind: 'intact' });
    // A binary file is compared byte for byte.
    writeFileSync(path.join(dir, 'bin/data.bin'), '\0x\r\ny');
    // A real edit stays an edit, whatever its line endings; so does a line ending added or removed.
    writeFileSync(path.join(dir, 'SKILL.md'), crlf(`${md('demo')}More.\n`));
    writeFileSync(path.join(dir, 'scripts/run.sh'), '#!/bin/sh\r\necho hi\r\n\r\n');
    const state = await readFolderState(dir, locked);
    expect(state.kind === 'modified' && [...state.changed].sort()).toEqual([
      'SKILL.md',
      'bin/data.bin',
      'scripts/run.sh',
    ]);
  });

  it('a write that fails leaves the previous folder as it was and no temporary folder', async () => {
    const skills = path.join(temp(), 'skills');
    await writeSkillFolder(skills, 'demo', files);
    // `a` as a file and as a folder cannot both be written.
    const broken = new Map<string, Uint8Array>([
      ['SKILL.md', new TextEncoder().encode('new')],
      ['a', new Uint8Array([1])],
      ['a/b', new Uint8Array([2])],
    ]);
    await expect(writeSkillFolder(skills, 'demo', broken)).rejects.toThrow(/previous state was kept/);
    expect(await readFolderState(path.join(skills, 'demo'), digests)).toEqual({ kind: 'intact' });
    expect(readdirSync(path.dirname(skills)).sort()).toEqual(['skills']);
  });

  it('several folders: one that cannot be written leaves the others as they were (bytes and modes)', async () => {
    const root = temp();
    const first = path.join(root, '.claude', 'skills');
    const second = path.join(root, '.gemini', 'skills');
    const executable = new Set(['scripts/run.sh']);
    expect(await writeSkillFolders([first, second], 'demo', files, executable)).toEqual([
      { kind: 'written' },
      { kind: 'written' },
    ]);
    const modes = () =>
      [...files.keys()].map((file) => statSync(path.join(first, 'demo', ...file.split('/'))).mode & 0o777);
    const before = modes();
    // The second skills folder's path runs through a file: it cannot be created, not even by root.
    rmSync(path.join(root, '.gemini'), { recursive: true });
    writeFileSync(path.join(root, '.gemini'), 'a file');
    const next = new Map([...files].map(([file, bytes]) => [file, new Uint8Array([...bytes, 33])] as const));
    const results = await writeSkillFolders([first, second], 'demo', next, new Set());
    expect(results[0]).toEqual({ kind: 'untouched' });
    expect(results[1]).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/\.gemini is a file/) });
    expect(await readFolderState(path.join(first, 'demo'), digests)).toEqual({ kind: 'intact' });
    expect(modes()).toEqual(before);
    expect(readdirSync(root).sort()).toEqual(['.claude', '.gemini']);
    expect(readdirSync(path.join(root, '.claude'))).toEqual(['skills']);
  });

  it('replacing a folder leaves no trace of the old one', async () => {
    const skills = path.join(temp(), 'skills');
    await writeSkillFolder(skills, 'demo', files);
    await writeSkillFolder(skills, 'demo', new Map([['SKILL.md', new TextEncoder().encode(md('demo'))]]));
    expect(readdirSync(path.join(skills, 'demo'))).toEqual(['SKILL.md']);
    expect(readdirSync(path.dirname(skills))).toEqual(['skills']);
  });
});

describe('bulk add inputs', () => {
  it('expands folders of skill folders (not looking inside a skill), tools lists and files; finds collisions', async () => {
    const dir = temp();
    const put = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    };
    put('collection/alpha/SKILL.md', md('alpha'));
    put('collection/alpha/examples/nested/SKILL.md', md('not-a-skill-of-its-own'));
    put('collection/group/beta/SKILL.md', md('beta'));
    put('collection/group/beta-copy/SKILL.md', md('beta'));
    put('collection/broken/SKILL.md', 'no frontmatter');
    put('collection/node_modules/x/SKILL.md', md('ignored'));
    put('collection/.hidden/SKILL.md', md('ignored-too'));
    put('single/SKILL.md', md('gamma'));
    put(
      'tools.json',
      JSON.stringify({
        tools: [
          { name: 'search_web', description: 'Search', inputSchema: { type: 'object' } },
          { name: 'read_file', description: 'Read', inputSchema: { type: 'object' } },
        ],
      }),
    );
    writeFileSync(
      path.join(dir, 'delta.zip'),
      zipSync({ 'delta/SKILL.md': new TextEncoder().encode(md('delta')) }),
    );
    const io = memoryIo({ cwd: dir });
    const items = await expandInputs(io, ['collection/', 'single', 'tools.json', 'delta.zip', md('epsilon')]);
    expect(items.map((i) => [i.label, i.name])).toEqual([
      ['collection/alpha', 'alpha'],
      ['collection/broken', null],
      ['collection/group/beta', 'beta'],
      ['collection/group/beta-copy', 'beta'],
      ['single', 'gamma'],
      ['tools.json#search_web', 'search-web'],
      ['tools.json#read_file', 'read-file'],
      ['delta.zip', 'delta'],
      ['content', 'epsilon'],
    ]);
    const collisions = findCollisions(items);
    // The later input of a name is the collision; the first one keeps it.
    expect([...collisions.entries()].map(([item, earlier]) => [item.label, earlier.label])).toEqual([
      ['collection/group/beta-copy', 'collection/group/beta'],
    ]);
  });

  it('reports each folder of a folder of skill folders that it does not add, and why', async () => {
    const dir = temp();
    const put = (rel: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      writeFileSync(path.join(dir, rel), text);
    };
    put('coll/alpha/SKILL.md', md('alpha'));
    put('coll/alpha/notes/readme.md', 'inside a skill: part of it, not reported');
    put('coll/docs/readme.md', '# no skill');
    put('coll/docs/img/logo.txt', 'deeper, still no skill: reported once, as docs/');
    put('coll/group/beta/SKILL.md', md('beta'));
    put('coll/group/assets/a.txt', 'a folder without SKILL.md next to a skill folder');
    put('coll/.claude/skills/gamma/SKILL.md', md('gamma'));
    put('coll/node_modules/x/SKILL.md', md('never-searched'));
    put(`coll/${Array.from({ length: 9 }, (_, i) => `d${i}`).join('/')}/SKILL.md`, md('too-deep'));
    const skipped: Array<{ path: string; reason: string }> = [];
    const items = await expandInputs(memoryIo({ cwd: dir }), ['coll'], {
      onSkippedFolder: (folder) => skipped.push({ path: folder.path, reason: folder.reason }),
    });
    expect(items.map((i) => i.label)).toEqual(['coll/alpha', 'coll/group/beta']);
    expect(skipped).toEqual([
      { path: 'coll/.claude/', reason: 'hidden' },
      { path: `coll/${Array.from({ length: 8 }, (_, i) => `d${i}`).join('/')}/`, reason: 'too_deep' },
      { path: 'coll/docs/', reason: 'no_skill_md' },
      { path: 'coll/group/assets/', reason: 'no_skill_md' },
    ]);
  });

  it('under name policy slug, a name outside the rule collides with the slug it is stored under', async () => {
    const io = memoryIo({ cwd: temp() });
    const items = await expandInputs(io, [
      md('elevenlabs-automation'),
      md('"ElevenLabs Automation"'),
      md('"検索"'),
      md('"検索"'),
    ]);
    expect(items.map((i) => [i.name, i.slug])).toEqual([
      ['elevenlabs-automation', undefined],
      [null, 'elevenlabs-automation'],
      [null, undefined],
      [null, undefined],
    ]);
    // strict (the default): the spaced name is refused by the server itself, so no collision here.
    expect(findCollisions(items).size).toBe(0);
    const slug = findCollisions(items, 'slug');
    expect(
      [...slug.entries()].map(([item, earlier]) => [items.indexOf(item), items.indexOf(earlier)]),
    ).toEqual([[1, 0]]);
  });

  it('a folder without skills but with tool files adds each tool file; an empty one is an error', async () => {
    const dir = temp();
    mkdirSync(path.join(dir, 'mcp'));
    writeFileSync(
      path.join(dir, 'mcp', 'one.json'),
      JSON.stringify({ name: 'one_tool', description: 'One', inputSchema: { type: 'object' } }),
    );
    mkdirSync(path.join(dir, 'empty'));
    const io = memoryIo({ cwd: dir });
    expect((await expandInputs(io, ['mcp'])).map((i) => [i.label, i.name])).toEqual([
      ['mcp/one.json', 'one-tool'],
    ]);
    await expect(expandInputs(io, ['empty'])).rejects.toThrow(/no SKILL.md in empty/);
    expect(existsSync(path.join(dir, 'empty'))).toBe(true);
  });

  // As add refuses such a file given by path: stdin is never decoded with replacement characters.
  it.each([
    [
      'Latin-1',
      Buffer.from('---\nname: latin\ndescription: caf\u00e9 skill\n---\n', 'latin1'),
      /^stdin is not valid UTF-8 at line 3, column 17 \(byte offset 32\); save it as UTF-8$/,
    ],
    [
      'UTF-16LE',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\nname: u16\n', 'utf16le')]),
      /^stdin is UTF-16LE, not UTF-8; save it as UTF-8$/,
    ],
  ])('"-" with %s bytes on stdin is refused before anything is sent', async (_label, bytes, message) => {
    const { resolveSource } = await import('../../src/internal/source.js');
    await expect(expandInputs(memoryIo({ cwd: temp(), input: bytes }), ['-'])).rejects.toThrow(message);
    await expect(resolveSource(memoryIo({ cwd: temp(), input: bytes }), '-')).rejects.toThrow(message);
  });

  it('"-" with UTF-8 on stdin (a byte order mark kept) is the SKILL.md text', async () => {
    const text = '\ufeff---\nname: caf\u00e9-ok\ndescription: d\n---\n';
    const [item] = await expandInputs(memoryIo({ cwd: temp(), input: Buffer.from(text) }), ['-']);
    expect(item?.source).toBe(text);
  });

  it('a folder whose skill file is skill.md or Skill.md names it: agents read only SKILL.md', async () => {
    const dir = temp();
    mkdirSync(path.join(dir, 'lower'));
    writeFileSync(path.join(dir, 'lower', 'skill.md'), '---\nname: lower\ndescription: d\n---\n');
    mkdirSync(path.join(dir, 'coll', 'one'), { recursive: true });
    writeFileSync(path.join(dir, 'coll', 'one', 'Skill.md'), '---\nname: one\ndescription: d\n---\n');
    const io = memoryIo({ cwd: dir });
    await expect(expandInputs(io, ['lower'])).rejects.toThrow(
      /no SKILL.md in lower .*; found lower\/skill.md: the file must be named SKILL.md, in capitals/,
    );
    await expect(expandInputs(io, ['coll'])).rejects.toThrow(
      /found coll\/one\/Skill.md: the file must be named/,
    );
  });
});
