/**
 * Transport behaviour of AsyncHTTPClient against a raw HTTP server on 127.0.0.1 that answers what each
 * case needs (non-envelope bodies, failures, slow answers) — the server-side contract is covered by the
 * end-to-end tests against the real Skillport server.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AsyncHTTPClient,
  DeadlineExceededError,
  InternalServerError,
  InvalidArgumentError,
  isApiError,
  isLocalError,
  LocalError,
  NetworkError,
  NotFoundError,
  TimeoutError,
  UnavailableError,
} from '../src/index.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let url: string;
let seen: Seen[] = [];
let respond: (req: Seen, res: http.ServerResponse) => void = () => {};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
});

const json = (
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

describe('AsyncHTTPClient requests', () => {
  it('sends the key, extra headers, query and JSON body, and unwraps the envelope', async () => {
    respond = (_req, res) => json(res, 200, { status: 'ok', result: { skills: [], total: 0 }, time: 0.01 });
    const client = new AsyncHTTPClient({ url: `${url}/`, apiKey: 'sk-test', headers: { 'X-Trace': 't1' } });
    expect(await client.listSkills({ node_limit: 5, target_uri: 'viking://agent/skills' })).toEqual({
      skills: [],
      total: 0,
    });
    await client.findSkills('pdf forms', { limit: 3 });
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: '/api/v1/skills?node_limit=5&target_uri=viking%3A%2F%2Fagent%2Fskills',
    });
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(seen[0]?.headers['x-trace']).toBe('t1');
    expect(seen[1]).toMatchObject({ method: 'POST', url: '/api/v1/skills/find' });
    expect(JSON.parse(seen[1]!.body)).toEqual({ query: 'pdf forms', limit: 3 });
  });

  it('takes a base URL with a path prefix (behind a proxy) and refuses one with a query or fragment', async () => {
    respond = (_req, res) => json(res, 200, { status: 'ok', result: { skills: [], total: 0 }, time: 0.01 });
    await new AsyncHTTPClient({ url: `${url}/skillport/` }).listSkills();
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/skillport/api/v1/skills' });
    // A query or fragment would swallow every path the client appends (`…?x=1/api/v1/skills`).
    for (const bad of [`${url}?x=1`, `${url}/#top`, `${url}/path?token=abc`]) {
      expect(() => new AsyncHTTPClient({ url: bad }), bad).toThrow(
        /url must be the server's base URL, without a query \(\?…\) or fragment \(#…\)/,
      );
    }
    expect(seen).toHaveLength(1);
  });

  it('adds and updates from a temp upload: the result of tempUpload is sent as temp_file_id, nothing uploaded again', async () => {
    respond = (req, res) =>
      req.url === '/api/v1/resources/temp_upload'
        ? json(res, 200, { status: 'ok', result: { temp_file_id: 'tmp_0123' }, time: 0 })
        : json(res, 200, { status: 'ok', result: { name: 'from-upload' }, time: 0 });
    const client = new AsyncHTTPClient({ url });
    const upload = await client.tempUpload(new TextEncoder().encode('---\nname: from-upload\n---\n'));
    expect(upload).toEqual({ temp_file_id: 'tmp_0123' });
    await client.addSkill(upload, { wait: true, target_uri: 'viking://agent/skills' });
    await client.updateSkill('from-upload', { temp_file_id: 'tmp_0123' }, { ifMatch: 'rev-1' });
    expect(seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/v1/resources/temp_upload',
      'POST /api/v1/skills',
      'PUT /api/v1/skills/from-upload',
    ]);
    expect(JSON.parse(seen[1]!.body)).toEqual({
      temp_file_id: 'tmp_0123',
      wait: true,
      target_uri: 'viking://agent/skills',
    });
    expect(JSON.parse(seen[2]!.body)).toEqual({ temp_file_id: 'tmp_0123' });
  });

  it('sends an object with temp_file_id among other keys as data, as before', async () => {
    respond = (_req, res) => json(res, 200, { status: 'ok', result: { name: 'x' }, time: 0 });
    const client = new AsyncHTTPClient({ url });
    const structured = { name: 'x', description: 'A structured skill', temp_file_id: 'kept' };
    await client.addSkill(structured);
    expect(JSON.parse(seen[0]!.body)).toEqual({ data: structured });
  });

  it('encodes names in paths and sends If-Match on update', async () => {
    respond = (_req, res) => json(res, 200, { status: 'ok', result: { name: 'a b' }, time: 0 });
    const client = new AsyncHTTPClient({ url });
    await client.updateSkill('a b/c', '---\nname: x\n---\n', { ifMatch: 'rev-1' });
    expect(seen[0]).toMatchObject({ method: 'PUT', url: '/api/v1/skills/a%20b%2Fc' });
    expect(seen[0]?.headers['if-match']).toBe('rev-1');
  });

  it('builds typed errors from the envelope, with the request id', async () => {
    respond = (_req, res) =>
      json(
        res,
        404,
        {
          status: 'error',
          error: { code: 'NOT_FOUND', message: 'Skill "x" not found', details: { type: 'skill' } },
        },
        { 'x-request-id': 'req-42' },
      );
    const error = await new AsyncHTTPClient({ url }).getSkill('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      message: 'Skill "x" not found',
      details: { type: 'skill' },
      requestId: 'req-42',
      method: 'GET',
      url: `${url}/api/v1/skills/x`,
    });
  });

  it('reports a non-envelope failure (proxy page) by its status, showing the body', async () => {
    respond = (_req, res) => res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    const error = await new AsyncHTTPClient({ url, retry: 0 }).initialize().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).message).toBe('HTTP 502 Bad Gateway: <h1>Bad gateway</h1>');
  });

  it('retries idempotent requests on 503 but never POST', async () => {
    respond = (_req, res) =>
      json(res, 503, { status: 'error', error: { code: 'UNAVAILABLE', message: 'busy' } });
    const client = new AsyncHTTPClient({ url, retry: 2 });
    await expect(client.getTask('t')).rejects.toBeInstanceOf(UnavailableError);
    expect(seen.filter((s) => s.method === 'GET')).toHaveLength(3);
    seen = [];
    await expect(client.addSkill('---\nname: a\n---\n')).rejects.toSatisfy(isApiError);
    expect(seen).toHaveLength(1);
  });

  it("never retries the server's own 504 DEADLINE_EXCEEDED (the write is stored), but a gateway's 504", async () => {
    const stored = { name: 'a', uri: 'viking://user/default/skills/a', revision: 'r2', task_id: 't-1' };
    respond = (_req, res) =>
      json(res, 504, {
        status: 'error',
        error: { code: 'DEADLINE_EXCEEDED', message: 'stored, still processing', details: stored },
        time: 0,
      });
    const client = new AsyncHTTPClient({ url, retry: 2 });
    const update = await client
      .updateSkill('a', '---\nname: a\ndescription: A\n---\n', { wait: true, ifMatch: 'r1' })
      .catch((e: unknown) => e);
    expect(update).toBeInstanceOf(DeadlineExceededError);
    expect((update as DeadlineExceededError).details).toMatchObject(stored);
    expect(seen.map((s) => s.method)).toEqual(['PUT']);
    seen = [];
    await expect(
      client.addSkill('---\nname: a\ndescription: A\n---\n', { wait: true, idempotencyKey: 'k-504' }),
    ).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(seen).toHaveLength(1);
    // A 504 of a proxy in front of the server is retried as before.
    seen = [];
    respond = (_req, res) =>
      res.writeHead(504, { 'content-type': 'text/html' }).end('<h1>Gateway Timeout</h1>');
    await expect(client.getTask('t')).rejects.toSatisfy(isApiError);
    expect(seen).toHaveLength(3);
  });

  it('retries a POST that carries an Idempotency-Key, with the same key and body, on 503 and on a dropped connection', async () => {
    const added = { name: 'a', uri: 'viking://user/default/skills/a', status: 'success' };
    let calls = 0;
    respond = (_req, res) => {
      calls++;
      if (calls === 1) json(res, 503, { status: 'error', error: { code: 'UNAVAILABLE', message: 'busy' } });
      else if (calls === 2)
        res.socket?.destroy(); // the reply is lost
      else json(res, 200, { status: 'ok', result: added, time: 0 });
    };
    const client = new AsyncHTTPClient({ url, retry: 2 });
    const result = await client.addSkill('---\nname: a\ndescription: A\n---\n', { idempotencyKey: 'k-1' });
    expect(result).toEqual(added);
    expect(seen).toHaveLength(3);
    for (const s of seen) {
      expect(s.method).toBe('POST');
      expect(s.headers['idempotency-key']).toBe('k-1');
      expect(s.body).toBe(seen[0]?.body);
    }
    // Bounded by `retry`: two retries, then the error.
    seen = [];
    respond = (_req, res) =>
      json(res, 503, { status: 'error', error: { code: 'UNAVAILABLE', message: 'busy' } });
    await expect(client.restoreSkill('a', 'abcd', { idempotencyKey: 'k-2' })).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(seen).toHaveLength(3);
    // retry: 0 sends it once; a refusal that is not transient is never retried.
    seen = [];
    await expect(
      new AsyncHTTPClient({ url, retry: 0 }).addSkill('x', { idempotencyKey: 'k-3' }),
    ).rejects.toBeInstanceOf(UnavailableError);
    expect(seen).toHaveLength(1);
    seen = [];
    respond = (_req, res) =>
      json(res, 400, { status: 'error', error: { code: 'INVALID_ARGUMENT', message: 'no' } });
    await expect(client.addSkill('x', { idempotencyKey: 'k-4' })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(seen).toHaveLength(1);
  });

  it('times out with TimeoutError and fails to connect with NetworkError', async () => {
    respond = (_req, res) => setTimeout(() => json(res, 200, { status: 'ok', result: {}, time: 0 }), 500);
    const slow = await new AsyncHTTPClient({ url, timeout: 50, retry: 0 })
      .getQueueStatus()
      .catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(TimeoutError);
    expect((slow as TimeoutError).message).toMatch(/no answer within 50 ms/);
    const down = await new AsyncHTTPClient({ url: 'http://127.0.0.1:9', retry: 0 })
      .initialize()
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(NetworkError);
    expect((down as NetworkError).message).toMatch(
      /^cannot reach the Skillport server at http:\/\/127\.0\.0\.1:9/,
    );
    // Outside a web page there is no origin for CORS to refuse: no such hint.
    expect((down as NetworkError).message).not.toContain('SKILLPORT_CORS_ORIGINS');
  });

  it('passes a caller abort through as is (not a NetworkError)', async () => {
    respond = (_req, res) => setTimeout(() => json(res, 200, { status: 'ok', result: {}, time: 0 }), 500);
    const controller = new AbortController();
    const pending = new AsyncHTTPClient({ url, retry: 0 }).getQueueStatus({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const error = await pending.catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(error).not.toBeInstanceOf(NetworkError);
  });

  it('refuses calls after close() with LocalError UNAVAILABLE, sending nothing', async () => {
    const client = new AsyncHTTPClient({ url });
    client.close();
    seen = [];
    const error = await client.initialize().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LocalError);
    expect(isLocalError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', details: { reason: 'closed' } });
    expect((error as Error).message).toMatch(/^GET http:\/\/.+\/health: the client is closed/);
    expect(seen).toEqual([]);
  });

  it('refuses a URL that is not absolute http(s)', () => {
    expect(() => new AsyncHTTPClient({ url: 'localhost:1933' })).toThrow(/absolute http\(s\) URL/);
  });
});

describe('AsyncHTTPClient: caller text never leaves its URL path segment', () => {
  const ok = (_req: Seen, res: http.ServerResponse) =>
    json(res, 200, { status: 'ok', result: {}, time: 0 }, { etag: '"x"' });

  it.each([
    '../../../observer/queue',
    '../../deep-research',
    '..',
    '.',
    './SKILL.md',
    'docs/../../observer/system',
    'docs//guide.md',
    '/etc/passwd',
    'docs/',
    '',
    'docs\\..\\..\\observer',
    'docs/guide.md\u0000',
  ])('getSkillFile refuses path %j with InvalidArgumentError before any request', async (path) => {
    respond = ok;
    const client = new AsyncHTTPClient({ url });
    const error = await client.getSkillFile('geomaster', path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).details).toMatchObject({ field: 'path' });
    expect(seen).toEqual([]);
  });

  it.each(['..', '.', '', 'a\\b', 'x\u0000'])(
    'every route refuses the name %j before any request',
    async (name) => {
      respond = ok;
      const client = new AsyncHTTPClient({ url });
      const calls: Array<() => Promise<unknown>> = [
        () => client.getSkill(name),
        () => client.getSkillFile(name, 'SKILL.md'),
        () => client.updateSkill(name, '---\nname: x\ndescription: y\n---\n'),
        () => client.deleteSkill(name),
        () => client.listRevisions(name),
        () => client.restoreSkill(name, 'a'.repeat(64)),
        () => client.getTask(name),
        () => client.cancelTask(name),
        () => client.listApiKeys(name),
        () => client.createApiKey(name, { user_id: 'u', role: 'user' }),
        () => client.revokeApiKey('acme', name),
        () => client.revokeApiKey(name, 'k1'),
      ];
      for (const call of calls) {
        const error = await call().catch((e: unknown) => e);
        expect(error, String(call)).toBeInstanceOf(InvalidArgumentError);
      }
      expect(seen).toEqual([]);
    },
  );

  it('the raw request() refuses dot segments, plain or percent-encoded', async () => {
    respond = ok;
    const client = new AsyncHTTPClient({ url });
    for (const path of [
      'api/v1/skills/x/files/../../observer/queue',
      'api/v1/skills/%2e%2E/x',
      '/./health',
    ]) {
      await expect(client.request('GET', path)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(seen).toEqual([]);
  });

  it('names and file paths with /, ?, # and % stay inside their segment', async () => {
    respond = ok;
    const client = new AsyncHTTPClient({ url });
    await client.getSkill('a/../b?x=1#f');
    await client.getSkillFile('..x', 'docs/a?b#c/%2e%2e/..x.md');
    await client.deleteSkill('%2e%2e');
    expect(seen.map((s) => s.url)).toEqual([
      '/api/v1/skills/a%2F..%2Fb%3Fx%3D1%23f',
      '/api/v1/skills/..x/files/docs/a%3Fb%23c/%252e%252e/..x.md',
      '/api/v1/skills/%252e%252e',
    ]);
  });
});
