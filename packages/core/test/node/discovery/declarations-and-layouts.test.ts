import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateSkill } from '../../../src/index.js';
import { discoverSkills } from '../../../src/node/index.js';
import { skillMd, type TreeSpec, tempDir, writeTree } from '../fixture-tree.js';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.map((cleanup) => cleanup()));
  cleanups = [];
});

async function project(spec: TreeSpec): Promise<string> {
  const { dir, cleanup } = await tempDir('layout');
  cleanups.push(cleanup);
  await writeTree(dir, { 'package.json': { name: 'app', version: '0.0.0' }, ...spec });
  return dir;
}

describe('declared skills: shapes and refusals', () => {
  it.each([
    {
      case: 'a string naming a folder of skill folders',
      skills: './skills',
      names: ['a-skill', 'b-skill'],
      kinds: [],
    },
    {
      case: 'an array entry that is a folder without SKILL.md inside',
      skills: ['./docs'],
      names: [],
      kinds: ['missing_path'],
    },
    {
      case: 'non-string entries',
      skills: ['./skills/a', 42, { path: './x' }],
      names: ['a-skill'],
      kinds: ['invalid_declaration', 'invalid_declaration'],
    },
    { case: 'a number', skills: 7, names: [], kinds: ['invalid_declaration'] },
    { case: 'an absolute path', skills: ['/etc/passwd'], names: [], kinds: ['path_escape'] },
    { case: 'a symlink escaping the package', skills: ['./escape'], names: [], kinds: ['path_escape'] },
    {
      case: 'a symlinked SKILL.md escaping the package',
      skills: ['./sneaky'],
      names: [],
      kinds: ['path_escape'],
    },
  ])('$case', async ({ skills, names, kinds }) => {
    const root = await project({
      'node_modules/pkg/package.json': { name: 'pkg', version: '1.0.0', skills },
      'node_modules/pkg/skills/a/SKILL.md': skillMd('a-skill'),
      'node_modules/pkg/skills/b/SKILL.md': skillMd('b-skill'),
      'node_modules/pkg/docs/readme.md': 'docs',
      'node_modules/pkg/escape': { symlink: '../../outside' },
      'node_modules/pkg/sneaky/SKILL.md': { symlink: '../../../outside/SKILL.md' },
      'outside/SKILL.md': skillMd('outside-skill'),
    });
    const result = await discoverSkills({ cwd: root, shipped: false, cache: false });
    expect(result.skills.map((s) => s.name)).toEqual(names);
    expect(result.diagnostics.map((d) => d.kind)).toEqual(kinds);
    for (const d of result.diagnostics) expect(d.message.startsWith('pkg: ')).toBe(true);
  });

  it('uses the frontmatter name when a map key differs, with a warning; the key names a nameless skill', async () => {
    const root = await project({
      'node_modules/pkg/package.json': {
        name: 'pkg',
        version: '1.0.0',
        skills: { 'pdf-tools': './pdf/SKILL.md', nameless: './nameless/SKILL.md' },
      },
      'node_modules/pkg/pdf/SKILL.md': skillMd('pdf', 'Read, fill in and merge PDF files'),
      'node_modules/pkg/nameless/SKILL.md': '---\ndescription: Has no name of its own\n---\nBody\n',
    });
    const { skills, diagnostics } = await discoverSkills({ cwd: root, shipped: false, cache: false });
    expect(diagnostics).toEqual([]);
    expect(skills.map((s) => s.name)).toEqual(['pdf', 'nameless']);
    expect(skills[0]?.issues).toEqual([
      expect.objectContaining({
        rule: 'declared_name_mismatch',
        severity: 'warning',
        field: 'name',
        fix: 'pdf-tools',
      }),
    ]);
    // Named by its declaration: no name_required, though its frontmatter has no name.
    expect(skills[1]?.issues).toEqual([]);
  });

  it("gives each skill validate's verdict on its file, its folder's name as dirName", async () => {
    const text = '---\nname: Bad Name\ndescription: A skill whose name holds a space\n---\n\n# Bad\n';
    const long = `---\nname: long\ndescription: ${'word '.repeat(300).trim()}\n---\n\nBody\n`;
    const root = await project({ 'skills/bad/SKILL.md': text, 'skills/long/SKILL.md': long });
    const { skills, diagnostics } = await discoverSkills({ cwd: root, paths: ['skills'], cache: false });
    expect(diagnostics).toEqual([]);
    const issuesOf = (name: string) => skills.find((s) => s.name === name)?.issues;
    const verdict = validateSkill(text, { dirName: 'bad' });
    expect(issuesOf('Bad Name')).toEqual([...verdict.errors, ...verdict.warnings]);
    expect(issuesOf('Bad Name')?.map((i) => i.rule)).toEqual(
      expect.arrayContaining(['name_allowed_characters', 'name_matches_directory', 'name_kebab_case']),
    );
    expect(issuesOf('long')?.map((i) => [i.rule, i.line])).toEqual([['description_max_length', 3]]);
  });

  it.each([
    { case: 'no description', text: '---\nname: x\n---\nBody\n', rules: ['description_required'] },
    { case: 'blank name', text: '---\nname: "  "\ndescription: d\n---\n', rules: ['name_required'] },
    { case: 'no frontmatter', text: 'Just text\n', rules: ['yaml_format'] },
  ])('reports an unusable SKILL.md ($case) as parse_error with its issues', async ({ text, rules }) => {
    const root = await project({ 'skills/x/SKILL.md': text });
    const { skills, diagnostics } = await discoverSkills({ cwd: root, paths: ['skills'], cache: false });
    expect(skills).toEqual([]);
    expect(diagnostics.map((d) => d.kind)).toEqual(['parse_error']);
    expect(diagnostics[0]?.issues?.map((i) => i.rule)).toEqual(rules);
  });
});

