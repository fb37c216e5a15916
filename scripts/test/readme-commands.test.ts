/**
 * The shell commands the READMEs give for one package: `pnpm --filter <package> build` builds only
 * that package, and a TypeScript (`tsc`) build reads the built `dist` types of the workspace packages
 * it depends on — so on a fresh clone the command must select those too (`<package>...`), or it fails
 * with "Cannot find module '@skillport/core'".
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** Every workspace package folder (`packages/*`, `apps/*`, `spec`) with its manifest. */
function workspacePackages(): Array<{ dir: string; manifest: Manifest }> {
  const dirs = ['spec'];
  for (const parent of ['packages', 'apps']) {
    for (const entry of readdirSync(path.join(ROOT, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) dirs.push(path.join(parent, entry.name));
    }
  }
  return dirs.flatMap((dir) => {
    try {
      return [
        { dir, manifest: JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as Manifest },
      ];
    } catch {
      return [];
    }
  });
}

const packages = workspacePackages();
const names = new Set(packages.map((p) => p.manifest.name));
/**
 * Packages whose build needs other workspace packages built first: a `tsc` build (it reads their
 * `dist` types; a Vite build such as the web catalogue's compiles their sources) with workspace
 * dependencies.
 */
const needsDependencies = new Set(
  packages
    .filter(({ manifest }) => /\btsc\b/.test(manifest.scripts?.build ?? ''))
    .filter(({ manifest }) =>
      Object.keys({ ...manifest.dependencies, ...manifest.devDependencies }).some((dep) => names.has(dep)),
    )
    .map(({ manifest }) => manifest.name),
);
const readmes = ['README.md', ...packages.map(({ dir }) => path.join(dir, 'README.md'))].flatMap((file) => {
  try {
    return [{ file, text: readFileSync(path.join(ROOT, file), 'utf8') }];
  } catch {
    return [];
  }
});

describe('README build commands work on a fresh clone', () => {
  it('finds the packages and READMEs it checks', () => {
    expect(needsDependencies.has('@skillport/server')).toBe(true);
    expect(readmes.map((r) => r.file)).toContain(path.join('apps', 'server', 'README.md'));
  });

  it.each(readmes)(
    '$file: `pnpm --filter <package> build` selects the workspace packages it needs',
    ({ text }) => {
      const filtered = [...text.matchAll(/pnpm (?:--filter|-F)[ =]"?([^\s"]+)"? (?:run )?build\b/g)].map(
        (m) => m[1],
      );
      const missing = filtered.filter(
        (selector) => selector !== undefined && needsDependencies.has(selector),
      );
      expect(missing, 'use "<package>..." to build its workspace dependencies first').toEqual([]);
    },
  );
});
