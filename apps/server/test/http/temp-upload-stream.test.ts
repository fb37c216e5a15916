// The temp upload's multipart body is parsed as it arrives: a file part over the upload limit is
// answered 413 while the rest of the body is still unsent (the whole body is never buffered), and
// the multipart forms real clients send (Go's mime/multipart, Python httpx, JS FormData) upload and
// add as before.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const LIMIT = 256 * 1024;
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ limits: { maxUploadBytes: LIMIT } });
});
afterAll(async () => {
  await t?.close();
});

/**
 * Sends the request head and `sent` (the first part of a body declared `declared` bytes long) on a
 * raw connection, never the rest; resolves with what the server answered before it closed.
 */
function sendPartOfBody(head: string, sent: Buffer): Promise<string> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    socket.on('data', (chunk) => {
      received.push(chunk);
      // The answer is complete once its JSON body has closed.
      const text = Buffer.concat(received).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split >= 0 && text.trimEnd().endsWith('}')) {
        socket.destroy();
        resolve(text);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(received).toString('latin1')));
    socket.write(head);
    socket.write(sent);
  });
}

describe(`${TEST_ENGINE} temp upload parsed as it arrives`, () => {
  test('a file part over the limit is answered 413 before the rest of the body is sent', async () => {
    const boundary = 'b0undary';
    const partHead = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n` +
        'Content-Type: application/zip\r\n\r\n',
    );
    // Declared length within the request's allowance (limit + multipart framing), so the length
    // alone does not refuse it; only the file part, once past the limit, does.
    const declared = partHead.length + LIMIT + 16 * 1024;
    const head =
      `POST /api/v1/resources/temp_upload HTTP/1.1\r\nHost: localhost\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${declared}\r\n\r\n`;
    // The part's head and one byte more than the limit of its content: the body stays unfinished.
    const answer = await sendPartOfBody(head, Buffer.concat([partHead, Buffer.alloc(LIMIT + 1, 7)]));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    const json = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as {
      error: { code: string; message: string; details: Record<string, unknown> };
    };
    expect(json.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(json.error.details).toMatchObject({ field: 'file', limit: LIMIT });
    expect(json.error.message).toContain(`the limit is ${LIMIT} bytes (SKILLPORT_MAX_UPLOAD_BYTES)`);
  });

  const skill = (name: string) => `---\nname: ${name}\ndescription: Uploaded as ${name}\n---\n\n# ${name}\n`;

  /** Uploads one hand-framed multipart body, then adds the skill from its temp_file_id. */
  async function uploadAndAdd(contentType: string, body: Buffer): Promise<void> {
    const res = await fetch(`${t.url}/api/v1/resources/temp_upload`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: new Uint8Array(body),
    });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const id = (JSON.parse(text) as { result: { temp_file_id: string } }).result.temp_file_id;
    const added = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(added.status, added.text).toBe(200);
  }

  test('Go mime/multipart framing: escaped filename, upload_mode first, part Content-Type', async () => {
    const b = 'f1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7';
    const body =
      `--${b}\r\nContent-Disposition: form-data; name="upload_mode"\r\n\r\nlocal\r\n` +
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="C:\\\\skills\\\\SKILL.md"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n${skill('go-framed')}\r\n--${b}--\r\n`;
    await uploadAndAdd(`multipart/form-data; boundary=${b}`, Buffer.from(body));
  });

  test('quoted boundary, no part Content-Type, a preamble (httpx-style)', async () => {
    const b = 'a1:b2=c3';
    const body =
      `preamble to ignore\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="SKILL.md"\r\n\r\n` +
      `${skill('quoted-boundary')}\r\n--${b}--\r\n`;
    await uploadAndAdd(`multipart/form-data; boundary="${b}"`, Buffer.from(body));
  });

  test('filename* (RFC 5987) and a raw UTF-8 filename', async () => {
    const b = 'xyzzy';
    const body =
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''%C3%A9t%C3%A9.md\r\n\r\n` +
      `${skill('filename-star')}\r\n--${b}--\r\n`;
    await uploadAndAdd(`multipart/form-data; boundary=${b}`, Buffer.from(body));
    const raw =
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="été.md"\r\n\r\n` +
      `${skill('raw-utf8-name')}\r\n--${b}--\r\n`;
    await uploadAndAdd(`multipart/form-data; boundary=${b}`, Buffer.from(raw, 'utf8'));
  });

  test('a file sent in many small chunks (chunked transfer) is stored whole', async () => {
    const form = new FormData();
    const content = `${skill('chunked-upload')}\n${'padding line\n'.repeat(8000)}`;
    form.append('file', new Blob([content]), 'SKILL.md');
    // One encoding: each encoding of a FormData picks its own boundary.
    const encoding = new Response(form);
    const type = encoding.headers.get('content-type') ?? '';
    const encoded = new Uint8Array(await encoding.arrayBuffer());
    const res = await fetch(`${t.url}/api/v1/resources/temp_upload`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          for (let at = 0; at < encoded.length; at += 1000) controller.enqueue(encoded.slice(at, at + 1000));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const id = (JSON.parse(text) as { result: { temp_file_id: string } }).result.temp_file_id;
    const added = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(added.status, added.text).toBe(200);
    const got = await t.request('GET', '/api/v1/skills/chunked-upload');
    expect(got.status, got.text).toBe(200);
    expect(got.text).toContain('padding line');
  });

  test('a declared-length body of many 64 KiB slices, sent in uneven pieces with pauses, is stored whole', async () => {
    // Past several of the parser's per-turn slices, in pieces that straddle them, so the request is
    // paused and resumed mid-chunk: every byte must reach the stored file, in order.
    const boundary = 'sl1ces';
    const lines: string[] = [];
    for (let i = 0; lines.join('').length < 200 * 1024; i++) lines.push(`line ${i} ${'x'.repeat(i % 97)}\n`);
    const content = `${skill('sliced-upload')}\n${lines.join('')}`;
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="SKILL.md"\r\n` +
          'Content-Type: text/markdown\r\n\r\n',
      ),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const { hostname, port } = new URL(t.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) });
      const received: Buffer[] = [];
      socket.on('data', (chunk) => {
        received.push(chunk);
        const text = Buffer.concat(received).toString('utf8');
        if (text.includes('\r\n\r\n') && text.trimEnd().endsWith('}')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      socket.write(
        `POST /api/v1/resources/temp_upload HTTP/1.1\r\nHost: localhost\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      const sizes = [1, 70_000, 3, 65_536, 131_071, 17];
      let at = 0;
      const sendNext = (i: number) => {
        if (at >= body.length) return;
        const size = i < sizes.length ? (sizes[i] as number) : body.length - at;
        socket.write(body.subarray(at, at + size));
        at += size;
        setTimeout(() => sendNext(i + 1), 5);
      };
      sendNext(0);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const id = (
      JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { result: { temp_file_id: string } }
    ).result.temp_file_id;
    const added = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });
    expect(added.status, added.text).toBe(200);
    const got = await t.request('GET', '/api/v1/skills/sliced-upload?level=2');
    expect(got.status, got.text).toBe(200);
    const stored = (JSON.parse(got.text) as { result: { content: string } }).result.content;
    expect(stored).toBe(content);
  });

  test('a truncated multipart body → 400 INVALID_ARGUMENT, nothing stored', async () => {
    const res = await fetch(`${t.url}/api/v1/resources/temp_upload`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=B' },
      body: '--B\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\nno end',
    });
    const json = (await res.json()) as { error: { code: string; message: string } };
    expect(res.status).toBe(400);
    expect(json.error.code).toBe('INVALID_ARGUMENT');
    expect(json.error.message).toMatch(/^Malformed FormData request\./);
  });
});
