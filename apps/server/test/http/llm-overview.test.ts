import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { optionsFromEnv } from '../../src/index.js';
import { startTestServer } from '../helpers/server.js';

// The optional LLM overview writer, driven by a real OpenAI-compatible chat-completions server on
// loopback: the L1 overview comes from the model; when the model fails, from the extractor.
interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
}

let chat: Server;
let chatUrl = '';
const received: Array<{ body: ChatRequest; authorization: string | undefined }> = [];
let failNext = false;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  chat = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as ChatRequest;
    received.push({ body, authorization: req.headers.authorization });
    if (failNext) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'model not loaded' } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        choices: [
          { index: 0, message: { role: 'assistant', content: '# pdf-fill — overview\n\nFills PDF forms.' } },
        ],
      }),
    );
  });
  await new Promise<void>((resolve) => chat.listen(0, '127.0.0.1', resolve));
  chatUrl = `http://127.0.0.1:${(chat.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => chat.close(resolve));
});

const skillMd = (name: string) =>
  `---\nname: ${name}\ndescription: Fill in PDF forms from structured data\n---\n\n# PDF fill\n\n## When to use\n\n- A form must be filled.\n`;

describe('LLM overview writer (SKILLPORT_SUMMARY_*)', () => {
  test('the model writes L1; it receives the SKILL.md and the key', async () => {
    const t = await startTestServer({
      summary: { baseURL: chatUrl, model: 'tiny-model', apiKey: 'sk-test' },
    });
    try {
      const added = await t.request('POST', '/api/v1/skills', {
        body: { data: skillMd('pdf-fill'), wait: true },
      });
      expect(added.status, added.text).toBe(200);
      const overview = await t.request('GET', '/api/v1/skills/pdf-fill?level=1');
      expect(overview.json.result.overview).toBe('# pdf-fill — overview\n\nFills PDF forms.\n');
      const last = received.at(-1)!;
      expect(last.body.model).toBe('tiny-model');
      expect(last.authorization).toBe('Bearer sk-test');
      expect(last.body.messages[1]?.content).toContain('description: Fill in PDF forms from structured data');
    } finally {
      await t.close();
    }
  });

  test('a failing model falls back to the deterministic overview (the job still completes)', async () => {
    failNext = true;
    const t = await startTestServer({ summary: { baseURL: chatUrl, model: 'tiny-model' } });
    try {
      const added = await t.request('POST', '/api/v1/skills', {
        body: { data: skillMd('pdf-fill'), wait: true },
      });
      expect(added.json.result.queue_status).toMatchObject({ completed: 1, failed: 0 });
      const overview = await t.request('GET', '/api/v1/skills/pdf-fill?level=1');
      expect(overview.json.result.overview).toMatch(/^# pdf-fill — overview\n/);
      expect(overview.json.result.overview).toContain('A form must be filled.');
    } finally {
      failNext = false;
      await t.close();
    }
  });

  test('an endpoint that never answers costs one budget, not 3 × 60 s per skill; add --wait returns', async () => {
    let calls = 0;
    const silent = createServer(() => {
      calls += 1;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
    const warnings: Array<Record<string, unknown>> = [];
    const t = await startTestServer({
      summary: { baseURL: url, model: 'tiny-model', budgetSeconds: 1 },
      logger: { info: () => {}, error: () => {}, warn: (record) => warnings.push(record) },
    });
    try {
      for (const name of ['pdf-fill', 'pdf-merge']) {
        const added = await t.request('POST', '/api/v1/skills', {
          body: { data: skillMd(name), wait: true },
        });
        expect(added.status, added.text).toBe(200);
        expect(added.json.result.queue_status).toMatchObject({ completed: 1, failed: 0 });
        const overview = await t.request('GET', `/api/v1/skills/${name}?level=1`);
        expect(overview.json.result.overview).toMatch(new RegExp(`^# ${name} — overview\\n`));
        expect(overview.json.result.overview).toContain('A form must be filled.');
      }
      // The first skill spent the budget; the second did not call the silent endpoint again.
      expect(calls).toBe(1);
      const llm = warnings.filter((w) => String(w.msg).startsWith('LLM overview'));
      expect(llm.map((w) => w.msg)).toEqual([
        'LLM overview failed; deterministic overview used',
        'LLM overview skipped after a recent failure; deterministic overview used',
      ]);
      expect(String(llm[0]?.error)).toMatch(/within the budget of 1 s/);
    } finally {
      await t.close();
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('environment: both variables or neither', () => {
    expect(
      optionsFromEnv({
        SKILLPORT_SUMMARY_BASE_URL: 'http://127.0.0.1:11434/v1',
        SKILLPORT_SUMMARY_MODEL: 'llama3.2',
        SKILLPORT_SUMMARY_API_KEY: 'k',
      }).summary,
    ).toEqual({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: 'k' });
    expect(
      optionsFromEnv({
        SKILLPORT_SUMMARY_BASE_URL: 'http://127.0.0.1:11434/v1',
        SKILLPORT_SUMMARY_MODEL: 'llama3.2',
        SKILLPORT_SUMMARY_BUDGET_SECONDS: '20',
        SKILLPORT_SUMMARY_COOLDOWN_SECONDS: '0',
      }).summary,
    ).toEqual({
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
      budgetSeconds: 20,
      cooldownSeconds: 0,
    });
    expect(() =>
      optionsFromEnv({
        SKILLPORT_SUMMARY_BASE_URL: 'http://x/v1',
        SKILLPORT_SUMMARY_MODEL: 'm',
        SKILLPORT_SUMMARY_BUDGET_SECONDS: '0',
      }),
    ).toThrow(/SKILLPORT_SUMMARY_BUDGET_SECONDS/);
    expect(optionsFromEnv({}).summary).toBeUndefined();
    expect(() => optionsFromEnv({ SKILLPORT_SUMMARY_MODEL: 'llama3.2' })).toThrow(/go together/);
  });
});
