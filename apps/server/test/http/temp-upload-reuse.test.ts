// A folder add (upload, then add with its temp_file_id) takes the upload's bytes from this process
// when it made the upload, but the store stays the authority: an upload used up or gone in the store
// is refused as before, and a refused add leaves the upload for a retry — or for its owner to release.
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const enc = new TextEncoder();
const folder = (name: string, description = `Does ${name} things`) =>
  zipSync({
    [`${name}/SKILL.md`]: enc.encode(`---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`),
    [`${name}/scripts/run.sh`]: enc.encode('#!/bin/sh\necho run\n'),
  });

async function upload(bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'skill.zip');
  const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
  expect(res.status, res.text).toBe(200);
  return res.json.result.temp_file_id;
}

const add = (id: string) => t.request('POST', '/api/v1/skills', { body: { temp_file_id: id } });

describe(`${TEST_ENGINE} folder add from an upload made through this server`, () => {
  test('stores the folder once; the same id again is gone', async () => {
    const id = await upload(folder('reused-upload'));
    const first = await add(id);
    expect(first.status, first.text).toBe(200);
    expect(first.json.result.auxiliary_files).toBe(1);
    const files = await t.request('GET', '/api/v1/skills/reused-upload/files/scripts/run.sh');
    expect(files.status, files.text).toBe(200);
    expect(files.text).toBe('#!/bin/sh\necho run\n');
    const again = await add(id);
    expect(again.status, again.text).toBe(404);
    expect(again.json.error.code).toBe('NOT_FOUND');
  });

  test('an upload used up through another connection (another replica) is refused; nothing stored', async () => {
    const id = await upload(folder('taken-elsewhere'));
    expect(await t.server.store.takeTempUpload('default', id, Date.now())).not.toBeNull();
    const res = await add(id);
    expect(res.status, res.text).toBe(404);
    expect(res.json.error.code).toBe('NOT_FOUND');
    expect((await t.request('GET', '/api/v1/skills/taken-elsewhere')).status).toBe(404);
  });

  test('a refused add leaves the upload for a retry', async () => {
    const id = await upload(folder('Not A Valid Name!'));
    const first = await add(id);
    expect(first.status, first.text).toBe(400);
    const retry = await add(id);
    expect(retry.status, retry.text).toBe(400);
    expect(retry.json.error.code).toBe(first.json.error.code);
  });

  test('releasing an unused upload deletes it at once: no longer counted, no longer usable', async () => {
    const id = await upload(folder('Refused Then Released'));
    const refused = await add(id);
    expect(refused.status, refused.text).toBe(400);
    const before = await t.server.store.accountUsage('default', Date.now());
    expect(before.tempUploadBytes).toBeGreaterThan(0);
    const released = await t.request('DELETE', `/api/v1/resources/temp_upload/${id}`);
    expect(released.status, released.text).toBe(200);
    expect(released.json.result).toEqual({ temp_file_id: id, released: true });
    expect(await t.server.store.getTempUpload('default', id, Date.now())).toBeNull();
    const after = await t.server.store.accountUsage('default', Date.now());
    expect(after.tempUploadBytes).toBeLessThan(before.tempUploadBytes);
    // Gone for an add, and for a second release.
    const retry = await add(id);
    expect(retry.status, retry.text).toBe(404);
    const again = await t.request('DELETE', `/api/v1/resources/temp_upload/${id}`);
    expect(again.status, again.text).toBe(404);
    expect(again.json.error).toMatchObject({
      code: 'NOT_FOUND',
      details: { type: 'temp_file', resource: id },
    });
  });

  test('an upload of another account is not released', async () => {
    const id = await upload(folder('kept-for-owner'));
    expect(await t.server.store.releaseTempUpload('other-account', id, Date.now())).toBe(false);
    expect(await t.server.store.getTempUpload('default', id, Date.now())).not.toBeNull();
    const res = await add(id);
    expect(res.status, res.text).toBe(200);
  });
});
