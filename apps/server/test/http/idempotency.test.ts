/**
 * `Idempotency-Key` on add, update and restore: a retry of a succeeded request gets the stored
 * response and changes nothing; a reused key with another request is refused; failures are not kept.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const md = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nbody\n`;
const revisions = async (name: string) =>
  (await t.request('GET', `/api/v1/skills/${name}/revisions`)).json.result.total as number;

describe('Idempotency-Key', () => {
  test('add retried with the same key and body gets the stored response; one revision, one task', async () => {
    const body = { data: md('idem-add', 'Added once however often it is sent') };
    const headers = { 'idempotency-key': 'add-0001' };
    const first = await t.request('POST', '/api/v1/skills', { body, headers });
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Meanwhile the skill changes: the replay must not undo that.
    const other = await t.request('POST', '/api/v1/skills', {
      body: { data: md('idem-add', 'Changed since') },
    });
    expect(other.status).toBe(200);
    const retry = await t.request('POST', '/api/v1/skills', { body, headers });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.result).toEqual(first.json.result);
    expect(await revisions('idem-add')).toBe(2);
    const now = await t.request('GET', '/api/v1/skills/idem-add?level=0');
    expect(now.json.result.description).toBe('Changed since');
  });

  test('the same key with a different body → 422 idempotency_key_reused, nothing changes', async () => {
    const headers = { 'idempotency-key': 'add-0002' };
    const first = await t.request('POST', '/api/v1/skills', {
      body: { data: md('idem-reuse', 'The first request') },
      headers,
    });
    expect(first.status).toBe(200);
    const reused = await t.request('POST', '/api/v1/skills', {
      body: { data: md('idem-reuse', 'Another request under the same key') },
      headers,
    });
    expect(reused.status, reused.text).toBe(422);
    expect(reused.json.error).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { field: 'Idempotency-Key', reason: 'idempotency_key_reused' },
    });
    // Another path under the same key is another request too.
    const elsewhere = await t.request('PUT', '/api/v1/skills/idem-reuse', {
      body: { data: md('idem-reuse', 'The first request') },
      headers,
    });
    expect(elsewhere.status).toBe(422);
    expect((await t.request('GET', '/api/v1/skills/idem-reuse?level=0')).json.result.description).toBe(
      'The first request',
    );
    expect(await revisions('idem-reuse')).toBe(1);
  });

  test('an update with If-Match retried after it applied gets its result, not 412, and applies once', async () => {
    await t.request('POST', '/api/v1/skills', { body: { data: md('idem-update', 'Version one') } });
    const rev = (await t.request('GET', '/api/v1/skills/idem-update?level=0')).json.result.revision;
    const request = {
      body: { data: md('idem-update', 'Version two') },
      headers: { 'if-match': `"${rev}"`, 'idempotency-key': 'update-0001' },
    };
    const first = await t.request('PUT', '/api/v1/skills/idem-update', request);
    expect(first.status, first.text).toBe(200);
    const retry = await t.request('PUT', '/api/v1/skills/idem-update', request);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.json.result.revision).toBe(first.json.result.revision);
    expect(retry.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await revisions('idem-update')).toBe(2);
    // Without the key the same retry is refused as stale, as before.
    const plain = await t.request('PUT', '/api/v1/skills/idem-update', {
      ...request,
      headers: { 'if-match': `"${rev}"` },
    });
    expect(plain.status).toBe(412);
  });

  test('a failed request is not kept: the retry runs again', async () => {
    const headers = { 'idempotency-key': 'add-0003' };
    const bad = await t.request('POST', '/api/v1/skills', {
      body: { data: md('Bad Name!', 'Invalid') },
      headers,
    });
    expect(bad.status).toBe(400);
    const again = await t.request('POST', '/api/v1/skills', {
      body: { data: md('Bad Name!', 'Invalid') },
      headers,
    });
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    const fixed = await t.request('POST', '/api/v1/skills', {
      body: { data: md('idem-fixed', 'Now valid') },
      headers,
    });
    expect(fixed.status, fixed.text).toBe(200);
  });

  test('a write whose wait ran out is kept: the retry gets the 504 naming what was stored, and stores nothing', async () => {
    const slow = await startTestServer({ runJobs: false });
    try {
      const headers = { 'idempotency-key': 'add-timeout-1' };
      const body = { data: md('idem-slow', 'Stored before the wait ran out'), wait: true, timeout: 0.1 };
      const first = await slow.request('POST', '/api/v1/skills', { body, headers });
      expect(first.status, first.text).toBe(504);
      const retry = await slow.request('POST', '/api/v1/skills', { body, headers });
      expect(retry.status, retry.text).toBe(504);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.json.error).toEqual(first.json.error);
      expect(retry.json.error.details).toMatchObject({ name: 'idem-slow', task_id: expect.any(String) });
      const history = await slow.request('GET', '/api/v1/skills/idem-slow/revisions');
      expect(history.json.result.total).toBe(1);
      expect((await slow.request('GET', '/api/v1/observer/queue')).json.result.pending).toBe(1);
    } finally {
      await slow.close();
    }
  });

  test('concurrent requests with one key apply once', async () => {
    const request = {
      body: { data: md('idem-race', 'Sent twice at once') },
      headers: { 'idempotency-key': 'race-1' },
    };
    const both = await Promise.all([0, 1, 2].map(() => t.request('POST', '/api/v1/skills', request)));
    for (const r of both) expect([200, 409], r.text).toContain(r.status);
    expect(
      both.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null),
    ).toHaveLength(1);
    for (const r of both.filter((x) => x.status === 409)) {
      expect(r.json.error.details.reason).toBe('idempotency_key_in_progress');
      expect(r.headers.get('retry-after')).toBe('1');
    }
    expect(await revisions('idem-race')).toBe(1);
  });

  test('a folder upload retried under a new temp_file_id (same bytes) is the same request; other bytes are not', async () => {
    const zip = (description: string) =>
      zipSync({
        'SKILL.md': strToU8(md('idem-zip', description)),
        'ref/guide.md': strToU8('# Guide\n'),
      });
    const upload = async (bytes: Uint8Array, filename = 'skill.zip') => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)]), filename);
      const res = await t.request('POST', '/api/v1/resources/temp_upload', { body: form });
      expect(res.status, res.text).toBe(200);
      return res.json.result.temp_file_id as string;
    };
    const headers = { 'idempotency-key': 'zip-0001' };
    const bytes = zip('Uploaded as a zip');
    const firstId = await upload(bytes);
    const first = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: firstId }, headers });
    expect(first.status, first.text).toBe(200);
    expect(first.json.result.auxiliary_files).toBe(1);
    // The reply was lost: the client uploads the folder again (new id) and retries with the key.
    const secondId = await upload(bytes);
    expect(secondId).not.toBe(firstId);
    const retry = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: secondId }, headers });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.json.result).toEqual(first.json.result);
    // The retry's upload was freed, not left to expire.
    const reuse = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: secondId } });
    expect(reuse.status, reuse.text).toBe(404);
    // The very same body resent (its upload already used up) is the same request too.
    const resent = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: firstId }, headers });
    expect(resent.status, resent.text).toBe(200);
    expect(resent.headers.get('idempotent-replayed')).toBe('true');
    expect(await revisions('idem-zip')).toBe(1);
    // Other bytes, or the same bytes under another file name, are another request.
    for (const [bytesNow, filename] of [
      [zip('Another folder'), 'skill.zip'],
      [bytes, 'other.zip'],
    ] as const) {
      const otherId = await upload(bytesNow, filename);
      const other = await t.request('POST', '/api/v1/skills', { body: { temp_file_id: otherId }, headers });
      expect(other.status, other.text).toBe(422);
      expect(other.json.error.details.reason).toBe('idempotency_key_reused');
    }
    expect(await revisions('idem-zip')).toBe(1);
  });

  test('a key that is not 1–255 printable ASCII characters → 400', async () => {
    for (const key of ['x'.repeat(256), 'clé']) {
      const res = await t.request('POST', '/api/v1/skills', {
        body: { data: md('idem-bad-key', 'Never stored') },
        headers: { 'idempotency-key': key },
      });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.details).toMatchObject({ field: 'Idempotency-Key' });
    }
    expect((await t.request('GET', '/api/v1/skills/idem-bad-key')).status).toBe(404);
  });
});
