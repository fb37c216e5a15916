// Nothing one user sends may stall the server for others: hostile input is processed in bounded
// time, and the server keeps answering while it is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dropEngineData, openEngineStore } from '../helpers/engine.js';
import { healthDuring } from '../helpers/health-probe.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { buildZip } from '../helpers/zip-builder.js';

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

// The invariant is observed from outside: the server runs in a process of its own (so the test's
// own data and work do not count against it) and `/health` is probed from a separate thread.
let proc: ServerProcess;
beforeAll(async () => {
  proc = await startServerProcess();
});
afterAll(async () => {
  await proc?.stop();
});

/** A JSON request to the server process. */
async function call(method: string, urlPath: string, body?: unknown) {
  const res = await fetch(`${proc.url}${urlPath}`, {
    method,
    ...(body === undefined
      ? {}
      : body instanceof FormData
        ? { body }
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted field by field
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, text, json };
}

/**
 * `/health` keeps answering within 100 ms while `op` (one hostile request, with its job) runs: the
 * server's HTTP thread never computes for 100 ms while a probe waits (see `healthDuring`).
 */
async function expectHealthyDuring(op: () => Promise<unknown>): Promise<void> {
  const verdict = await healthDuring(proc.url, op, { pid: proc.child.pid as number });
  expect(verdict.runs.every((run) => run.probes > 0)).toBe(true);
  expect(verdict.ok, JSON.stringify(verdict.runs)).toBe(true);
}

async function upload(bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'skill.zip');
  const res = await call('POST', '/api/v1/resources/temp_upload', form);
  expect(res.status, res.text).toBe(200);
  return res.json.result.temp_file_id;
}

const MEGABYTE = 1024 * 1024 - 200;
const hostileBodies: Array<[string, string]> = [
  ['a 1 MiB heading line', `# a${' '.repeat(MEGABYTE)}b`],
  [
    'a 1 MiB body of short Markdown lines',
    Array.from({ length: MEGABYTE / 32 }, (_, i) => `## h${i}\n- **p${i}** (string): x\n`)
      .join('')
      .slice(0, MEGABYTE),
  ],
  ['1 MiB of one word', 'word '.repeat(MEGABYTE / 5)],
  ['1 MiB of CJK text', '检查小红书登录状态'.repeat(MEGABYTE / 27)],
];

describe('/health answers within 100 ms while a hostile request is processed', () => {
  test.each(hostileBodies)('SKILL.md with %s (add, job, get, validate)', async (_label, body) => {
    await expectHealthyDuring(async () => {
      const text = skillMd('hostile-add', body);
      const add = await call('POST', '/api/v1/skills', { data: text, wait: true });
      expect(add.status, add.text.slice(0, 300)).toBe(200);
      expect(add.json.result.queue_status.failed).toBe(0);
      const get = await call('GET', '/api/v1/skills/hostile-add?include_content=true');
      expect(get.status).toBe(200);
      const validate = await call('POST', '/api/v1/skills/validate', { data: text });
      expect(validate.json.result.valid).toBe(true);
    });
  });

  // The attack's shape: a few hundred KB of zip under the ratio cap that inflates to ~48 MiB.
  test('a zip that inflates to 48 MiB (upload, add, job)', async () => {
    const size = 48 * 1024 * 1024;
    const data = new Uint8Array(size);
    let x = 12345;
    for (let i = 0; i < size; i += 500) {
      x = (x * 1103515245 + 12345) >>> 0;
      data.fill(x >>> 24, i, i + 500);
    }
    const zip = buildZip([
      { name: 'SKILL.md', data: skillMd('zip-inflated', 'Large auxiliary data.') },
      { name: 'data/blocks.bin', data },
    ]);
    expect(zip.byteLength).toBeLessThan(size / 100);
    await expectHealthyDuring(async () => {
      const id = await upload(zip);
      const add = await call('POST', '/api/v1/skills', { temp_file_id: id, wait: true });
      expect(add.status, add.text.slice(0, 300)).toBe(200);
    });
  }, 120_000);

  test('an MCP tool with 20 000 parameters (add, job)', async () => {
    const properties = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'string', description: `Parameter ${i}` }]),
    );
    await expectHealthyDuring(async () => {
      const add = await call('POST', '/api/v1/skills', {
        data: {
          name: 'huge-tool',
          description: 'A tool with very many parameters',
          inputSchema: { type: 'object', properties },
        },
        wait: true,
      });
      expect(add.status, add.text.slice(0, 300)).toBe(200);
    });
  });
});

describe('/health answers within 100 ms while a hostile JSON body is refused', () => {
  test('a 3 MB body holding one object of 190,000 keys (~200 ms of the HTTP thread to parse and walk)', async () => {
    const metadata = Object.fromEntries(Array.from({ length: 190_000 }, (_, i) => [`k${i}`, i]));
    await expectHealthyDuring(async () => {
      for (let i = 0; i < 3; i++) {
        const res = await call('POST', '/api/v1/skills/validate', {
          data: { name: 'many-keys', description: 'An object of very many keys', metadata },
        });
        expect(res.status, res.text.slice(0, 300)).toBe(400);
        expect(res.json.error.details.reason).toBe('json_too_many_keys');
      }
    });
  });
});

describe('a backlog of processing jobs does not hold up requests', () => {
  test('the server listens and answers while thousands of queued jobs are still being run', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-backlog-'));
    const store = openEngineStore(dataDir);
    await store.ensureAccount('default');
    await store.ensureUser('default', 'default');
    const enc = new TextEncoder();
    const JOBS = 3000;
    for (let i = 0; i < JOBS; i++) {
      const name = `queued-${i}`;
      const text = `---\nname: ${name}\ndescription: One of many skills whose jobs wait\n---\n\n# ${name}\n`;
      await store.putSkill({
        accountId: 'default',
        rootUri: 'viking://user/default/skills',
        name,
        description: 'One of many skills whose jobs wait',
        tags: [],
        allowedTools: [],
        frontmatter: { name },
        body: `# ${name}\n`,
        sourceMetadata: null,
        files: [{ path: 'SKILL.md', kind: 'definition', content: enc.encode(text) }],
        task: { type: 'add_skill', userId: 'default' },
      });
    }
    await store.close();
    // The job runner starts before the socket listens: had it held the event loop until the queue was
    // empty, the first answer would find no job left.
    const backlog = await startTestServer({ dataDir });
    try {
      const queue = await backlog.request('GET', '/api/v1/observer/queue');
      expect(queue.status).toBe(200);
      expect(queue.json.result.pending + queue.json.result.processing).toBeGreaterThan(0);
      const waited = await backlog.request('POST', '/api/v1/system/wait', { body: { timeout: 300 } });
      expect(waited.json.result).toMatchObject({ pending: 0, processing: 0, completed: JOBS });
    } finally {
      await backlog.close();
      await dropEngineData(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
