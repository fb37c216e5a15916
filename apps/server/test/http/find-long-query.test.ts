// A find query may be as long as the JSON body allows: a megabyte of distinct words or of CJK text is
// answered like its first words, without holding a search reader for minutes (both engines).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  for (const [name, body] of [
    ['invoice-parser', 'Parse invoices and receipts into line items.'],
    ['raffle-picker', '从报名的人里随机抽取三个幸运中奖者'],
    ['weather-report', 'Daily weather report for a city.'],
  ]) {
    const added = await t.request('POST', '/api/v1/skills', {
      body: { data: `---\nname: ${name}\ndescription: ${body}\n---\n# ${name}\n\n${body}\n`, wait: true },
    });
    expect(added.status).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
});

const names = (res: { json: { result: { skills: Array<{ name: string }> } } }) =>
  res.json.result.skills.map((s) => s.name);

describe('find with a megabyte-long query', () => {
  test('distinct words after the first sixteen change nothing', async () => {
    const head = 'parse invoices receipts';
    const filler = Array.from({ length: 120_000 }, (_, i) => `w${i}x`).join(' ');
    const short = await t.request('POST', '/api/v1/skills/find', { body: { query: head } });
    const long = await t.request('POST', '/api/v1/skills/find', { body: { query: `${head} ${filler}` } });
    expect(short.status).toBe(200);
    expect(long.status).toBe(200);
    expect(names(long)).toEqual(names(short));
    expect(names(long)).toContain('invoice-parser');
  });

  test('a megabyte of CJK text', async () => {
    const long = await t.request('POST', '/api/v1/skills/find', {
      body: { query: `幸运中奖者${'随机抽取'.repeat(250_000)}` },
    });
    expect(long.status).toBe(200);
    expect(long.json.result.query).toHaveLength(5 + 1_000_000);
  });
});

describe('find with a NUL character in the query', () => {
  test('is answered like the query without it (PostgreSQL text cannot hold NUL)', async () => {
    const plain = await t.request('POST', '/api/v1/skills/find', { body: { query: 'invoice parser' } });
    const withNul = await t.request('POST', '/api/v1/skills/find', {
      body: { query: 'invoice\u0000 parser\u0000' },
    });
    expect(withNul.status, withNul.text).toBe(200);
    expect(names(withNul)).toEqual(names(plain));
    const only = await t.request('POST', '/api/v1/skills/find', { body: { query: 'zzqx\u0000' } });
    expect(only.status, only.text).toBe(200);
  });
});
