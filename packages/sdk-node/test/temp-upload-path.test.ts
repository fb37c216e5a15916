/**
 * `tempUpload` of the Node client takes a local path as `addSkill` does — a file uploaded as it is, a
 * folder zipped — and refuses a string that names nothing, instead of uploading the string's text.
 * Against a raw HTTP server that records what arrives.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { AsyncHTTPClient, isLocalError } from '@skillport/sdk-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let server: http.Server;
let url: string;
let dir: string;
let bodies: Buffer[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', result: { temp_file_id: 'tmp_0123' }, time: 0 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-temp-upload-'));
  mkdirSync(path.join(dir, 'my-skill'));
  writeFileSync(
    path.join(dir, 'my-skill', 'SKILL.md'),
    '---\nname: my-skill\ndescription: From a folder\n---\n',
  );
  writeFileSync(path.join(dir, 'my-skill', 'notes.md'), 'Notes');
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  bodies = [];
});

/** The filename and bytes of the multipart `file` part of a recorded body. */
function filePart(body: Buffer): { filename: string; bytes: Buffer } {
  const text = body.toString('latin1');
  const match = /name="file"; filename="([^"]*)"\r\n(?:[^\r\n]+\r\n)*\r\n/.exec(text);
  if (!match) throw new Error(`no file part in ${text.slice(0, 200)}`);
  const start = match.index + match[0].length;
  const end = text.indexOf('\r\n--', start);
  return { filename: match[1] ?? '', bytes: body.subarray(start, end) };
}

describe('AsyncHTTPClient.tempUpload (Node)', () => {
  it('uploads a file named by its path, as it is', async () => {
    const client = new AsyncHTTPClient({ url });
    expect(await client.tempUpload(path.join(dir, 'my-skill', 'SKILL.md'))).toEqual({
      temp_file_id: 'tmp_0123',
    });
    const part = filePart(bodies[0]!);
    expect(part.filename).toBe('SKILL.md');
    expect(part.bytes.toString()).toBe('---\nname: my-skill\ndescription: From a folder\n---\n');
  });

  it('zips a folder named by its path', async () => {
    const client = new AsyncHTTPClient({ url });
    await client.tempUpload(path.join(dir, 'my-skill'), { upload_mode: 'shared' });
    const part = filePart(bodies[0]!);
    expect(part.filename).toBe('my-skill.zip');
    expect(part.bytes.subarray(0, 2).toString()).toBe('PK');
    expect(bodies[0]!.toString('latin1')).toContain('name="upload_mode"\r\n\r\nshared');
  });

  it.each([
    ['a path that names nothing', './no/such/skill.zip', 'NOT_FOUND'],
    ['SKILL.md text', '---\nname: x\ndescription: Text, not bytes\n---\n', 'INVALID_ARGUMENT'],
  ])('refuses %s before sending anything (%s)', async (_label, value, code) => {
    const client = new AsyncHTTPClient({ url });
    const error = await client.tempUpload(value).catch((e: unknown) => e);
    expect(isLocalError(error)).toBe(true);
    expect(error).toMatchObject({ code });
    expect(bodies).toHaveLength(0);
  });
});
