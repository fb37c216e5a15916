import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/index.js';
import { scanSkillFiles } from '../../src/internal/find-skill-files.js';
import { memoryIo } from '../support/memory-io.js';

let dir: string;
let outside: string;
const skill = (name: string, description = 'A skill of the folder-search tests') =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`;
const write = (rel: string, text: string) => {
  mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  writeFileSync(path.join(dir, rel), text);
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-find-'));
  outside = mkdtempSync(path.join(os.tmpdir(), 'skillport-outside-'));
  // A repository with a root skill, skills below it (one broken), skills in a dot folder, links.
  write('repo/SKILL.md', skill('repo'));
  write('repo/skills/alpha/SKILL.md', skill('alpha'));
  write('repo/skills/broken/SKILL.md', '---\nname: broken\n---\n');
  write('repo/.claude/skills/dotted/SKILL.md', skill('dotted'));
  write('repo/node_modules/dep/SKILL.md', skill('dep'));
  write('shared/linked/SKILL.md', skill('linked'));
  mkdirSync(path.join(outside, 'elsewhere'));
  writeFileSync(path.join(outside, 'elsewhere/SKILL.md'), skill('elsewhere'));
  symlinkSync(path.join(dir, 'shared/linked'), path.join(dir, 'repo/skills/linked'));
  symlinkSync(path.join(dir, 'repo/skills'), path.join(dir, 'repo/skills/loop'));
  symlinkSync(path.join(dir, 'repo/skills/gone'), path.join(dir, 'repo/skills/dangling'));
  symlinkSync(path.join(outside, 'elsewhere'), path.join(dir, 'repo/skills/escape'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('scanSkillFiles', () => {
  it('finds the root skill first, nested ones, dot folders, links inside the tree; reports the others', async () => {
    const scan = await scanSkillFiles(path.join(dir, 'repo'));
    const rel = (p: string) => path.relative(path.join(dir, 'repo'), p);
    expect(scan.files.map(rel)).toEqual([
      'SKILL.md',
      '.claude/skills/dotted/SKILL.md',
      'skills/alpha/SKILL.md',
      'skills/broken/SKILL.md',
    ]);
    expect(scan.skipped.map((s) => [rel(s.path), s.reason.split(' (')[0]])).toEqual([
      ['skills/dangling', 'broken symbolic link'],
      ['skills/escape', `symbolic link leads outside ${path.join(dir, 'repo')}`],
      ['skills/linked', `symbolic link leads outside ${path.join(dir, 'repo')}`],
    ]);
  });

  it('follows a link to a skill folder that stays inside the searched folder, once', async () => {
    const scan = await scanSkillFiles(dir);
    const rel = (p: string) => path.relative(dir, p);
    // Found through the link first; its real folder is not searched a second time.
    expect(scan.files.map(rel)).toContain('repo/skills/linked/SKILL.md');
    expect(scan.files.map(rel)).not.toContain('shared/linked/SKILL.md');
    expect(scan.files.filter((f) => f.endsWith(`alpha${path.sep}SKILL.md`))).toHaveLength(1);
  });
});

describe('skillport skills validate <repo>', () => {
  it('checks the nested skills too, exits 1 for the broken one and reports links not followed', async () => {
    const io = memoryIo({ cwd: dir, env: {} });
    const code = await runCli(['skills', 'validate', 'repo'], io);
    expect(code).toBe(1);
    expect(io.out()).toContain('repo/skills/broken/SKILL.md:1:1 error description_required');
    expect(io.out()).toContain('repo/skills/dangling warning link_not_followed broken symbolic link');
    expect(io.err()).toMatch(/^4 files checked: 3 valid, 1 with errors/m);
  });
});

describe('skillport discover --path agrees with validate', () => {
  const discover = async (...paths: string[]) => {
    const io = memoryIo({ cwd: dir, env: {} });
    const args = ['discover', '--no-declared', '--no-shipped', '--json'];
    for (const p of paths) args.push('--path', p);
    const code = await runCli(args, io);
    const found = JSON.parse(io.out()) as {
      skills: Array<{ name: string; path: string }>;
      diagnostics: Array<{ kind: string; severity: string; path: string }>;
    };
    // A skill lost (an error diagnostic: here the broken one) fails discover; its JSON is whole anyway.
    expect(code, io.err()).toBe(found.diagnostics.some((d) => d.severity === 'error') ? 1 : 0);
    return found;
  };
  const rel = (p: string) => path.relative(dir, p);

  it('finds what validate checks (nested skills, dot folders) and reports the same links', async () => {
    const validateIo = memoryIo({ cwd: dir, env: {} });
    await runCli(['-o', 'json', 'skills', 'validate', 'repo'], validateIo);
    const validated = JSON.parse(validateIo.out()) as {
      results: Array<{ file: string }>;
      skipped: Array<{ path: string }>;
    };
    const found = await discover('repo');
    // The broken skill is a parse_error diagnostic of discover; every other file validate checked is a skill.
    expect(found.skills.map((s) => rel(s.path))).toEqual(
      validated.results.map((r) => r.file).filter((f) => !f.includes('broken')),
    );
    expect(found.skills.map((s) => s.name)).toEqual(['repo', 'dotted', 'alpha']);
    expect(found.diagnostics).toContainEqual(
      expect.objectContaining({ kind: 'parse_error', path: path.join(dir, 'repo/skills/broken/SKILL.md') }),
    );
    const links = found.diagnostics.filter((d) => d.kind === 'missing_path' || d.kind === 'path_escape');
    expect(links.map((d) => [d.kind, rel(d.path)])).toEqual([
      ['missing_path', 'repo/skills/dangling'],
      ['path_escape', 'repo/skills/escape'],
      ['path_escape', 'repo/skills/linked'],
    ]);
    // Then what add would leave out of the root skill's folder (`repo`): the ignored node_modules and
    // the link inside it (`not_uploaded`), which discover has no reason to report.
    expect(validated.skipped.map((s) => s.path)).toEqual([
      ...links.map((d) => rel(d.path)),
      'repo/node_modules',
      'repo/skills/loop',
    ]);
  });

  it('follows a link that stays inside the searched folder, once', async () => {
    const found = await discover('.');
    expect(found.skills.map((s) => rel(s.path))).toContain('repo/skills/linked/SKILL.md');
    expect(found.skills.map((s) => rel(s.path))).not.toContain('shared/linked/SKILL.md');
    expect(found.skills.filter((s) => s.name === 'alpha')).toHaveLength(1);
    expect(found.diagnostics.filter((d) => d.kind === 'name_collision')).toEqual([]);
  });
});
