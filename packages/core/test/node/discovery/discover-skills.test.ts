import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAICompatibleModel, createSkillToolbox } from '../../../src/index.js';
import { createDiscoveryCache, type DiscoveryResult, discoverSkills } from '../../../src/node/index.js';
import { completion, startChatServer } from '../../toolbox/chat-server.js';
import { skillMd, tempDir, writeTree } from '../fixture-tree.js';

// One project exercising every strategy and layout: a workspace member, npm-style and scoped
// packages, pnpm's `.pnpm` store with symlinks, a package symlinked from elsewhere, a declared map,
// a declared array, an undeclared shipped skill, a broken SKILL.md, a declared path escaping its
// package, two packages with the same skill name and an untrusted package.
let root: string;
let cleanup: () => Promise<void>;
const nm = (...parts: string[]): string => path.join(root, 'node_modules', ...parts);

beforeAll(async () => {
  ({ dir: root, cleanup } = await tempDir('discover'));
  await writeTree(root, {
    'package.json': { name: 'app', version: '1.0.0', private: true, workspaces: ['packages/*'] },
    'packages/tools/package.json': { name: '@app/tools', version: '0.0.1', skills: ['./skills'] },
    'packages/tools/skills/lint/SKILL.md': skillMd('lint'),
    'packages/empty/README.md': 'not a package: no package.json',

    'node_modules/.bin/tool': '#!/bin/sh\n',
    'node_modules/declared-map/package.json': {
      name: 'declared-map',
      version: '1.2.3',
      skills: {
        pdf: './skills/pdf/SKILL.md',
        gone: './skills/gone/SKILL.md',
        outside: '../shipped-only/skills/x/SKILL.md',
      },
    },
    'node_modules/declared-map/skills/pdf/SKILL.md': skillMd('pdf', 'Read PDF files'),
    'node_modules/declared-array/package.json': {
      name: 'declared-array',
      version: '2.0.0',
      skills: ['./skills/a', './skills/b/SKILL.md'],
    },
    'node_modules/declared-array/skills/a/SKILL.md': skillMd('alpha'),
    'node_modules/declared-array/skills/b/SKILL.md': skillMd('beta'),
    'node_modules/shipped-only/package.json': { name: 'shipped-only', version: '0.1.0' },
    'node_modules/shipped-only/skills/x/SKILL.md': skillMd('xray'),
    'node_modules/shipped-only/skills/x/templates/SKILL.md': skillMd('template-inside-a-skill'),
    'node_modules/shipped-only/node_modules/nested/package.json': { name: 'nested', version: '1.0.0' },
    'node_modules/shipped-only/node_modules/nested/SKILL.md': skillMd('nested-dependency'),
    'node_modules/shipped-only/skill.md': skillMd('wrong-case'),
    'node_modules/broken/package.json': { name: 'broken', version: '1.0.0' },
    'node_modules/broken/skills/bad/SKILL.md': '# No frontmatter at all\n',
    'node_modules/@scope/pkg/package.json': {
      name: '@scope/pkg',
      version: '3.0.0',
      files: ['skills', 'dist/**'],
    },
    'node_modules/@scope/pkg/skills/scoped/SKILL.md': skillMd('scoped-skill'),
    'node_modules/@scope/pkg/test/fixtures/SKILL.md': skillMd('unpublished-fixture'),
    'node_modules/dup-a/package.json': { name: 'dup-a', version: '1.0.0' },
    'node_modules/dup-a/skills/s/SKILL.md': skillMd('same-name', 'From dup-a'),
    'node_modules/dup-b/package.json': { name: 'dup-b', version: '1.0.0' },
    'node_modules/dup-b/skills/s/SKILL.md': skillMd('same-name', 'From dup-b'),
    'node_modules/untrusted-pkg/package.json': {
      name: 'untrusted-pkg',
      version: '6.6.6',
      skills: ['./evil'],
    },
    'node_modules/untrusted-pkg/evil/SKILL.md': skillMd('evil'),
    'vendor/linked-pkg/package.json': { name: 'linked-pkg', version: '0.0.1' },
    'vendor/linked-pkg/skills/l/SKILL.md': skillMd('linked-skill'),
    'node_modules/linked': { symlink: '../vendor/linked-pkg' },

    'node_modules/.pnpm/pnpm-pkg@4.5.6/node_modules/pnpm-pkg/package.json': {
      name: 'pnpm-pkg',
      version: '4.5.6',
    },
    'node_modules/.pnpm/pnpm-pkg@4.5.6/node_modules/pnpm-pkg/skills/p/SKILL.md': skillMd('from-pnpm'),
    'node_modules/.pnpm/pnpm-pkg@4.5.6/node_modules/dep': { symlink: '../../dep@1.0.0/node_modules/dep' },
    'node_modules/.pnpm/dep@1.0.0/node_modules/dep/package.json': { name: 'dep', version: '1.0.0' },
    'node_modules/.pnpm/dep@1.0.0/node_modules/dep/skills/d/SKILL.md': skillMd('transitive'),
    'node_modules/pnpm-pkg': { symlink: '.pnpm/pnpm-pkg@4.5.6/node_modules/pnpm-pkg' },

    'extra/one/SKILL.md': skillMd('one'),
    'extra/two/SKILL.md': skillMd('two'),
    'extra/two/notes.md': 'aux',
    'extra-file.md': skillMd('single'),
  });
});
afterAll(async () => {
  await cleanup();
});

