/**
 * Errors crossing a thread boundary as plain data: a `SkillportError` keeps its code, status and
 * details; any other error keeps its name, message, stack and string `code` (e.g. `SQLITE_BUSY`).
 */
import { isSkillportError, SkillportError } from '@skillport/core/base';

/** An error as it crosses between threads. */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** A string `code` property of a plain error (`SQLITE_BUSY`, `ENOSPC`, …). */
  code?: string;
  /** Set for a `SkillportError`. */
  skillport?: { code: string; status: number; details?: Record<string, unknown> };
}

/** Turns any thrown value into {@link SerializedError}. */
export function serializeError(error: unknown): SerializedError {
  if (isSkillportError(error)) {
    return {
      name: error.name,
      message: error.message,
      ...(error.stack !== undefined ? { stack: error.stack } : {}),
      skillport: {
        code: error.code,
        status: error.status,
        ...(error.details !== undefined ? { details: error.details } : {}),
      },
    };
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      ...(error.stack !== undefined ? { stack: error.stack } : {}),
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'Error', message: String(error) };
}

/** Rebuilds the error in the receiving thread (`SkillportError`, or `Error` with `name` and `code`). */
export function rebuildError(error: SerializedError): Error {
  if (error.skillport !== undefined) {
    const rebuilt = new SkillportError(error.skillport.code as never, error.message, {
      status: error.skillport.status,
      ...(error.skillport.details !== undefined ? { details: error.skillport.details } : {}),
    });
    if (error.stack !== undefined) rebuilt.stack = error.stack;
    return rebuilt;
  }
  const rebuilt = new Error(error.message) as Error & { code?: string };
  rebuilt.name = error.name;
  if (error.code !== undefined) rebuilt.code = error.code;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}
