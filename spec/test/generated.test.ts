import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const specDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('src/generated/openapi.ts', () => {
  it('is exactly what `pnpm --filter @skillport/spec generate` produces from openapi.json', () => {
    const env = { ...process.env };
    delete env.SKILLPORT_OPENAPI;
    const fresh = execFileSync(process.execPath, [path.join(specDir, 'scripts/generate.mjs'), '--stdout'], {
      env,
      encoding: 'utf8',
    });
    const committed = readFileSync(path.join(specDir, 'src/generated/openapi.ts'), 'utf8');
    // A mismatch means openapi.json changed without regenerating: run the generate script and commit.
    expect(committed).toBe(fresh);
  });

  it('names its source and the regenerate command in its header', () => {
    const head = readFileSync(path.join(specDir, 'src/generated/openapi.ts'), 'utf8').split('\n', 3);
    expect(head[1]).toBe(
      "// Source: spec/openapi.json (the Skillport HTTP API, built from the server's route schemas).",
    );
    expect(head[2]).toBe('// Regenerate with: pnpm --filter @skillport/spec generate');
  });
});
