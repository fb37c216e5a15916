import { isSkillportError } from '@skillport/core';

/**
 * The `SkillportError` that `run` throws, as code, message and details; any other error is thrown
 * again, and a run that throws nothing fails the test.
 */
export function refusal(run: () => unknown): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  try {
    run();
  } catch (error) {
    if (isSkillportError(error)) {
      return { code: error.code, message: error.message, details: error.details as Record<string, unknown> };
    }
    throw error;
  }
  throw new Error('expected a refusal');
}
