/**
 * `GET /api/v1/skills/{name}/files/{path}`: raw bytes of SKILL.md and auxiliary files, nested paths,
 * the agent root, ETag / If-None-Match, safe content types, and located 4xx for bad input.
 */
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const SKILL_MD = '---\nname: file-kit\ndescription: Ships helper files of every kind\n---\n\n# File kit\n';
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 255, 0, 1, 2, 3]);
const enc = new TextEncoder();
const FILES: Record<string, Uint8Array> = {
  'SKILL.md': enc.encode(SKILL_MD),
  'scripts/run.py': enc.encode('print("héllo")\n'),
  'docs/deep/page one.md': enc.encode('# Page one\n'),
  'assets/logo.png': PNG,
  'evil.html': enc.encode('<script>alert(1)</script>'),
  'drawing.svg': enc.encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
};

async function upload(files: Record<string, Uint8Array>, targetUri?: string) {
  const form = new FormData();
  form.append('file', new Blob([zipSync(files)]), 'skill.zip');
  const up = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(up.status, up.text).toBe(200);
  const res = await t.request('POST', '/api/v1/skills', {
    body: {
      temp_file_id: up.json.result.temp_file_id,
      wait: true,
      ...(targetUri ? { target_uri: targetUri } : {}),
    },
  });
  expect(res.status, res.text).toBe(200);
}

