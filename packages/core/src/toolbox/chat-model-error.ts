/**
 * The error of a failed chat-model call: an HTTP error answer, a network failure, a timeout or a
 * reply that is not the expected shape — with the upstream status and message kept.
 */
import { type ErrorCode, SkillportError } from '../errors.js';

/** Construction details of a {@link ChatModelError}. */
export interface ChatModelErrorOptions {
  /** HTTP status the model server answered with, when it answered. */
  upstreamStatus?: number;
  /** The URL called. */
  url?: string;
  /** Attempts made (1 + retries). */
  attempts?: number;
  /** The model server's own error message, when it sent one. */
  upstreamMessage?: string;
  cause?: unknown;
}

/**
 * A chat-model call failed. `code` says how:
 * `RESOURCE_EXHAUSTED` (429 after retries), `UNAVAILABLE` (5xx after retries, network failure),
 * `DEADLINE_EXCEEDED` (timeout), `UNAUTHENTICATED` (401), `PERMISSION_DENIED` (403), `NOT_FOUND`
 * (404, e.g. an unknown model), `INVALID_ARGUMENT` (other 4xx), `PROCESSING_ERROR` (a reply that is
 * not chat-completions JSON). `upstreamStatus` and `upstreamMessage` keep what the server said.
 *
 * @example
 * ```ts
 * try { await model.complete(messages); }
 * catch (e) { if (e instanceof ChatModelError && e.code === 'RESOURCE_EXHAUSTED') backOff(); }
 * ```
 */
export class ChatModelError extends SkillportError {
  /** HTTP status of the model server's answer, if any. */
  readonly upstreamStatus: number | undefined;
  /** The model server's own error message, if any. */
  readonly upstreamMessage: string | undefined;
  /** Attempts made before giving up. */
  readonly attempts: number;

  constructor(code: ErrorCode, message: string, options: ChatModelErrorOptions = {}) {
    const details: Record<string, unknown> = {};
    if (options.upstreamStatus !== undefined) details.upstream_status = options.upstreamStatus;
    if (options.upstreamMessage !== undefined) details.upstream_message = options.upstreamMessage;
    if (options.url !== undefined) details.url = options.url;
    if (options.attempts !== undefined) details.attempts = options.attempts;
    super(code, message, options.cause === undefined ? { details } : { details, cause: options.cause });
    this.name = 'ChatModelError';
    this.upstreamStatus = options.upstreamStatus;
    this.upstreamMessage = options.upstreamMessage;
    this.attempts = options.attempts ?? 1;
  }
}

/** The error code for an HTTP error status of a model server. */
export function codeForUpstreamStatus(status: number): ErrorCode {
  if (status === 401) return 'UNAUTHENTICATED';
  if (status === 403) return 'PERMISSION_DENIED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 408) return 'DEADLINE_EXCEEDED';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 429) return 'RESOURCE_EXHAUSTED';
  if (status >= 500) return 'UNAVAILABLE';
  return 'INVALID_ARGUMENT';
}