function summary(result: DiscoveryResult) {
  return {
    skills: result.skills.map((s) => [s.name, s.source.strategy, s.source.package ?? null]),
    diagnostics: result.diagnostics.map((d) => [
      d.kind,
      d.source.strategy,
      d.source.package ?? null,
      d.name ?? null,
    ]),
  };
}

const options = () => ({
  cwd: root,
  trust: (pkg: { name: string }) => pkg.name !== 'untrusted-pkg',
  paths: ['extra', 'extra-file.md', 'nope', 'node_modules/dup-a/skills/s'],
  cache: false as const,
});

describe('discoverSkills over a project with npm, pnpm, scoped, symlinked and workspace packages', () => {
  it('finds exactly the expected skills, in strategy then package order, with every diagnostic', async () => {
    const result = await discoverSkills(options());
    expect(summary(result)).toEqual({
      skills: [
        ['lint', 'declared', '@app/tools'],
        ['alpha', 'declared', 'declared-array'],
        ['beta', 'declared', 'declared-array'],
        ['pdf', 'declared', 'declared-map'],
        ['scoped-skill', 'shipped', '@scope/pkg'],
        ['transitive', 'shipped', 'dep'],
        ['same-name', 'shipped', 'dup-a'],
        ['linked-skill', 'shipped', 'linked-pkg'],
        ['from-pnpm', 'shipped', 'pnpm-pkg'],
        ['xray', 'shipped', 'shipped-only'],
        ['one', 'path', null],
        ['two', 'path', null],
        ['single', 'path', null],
      ],
      diagnostics: [
        ['missing_path', 'declared', 'declared-map', null],
        ['path_escape', 'declared', 'declared-map', null],
        ['untrusted', 'declared', 'untrusted-pkg', null],
        ['missing_path', 'path', null, null],
        ['parse_error', 'shipped', 'broken', null],
        ['name_collision', 'shipped', 'dup-b', 'same-name'],
      ],
    });
    expect(result.stats.packagesScanned).toBe(13);
  });

  it('records where each skill came from and what it says', async () => {
    const { skills } = await discoverSkills(options());
    const pdf = skills.find((s) => s.name === 'pdf');
    expect(pdf).toEqual({
      name: 'pdf',
      description: 'Read PDF files',
      body: '# pdf\n',
      path: nm('declared-map', 'skills', 'pdf', 'SKILL.md'),
      frontmatter: { name: 'pdf', description: 'Read PDF files' },
      tags: [],
      allowedTools: [],
      source: {
        strategy: 'declared',
        package: 'declared-map',
        version: '1.2.3',
        packageDir: nm('declared-map'),
      },
      // validate's verdict on the file (see the declarations test).
      issues: [expect.objectContaining({ rule: 'description_too_short', severity: 'warning', line: 3 })],
    });
    const fromPnpm = skills.find((s) => s.name === 'from-pnpm');
    expect(fromPnpm?.source).toEqual({
      strategy: 'shipped',
      package: 'pnpm-pkg',
      version: '4.5.6',
      packageDir: nm('.pnpm', 'pnpm-pkg@4.5.6', 'node_modules', 'pnpm-pkg'),
    });
    expect(skills.find((s) => s.name === 'linked-skill')?.path).toBe(
      path.join(root, 'vendor', 'linked-pkg', 'skills', 'l', 'SKILL.md'),
    );
    expect(skills.find((s) => s.name === 'single')?.path).toBe(path.join(root, 'extra-file.md'));
  });

  it('explains each diagnostic with paths and both origins of a collision', async () => {
    const { diagnostics } = await discoverSkills(options());
    const byKind = (kind: string) => diagnostics.filter((d) => d.kind === kind);
    expect(byKind('missing_path')[0]).toMatchObject({
      severity: 'error',
      path: nm('declared-map', 'skills', 'gone', 'SKILL.md'),
    });
    expect(byKind('missing_path')[0]?.message).toContain('"skills"."gone" does not exist');
    expect(byKind('path_escape')[0]?.message).toContain(
      '"skills"."outside" points outside the package folder',
    );
    expect(byKind('missing_path')[1]).toMatchObject({
      path: path.join(root, 'nope'),
      source: { strategy: 'path' },
    });
    expect(byKind('untrusted')[0]?.message).toContain('untrusted-pkg: 1 skill file(s) ignored');
    const parseError = byKind('parse_error')[0];
    expect(parseError?.path).toBe(nm('broken', 'skills', 'bad', 'SKILL.md'));
    expect(parseError?.issues?.map((i) => [i.rule, i.line])).toEqual([['yaml_format', 1]]);
    expect(parseError?.message).toContain('(line 1, column 1)');
    const collision = byKind('name_collision')[0];
    expect(collision?.path).toBe(nm('dup-b', 'skills', 's', 'SKILL.md'));
    expect(collision?.conflictsWith).toEqual({
      path: nm('dup-a', 'skills', 's', 'SKILL.md'),
      source: { strategy: 'shipped', package: 'dup-a', version: '1.0.0', packageDir: nm('dup-a') },
    });
    expect(collision?.message).toContain('dup-b@1.0.0');
    expect(collision?.message).toContain('dup-a@1.0.0');
  });

  it('takes an allow-list with scope wildcards', async () => {
    const result = await discoverSkills({ cwd: root, trust: ['@scope/*', 'dep'], cache: false });
    expect(result.skills.map((s) => s.name)).toEqual(['scoped-skill', 'transitive']);
    expect(result.diagnostics.filter((d) => d.kind === 'untrusted').map((d) => d.source.package)).toEqual([
      '@app/tools',
      'broken',
      'declared-array',
      'declared-map',
      'dup-a',
      'dup-b',
      'linked-pkg',
      'pnpm-pkg',
      'shipped-only',
      'untrusted-pkg',
    ]);
    expect(result.diagnostics.some((d) => d.kind === 'parse_error')).toBe(false);
  });

  it('asks the trust predicate about every package once, with its kind and real folder', async () => {
    const seen: Array<[string, string, string]> = [];
    await discoverSkills({
      cwd: root,
      cache: false,
      trust: (pkg) => {
        seen.push([pkg.name, pkg.version, pkg.kind]);
        return true;
      },
    });
    expect(seen.slice(0, 3)).toEqual([
      ['app', '1.0.0', 'workspace'],
      ['@app/tools', '0.0.1', 'workspace'],
      ['@scope/pkg', '3.0.0', 'installed'],
    ]);
    expect(seen).toHaveLength(13);
    expect(seen).toContainEqual(['linked-pkg', '0.0.1', 'installed']);
  });

  it.each([
    { case: 'declared only', opts: { shipped: false }, names: ['lint', 'alpha', 'beta', 'pdf', 'evil'] },
    {
      case: 'shipped only',
      opts: { declared: false },
      names: [
        'lint',
        'scoped-skill',
        'alpha',
        'beta',
        'pdf',
        'transitive',
        'same-name',
        'linked-skill',
        'from-pnpm',
        'xray',
        'evil',
      ],
    },
    {
      case: 'paths only',
      opts: { declared: false, shipped: false, paths: ['extra'] },
      names: ['one', 'two'],
    },
    {
      case: 'without workspaces',
      opts: { workspaces: false, shipped: false },
      names: ['alpha', 'beta', 'pdf', 'evil'],
    },
  ])('runs strategies selectively: $case', async ({ opts, names }) => {
    const result = await discoverSkills({ cwd: root, cache: false, ...opts });
    expect(result.skills.map((s) => s.name)).toEqual(names);
  });

  it('reuses the package scans of a cache and returns the same result', async () => {
    const cache = createDiscoveryCache();
    const cold = await discoverSkills({ ...options(), cache });
    const warm = await discoverSkills({ ...options(), cache });
    expect(cold.stats.cacheHits).toBe(0);
    expect(warm.stats.cacheHits).toBe(cache.size);
    expect(cache.size).toBe(10); // installed packages inside node_modules: workspace members and linked folders are rescanned
    expect(summary(warm)).toEqual(summary(cold));
  });

  it('stops at maxSkills with a limit_reached diagnostic', async () => {
    const result = await discoverSkills({ cwd: root, cache: false, maxSkills: 2 });
    expect(result.skills.map((s) => s.name)).toEqual(['lint', 'alpha']);
    expect(result.diagnostics.filter((d) => d.kind === 'limit_reached')).toHaveLength(1);
  });

  it('never fails on a missing project folder', async () => {
    const result = await discoverSkills({ cwd: path.join(root, 'does-not-exist'), cache: false });
    expect(result.skills).toEqual([]);
    expect(result.diagnostics.map((d) => d.kind)).toEqual(['missing_path']);
  });
});

