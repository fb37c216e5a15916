import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The store's worker threads (the SQLite database thread and its search reader threads) start with
// the server and with its first find. Each loads its own copy of every module it imports; zod (the
// wire schemas of @skillport/core's root) and yaml cost ~0.3 s of CPU per thread to load and are not
// used there. These checks walk the TypeScript import graph of each thread's entry (type-only imports
// are erased by the compiler and skipped) and name any module that reaches one of them.

const serverSrc = path.resolve(import.meta.dirname, '../../src');
const coreSrc = path.resolve(import.meta.dirname, '../../../../packages/core/src');
/** Workspace entries followed into (as the `@skillport/source` condition resolves them). */
const WORKSPACE: Record<string, string> = {
  '@skillport/core': path.join(coreSrc, 'index.ts'),
  '@skillport/core/base': path.join(coreSrc, 'base', 'index.ts'),
  '@skillport/core/node': path.join(coreSrc, 'node', 'index.ts'),
};
/** Packages a store thread must not load. */
const HEAVY = ['zod', 'yaml', '@skillport/core'];

/** Each module reachable from `entry` through imports that survive compilation, with its package imports. */
function importGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const specifiers: string[] = [];
    for (const match of text.matchAll(
      /(?:^|[\s;])(import|export)(\s+type)?\s[^'";]*?from\s*['"]([^'"]+)['"]/g,
    )) {
      if (match[2] === undefined) specifiers.push(match[3] as string);
    }
    for (const match of text.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g))
      specifiers.push(match[1] as string);
    for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
      specifiers.push(match[1] as string);
    const bare: string[] = [];
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const resolved = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
        if (existsSync(resolved)) queue.push(resolved);
      } else if (WORKSPACE[specifier] !== undefined) {
        bare.push(specifier);
        queue.push(WORKSPACE[specifier]);
      } else {
        bare.push(specifier);
      }
    }
    graph.set(file, bare);
  }
  return graph;
}

/** `module -> package` for each import of a {@link HEAVY} package reachable from `entry`. */
function heavyImports(entry: string): string[] {
  return [...importGraph(entry)].flatMap(([file, bare]) =>
    bare
      .filter((s) => HEAVY.includes(s))
      .map((s) => `${path.relative(path.dirname(serverSrc), file)} -> ${s}`),
  );
}

describe('module graph of the store threads', () => {
  it('a search reader thread loads neither zod nor yaml nor the root of @skillport/core', () => {
    const entry = path.join(serverSrc, 'store/sqlite/search-reader-entry.ts');
    expect(importGraph(entry).size).toBeGreaterThan(10);
    expect(heavyImports(entry)).toEqual([]);
  });

  it('the database thread loads neither zod nor yaml nor the root of @skillport/core', () => {
    const entry = path.join(serverSrc, 'store/sqlite/sqlite-thread-entry.ts');
    expect(importGraph(entry).size).toBeGreaterThan(20);
    expect(heavyImports(entry)).toEqual([]);
  });

  it('the walk sees those packages where they are imported (the HTTP thread)', () => {
    const found = heavyImports(path.join(serverSrc, 'app.ts')).map((line) => line.split(' -> ')[1]);
    expect(found).toEqual(expect.arrayContaining(['zod', 'yaml', '@skillport/core']));
  });
});
