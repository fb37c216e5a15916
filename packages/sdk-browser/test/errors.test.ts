import { describe, expect, it } from 'vitest';
import {
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
} from '../src/index.js';

const base = { message: 'm', method: 'GET', url: 'http://x/api/v1/skills/a', requestId: 'r-1' };

describe('createApiError', () => {
  it.each([
    ['INVALID_ARGUMENT', 400, InvalidArgumentError],
    ['INVALID_URI', 400, InvalidUriError],
    ['SKILL_INVALID', 400, SkillInvalidError],
    ['UNAUTHENTICATED', 401, AuthenticationError],
    ['PERMISSION_DENIED', 403, PermissionDeniedError],
    ['NOT_FOUND', 404, NotFoundError],
    ['CONFLICT', 409, ConflictError],
    ['CONFLICT', 412, ConflictError],
    ['PAYLOAD_TOO_LARGE', 413, PayloadTooLargeError],
    ['RESOURCE_EXHAUSTED', 429, RateLimitError],
    ['RESOURCE_EXHAUSTED', 507, InsufficientStorageError],
    ['INTERNAL', 500, InternalServerError],
    ['PROCESSING_ERROR', 500, InternalServerError],
    ['UNAVAILABLE', 503, UnavailableError],
    ['DEADLINE_EXCEEDED', 504, DeadlineExceededError],
  ] as const)('maps %s (%i) to its class', (code, status, Class) => {
    const error = createApiError({ ...base, status, code });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, code, requestId: 'r-1', method: 'GET', name: Class.name });
    expect(isApiError(error)).toBe(true);
  });

  it.each([
    [404, 'WHATEVER', NotFoundError],
    [502, '', InternalServerError],
    [507, '', InsufficientStorageError],
    [418, 'TEAPOT', ApiError],
  ] as const)('falls back on the status %i for an unknown code', (status, code, Class) => {
    const error = createApiError({ ...base, status, code });
    expect(error.constructor).toBe(Class);
    expect(error.code).toBe(code);
  });
});

describe('guards and serialization', () => {
  const network = new NetworkError('down', {
    method: 'GET',
    url: 'http://x/',
    cause: new Error('ECONNREFUSED'),
  });
  const timeout = new TimeoutError('slow', { method: 'POST', url: 'http://x/' });
  const api = createApiError({
    ...base,
    status: 400,
    code: 'SKILL_INVALID',
    details: { issues: [{ rule: 'yaml_format' }] },
  });

  it('tells the kinds apart without instanceof', () => {
    expect([isApiError(api), isNetworkError(api), isTimeoutError(api)]).toEqual([true, false, false]);
    expect([isApiError(network), isNetworkError(network), isTimeoutError(network)]).toEqual([
      false,
      true,
      false,
    ]);
    expect([isApiError(timeout), isNetworkError(timeout), isTimeoutError(timeout)]).toEqual([
      false,
      false,
      true,
    ]);
    expect([isApiError(new Error('x')), isApiError(null), isApiError({ status: 404 })]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it.each([api, network, timeout])('round-trips %s through structuredClone', (error) => {
    const data = serializeClientError(error)!;
    const back = deserializeClientError(structuredClone(data));
    expect(back.constructor).toBe(error.constructor);
    expect(back.message).toBe(error.message);
    expect(serializeClientError(back)).toEqual(data);
  });

  it('keeps the cause message of transport errors', () => {
    const back = deserializeClientError(serializeClientError(network)!);
    expect((back.cause as Error).message).toBe('ECONNREFUSED');
  });

  it('returns undefined for errors that are not client errors', () => {
    expect(serializeClientError(new TypeError('x'))).toBeUndefined();
  });
});
