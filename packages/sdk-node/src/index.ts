// Public API of @skillport/sdk-node: everything exported here is supported; nothing else is.
// The runtime-neutral client of @skillport/sdk-browser, re-exported, with an AsyncHTTPClient that
// also takes local files and folders. The synchronous client is at `@skillport/sdk-node/sync`.

export type {
  AddSkillOptions,
  ApiErrorFields,
  CallOptions,
  ClientErrorKind,
  ClientOptions,
  IdempotencyOptions,
  LocalErrorFields,
  QueryOf,
  SerializedClientError,
  SkillData,
  SkillSource,
  UpdateSkillOptions,
  ZipInput,
} from '@skillport/sdk-browser';
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  createApiError,
  DEFAULT_URL,
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
  zipSkillFiles,
} from '@skillport/sdk-browser';
export { AsyncHTTPClient } from './client.js';
