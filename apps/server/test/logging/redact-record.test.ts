import { describe, expect, test } from 'vitest';
import { REDACTED, redactRecord, redactText } from '../../src/logging/redact-record.js';

const KEY = 'sk_Q2h4bGZ0c3ZxZ2x3bW9hZ3JpbGx5dGVzdGtleQ';

describe('redactRecord', () => {
  test.each([
    ['x-api-key header', { headers: { 'x-api-key': KEY } }, { headers: { 'x-api-key': REDACTED } }],
    [
      'Authorization header',
      { headers: { Authorization: `Bearer ${KEY}` } },
      { headers: { Authorization: REDACTED } },
    ],
    [
      'api_key in a response body',
      { result: { key_id: 'k1', api_key: KEY } },
      { result: { key_id: 'k1', api_key: REDACTED } },
    ],
    ['apiKey option', { options: { apiKey: 'plain-secret-1' } }, { options: { apiKey: REDACTED } }],
    ['root_api_key', { root_api_key: 'operator-root' }, { root_api_key: REDACTED }],
    ['token and password', { token: 't', password: 'p' }, { token: REDACTED, password: REDACTED }],
    ['a key in a path', { path: `/api/v1/tasks/${KEY}` }, { path: `/api/v1/tasks/sk_${REDACTED}` }],
    ['a key in a message', { error: `bad key ${KEY} given` }, { error: `bad key sk_${REDACTED} given` }],
    [
      'Bearer in a stack',
      { error: `at fetch (Authorization: Bearer abc.def)` },
      { error: `at fetch (Authorization: Bearer ${REDACTED})` },
    ],
    [
      'query-string values',
      { url: 'http://llm:8080/v1/chat?api_key=abc&model=x' },
      { url: `http://llm:8080/v1/chat?api_key=${REDACTED}&model=${REDACTED}` },
    ],
    ['arrays', { list: [KEY, 'ok'] }, { list: [`sk_${REDACTED}`, 'ok'] }],
    [
      'safe fields untouched',
      { key_id: 'k_1', prefix: 'sk_Q2h4', status: 200 },
      { key_id: 'k_1', prefix: 'sk_Q2h4', status: 200 },
    ],
  ])('%s', (_label, record, expected) => {
    expect(redactRecord(record as Record<string, unknown>)).toEqual(expected);
  });

  test('exact secrets are removed wherever they occur, and the record is not changed', () => {
    const record = { msg: 'config', summary_url: 'http://x/v1', note: 'root=operator-chosen-root!' };
    const out = redactRecord(record, ['operator-chosen-root!']);
    expect(out.note).toBe(`root=${REDACTED}`);
    expect(record.note).toBe('root=operator-chosen-root!');
  });

  test('errors become name, message and stack, redacted', () => {
    const out = redactRecord({ error: new Error(`refused ${KEY}`) }) as {
      error: { message: string; stack: string };
    };
    expect(out.error.message).toBe(`refused sk_${REDACTED}`);
    expect(out.error.stack).not.toContain(KEY);
  });

  test('linear on hostile text (no super-linear pattern)', () => {
    // Each of these would take seconds with a backtracking pattern; the whole test is bounded by
    // the vitest timeout, not by an assertion on time.
    for (const text of [
      '?'.repeat(200_000),
      `?${'a'.repeat(200_000)}`,
      '&a'.repeat(100_000),
      `Bearer ${'x'.repeat(200_000)}`,
    ]) {
      expect(redactText(text).length).toBeGreaterThan(0);
    }
  });
});
