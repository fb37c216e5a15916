import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as browser from '../../sdk-browser/src/index.js';
import * as root from '../src/index.js';
import * as sync from '../src/sync/index.js';

describe('@skillport/sdk-node public surface', () => {
  it('re-exports every runtime name of @skillport/sdk-browser, AsyncHTTPClient replaced by the Node flavour', () => {
    expect(Object.keys(root).sort()).toEqual(Object.keys(browser).sort());
    expect(root.AsyncHTTPClient).not.toBe(browser.AsyncHTTPClient);
    expect(new root.AsyncHTTPClient()).toBeInstanceOf(browser.AsyncHTTPClient);
    expect(root.NotFoundError).toBe(browser.NotFoundError);
  });

  it('exports SyncHTTPClient alone at /sync', () => {
    expect(Object.keys(sync)).toEqual(['SyncHTTPClient']);
  });
});

describe('built @skillport/sdk-node root', () => {
  const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
  const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const specifiers = (code: string) =>
    [...code.matchAll(/\b(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!);

  it('imports no Node builtin outside sync/ (the filesystem is reached by process.getBuiltinModule)', () => {
    if (!existsSync(dist)) throw new Error(`${dist} missing: run \`pnpm build\` first`);
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.js') && !f.startsWith('sync'),
    );
    expect(files).toContain('index.js');
    for (const file of files) {
      for (const specifier of specifiers(readFileSync(path.join(dist, file), 'utf8'))) {
        expect(builtins.has(specifier), `${file} imports ${specifier}`).toBe(false);
      }
    }
  });
});