async function raw(urlPath: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.url}${urlPath}`, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

beforeAll(async () => {
  t = await startTestServer();
  await upload(FILES);
  await upload(
    {
      'SKILL.md': enc.encode(
        '---\nname: shared-kit\ndescription: Lives in the agent root only\n---\n\nBody\n',
      ),
      'notes.txt': enc.encode('agent notes'),
    },
    'viking://agent/skills',
  );
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/v1/skills/{name}/files/{path}', () => {
  test.each(Object.keys(FILES))('%s comes back byte for byte with its sha-256 as ETag', async (path) => {
    const encoded = path.split('/').map(encodeURIComponent).join('/');
    const { res, bytes } = await raw(`/api/v1/skills/file-kit/files/${encoded}`);
    expect(res.status).toBe(200);
    expect(bytes).toEqual(FILES[path]);
    const sha = createHash('sha256')
      .update(FILES[path] as Uint8Array)
      .digest('hex');
    expect(res.headers.get('etag')).toBe(`"${sha}"`);
    expect(res.headers.get('x-skill-revision')).toMatch(/^[0-9a-f]{64}$/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; /);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  test('a path sent with %2F separators finds the same file', async () => {
    const { res, bytes } = await raw('/api/v1/skills/file-kit/files/scripts%2Frun.py');
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(bytes)).toBe('print("héllo")\n');
  });

  test.each([
    ['SKILL.md', 'text/markdown; charset=utf-8'],
    ['scripts/run.py', 'text/plain; charset=utf-8'],
    ['assets/logo.png', 'image/png'],
    ['evil.html', 'text/plain; charset=utf-8'],
    ['drawing.svg', 'text/plain; charset=utf-8'],
  ])('%s is served as %s (never as active content)', async (path, type) => {
    const { res } = await raw(`/api/v1/skills/file-kit/files/${path}`);
    expect(res.headers.get('content-type')).toBe(type);
  });

  test('the generated abstract is readable too', async () => {
    const { res, bytes } = await raw('/api/v1/skills/file-kit/files/.abstract.md');
    expect(res.status).toBe(200);
    expect(new TextDecoder().decode(bytes)).toContain('file-kit');
  });

  test('If-None-Match with the ETag answers 304 without a body', async () => {
    const first = await raw('/api/v1/skills/file-kit/files/SKILL.md');
    const etag = first.res.headers.get('etag') as string;
    const again = await raw('/api/v1/skills/file-kit/files/SKILL.md', { 'if-none-match': etag });
    expect(again.res.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  test('a skill of the agent root is found without target_uri, and with it', async () => {
    for (const query of ['', '?target_uri=viking://agent/skills']) {
      const { res, bytes } = await raw(`/api/v1/skills/shared-kit/files/notes.txt${query}`);
      expect(res.status).toBe(200);
      expect(new TextDecoder().decode(bytes)).toBe('agent notes');
    }
    const mine = await t.request(
      'GET',
      '/api/v1/skills/shared-kit/files/notes.txt?target_uri=viking://~/skills',
    );
    expect(mine.status).toBe(404);
    expect(mine.json.error.details).toEqual({
      type: 'skill',
      resource: 'viking://user/default/skills/shared-kit',
    });
  });

  test('an unknown file is 404 with details.type file and the file URI', async () => {
    const res = await t.request('GET', '/api/v1/skills/file-kit/files/docs/missing.md');
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
    expect(res.json.error.details).toEqual({
      type: 'file',
      resource: 'viking://user/default/skills/file-kit/docs/missing.md',
    });
  });

  test('an unknown skill is 404 with details.type skill', async () => {
    const res = await t.request('GET', '/api/v1/skills/no-such-skill/files/SKILL.md');
    expect(res.status).toBe(404);
    expect(res.json.error.details.type).toBe('skill');
  });

  test.each([
    ['a .. segment', 'docs%2F..%2FSKILL.md'],
    ['an empty segment', 'docs//guide.md'],
    ['a backslash', 'docs%5Cguide.md'],
    ['a control character', 'docs%01guide.md'],
  ])('%s is 400 INVALID_ARGUMENT on field path', async (_label, path) => {
    const res = await t.request('GET', `/api/v1/skills/file-kit/files/${path}`);
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe('INVALID_ARGUMENT');
    expect(res.json.error.details.field).toBe('path');
  });

  // A raw HTTP client sends the path exactly as written: fetch and URL would collapse `..` first.
  function rawGet(urlPath: string): Promise<{ status: number; body: string }> {
    const target = new URL(t.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        { host: target.hostname, port: target.port, path: urlPath, method: 'GET' },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  test.each([
    '../../../observer/queue',
    '../../../observer/system',
    '../shared-kit/SKILL.md',
    '..',
    './SKILL.md',
    '%2e%2e/%2e%2e/%2e%2e/observer/queue',
    '%2E%2E%2F%2E%2E%2Fshared-kit%2FSKILL.md',
    '.%2e/SKILL.md',
    'docs/%2e/../SKILL.md',
  ])('a raw request for file %s never leaves the skill: 400 on field path', async (path) => {
    const res = await rawGet(`/api/v1/skills/file-kit/files/${path}`);
    expect(res.status, res.body).toBe(400);
    const body = JSON.parse(res.body);
    expect(body.error.code).toBe('INVALID_ARGUMENT');
    expect(body.error.details.field).toBe('path');
    expect(res.body).not.toContain('agent notes');
  });

  test.each(['..', '.', '%2e%2e', '%2E.'])(
    'a raw request with skill name %s is refused, never another route',
    async (name) => {
      const res = await rawGet(`/api/v1/skills/${name}/files/SKILL.md`);
      expect([400, 404], res.body).toContain(res.status);
      expect(JSON.parse(res.body).error.code).toMatch(/^(INVALID_ARGUMENT|NOT_FOUND)$/);
    },
  );

  test('a bad skill name is 400 on field name', async () => {
    const res = await t.request('GET', '/api/v1/skills/bad%20name/files/SKILL.md');
    expect(res.status).toBe(400);
    expect(res.json.error.details.field).toBe('name');
  });

  test('the route is in the OpenAPI document', async () => {
    const res = await t.request('GET', '/openapi.json');
    const op = res.json.paths['/api/v1/skills/{name}/files/{path}']?.get;
    expect(op?.operationId).toBe('getSkillFile');
  });
});
