/**
 * Errors thrown by the Skillport clients.
 *
 * - {@link ApiError}: the server answered with a non-2xx status; one subclass per envelope `code`
 *   family (`NotFoundError`, `PermissionDeniedError`, …). Carries the HTTP status, the code, the
 *   server's message and details, the request id and the request's method and URL.
 * - {@link NetworkError}: no HTTP answer at all (connection refused, DNS, CORS, reset).
 * - {@link TimeoutError}: no answer within the client's `timeout`.
 * - {@link LocalError}: refused on this side before any request was sent (a bad argument, a local
 *   path that names nothing, a folder selection without SKILL.md), with the `code` the server gives
 *   the same mistake (`INVALID_ARGUMENT`, `NOT_FOUND`, …).
 *
 * Use the guards ({@link isApiError}, {@link isNetworkError}, {@link isTimeoutError}) rather than
 * `instanceof` when errors may cross bundles or realms: they check a brand, not a prototype.
 *
 * @see the `ErrorEnvelope` schema of the OpenAPI document
 */
import type { ErrorCode } from '@skillport/core';

const BRAND = Symbol.for('@skillport/sdk.error');

/** Which kind of client error this is; the value of the brand the guards check. */
export type ClientErrorKind = 'api' | 'network' | 'timeout' | 'local';

/** Fields of an {@link ApiError}, as sent across a worker boundary or logged. */
export interface ApiErrorFields {
  /** HTTP status of the response (e.g. 404). */
  status: number;
  /** The envelope's `error.code`; `INTERNAL` etc. when the body was not an envelope. */
  code: ErrorCode | (string & {});
  /** The server's message, unchanged. */
  message: string;
  /** The envelope's `error.details` (`{field}`, `{issues}`, `{uri, reason}`, …). */
  details?: Record<string, unknown> | undefined;
  /** Value of the `X-Request-Id` response header, when readable. */
  requestId?: string | undefined;
  /** HTTP method of the failed request (upper case). */
  method: string;
  /** Full URL of the failed request. */
  url: string;
}

/** A plain-object form of any client error (see {@link serializeClientError}). */
export type SerializedClientError =
  | ({ kind: 'api' } & ApiErrorFields)
  | { kind: 'network' | 'timeout'; message: string; method: string; url: string; cause?: string }
  | ({ kind: 'local' } & LocalErrorFields);

/**
 * The server refused or failed a request (non-2xx answer). Subclasses name the code family.
 * @example
 * ```ts
 * try { await client.getSkill('nope'); } catch (e) { if (isApiError(e)) console.log(e.status, e.code); }
 * ```
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | (string & {});
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;
  readonly method: string;
  readonly url: string;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.name = new.target.name;
    this.status = fields.status;
    this.code = fields.code;
    this.details = fields.details;
    this.requestId = fields.requestId;
    this.method = fields.method;
    this.url = fields.url;
    Object.defineProperty(this, BRAND, { value: 'api' satisfies ClientErrorKind });
  }

  /** The fields as a plain object (`JSON.stringify` friendly). */
  toJSON(): { name: string } & ApiErrorFields {
    const { name, status, code, message, details, requestId, method, url } = this;
    return { name, status, code, message, details, requestId, method, url };
  }
}

/** 400 `INVALID_ARGUMENT`: a request field is wrong (`details.field`, `details.validation_errors`). */
export class InvalidArgumentError extends ApiError {}
/** 400 `INVALID_URI`: a `viking://` URI is malformed or not a skill root (`details {uri, reason}`). */
export class InvalidUriError extends ApiError {}
/** 400 `SKILL_INVALID`: the skill could not be parsed; `details.issues` lists the problems. */
export class SkillInvalidError extends ApiError {}
/** 401 `UNAUTHENTICATED`: missing or unknown API key. */
export class AuthenticationError extends ApiError {}
/** 403 `PERMISSION_DENIED`: the key may not do this (or the input named a host path). */
export class PermissionDeniedError extends ApiError {}
/** 404 `NOT_FOUND`: no such skill or task (`details {type, resource}`). */
export class NotFoundError extends ApiError {}
/** 409 / 412 `CONFLICT`: e.g. a stale `If-Match` revision. */
export class ConflictError extends ApiError {}
/** 413 `PAYLOAD_TOO_LARGE`: the body or upload exceeds a server limit. */
export class PayloadTooLargeError extends ApiError {}
/**
 * 429 `RESOURCE_EXHAUSTED`: too many requests, or too many wrong API keys (`Retry-After` says when
 * to try again).
 */
