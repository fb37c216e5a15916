/**
 * Errors raised before any request (bad arguments, a folder selection that is not a skill) carry the
 * code the server gives the same mistake, as `LocalError`s: told apart from server answers by
 * `isLocalError` (no status, no request id), and kept whole across a worker boundary.
 */
import { describe, expect, it } from 'vitest';
import {
  AsyncHTTPClient,
  deserializeClientError,
  isApiError,
  isLocalError,
  LocalError,
  serializeClientError,
  zipSkillFiles,
} from '../src/index.js';

/** The error `run` throws or rejects with. */
async function caught(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('errors raised before any request', () => {
  it.each([
    ['ftp://example.com', 'url', 'not_http_url'],
    ['example.com:1933', 'url', 'not_http_url'],
    ['http://127.0.0.1:1933/?x=1', 'url', 'query_or_fragment'],
  ])('new AsyncHTTPClient({url: %j}) → INVALID_ARGUMENT (details.field %s)', async (url, field, reason) => {
    const error = await caught(() => new AsyncHTTPClient({ url }));
    expect(isLocalError(error)).toBe(true);
    expect(isApiError(error)).toBe(false);
    expect(error).toBeInstanceOf(LocalError);
    expect(error).toMatchObject({ name: 'LocalError', code: 'INVALID_ARGUMENT', details: { field, reason } });
  });

  it.each([
    'http://alice:s3cret-pass@127.0.0.1:1933',
    'https://token-s3cret-pass@skills.example.com/skillport',
    'ftp://alice:s3cret-pass@example.com',
  ])(
    'new AsyncHTTPClient({url: %j}) with credentials → INVALID_ARGUMENT, the password not shown',
    async (url) => {
      // fetch refuses a URL holding credentials, which otherwise surfaced at the first call as a
      // network error ("cannot reach the server") quoting the password.
      const error = await caught(() => new AsyncHTTPClient({ url }));
      expect(isLocalError(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'INVALID_ARGUMENT',
        details: { field: 'url', reason: 'credentials' },
      });
      expect((error as Error).message).toContain('apiKey');
      expect((error as Error).message).not.toContain('s3cret');
      expect(JSON.stringify((error as LocalError).details)).not.toContain('s3cret');
    },
  );

  it('an @ after the host (in the path) is not taken for credentials', () => {
    expect(new AsyncHTTPClient({ url: 'https://example.com/@team/skillport' }).url).toBe(
      'https://example.com/@team/skillport',
    );
  });

  it.each<[string, unknown]>([
    ['SKILL.md text', '---\nname: x\ndescription: Text\n---\n'],
    ['a number', 42],
    ['a plain object', { name: 'x' }],
  ])('tempUpload of %s → INVALID_ARGUMENT (not_bytes), nothing sent', async (_label, file) => {
    let sent = 0;
    const client = new AsyncHTTPClient({
      url: 'http://127.0.0.1:9',
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    const error = await caught(() => client.tempUpload(file as Uint8Array));
    expect(isLocalError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'file', reason: 'not_bytes' },
    });
    expect(sent).toBe(0);
  });

  it('listChanges without updated_since or cursor → INVALID_ARGUMENT, nothing sent', async () => {
    let sent = 0;
    const client = new AsyncHTTPClient({
      url: 'http://127.0.0.1:9',
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    const error = await caught(() => client.listChanges({}));
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { field: 'updated_since' } });
    expect(isLocalError(error)).toBe(true);
    expect(sent).toBe(0);
  });

  it.each([
    ['no SKILL.md among the files', [{ path: 'docs/a.md', data: 'a' }], 'no_skill_md'],
    [
      'two folders holding a SKILL.md at one depth',
      [
        { path: 'a/SKILL.md', data: 'a' },
        { path: 'b/SKILL.md', data: 'b' },
      ],
      'several_skill_md',
    ],
    ['a path leaving the folder', [{ path: '../SKILL.md', data: 'x' }], 'traversal'],
    ['an empty path', [{ path: '/', data: 'x' }], 'empty'],
  ])('zipSkillFiles: %s → INVALID_ARGUMENT (details.reason %s)', async (_label, files, reason) => {
    const error = await caught(() => zipSkillFiles(files));
    expect(isLocalError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', details: { reason } });
  });

  it('survives serialization (a worker boundary) with its class, code, message and details', () => {
    const error = new LocalError('NOT_FOUND', 'no such file or folder: ./x', {
      details: { field: 'source', path: '/tmp/x' },
    });
    const data = serializeClientError(error);
    expect(data).toEqual({
      kind: 'local',
      code: 'NOT_FOUND',
      message: 'no such file or folder: ./x',
      details: { field: 'source', path: '/tmp/x' },
    });
    const back = deserializeClientError(structuredClone(data!));
    expect(back).toBeInstanceOf(LocalError);
    expect(back).toMatchObject({ code: 'NOT_FOUND', message: error.message, details: error.details });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: 'LocalError', ...data, kind: undefined });
  });
});
