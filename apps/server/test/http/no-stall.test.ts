// Nothing one user sends may stall the server for others: hostile input is processed in bounded
// time, and the server keeps answering while it is.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

function skillMd(name: string, body: string): string {
  return `---\nname: ${name}\ndescription: A skill whose body is hostile to naive parsers\n---\n${body}\n`;
}

describe('hostile SKILL.md bodies are processed, not frozen on', () => {
  // `# a` + 60 000 spaces + `b` made the overview extractor's heading regex run for 7–11 s (1 MiB:
  // about 30 minutes), with the whole process unresponsive.
  test.each([
    ['60 KB heading line', `# a${' '.repeat(60_000)}b`],
    ['heading line at the 1 MiB SKILL.md limit', `# a${' '.repeat(1024 * 1024 - 200)}b`],
  ])('%s: the add completes and the overview names the heading', async (_label, body) => {
    const add = await t.request('POST', '/api/v1/skills', {
      body: { data: skillMd('long-heading', body), wait: true },
    });
    expect(add.status, add.text).toBe(200);
    expect(add.json.result.queue_status.failed).toBe(0);
    const got = await t.request('GET', '/api/v1/skills/long-heading?level=1');
    expect(got.status).toBe(200);
    expect(got.json.result.overview).toMatch(/## Outline\n\n- a/);
  });
});