describe('discovered skills as agent tools', () => {
  it('feed createSkillToolbox directly and run against a chat-completions server', async () => {
    const server = await startChatServer();
    try {
      server.reply({ body: completion('Read 3 pages.') });
      const { skills } = await discoverSkills({ cwd: root, shipped: false, cache: false });
      const toolbox = createSkillToolbox(skills, {
        model: createOpenAICompatibleModel({ baseURL: server.baseURL, model: 'local' }),
      });
      expect(toolbox.tools.map((t) => t.name)).toEqual(['lint', 'alpha', 'beta', 'pdf', 'evil']);
      expect(toolbox.renderAvailableSkills()).toContain(
        `<location>${nm('declared-map', 'skills', 'pdf', 'SKILL.md')}</location>`,
      );
      await expect(toolbox.callTool('pdf', { task: 'Read a.pdf', context: 'It is short.' })).resolves.toEqual(
        {
          result: 'Read 3 pages.',
          skill_used: 'pdf',
        },
      );
      expect(server.requests[0]?.body).toEqual({
        model: 'local',
        messages: [
          { role: 'system', content: '# pdf\n' },
          { role: 'user', content: 'Read a.pdf\n\nContext: It is short.' },
        ],
      });
    } finally {
      await server.close();
    }
  });
});
