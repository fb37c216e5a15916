/**
 * Shapes OpenViking's own clients (Python, Go, Rust and TypeScript SDKs and the `ov` CLI) send and
 * read, beyond the contract's other tests. Runs on both engines.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const md = (name: string, frontmatter: string, body = '# Title\n\nBody text.\n') =>
  `---\nname: ${name}\n${frontmatter}---\n\n${body}`;

async function add(data: unknown, extra: Record<string, unknown> = {}) {
  const res = await t.request('POST', '/api/v1/skills', { body: { data, wait: true, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.json.result;
}

beforeAll(async () => {
  t = await startTestServer();
  await add(
    md(
      'invoice-parser',
      'description: >-\n  Parse   invoices\n  and receipts into line items\ntags: billing, invoices\nallowed-tools: Bash(pdftotext:*) Read\n',
    ),
  );
  await add(md('invoice-mailer', 'description: "Mail invoices — to customers, with ünïcode"\n'));
  await add(md('invoice-archive', `description: ${'Archive invoices for years. '.repeat(60)}\n`), {
    target_uri: 'viking://agent/skills',
  });
  await add({ name: 'invoice-totals', description: 'Sum invoice totals', content: '# Totals\n' });
});
afterAll(async () => {
  await t.close();
});

describe('find hits carry the L0 abstract', () => {
  test.each([
    [{ query: 'invoices' }],
    [{ query: 'invoice', target_uri: 'viking://agent/skills' }],
    [{ query: 'invoice-parser' }],
  ])('each hit of %j has the abstract get gives at level 0', async (body) => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { limit: 20, ...body } });
    expect(res.status, res.text).toBe(200);
    const hits = res.json.result.skills as { name: string; root_uri: string; abstract: string }[];
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) {
      const query = `level=0&target_uri=${encodeURIComponent(hit.root_uri)}`;
      const got = await t.request('GET', `/api/v1/skills/${hit.name}?${query}`);
      expect(got.status, got.text).toBe(200);
      expect(hit.abstract, hit.name).toBe(got.json.result.abstract);
      expect(hit.abstract.startsWith(`**${hit.name}**`), hit.abstract).toBe(true);
    }
  });

  test('the abstract of a hit with a folded description, tags and allowed tools', async () => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { query: 'receipts line items' } });
    const hit = res.json.result.skills.find((s: { name: string }) => s.name === 'invoice-parser');
    expect(hit.abstract).toBe(
      '**invoice-parser** — Parse invoices and receipts into line items. Tags: billing, invoices. ' +
        'Allowed tools: Bash(pdftotext:*), Read.\n',
    );
  });
});
