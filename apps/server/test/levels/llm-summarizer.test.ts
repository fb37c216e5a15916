import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatibleModel } from '@skillport/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSummarizer } from '../../src/jobs/job-runner.js';
import { createLlmSummarizer } from '../../src/levels/llm-summarizer.js';
import type { SkillRecord } from '../../src/store/types.js';

// A local OpenAI-compatible endpoint: answers with the `reply` queued for the next request.
let server: Server;
let baseURL: string;
let reply: { status: number; content: string } = { status: 200, content: '' };
const requests: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      requests.push(JSON.parse(body));
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(
        reply.status === 200
          ? JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply.content } }] })
          : JSON.stringify({ error: { message: 'model overloaded' } }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const definition =
  '---\nname: calc\ndescription: Do maths\n---\n\n# calc\n\n## Parameters\n\n- **expr** (string): expression\n';
const skill = { name: 'calc', description: 'Do maths' } as SkillRecord;
const model = () => createOpenAICompatibleModel({ baseURL, model: 'test-model', maxRetries: 0 });

describe('createLlmSummarizer', () => {
  it('returns the model answer (fences stripped), sends the SKILL.md and the draft', async () => {
    reply = {
      status: 200,
      content: '```markdown\n# calc — overview\n\n## Summary\n\nEvaluates expressions.\n```',
    };
    const out = await createLlmSummarizer(model())({ skill, definition });
    expect(out).toBe('# calc — overview\n\n## Summary\n\nEvaluates expressions.\n');
    const sent = requests.at(-1);
    expect(sent?.model).toBe('test-model');
    expect(sent?.messages[1]?.content).toContain('- **expr** (string): expression');
    expect(sent?.messages[1]?.content).toContain('Draft overview:\n# calc — overview');
  });

  it('bounds a long answer to maxBytes', async () => {
    reply = { status: 200, content: `# calc — overview\n\n${'word '.repeat(2000)}` };
    const out = await createLlmSummarizer(model(), { maxBytes: 512 })({ skill, definition });
    expect(new TextEncoder().encode(out).byteLength).toBeLessThanOrEqual(512);
  });

  it.each([
    { case: 'HTTP 503', status: 503, content: '' },
    { case: 'empty answer', status: 200, content: '   ' },
  ])('falls back to the deterministic overview on $case', async ({ status, content }) => {
    reply = { status, content };
    const fallbacks: string[] = [];
    const out = await createLlmSummarizer(model(), { onFallback: (_e, name) => fallbacks.push(name) })({
      skill,
      definition,
    });
    expect(out).toBe(await defaultSummarizer({ skill, definition }));
    expect(fallbacks).toEqual(['calc']);
  });

  it('throws without fallback, so the job retries', async () => {
    reply = { status: 503, content: '' };
    await expect(createLlmSummarizer(model(), { fallback: false })({ skill, definition })).rejects.toThrow();
  });

  it('gives a model that never answers one budget for all attempts, then pauses it', async () => {
    // Accepts the connection and never answers: each attempt alone would wait its 60 s timeout.
    let calls = 0;
    const silent = createServer(() => {
      calls += 1;
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
      let clock = 1_000_000;
      const fallbacks: Array<{ message: string; skipped: boolean }> = [];
      const summarize = createLlmSummarizer(
        createOpenAICompatibleModel({ baseURL: url, model: 'test-model', maxRetries: 2, timeoutMs: 60_000 }),
        {
          budgetMs: 300,
          cooldownMs: 60_000,
          now: () => clock,
          onFallback: (error, _name, { skipped }) =>
            fallbacks.push({ message: error instanceof Error ? error.message : String(error), skipped }),
        },
      );
      const draft = await defaultSummarizer({ skill, definition });
      expect(await summarize({ skill, definition })).toBe(draft);
      expect(calls).toBe(1);
      expect(fallbacks).toEqual([
        { message: expect.stringMatching(/within the budget of 0.3 s/), skipped: false },
      ]);

      // Within the pause the next skills do not wait for the model at all.
      clock += 30_000;
      expect(await summarize({ skill, definition })).toBe(draft);
      expect(calls).toBe(1);
      expect(fallbacks[1]).toMatchObject({ skipped: true });

      // After it, the model is tried again.
      clock += 31_000;
      expect(await summarize({ skill, definition })).toBe(draft);
      expect(calls).toBe(2);
      expect(fallbacks[2]).toMatchObject({ skipped: false });
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('an answering model ends the pause; cooldownMs 0 never pauses', async () => {
    reply = { status: 503, content: '' };
    const before = requests.length;
    const summarize = createLlmSummarizer(model(), { cooldownMs: 0 });
    await summarize({ skill, definition });
    await summarize({ skill, definition });
    expect(requests.length - before).toBe(2);
    reply = { status: 200, content: '# calc — overview\n\nEvaluates.' };
    expect(await summarize({ skill, definition })).toBe('# calc — overview\n\nEvaluates.\n');
  });

  it('the job being aborted is passed on, not replaced by the fallback', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
      const job = new AbortController();
      const pending = createLlmSummarizer(createOpenAICompatibleModel({ baseURL: url, model: 'm' }), {
        budgetMs: 60_000,
      })({ skill, definition, signal: job.signal });
      job.abort(new Error('lease lost'));
      await expect(pending).rejects.toThrow('lease lost');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
