/**
 * The one error type of Skillport and the one table from error code to HTTP status.
 *
 * Every non-2xx response of the server is built from a {@link SkillportError}: its `code`, `message`
 * and `details` become the envelope's `error` object and its `status` the HTTP status.
 *
 * @see the `ErrorEnvelope` schema of the OpenAPI document
 */

/**
 * Every error code of the wire contract, in the order of the code → HTTP status table of the OpenAPI document (the `code` of `ErrorEnvelope`).
 *
 * @example
 * ```ts
 * ERROR_CODES.includes('NOT_FOUND'); // true
 * ```
 * @see the `ErrorEnvelope` schema of the OpenAPI document
 */
export const ERROR_CODES = [
  'INVALID_ARGUMENT',
  'INVALID_URI',
  'SKILL_INVALID',
  'UNAUTHENTICATED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'RESOURCE_EXHAUSTED',
  'INTERNAL',
  'PROCESSING_ERROR',
  'UNAVAILABLE',
  'DEADLINE_EXCEEDED',
] as const;

/** One of {@link ERROR_CODES}: the `error.code` of the response envelope. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * HTTP status for each error code — the single table every non-2xx response uses.
 *
 * `CONFLICT` maps to 409; a stale `If-Match` precondition overrides it with 412 through the
 * `status` option of {@link SkillportError}.
 *
 * @example
 * ```ts
 * ERROR_HTTP_STATUS.NOT_FOUND; // 404
 * ```
 * @see the `ErrorEnvelope` schema of the OpenAPI document
 */
export const ERROR_HTTP_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  INVALID_ARGUMENT: 400,
  INVALID_URI: 400,
  SKILL_INVALID: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  RESOURCE_EXHAUSTED: 429,
  INTERNAL: 500,
  PROCESSING_ERROR: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
});

/** Options of the {@link SkillportError} constructor. */
export interface SkillportErrorOptions {
  /** Machine-readable context, sent as the envelope's `error.details` (e.g. `{field: 'name'}`). */
  details?: Record<string, unknown>;
  /** HTTP status overriding {@link ERROR_HTTP_STATUS} (e.g. 412 for a stale `If-Match`). */
  status?: number;
  /** The underlying error, kept as the standard `Error.cause`. */
  cause?: unknown;
}

/** The `error` object of the response envelope. */
export interface SkillportErrorBody {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Global-registry symbol, so the brand is the same across bundles and realms of this package. */
const BRAND: unique symbol = Symbol.for('@skillport/core/SkillportError') as never;

const CODE_SET: ReadonlySet<string> = new Set(ERROR_CODES);

/**
 * Returns true when `value` is one of the contract's {@link ERROR_CODES}.
 *
 * @param value - any value
 * @returns whether it is an {@link ErrorCode}
 * @example
 * ```ts
 * isErrorCode('CONFLICT'); // true
 * isErrorCode('conflict'); // false
 * ```
 */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODE_SET.has(value);
}

/**
 * The base error of Skillport: a contract `code`, a human message, optional `details` and the HTTP
 * `status` the server answers with.
 *
 * Thrown only at API boundaries (name checks, URI resolution, request handling); validation never
 * throws, it returns issues.
 *
 * @param code - one of {@link ERROR_CODES}
 * @param message - what failed, what was expected (with a tiny example), the offending input truncated
 * @param options - `details`, `status` (default: `ERROR_HTTP_STATUS[code]`), `cause`
 * @throws TypeError when `code` is not a contract code (a programmer error)
 * @example
 * ```ts
 * throw new SkillportError('NOT_FOUND', 'Skill "x" not found', {
 *   details: { type: 'skill', resource: 'viking://agent/skills/x' },
 * });
 * ```
 * @see the `ErrorEnvelope` schema of the OpenAPI document
 */
export class SkillportError extends Error {
  /** The envelope's `error.code`. */
  readonly code: ErrorCode;
  /** HTTP status of the response carrying this error. */
  readonly status: number;
  /** The envelope's `error.details`, when any. */
  declare readonly details?: Record<string, unknown>;
  /** Brand checked by {@link isSkillportError}; works across bundles where `instanceof` does not. */
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: SkillportErrorOptions = {}) {
    if (!isErrorCode(code)) {
      throw new TypeError(`SkillportError: unknown error code ${JSON.stringify(code)}`);
    }
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SkillportError';
    this.code = code;
    this.status = options.status ?? ERROR_HTTP_STATUS[code];
    if (options.details !== undefined) this.details = options.details;
  }

  /**
   * The envelope's `error` object.
   *
   * @returns `{code, message, details?}`
   * @example
   * ```ts
   * new SkillportError('INTERNAL', 'boom').toJSON(); // { code: 'INTERNAL', message: 'boom' }
   * ```
   */
  toJSON(): SkillportErrorBody {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/**
 * Type guard for {@link SkillportError} that also recognises errors created by another copy of this
 * package (a different bundle or realm): it checks a global-registry brand and the shape, not only
 * `instanceof`.
 *
 * @param value - anything caught
 * @returns true when `value` is a Skillport error with a contract `code` and a numeric `status`
 * @example
 * ```ts
 * try { normalizeSkillName(' bad name ') } catch (e) { if (isSkillportError(e)) e.code; }
 * ```
 */
export function isSkillportError(value: unknown): value is SkillportError {
  if (value instanceof SkillportError) return true;
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<PropertyKey, unknown>;
  return candidate[BRAND] === true && isErrorCode(candidate.code) && typeof candidate.status === 'number';
}