describe('installed-package layouts', () => {
  it('reads pnpm-workspace.yaml members and their node_modules, skipping nested node_modules', async () => {
    const root = await project({
      'pnpm-workspace.yaml': "packages:\n  - 'apps/*'\n  - 'libs/**'\n  - '!libs/private'\n",
      'apps/web/package.json': { name: 'web', version: '1.0.0' },
      'apps/web/node_modules/web-dep': {
        symlink: '../../../node_modules/.pnpm/web-dep@2.0.0/node_modules/web-dep',
      },
      'node_modules/.pnpm/web-dep@2.0.0/node_modules/web-dep/package.json': {
        name: 'web-dep',
        version: '2.0.0',
      },
      'node_modules/.pnpm/web-dep@2.0.0/node_modules/web-dep/SKILL.md': skillMd('web-dep-skill'),
      'node_modules/.pnpm/web-dep@2.0.0/node_modules/web-dep/node_modules/inner/SKILL.md': skillMd('inner'),
      'node_modules/.pnpm/node_modules/hoisted': { symlink: '../web-dep@2.0.0/node_modules/web-dep' },
      'libs/deep/one/package.json': {
        name: 'lib-one',
        version: '0.1.0',
        skills: { 'lib-skill': './s/SKILL.md' },
      },
      'libs/deep/one/s/SKILL.md': skillMd('lib-skill'),
      'libs/private/package.json': { name: 'private-lib', version: '0.1.0', skills: ['./s'] },
      'libs/private/s/SKILL.md': skillMd('private-skill'),
    });
    const { skills, diagnostics, stats } = await discoverSkills({ cwd: root, cache: false });
    expect(diagnostics).toEqual([]);
    expect(skills.map((s) => [s.name, s.source.strategy, s.source.package])).toEqual([
      ['lib-skill', 'declared', 'lib-one'],
      ['web-dep-skill', 'shipped', 'web-dep'],
    ]);
    expect(stats.packagesScanned).toBe(4); // app, web, lib-one, web-dep
  });

  it('does not follow a symlinked SKILL.md or folder inside an installed package', async () => {
    const root = await project({
      'node_modules/pkg/package.json': { name: 'pkg', version: '1.0.0' },
      'node_modules/pkg/SKILL.md': { symlink: '../../outside/SKILL.md' },
      'node_modules/pkg/linked-dir': { symlink: '../../outside' },
      'outside/SKILL.md': skillMd('outside-skill'),
    });
    const { skills, diagnostics } = await discoverSkills({ cwd: root, cache: false });
    expect(skills).toEqual([]);
    expect(diagnostics).toEqual([]);
  });

  it('bounds the scan of one package by depth and by entries', async () => {
    const spec: TreeSpec = { 'node_modules/big/package.json': { name: 'big', version: '1.0.0' } };
    for (let i = 0; i < 30; i++) spec[`node_modules/big/files/f${i}.txt`] = 'x';
    spec['node_modules/big/a/b/c/d/SKILL.md'] = skillMd('deep');
    const root = await project(spec);
    const shallow = await discoverSkills({ cwd: root, cache: false, maxDepth: 3 });
    expect(shallow.skills).toEqual([]);
    const deepEnough = await discoverSkills({ cwd: root, cache: false, maxDepth: 4 });
    expect(deepEnough.skills.map((s) => s.name)).toEqual(['deep']);
    const truncated = await discoverSkills({ cwd: root, cache: false, maxEntriesPerPackage: 10 });
    expect(truncated.diagnostics.map((d) => [d.kind, d.source.package])).toEqual([['limit_reached', 'big']]);
    expect(path.isAbsolute(truncated.diagnostics[0]?.path ?? '')).toBe(true);
  });
});
