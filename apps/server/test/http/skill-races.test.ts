// Concurrent writes of one skill: with `If-Match` exactly one of the writers that read the same
// revision wins and the others get 412 (no lost update) — on add as on update; without it every
// write, delete and restore is answered 2xx or a clear 4xx, never 5xx, and the skill ends in the
// state of the last acknowledged write.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const md = (name: string, text: string) =>
  `---\nname: ${name}\ndescription: Raced by many writers (${text})\n---\n\n# ${name}\n\n${text}\n`;

async function current(name: string): Promise<{ revision: string; content: string }> {
  const res = await t.request('GET', `/api/v1/skills/${name}?level=2`);
  expect(res.status, res.text).toBe(200);
  return { revision: res.json.result.revision, content: res.json.result.content };
}

function statuses(responses: Array<{ status: number }>): number[] {
  return [...new Set(responses.map((r) => r.status))].sort();
}

describe('writers that read the same revision', () => {
  test.each([
    ['POST /api/v1/skills (add replacing it)', 'POST', '/api/v1/skills'],
    ['PUT /api/v1/skills/{name}', 'PUT', '/api/v1/skills/race-kit'],
  ])('%s with If-Match: one wins, the others get 412 and change nothing', async (_label, method, url) => {
    await t.request('POST', '/api/v1/skills', { body: { data: md('race-kit', 'start'), wait: true } });
    const before = await current('race-kit');
    const writers = Array.from({ length: 8 }, (_, i) =>
      t.request(method, url, {
        body: { data: md('race-kit', `writer ${i}`), wait: true },
        headers: { 'if-match': `"${before.revision}"` },
      }),
    );
    const answers = await Promise.all(writers);
    expect(statuses(answers)).toEqual([200, 412]);
    const won = answers.filter((a) => a.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status === 412)) {
      expect(lost.json.error.code).toBe('CONFLICT');
      expect(lost.json.error.details.expected).toBe(before.revision);
    }
    const after = await current('race-kit');
    expect(after.revision).toBe(won[0]?.json.result.revision);
  });

  test('an add with If-Match of a skill that does not exist gets 412 and stores nothing', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md('never-kit', 'x'), wait: true },
      headers: { 'if-match': '*' },
    });
    expect(res.status, res.text).toBe(412);
    expect((await t.request('GET', '/api/v1/skills/never-kit')).status).toBe(404);
  });

  test('a malformed If-Match on add is a 400 before anything is evaluated', async () => {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md('race-kit', 'y'), wait: true },
      headers: { 'if-match': '"unbalanced' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.field).toBe('If-Match');
  });
});

test('adds, deletes and restores at once: never a 5xx, and the last acknowledged write holds', async () => {
  await t.request('POST', '/api/v1/skills', { body: { data: md('mixed-kit', 'first'), wait: true } });
  const first = await current('mixed-kit');
  await t.request('POST', '/api/v1/skills', { body: { data: md('mixed-kit', 'second'), wait: true } });
  const ops = Array.from({ length: 24 }, (_, i) => {
    if (i % 3 === 0) {
      return t.request('POST', '/api/v1/skills', { body: { data: md('mixed-kit', `op ${i}`), wait: true } });
    }
    if (i % 3 === 1) return t.request('DELETE', '/api/v1/skills/mixed-kit');
    return t.request('POST', '/api/v1/skills/mixed-kit/restore', {
      body: { revision: first.revision, wait: true },
    });
  });
  const answers = await Promise.all(ops);
  for (const a of answers) expect([200, 404], a.text).toContain(a.status);
  // Every add was acknowledged (an add never needs the skill to exist).
  for (let i = 0; i < answers.length; i += 3) expect(answers[i]?.status, answers[i]?.text).toBe(200);
  // Afterwards one more add is current, on top of a consistent history.
  const last = await t.request('POST', '/api/v1/skills', {
    body: { data: md('mixed-kit', 'last'), wait: true },
  });
  expect(last.status, last.text).toBe(200);
  const now = await current('mixed-kit');
  expect(now.revision).toBe(last.json.result.revision);
  expect(now.content).toContain('last');
  const history = await t.request('GET', '/api/v1/skills/mixed-kit/revisions');
  expect(history.status, history.text).toBe(200);
  expect(history.json.result.current_revision).toBe(last.json.result.revision);
});
