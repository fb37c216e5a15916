import type { SerializedError } from 'vitest';
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';
import { CORPUS_SKIP_MARK, corpusHint } from './test-corpus.js';

/** What the closing line reports. */
export interface RunCounts {
  passed: number;
  /** Failed tests, plus each test file, suite or hook that failed outside a test, plus unhandled errors. */
  failed: number;
  skipped: number;
  /** Tests skipped for want of the external corpus, and the files they are in. */
  corpusSkipped: { tests: number; files: number };
}

/**
 * Counts a finished run. A test file that fails to load, a `beforeAll`/`afterAll` that throws and an
 * unhandled error each count as one failure, so a failed run never reports 0 failed.
 */
export function countRun(
  testModules: ReadonlyArray<TestModule>,
  unhandledErrors: ReadonlyArray<SerializedError> = [],
  reason?: TestRunEndReason,
): RunCounts {
  const counts: RunCounts = { passed: 0, failed: 0, skipped: 0, corpusSkipped: { tests: 0, files: 0 } };
  for (const module of testModules) {
    let corpusTests = 0;
    for (const test of module.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') counts.passed++;
      else if (state === 'failed') counts.failed++;
      else {
        counts.skipped++;
        if (test.fullName.includes(CORPUS_SKIP_MARK)) corpusTests++;
      }
    }
    if (module.errors().length > 0) counts.failed++;
    for (const suite of module.children.allSuites()) if (suite.errors().length > 0) counts.failed++;
    if (corpusTests > 0) {
      counts.corpusSkipped.tests += corpusTests;
      counts.corpusSkipped.files++;
    }
  }
  counts.failed += unhandledErrors.length;
  if (reason === 'failed' && counts.failed === 0) counts.failed = 1;
  return counts;
}

/**
 * Prints one plain closing line after vitest's own summary — `Tests: N passed, N failed, N skipped` —
 * so logs of CI runs can be read by tools that do not know vitest's format; before it, one line when
 * tests were skipped because the external corpus is missing.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
    reason: TestRunEndReason,
  ): void {
    const { passed, failed, skipped, corpusSkipped } = countRun(testModules, unhandledErrors, reason);
    if (corpusSkipped.tests > 0) {
      process.stdout.write(
        `\nSkipped ${corpusSkipped.tests} tests in ${corpusSkipped.files} files that need the skill corpus: ${corpusHint()}\n`,
      );
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
