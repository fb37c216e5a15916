import { SkillportError } from '@skillport/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultSummarizer } from '../../src/jobs/job-runner.js';
import { EXTRACT_OVERVIEW } from '../../src/levels/extract-overview.js';
import { PREPARE_SKILL_WRITE } from '../../src/services/prepare-skill.js';
import type { SkillRecord } from '../../src/store/types.js';
import { INLINE_MAX_CHARS } from '../../src/workers/inline-policy.js';
import { createWorkerPool, type WorkerPool } from '../../src/workers/worker-pool.js';
import { startEmbeddingsServer } from '../helpers/embeddings-server.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { openTempStore } from '../store/helpers.js';

// A server whose overview is the deterministic one (no LLM summariser) renders it during add and
// update instead of the processing job: without an embedder (the test server's default) the task is
// completed when the write returns; with one the task stays pending until its job has embedded the
// skill. Either way the overview is the one the job renders.
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const text = (description: string, body: string) =>
  `---\nname: inline-overview\ndescription: ${description}\ntags: [alpha]\n---\n\n${body}`;
const BODY = [
  '# Inline overview',
  '',
  'Converts spreadsheets into charts.',
  '',
  '## Usage',
  '',
  'Run `chart build` on a CSV file; the chart lands next to it.',
  '',
  '## Options',
  '',
  '- `--kind bar|line` picks the chart.',
  '',
].join('\n');

/** The overview the processing job renders from the same SKILL.md (see `defaultSummarizer`). */
async function jobOverview(definition: string): Promise<string> {
  const skill = { name: 'inline-overview', description: '' } as SkillRecord;
  return defaultSummarizer({ skill, definition });
}

describe(`${TEST_ENGINE} processing at write time`, () => {
  test('add and update return with the task completed and the overview the job would write', async () => {
    const first = text('Charts from spreadsheets', BODY);
    const add = await t.request('POST', '/api/v1/skills', { body: { data: first } });
    expect(add.status, add.text).toBe(200);
    const taskId = add.json.result.task_id as string;
    const task = await t.request('GET', `/api/v1/tasks/${taskId}`);
    expect(task.json.result).toMatchObject({ task_id: taskId, status: 'completed' });
    const read = await t.request('GET', '/api/v1/skills/inline-overview?level=1');
    expect(read.status, read.text).toBe(200);
    expect(read.json.result.overview).toBe(await jobOverview(first));

    const second = text(
      'Charts from spreadsheets and databases',
      `${BODY}\n## Databases\n\nAlso reads SQL.\n`,
    );
    const update = await t.request('PUT', '/api/v1/skills/inline-overview', { body: { data: second } });
    expect(update.status, update.text).toBe(200);
    expect((await t.request('GET', `/api/v1/tasks/${update.json.result.task_id}`)).json.result.status).toBe(
      'completed',
    );
    const after = await t.request('GET', '/api/v1/skills/inline-overview?level=1');
    expect(after.json.result.overview).toBe(await jobOverview(second));
    expect(after.json.result.overview).not.toBe(read.json.result.overview);
    const queue = await t.request('GET', '/api/v1/observer/queue');
    expect(queue.json.result).toMatchObject({ pending: 0, processing: 0 });
  });
});

describe(`${TEST_ENGINE} processing at write time, when the overview cannot be rendered`, () => {
  test('the add still succeeds; its task stays pending for the job, as without processing at write', async () => {
    const temp = openTempStore();
    const real = createWorkerPool();
    // A pool whose overview task runs past its budget (as a hostile body would).
    const workers: WorkerPool = {
      run: (task, arg, options) =>
        task === (EXTRACT_OVERVIEW as unknown)
          ? Promise.reject(
              new SkillportError('PAYLOAD_TOO_LARGE', 'over budget', {
                details: { reason: 'processing_budget' },
              }),
            )
          : real.run(task, arg, options),
      stats: () => real.stats(),
      close: () => real.close(),
    };
    try {
      const { fetch } = await createApp({
        store: temp.store,
        logger: false,
        workers,
        processAtWrite: true,
        webDir: false,
      });
      const res = await fetch(
        new Request('http://localhost/api/v1/skills', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: text('Charts from spreadsheets', BODY) }),
        }),
      );
      const json = (await res.json()) as { result: { task_id: string } };
      expect(res.status).toBe(200);
      const task = await temp.store.getTask('default', 'default', json.result.task_id);
      expect(task?.status).toBe('pending');
      expect(
        (await temp.store.getSkill('default', 'viking://user/default/skills', 'inline-overview'))?.overview,
      ).toBeNull();
    } finally {
      await real.close();
      await temp.cleanup();
    }
  });
});

