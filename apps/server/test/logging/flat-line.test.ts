/**
 * Flat info lines (the request line) against pino: the server's own logger writes them itself, and
 * each must be the very bytes pino writes for the same record — redaction, escaping, numbers, left-out
 * fields and level included.
 */
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { logRequestLine } from '../../src/http/access-log.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { type FlatRecord, flatInfoOf, flatKeys } from '../../src/logging/flat-line.js';
import { redactingLogger } from '../../src/logging/redacting-logger.js';

const KEY = 'sk_Q2h4bGZ0c3ZxZ2x3bW9hZ3JpbGx5dGVzdGtleQ';

beforeEach(() => {
  // Both ways of writing read the clock: one fixed millisecond gives both the same `time`.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-03-04T05:06:07.089Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

function capture(options: Parameters<typeof createLogger>[0] = {}): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ ...options, destination: { write: (line: string) => lines.push(line) } });
  return { logger, lines };
}

const RECORDS: Array<[string, FlatRecord]> = [
  [
    'a request line',
    {
      msg: 'request',
      request_id: 'req-123.abc',
      method: 'GET',
      path: '/api/v1/skills/pdf-tools',
      status: 200,
      duration_ms: 0.123,
      remote: '127.0.0.1',
      account_id: 'acme',
      user_id: 'alice',
    },
  ],
  ['fields left out', { msg: 'request', account_id: undefined, status: 404, user_id: undefined }],
  ['quotes and backslashes', { msg: 'request', path: '/a"b\\c"\\' }],
  ['a quote first', { msg: '"first', path: '\\' }],
  ['control characters', { msg: 'request', path: '/tab\there\nnewline\u0000nul' }],
  ['non-ASCII and a lone surrogate', { msg: 'request', path: '/ünïcode/名前/\ud800/\u2028' }],
  ['over 100 characters', { msg: 'request', path: `/${'x'.repeat(120)}"` }],
  ['exactly 100 characters', { msg: 'request', path: `/${'y'.repeat(98)}"` }],
  [
    'numbers',
    { msg: 'n', a: 0, b: -0, c: 1e21, d: 0.1 + 0.2, e: Number.NaN, f: Number.POSITIVE_INFINITY, g: -5 },
  ],
  ['an API key in a path', { msg: 'request', path: `/api/v1/tasks/${KEY}` }],
  ['a bearer credential and a query', { msg: 'request', path: '/x?api_key=abc&y=1', note: 'Bearer abc.def' }],
  ['keys named like credentials', { msg: 'request', token: 'plain', api_key: 42, password: undefined }],
  ['a configured secret', { msg: 'request', path: '/files/operator-root-secret/x' }],
  ['empty strings', { msg: '', path: '' }],
];

describe('flat info lines', () => {
  test.each(RECORDS)('%s: the same bytes as pino', (_label, record) => {
    const { logger, lines } = capture({ secrets: ['operator-root-secret'] });
    const flat = flatInfoOf(logger);
    expect(flat).toBeDefined();
    logger.info({ ...record });
    flat?.writeValues(flatKeys(Object.keys(record)), Object.values(record));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
  });

  test('the request line through nested redacting loggers: the bytes pino writes for the record', () => {
    const { logger, lines } = capture();
    const wrapped = redactingLogger(redactingLogger(logger, ['operator-root-secret']), []);
    expect(flatInfoOf(wrapped)).toBeDefined();
    const startedAt = performance.now();
    for (const identity of [undefined, { accountId: 'acme', userId: 'alice', role: 'user' as const }]) {
      logRequestLine(wrapped, {
        requestId: `id-${KEY}`,
        method: 'GET',
        path: '/api/v1/skills/operator-root-secret',
        status: 304,
        startedAt,
        remote: '::1',
        identity: identity as never,
      });
      const record = JSON.parse(lines.at(-1) ?? '{}') as Record<string, unknown>;
      // pino's own line for the record as written (minus the parts it adds itself).
      const { level: _level, time: _time, pid: _pid, hostname: _hostname, ...fields } = record;
      wrapped.info(fields);
      expect(lines.at(-1)).toBe(lines.at(-2));
      expect(record).toMatchObject({
        msg: 'request',
        level: 'info',
        request_id: 'id-sk_[redacted]',
        path: '/api/v1/skills/[redacted]',
        status: 304,
        remote: '::1',
      });
      if (identity) expect(record).toMatchObject({ account_id: 'acme', user_id: 'alice' });
      else expect(Object.keys(record)).not.toContain('account_id');
    }
  });

  test('nothing is written, nor built, when info lines are off', () => {
    const { logger, lines } = capture({ level: 'warn' });
    const flat = flatInfoOf(logger);
    expect(flat?.enabled()).toBe(false);
    flat?.writeValues(flatKeys(['msg']), ['dropped']);
    logRequestLine(logger, {
      requestId: 'r',
      method: 'GET',
      path: '/health',
      status: 200,
      startedAt: 0,
      remote: '127.0.0.1',
      identity: undefined,
    });
    expect(lines).toEqual([]);
    logger.warn?.({ msg: 'kept' });
    expect(lines).toHaveLength(1);
  });

  test('a pino multistream destination, or any other logger, gets the record through info', () => {
    const lines: string[] = [];
    const multi = pino.multistream([
      { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    ]);
    const logger = createLogger({ destination: multi });
    expect(flatInfoOf(logger)).toBeUndefined();
    const records: Record<string, unknown>[] = [];
    const custom: Logger = { info: (r) => records.push(r), error: () => {} };
    for (const sink of [logger, redactingLogger(custom, [])]) {
      logRequestLine(sink, {
        requestId: 'r-1',
        method: 'GET',
        path: '/health',
        status: 200,
        startedAt: performance.now(),
        remote: '127.0.0.1',
        identity: undefined,
      });
    }
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ msg: 'request', request_id: 'r-1', level: 'info' });
    expect(Object.keys(records[0] ?? {})).toEqual([
      'msg',
      'request_id',
      'method',
      'path',
      'status',
      'duration_ms',
      'remote',
    ]);
  });
});
