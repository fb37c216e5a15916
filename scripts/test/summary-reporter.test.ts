/**
 * The closing line of a test run, from a real child vitest over fixture files: a file that fails to
 * load or a hook that throws counts as a failure, and tests skipped for want of the corpus get one line
 * saying how to run them (a load error under CI).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const VITEST = path.join(ROOT, 'node_modules/vitest/vitest.mjs');
const CONFIG = path.join(import.meta.dirname, 'fixtures/vitest.config.ts');

function runFixtures(
  fixtures: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; lines: string[] }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FIXTURES: fixtures.join(','), ...env };
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete childEnv[key];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITEST, 'run', '--config', CONFIG], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', () => {});
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code, lines: out.split('\n').filter((line) => line.trim() !== '') }),
    );
  });
}

describe('summary reporter', () => {
  it('counts a test file that fails to load as a failure', async () => {
    const run = await runFixtures(['passes.fixture.ts', 'load-error.fixture.ts']);
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toBe('Tests: 1 passed, 1 failed, 0 skipped');
  });

  it('counts a beforeAll that throws as a failure', async () => {
    const run = await runFixtures(['hook-error.fixture.ts']);
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toMatch(/^Tests: 0 passed, [1-9]\d* failed, \d+ skipped$/);
  });

  it('counts an unhandled error as a failure, so a failed run never says 0 failed', async () => {
    const run = await runFixtures(['unhandled.fixture.ts']);
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toBe('Tests: 1 passed, 1 failed, 0 skipped');
  });

  it('says in one line which tests were skipped for want of the corpus, and how to run them', async () => {
    const run = await runFixtures(['passes.fixture.ts', 'corpus.fixture.ts'], {
      SKILLPORT_CORPUS: path.join(ROOT, 'no-such-corpus'),
      CI: undefined,
    });
    expect(run.code).toBe(0);
    expect(run.lines.at(-1)).toBe('Tests: 1 passed, 0 failed, 2 skipped');
    const notes = run.lines.filter((line) => line.includes('need the skill corpus'));
    expect(notes).toEqual([
      `Skipped 2 tests in 1 files that need the skill corpus: set SKILLPORT_CORPUS to a folder holding skills/ and mcp/ (default: ${path.join(ROOT, 'no-such-corpus')})`,
    ]);
  });

  it('fails the corpus tests under CI when the corpus is missing', async () => {
    const run = await runFixtures(['passes.fixture.ts', 'corpus.fixture.ts'], {
      SKILLPORT_CORPUS: path.join(ROOT, 'no-such-corpus'),
      CI: 'true',
    });
    expect(run.code).toBe(1);
    expect(run.lines.at(-1)).toBe('Tests: 1 passed, 1 failed, 0 skipped');
  });
});
