import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as mcp from '../src/index.js';

const DIST = path.resolve(import.meta.dirname, '../dist');
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? jsFiles(full) : entry.name.endsWith('.js') ? [full] : [];
  });
}

describe('@skillport/mcp public surface', () => {
  it('exports exactly these runtime names (a change here is a deliberate API change)', () => {
    expect(Object.keys(mcp).sort()).toEqual([
      'MCP_PACKAGE_VERSION',
      'SKILLPORT_MCP_INSTRUCTIONS',
      'createSkillportMcpServer',
    ]);
  });

  it('reports the version of its package.json', () => {
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../package.json'), 'utf8'));
    expect(mcp.MCP_PACKAGE_VERSION).toBe(pkg.version);
  });

  it('built output imports no Node builtin (the definition runs in any runtime)', () => {
    expect(existsSync(DIST), `${DIST} missing: run \`pnpm build\` first`).toBe(true);
    const files = jsFiles(DIST);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const code = readFileSync(file, 'utf8');
      for (const match of code.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const specifier = match[1] ?? match[2] ?? '';
        expect(BUILTINS.has(specifier), `${path.relative(DIST, file)} imports ${specifier}`).toBe(false);
      }
    }
  });
});
