import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

const MIB = 1024 * 1024;
let t: TestServer;

/** A valid SKILL.md of about `size` bytes. */
const md = (name: string, size: number) => {
  const head = `---\nname: ${name}\ndescription: A skill that fills part of the account quota\n---\n\n# ${name}\n\n`;
  return head + 'word '.repeat(Math.ceil((size - head.length) / 5));
};

async function upload(text: string) {
  const form = new FormData();
  form.append('file', new Blob([text]), 'SKILL.md');
  return t.request('POST', '/api/v1/resources/temp_upload', { body: form });
}

async function usage() {
  const res = await t.request('GET', '/api/v1/system/limits');
  expect(res.status, res.text).toBe(200);
  return res.json.result.account_usage as { stored_bytes: number; temp_upload_bytes: number };
}

beforeAll(async () => {
  t = await startTestServer({ limits: { accountQuotaMb: 2, tempUploadQuotaMb: 1 } });
});
afterAll(async () => {
  await t.close();
});

describe('per-account quotas', () => {
  test('GET /api/v1/system/limits reports both quotas, their settings and the caller’s usage', async () => {
    const res = await t.request('GET', '/api/v1/system/limits');
    expect(res.status).toBe(200);
    expect(res.json.result).toMatchObject({
      account_quota_bytes: 2 * MIB,
      temp_upload_quota_bytes: MIB,
      account_usage: { stored_bytes: 0, temp_upload_bytes: 0 },
    });
    expect(res.json.result.settings).toMatchObject({
      account_quota_bytes: 'SKILLPORT_ACCOUNT_QUOTA_MB',
      temp_upload_quota_bytes: 'SKILLPORT_TEMP_UPLOAD_QUOTA_MB',
    });
  });

  test('temp uploads past the quota → 507 temp_upload_quota; a used upload frees its share', async () => {
    const a = md('quota-a', 600_000);
    const first = await upload(a);
    expect(first.status, first.text).toBe(200);
    expect((await usage()).temp_upload_bytes).toBe(Buffer.byteLength(a));

    const b = md('quota-b', 600_000);
    const refused = await upload(b);
    expect(refused.status, refused.text).toBe(507);
    expect(refused.json.error.code).toBe('RESOURCE_EXHAUSTED');
    expect(refused.json.error.details).toMatchObject({
      reason: 'temp_upload_quota',
      limit: MIB,
      used: Buffer.byteLength(a),
      size: Buffer.byteLength(b),
      setting: 'SKILLPORT_TEMP_UPLOAD_QUOTA_MB',
    });
    expect((await usage()).temp_upload_bytes).toBe(Buffer.byteLength(a));

    const added = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: first.json.result.temp_file_id },
    });
    expect(added.status, added.text).toBe(200);
    const after = await usage();
    expect(after.temp_upload_bytes).toBe(0);
    expect(after.stored_bytes).toBeGreaterThan(Buffer.byteLength(a));

    const second = await upload(b);
    expect(second.status, second.text).toBe(200);
    const addedB = await t.request('POST', '/api/v1/skills', {
      body: { temp_file_id: second.json.result.temp_file_id },
    });
    expect(addedB.status, addedB.text).toBe(200);
  });

  test('an add past the account quota → 507 account_quota and changes nothing; updates count new bytes', async () => {
    const before = await usage();
    const big = md('quota-c', 900_000);
    const refused = await t.request('POST', '/api/v1/skills', { body: { data: big } });
    expect(refused.status, refused.text).toBe(507);
    expect(refused.json.error.code).toBe('RESOURCE_EXHAUSTED');
    expect(refused.json.error.details).toMatchObject({
      reason: 'account_quota',
      limit: 2 * MIB,
      used: before.stored_bytes,
      setting: 'SKILLPORT_ACCOUNT_QUOTA_MB',
    });
    expect(refused.json.error.details.size).toBeGreaterThan(Buffer.byteLength(big));
    expect((await t.request('GET', '/api/v1/skills/quota-c')).status).toBe(404);
    expect(await usage()).toEqual(before);

    // Replacing quota-a by a small SKILL.md frees its bytes: the same add now fits.
    const update = await t.request('PUT', '/api/v1/skills/quota-a', { body: { data: md('quota-a', 1000) } });
    expect(update.status, update.text).toBe(200);
    expect((await usage()).stored_bytes).toBeLessThan(before.stored_bytes - 500_000);
    const retried = await t.request('POST', '/api/v1/skills', { body: { data: big } });
    expect(retried.status, retried.text).toBe(200);
    expect((await usage()).stored_bytes).toBeLessThanOrEqual(2 * MIB);
  });

  test('restoring an old revision past the account quota → 507 and the current revision stays', async () => {
    const history = await t.request('GET', '/api/v1/skills/quota-a/revisions');
    expect(history.status, history.text).toBe(200);
    const [current, large] = history.json.result.revisions.map((r: { revision: string }) => r.revision);
    const before = await usage();
    // quota-a's first revision (about 600 kB) back next to quota-b and quota-c would pass 2 MiB.
    const res = await t.request('POST', '/api/v1/skills/quota-a/restore', { body: { revision: large } });
    expect(res.status, res.text).toBe(507);
    expect(res.json.error.code).toBe('RESOURCE_EXHAUSTED');
    expect(res.json.error.details.reason).toBe('account_quota');
    // `used` leaves out the revision being replaced; `size` is the restored revision's files.
    expect(res.json.error.details.used).toBeLessThan(before.stored_bytes);
    expect(res.json.error.details.size).toBeGreaterThan(600_000);
    expect((await t.request('GET', '/api/v1/skills/quota-a')).json.result.revision).toBe(current);
    expect(await usage()).toEqual(before);
  });
});