export class RateLimitError extends ApiError {}
/**
 * 507 `RESOURCE_EXHAUSTED`: no room for the write — the server's disk is full (`details.reason`
 * `storage_full`) or the account's storage or temp-upload quota would be passed (`account_quota`,
 * `temp_upload_quota`; `details {limit, used, size, setting}` in bytes). Nothing was stored; waiting
 * does not help until space is freed or the quota raised.
 */
export class InsufficientStorageError extends ApiError {}
/** 500 `INTERNAL` / `PROCESSING_ERROR`: the server failed. */
export class InternalServerError extends ApiError {}
/** 503 `UNAVAILABLE`: the server cannot serve now. */
export class UnavailableError extends ApiError {}
/** 504 `DEADLINE_EXCEEDED`: a server-side wait timed out. */
export class DeadlineExceededError extends ApiError {}

const BY_CODE: Record<ErrorCode, typeof ApiError> = {
  INVALID_ARGUMENT: InvalidArgumentError,
  INVALID_URI: InvalidUriError,
  SKILL_INVALID: SkillInvalidError,
  UNAUTHENTICATED: AuthenticationError,
  PERMISSION_DENIED: PermissionDeniedError,
  NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  RESOURCE_EXHAUSTED: RateLimitError,
  INTERNAL: InternalServerError,
  PROCESSING_ERROR: InternalServerError,
  UNAVAILABLE: UnavailableError,
  DEADLINE_EXCEEDED: DeadlineExceededError,
};

const BY_STATUS: Record<number, ErrorCode> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  412: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RESOURCE_EXHAUSTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * Builds the {@link ApiError} subclass for a code (falling back on the HTTP status when the code is
 * unknown or the body was not an envelope).
 * @param fields - status, code, message, details, request id, method and URL.
 * @returns an instance of the subclass for `fields.code` (`RESOURCE_EXHAUSTED` with status 507 →
 *   {@link InsufficientStorageError}, with 429 → {@link RateLimitError}), else `ApiError`.
 * @example
 * ```ts
 * const error = createApiError({ status: 404, code: 'NOT_FOUND', message: 'Skill "x" not found',
 *   method: 'GET', url: 'http://127.0.0.1:1933/api/v1/skills/x' });
 * error instanceof NotFoundError; // true
 * ```
 * @see the `ErrorEnvelope` schema of the OpenAPI document (code → HTTP status table)
 */
export function createApiError(fields: ApiErrorFields): ApiError {
  // One code, two answers: 429 is a rate limit, 507 is storage (disk full or a quota).
  if (fields.status === 507 && (fields.code === 'RESOURCE_EXHAUSTED' || !(fields.code in BY_CODE))) {
    return new InsufficientStorageError(fields);
  }
  const known = (BY_CODE as Record<string, typeof ApiError | undefined>)[fields.code];
  const fallback = BY_STATUS[fields.status] ?? (fields.status >= 500 ? 'INTERNAL' : undefined);
  const Ctor = known ?? (fallback ? BY_CODE[fallback] : ApiError);
  return new Ctor(fields);
}

/** No HTTP answer was received (connection refused, DNS failure, CORS, reset); `cause` has the reason. */
export class NetworkError extends Error {
  readonly method: string;
  readonly url: string;
  constructor(message: string, init: { method: string; url: string; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'NetworkError';
    this.method = init.method;
    this.url = init.url;
    Object.defineProperty(this, BRAND, { value: 'network' satisfies ClientErrorKind });
  }
}

/** The server did not answer within the client's `timeout`; `cause` is the underlying abort. */
export class TimeoutError extends Error {
  readonly method: string;
  readonly url: string;
  constructor(message: string, init: { method: string; url: string; cause?: unknown }) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'TimeoutError';
    this.method = init.method;
    this.url = init.url;
    Object.defineProperty(this, BRAND, { value: 'timeout' satisfies ClientErrorKind });
  }
}

/** Fields of a {@link LocalError}, as sent across a worker boundary or logged. */
export interface LocalErrorFields {
  /** The code the server answers the same mistake with (`INVALID_ARGUMENT`, `NOT_FOUND`, …). */
  code: ErrorCode;
  /** What failed, what was expected, the offending input (truncated). */
  message: string;
  /** `{field}` (the argument: `url`, `source`, `path`, …), `{reason}`, `{path}` (a local path). */
  details?: Record<string, unknown> | undefined;
}