describe(`${TEST_ENGINE} processing at write time, a SKILL.md read in a worker thread`, () => {
  // Past the inline size, and with a body whose overview has something to say.
  const filler = Array.from(
    { length: 400 },
    (_, i) => `Step ${i}: read the sheet, pick the columns, and draw chart number ${i}.`,
  ).join('\n\n');
  const large = text('Charts from spreadsheets', `${BODY}\n## Steps\n\n${filler}\n`);

  /** A real pool that records the tasks it runs in a worker thread, and may refuse some as over budget. */
  function recordingPool(overBudget: (label: string) => boolean = () => false) {
    const real = createWorkerPool();
    const hops: string[] = [];
    const workers: WorkerPool = {
      run: (task, arg, options) => {
        if (options?.inline !== true) {
          hops.push(task.label);
          if (overBudget(task.label)) {
            return Promise.reject(
              new SkillportError('PAYLOAD_TOO_LARGE', 'over budget', {
                details: { reason: 'processing_budget' },
              }),
            );
          }
        }
        return real.run(task, arg, options);
      },
      stats: () => real.stats(),
      close: () => real.close(),
    };
    return { workers, hops };
  }

  async function addWith(workers: WorkerPool, data: string) {
    const temp = openTempStore();
    try {
      const { fetch } = await createApp({
        store: temp.store,
        logger: false,
        workers,
        processAtWrite: true,
        webDir: false,
      });
      const res = await fetch(
        new Request('http://localhost/api/v1/skills', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data }),
        }),
      );
      const json = (await res.json()) as { result?: { task_id: string }; error?: { code: string } };
      if (res.status !== 200) return { status: res.status, json, task: null, skill: null };
      const taskId = json.result?.task_id as string;
      return {
        status: res.status,
        json,
        task: await temp.store.getTask('default', 'default', taskId),
        skill: await temp.store.getSkill('default', 'viking://user/default/skills', 'inline-overview'),
      };
    } finally {
      await temp.cleanup();
    }
  }

  test('one hop reads it and renders the overview the job would write', async () => {
    expect(large.length).toBeGreaterThan(INLINE_MAX_CHARS);
    const { workers, hops } = recordingPool();
    try {
      const added = await addWith(workers, large);
      expect(added.status).toBe(200);
      expect(added.task?.status).toBe('completed');
      expect(added.skill?.overview).toBe(await jobOverview(large));
      expect(hops).toEqual([PREPARE_SKILL_WRITE.label]);
    } finally {
      await workers.close();
    }
  });

  test('past its budget, the text is read alone and the overview rendered apart, as before', async () => {
    const { workers, hops } = recordingPool((label) => label === PREPARE_SKILL_WRITE.label);
    try {
      const added = await addWith(workers, large);
      expect(added.status).toBe(200);
      expect(added.task?.status).toBe('completed');
      expect(added.skill?.overview).toBe(await jobOverview(large));
      expect(hops).toEqual([PREPARE_SKILL_WRITE.label, 'prepare-skill.prepareSkill', EXTRACT_OVERVIEW.label]);
    } finally {
      await workers.close();
    }
  });

  test('a large SKILL.md with a validation error is refused with its issues, in one hop', async () => {
    const { workers, hops } = recordingPool();
    try {
      const refused = await addWith(workers, large.replace('description: Charts from spreadsheets\n', ''));
      expect(refused.status).toBe(400);
      expect(refused.json.error?.code).toBe('SKILL_INVALID');
      expect(hops).toEqual([PREPARE_SKILL_WRITE.label]);
    } finally {
      await workers.close();
    }
  });
});

describe(`${TEST_ENGINE} processing at write time, with an embedder`, () => {
  test('the write stores the overview; its task stays pending until the job has embedded the skill', async () => {
    const embeddings = await startEmbeddingsServer();
    const server = await startTestServer({
      embeddings: { baseURL: embeddings.url, model: 'concepts-1', apiKey: 'k', retryMs: 200 },
    });
    try {
      const first = text('Charts from spreadsheets', BODY);
      const add = await server.request('POST', '/api/v1/skills', { body: { data: first } });
      expect(add.status, add.text).toBe(200);
      // The overview is stored with the write, whether or not the job has run yet.
      const read = await server.request('GET', '/api/v1/skills/inline-overview?level=1');
      expect(read.json.result.overview).toBe(await jobOverview(first));
      expect(read.headers.get('cache-control')).toBe('private, no-cache');

      // wait=true still waits for the job, which embeds the skill.
      const second = text('Charts from spreadsheets and databases', `${BODY}\n## Databases\n\nAlso SQL.\n`);
      const update = await server.request('PUT', '/api/v1/skills/inline-overview', {
        body: { data: second, wait: true },
      });
      expect(update.status, update.text).toBe(200);
      expect(update.json.result.queue_status).toMatchObject({ pending: 0, processing: 0 });
      // The add's task: completed by its job, with the result a job that renders the overview gives.
      const task = await server.request('GET', `/api/v1/tasks/${add.json.result.task_id as string}`);
      expect(task.json.result.status, task.text).toBe('completed');
      expect(JSON.stringify(task.json.result)).toContain('"embedded":true');
      expect(JSON.stringify(task.json.result)).toContain(
        `"overview_bytes":${new TextEncoder().encode(await jobOverview(first)).byteLength}`,
      );
      const after = await server.request('GET', '/api/v1/skills/inline-overview?level=1');
      expect(after.json.result.overview).toBe(await jobOverview(second));
      expect(embeddings.requests.filter((r) => r.model === 'concepts-1').length).toBeGreaterThan(0);
    } finally {
      await server.close();
      await embeddings.close();
    }
  });
});
