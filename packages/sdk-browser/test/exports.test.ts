import { describe, expect, it } from 'vitest';
import * as sdk from '../src/index.js';

describe('@skillport/sdk-browser public surface', () => {
  it('exports exactly these runtime names (a change here is a deliberate API change)', () => {
    expect(Object.keys(sdk).sort()).toEqual([
      'ApiError',
      'AsyncHTTPClient',
      'AuthenticationError',
      'ConflictError',
      'DEFAULT_URL',
      'DeadlineExceededError',
      'InsufficientStorageError',
      'InternalServerError',
      'InvalidArgumentError',
      'InvalidUriError',
      'LocalError',
      'NetworkError',
      'NotFoundError',
      'PayloadTooLargeError',
      'PermissionDeniedError',
      'RateLimitError',
      'SkillInvalidError',
      'TimeoutError',
      'UnavailableError',
      'createApiError',
      'deserializeClientError',
      'isApiError',
      'isLocalError',
      'isNetworkError',
      'isTimeoutError',
      'serializeClientError',
      'zipSkillFiles',
    ]);
  });
});
