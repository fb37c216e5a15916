import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The toolbox is part of the runtime-neutral core root: it must run in browsers, Deno and workers.
const toolboxDir = path.resolve(import.meta.dirname, '../../src/toolbox');

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('toolbox sources', () => {
  it('import no Node builtin and nothing from the Node subpath', async () => {
    const files = await sources(toolboxDir);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);
      for (const specifier of imports) {
        expect(specifier, `${path.basename(file)} imports ${specifier}`).not.toMatch(
          /^node:|\/node\/|^(fs|path|http|os)$/,
        );
      }
    }
  });
});
