// Public API of @skillport/sdk-browser: everything exported here is supported; nothing else is.
// Runtime-neutral: no `node:*` imports (browsers, Node, Deno, workers).

export { AsyncHTTPClient } from './client.js';
export type {
  AddSkillOptions,
  CallOptions,
  ClientOptions,
  IdempotencyOptions,
  QueryOf,
  SkillData,
  SkillSource,
  UpdateSkillOptions,
} from './client-options.js';
export { DEFAULT_URL } from './client-options.js';
export type { ApiErrorFields, ClientErrorKind, LocalErrorFields, SerializedClientError } from './errors.js';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  createApiError,
  DeadlineExceededError,
  deserializeClientError,
  InsufficientStorageError,
  InternalServerError,
  InvalidArgumentError,
  InvalidUriError,
  isApiError,
  isLocalError,
  isNetworkError,
  isTimeoutError,
  LocalError,
  NetworkError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  SkillInvalidError,
  serializeClientError,
  TimeoutError,
  UnavailableError,
} from './errors.js';
export type { ZipInput } from './zip-files.js';
export { zipSkillFiles } from './zip-files.js';
