// Public API of @skillport/sdk-browser: everything exported here is supported; nothing else is.
// Runtime-neutral: no `node:*` imports (browsers, Node, Deno, workers).

export type {
  AddSkillOptions,
  CallOptions,
  ClientOptions,
  QueryOf,
  SkillData,
  SkillSource,
  UpdateSkillOptions,
} from './client.js';
export { AsyncHTTPClient, DEFAULT_URL } from './client.js';
export type { ApiErrorFields, ClientErrorKind, SerializedClientError } from './errors.js';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  createApiError,
  DeadlineExceededError,
  deserializeClientError,
  InternalServerError,
  InvalidArgumentError,
  InvalidUriError,
  isApiError,
  isNetworkError,
  isTimeoutError,
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
