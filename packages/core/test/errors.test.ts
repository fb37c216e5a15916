import { describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ERROR_HTTP_STATUS,
  type ErrorCode,
  isErrorCode,
  isSkillportError,
  SkillportError,
} from '../src/errors.js';

describe('ERROR_HTTP_STATUS', () => {
  const table: Array<[ErrorCode, number]> = [
    ['INVALID_ARGUMENT', 400],
    ['INVALID_URI', 400],
    ['SKILL_INVALID', 400],
    ['UNAUTHENTICATED', 401],
    ['PERMISSION_DENIED', 403],
    ['NOT_FOUND', 404],
    ['CONFLICT', 409],
    ['PAYLOAD_TOO_LARGE', 413],
    ['RESOURCE_EXHAUSTED', 429],
    ['INTERNAL', 500],
    ['PROCESSING_ERROR', 500],
    ['UNAVAILABLE', 503],
    ['DEADLINE_EXCEEDED', 504],
  ];

  it.each(table)('%s → %i', (code, status) => {
    expect(ERROR_HTTP_STATUS[code]).toBe(status);
    expect(new SkillportError(code, 'x').status).toBe(status);
  });

  it('covers exactly the contract codes', () => {
    expect([...ERROR_CODES].sort()).toEqual(table.map(([c]) => c).sort());
    expect(Object.keys(ERROR_HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('is frozen', () => {
    expect(Object.isFrozen(ERROR_HTTP_STATUS)).toBe(true);
  });
});

describe('SkillportError', () => {
  it('carries code, message, details, status and cause', () => {
    const cause = new Error('disk full');
    const error = new SkillportError('NOT_FOUND', 'Skill "x" not found', {
      details: { type: 'skill', resource: 'viking://agent/skills/x' },
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SkillportError');
    expect(error.code).toBe('NOT_FOUND');
    expect(error.status).toBe(404);
    expect(error.message).toBe('Skill "x" not found');
    expect(error.details).toEqual({ type: 'skill', resource: 'viking://agent/skills/x' });
    expect(error.cause).toBe(cause);
  });

  it('lets a status override the table (stale If-Match → 412)', () => {
    const error = new SkillportError('CONFLICT', 'stale revision', { status: 412 });
    expect(error.status).toBe(412);
    expect(error.code).toBe('CONFLICT');
  });

  it('serialises to the envelope error object', () => {
    expect(JSON.parse(JSON.stringify(new SkillportError('INTERNAL', 'boom')))).toEqual({
      code: 'INTERNAL',
      message: 'boom',
    });
    expect(new SkillportError('INVALID_ARGUMENT', 'bad', { details: { field: 'name' } }).toJSON()).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'bad',
      details: { field: 'name' },
    });
  });

  it('has no details or cause keys when none were given', () => {
    const error = new SkillportError('INTERNAL', 'boom');
    expect('details' in error).toBe(false);
    expect(error.cause).toBeUndefined();
  });

  it('refuses a code outside the contract', () => {
    expect(() => new SkillportError('TEAPOT' as ErrorCode, 'x')).toThrow(TypeError);
  });
});

describe('isErrorCode', () => {
  it.each([
    ['CONFLICT', true],
    ['conflict', false],
    ['', false],
    [409, false],
    [null, false],
  ])('%j → %s', (value, expected) => {
    expect(isErrorCode(value)).toBe(expected);
  });
});

describe('isSkillportError', () => {
  const brand = Symbol.for('@skillport/core/SkillportError');
  it.each<[string, unknown, boolean]>([
    ['an instance', new SkillportError('NOT_FOUND', 'x'), true],
    [
      'a branded error from another bundle',
      Object.assign(new Error('x'), { [brand]: true, code: 'NOT_FOUND', status: 404 }),
      true,
    ],
    ['a branded object with an unknown code', { [brand]: true, code: 'NOPE', status: 404 }, false],
    ['a branded object without status', { [brand]: true, code: 'NOT_FOUND' }, false],
    ['an unbranded look-alike', Object.assign(new Error('x'), { code: 'NOT_FOUND', status: 404 }), false],
    ['a plain Error', new Error('x'), false],
    ['null', null, false],
    ['a string', 'NOT_FOUND', false],
  ])('%s → %s', (_label, value, expected) => {
    expect(isSkillportError(value)).toBe(expected);
  });
});
