import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Every module specifier a built file imports (static, dynamic, re-export, require). */
export function importedSpecifiers(code: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+[^'"]*?\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of code.matchAll(pattern)) found.push(match[1]!);
  return found;
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? jsFiles(full) : entry.name.endsWith('.js') ? [full] : [];
  });
}

describe('built @skillport/sdk-browser', () => {
  it('imports no Node builtin and only ky and fflate from outside the package', () => {
    if (!existsSync(DIST)) throw new Error(`${DIST} missing: run \`pnpm build\` first`);
    const files = jsFiles(DIST);
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      for (const specifier of importedSpecifiers(readFileSync(file, 'utf8'))) {
        expect(BUILTINS.has(specifier), `${path.relative(DIST, file)} imports ${specifier}`).toBe(false);
        if (!specifier.startsWith('.'))
          expect(['ky', 'fflate'], path.relative(DIST, file)).toContain(specifier);
      }
    }
  });

  it('recognises the import forms it scans for', () => {
    const code = `import a from 'node:fs'; import { b } from "x"; export { c } from './c.js'; await import('y'); require('z');`;
    expect(importedSpecifiers(code).sort()).toEqual(['./c.js', 'node:fs', 'x', 'y', 'z']);
  });
});