/**
 * A call refused on this side, before any request was sent: a bad argument (`url` of the
 * constructor, `listChanges` without `updated_since` or `cursor`), a local path that names nothing or
 * cannot be read (Node), a folder selection `zipSkillFiles` cannot make a skill of, a call after the
 * client's `close()`. `code` is the one the server gives the same mistake, so one
 * `switch (error.code)` handles both; there is no `status` and no `requestId`, since nothing was sent.
 *
 * Codes: `INVALID_ARGUMENT` (a bad argument; `details.field`, `details.reason`), `NOT_FOUND` (a
 * local path that names nothing; `details.path`), `PERMISSION_DENIED` (a local path this process may
 * not read), `PAYLOAD_TOO_LARGE` (a local folder over the zipper's limits), `UNAVAILABLE` (a call
 * after `close()`; `details.reason` `closed`).
 * @example
 * ```ts
 * try { await client.addSkill('./skils/pdf-tools'); }
 * catch (e) { if (isLocalError(e) && e.code === 'NOT_FOUND') console.error(e.message, e.details?.path); }
 * ```
 */
export class LocalError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  /**
   * @param code - the server's code for the same mistake
   * @param message - what failed and what was expected
   * @param options - `details` (`{field, reason, path}`), `cause` (the underlying error)
   */
  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: Record<string, unknown> | undefined; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LocalError';
    this.code = code;
    this.details = options.details;
    Object.defineProperty(this, BRAND, { value: 'local' satisfies ClientErrorKind });
  }

  /** The fields as a plain object (`JSON.stringify` friendly). */
  toJSON(): { name: string } & LocalErrorFields {
    const { name, code, message, details } = this;
    return details === undefined ? { name, code, message } : { name, code, message, details };
  }
}

function kindOf(value: unknown): ClientErrorKind | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<symbol, ClientErrorKind | undefined>)[BRAND];
}

/**
 * True when `value` is an {@link ApiError} (from any copy of this package: the check reads a brand,
 * not the prototype chain).
 * @example
 * ```ts
 * try { await client.getSkill('x'); } catch (e) { if (isApiError(e) && e.code === 'NOT_FOUND') { … } }
 * ```
 */
export function isApiError(value: unknown): value is ApiError {
  return kindOf(value) === 'api';
}
/** True when `value` is a {@link NetworkError} (from any copy of this package). */
export function isNetworkError(value: unknown): value is NetworkError {
  return kindOf(value) === 'network';
}
/** True when `value` is a {@link TimeoutError} (from any copy of this package). */
export function isTimeoutError(value: unknown): value is TimeoutError {
  return kindOf(value) === 'timeout';
}
/** True when `value` is a {@link LocalError} (from any copy of this package): refused before any request. */
export function isLocalError(value: unknown): value is LocalError {
  return kindOf(value) === 'local';
}

/**
 * Turns a client error into a plain object that survives `structuredClone`/`postMessage`; any other
 * value gives `undefined`.
 * @see {@link deserializeClientError} for the way back.
 */
export function serializeClientError(error: unknown): SerializedClientError | undefined {
  if (isApiError(error)) {
    const { name: _name, ...fields } = error.toJSON();
    return { kind: 'api', ...fields };
  }
  if (isLocalError(error)) {
    const { name: _name, ...fields } = error.toJSON();
    return { kind: 'local', ...fields };
  }
  if (isNetworkError(error) || isTimeoutError(error)) {
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return {
      kind: isNetworkError(error) ? 'network' : 'timeout',
      message: error.message,
      method: error.method,
      url: error.url,
      ...(cause === undefined ? {} : { cause }),
    };
  }
  return undefined;
}

/**
 * Rebuilds the typed error from {@link serializeClientError}'s output (same class, same fields).
 * @example `throw deserializeClientError(message.error);`
 */
export function deserializeClientError(
  data: SerializedClientError,
): ApiError | NetworkError | TimeoutError | LocalError {
  if (data.kind === 'api') {
    const { kind: _kind, ...fields } = data;
    return createApiError(fields);
  }
  if (data.kind === 'local') {
    return new LocalError(
      data.code,
      data.message,
      data.details === undefined ? {} : { details: data.details },
    );
  }
  const init = {
    method: data.method,
    url: data.url,
    ...(data.cause ? { cause: new Error(data.cause) } : {}),
  };
  return data.kind === 'network'
    ? new NetworkError(data.message, init)
    : new TimeoutError(data.message, init);
}
