/**
 * The external skill corpus for tests: `SKILLPORT_CORPUS`, else `shared/corpus` beside the
 * repository (a folder holding `skills/` and `mcp/`). A clone without it still passes: the tests that
 * need it are skipped, and the summary reporter prints one line saying so and how to run them. Under
 * `CI` the corpus is required: a test file that needs it fails to load when it is missing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

/** Root of the repository. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Marks the suites skipped for want of the corpus; the summary reporter counts them by it. */
export const CORPUS_SKIP_MARK = '(skipped: needs the skill corpus)';

/** Where the corpus is looked for. */
export function corpusPath(): string {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the tests, which turbo does not run
  return path.resolve(process.env.SKILLPORT_CORPUS ?? path.join(REPO_ROOT, '../shared/corpus'));
}

/** True in CI (`CI` set to anything but `false`/`0`/empty). */
export function inCi(): boolean {
  const ci = process.env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/** How to get the corpus tests to run, for messages. */
export function corpusHint(): string {
  return `set SKILLPORT_CORPUS to a folder holding skills/ and mcp/ (default: ${corpusPath()})`;
}

/**
 * The corpus folder, or `undefined` when it is missing on a developer's clone.
 * @throws Error under CI when the corpus is missing (CI always has it).
 */
export function findCorpus(): string | undefined {
  const dir = corpusPath();
  if (existsSync(path.join(dir, 'skills')) && existsSync(path.join(dir, 'mcp'))) return dir;
  if (inCi()) throw new Error(`the skill corpus is required under CI and was not found: ${corpusHint()}`);
  return undefined;
}

/**
 * The corpus folder, for code that runs only when the corpus is there (inside {@link describeCorpus}).
 * @throws Error when it is missing.
 */
export function requireCorpus(): string {
  const dir = findCorpus();
  if (!dir) throw new Error(`the skill corpus was not found: ${corpusHint()}`);
  return dir;
}

/**
 * `describe` for suites that need the corpus: run when it is there, skipped (and counted by the
 * summary reporter) when it is not, a load error under CI when it is not.
 */
export function describeCorpus(name: string, fn: () => void): void {
  if (findCorpus()) describe(name, fn);
  else describe.skip(`${name} ${CORPUS_SKIP_MARK}`, fn);
}

/** `it` for one test that needs the corpus, in a suite that otherwise does not (see {@link describeCorpus}). */
export function itCorpus(name: string, fn: () => unknown, timeout?: number): void {
  if (findCorpus()) it(name, fn, timeout);
  else it.skip(`${name} ${CORPUS_SKIP_MARK}`, fn);
}
