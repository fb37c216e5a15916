/**
 * Every entry that calls itself runtime-neutral bundles for the browser: esbuild with
 * `platform: 'browser'` (no `node` condition, Node builtins unresolvable) over the built packages, as a
 * consumer's bundler sees them after install.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(PACKAGE_DIR, '../..');

/** Each runtime-neutral entry and the package folder it is resolved from (a consumer of it). */
const NEUTRAL_ENTRIES: ReadonlyArray<readonly [string, string]> = [
  ['@skillport/core', PACKAGE_DIR],
  ['@skillport/spec', PACKAGE_DIR],
  ['@skillport/sdk-browser', PACKAGE_DIR],
  ['@skillport/sdk-node', PACKAGE_DIR],
  ['@skillport/mcp', path.join(REPO_ROOT, 'packages/mcp')],
];

async function bundleForBrowser(entry: string, resolveDir = PACKAGE_DIR, conditions: string[] = []) {
  return build({
    stdin: { contents: `export * from '${entry}';`, resolveDir, loader: 'js' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    conditions,
    write: false,
    logLevel: 'silent',
  });
}

describe('browser bundles of the runtime-neutral entries', () => {
  it.each(NEUTRAL_ENTRIES)(
    '%s bundles with platform=browser and reaches no Node builtin',
    async (entry, from) => {
      if (!existsSync(path.join(PACKAGE_DIR, 'dist')))
        throw new Error('dist missing: run `pnpm build` first');
      const result = await bundleForBrowser(entry, from);
      expect(result.errors).toEqual([]);
      const code = result.outputFiles[0]?.text ?? '';
      if (entry !== '@skillport/spec') expect(code).toMatch(/export\s*\{/); // spec's root holds only types
      expect(code).not.toMatch(/["']node:[a-z_/]+["']/);
    },
  );

  it('the Node flavour of sdk-node, picked by the node condition, is what a browser bundle must avoid', async () => {
    // The same bundle with the `node` condition reaches the folder zipper of @skillport/core/node and its
    // filesystem imports: proof that the check above would catch a regression.
    await expect(bundleForBrowser('@skillport/sdk-node', PACKAGE_DIR, ['node'])).rejects.toThrow(/node:/);
  });
});
