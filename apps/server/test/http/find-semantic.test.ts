import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type EmbeddingsServer, startEmbeddingsServer } from '../helpers/embeddings-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Skills written like real registry entries; four belong to a concept the test embeddings server
// knows (raffle, speech, invoice, slides), the rest are background.
const SKILLS: Array<[string, string, string]> = [
  [
    'raffle-winner-picker',
    'Picks random winners from a list of entries for giveaways and contests.',
    'Use a cryptographically secure random source to choose entries, e.g. for a raffle.',
  ],
  [
    'transcribe',
    'Turn audio recordings into text with timestamps.',
    'Runs a speech recognition model over an audio recording.',
  ],
  [
    'invoice-organizer',
    'Organizes invoices and receipts for tax preparation.',
    'Reads messy files, extracts vendor and totals, files each receipt.',
  ],
  [
    'pptx',
    'Create and edit PowerPoint decks.',
    'Build a presentation with layouts, speaker notes and charts.',
  ],
  [
    'docker-expert',
    'Containers, images and compose files.',
    'Write Dockerfiles with multi-stage builds and small images.',
  ],
  [
    'git-commit-helper',
    'Writes commit messages from staged diffs.',
    'Reads git diff --staged and proposes a conventional commit.',
  ],
  ['sql-pro', 'Writes and tunes SQL queries.', 'Indexes, query plans, window functions and migrations.'],
  [
    'react-ui-patterns',
    'Loading states and error boundaries in React.',
    'Suspense, skeletons and retry buttons for data fetching.',
  ],
  [
    'terraform-modules',
    'Reusable infrastructure as code modules.',
    'Module inputs, outputs and remote state for AWS and GCP.',
  ],
  [
    'prometheus-configuration',
    'Metrics scraping and alerting rules.',
    'Scrape configs, recording rules and Alertmanager routes.',
  ],
  [
    'kubernetes-architect',
    'Design clusters, namespaces and rollouts.',
    'Deployments, services, ingress and autoscaling.',
  ],
  [
    'python-testing',
    'Pytest fixtures, mocks and parametrised tests.',
    'Write fast unit tests with fixtures and monkeypatch.',
  ],
];

const md = (name: string, description: string, body: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${body}\n`;

interface Hit {
  name: string;
  score: number;
  match_reason: string;
}

async function find(t: TestServer, query: string, extra: Record<string, unknown> = {}): Promise<Hit[]> {
  const res = await t.request('POST', '/api/v1/skills/find', { body: { query, limit: 5, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.json.result.skills;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

let embeddings: EmbeddingsServer;
let dataDir: string;
let t: TestServer;

beforeAll(async () => {
  embeddings = await startEmbeddingsServer();
  dataDir = mkdtempSync(path.join(tmpdir(), 'skillport-semantic-'));
  t = await startTestServer({
    dataDir,
    embeddings: { baseURL: embeddings.url, model: 'concepts-1', apiKey: 'k', retryMs: 200 },
  });
  for (const [name, description, body] of SKILLS) {
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: md(name, description, body), wait: true },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.queue_status).toMatchObject({ pending: 0, processing: 0, completed: 1 });
  }
});
afterAll(async () => {
  await t?.close();
  await embeddings?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('find with an embeddings endpoint (SKILLPORT_EMBEDDINGS_URL)', () => {
  test('the processing job embedded every skill, with the configured model and key', () => {
    const documents = embeddings.requests.filter((r) => r.model === 'concepts-1');
    expect(documents.length).toBeGreaterThanOrEqual(SKILLS.length);
    expect(documents.every((r) => r.authorization === 'Bearer k')).toBe(true);
  });

  test('a paraphrase with no shared word finds its skill by meaning', async () => {
    const hits = await find(t, 'choose three lucky names out of the people who signed up for our draw');
    expect(hits[0]?.name).toBe('raffle-winner-picker');
    expect(['semantic', 'hybrid']).toContain(hits[0]?.match_reason);
  });

  test('a Chinese need finds the English skill', async () => {
    const hits = await find(t, '从报名的人里随机抽取三个幸运中奖者');
    expect(hits[0]?.name).toBe('raffle-winner-picker');
    expect(hits[0]?.match_reason).toBe('semantic');
  });

  test('words and meaning together are hybrid and outrank meaning alone', async () => {
    const hits = await find(t, 'transcribe my audio recording');
    expect(hits[0]).toMatchObject({ name: 'transcribe', match_reason: 'hybrid' });
  });

  test('an unrelated query scores below the documented threshold', async () => {
    const hits = await find(t, 'lattice quantum chromodynamics of gluons', { score_threshold: 0.2 });
    expect(hits).toEqual([]);
    const related = await find(t, 'sweepstakes giveaway', { score_threshold: 0.2 });
    expect(related[0]?.name).toBe('raffle-winner-picker');
  });

  test('a name query is still a name hit', async () => {
    const hits = await find(t, 'sql-pro');
    expect(hits[0]).toMatchObject({ name: 'sql-pro', match_reason: 'name' });
  });
});

describe('when the embeddings endpoint fails', () => {
  test('adds complete without blocking, find falls back to lexical, and the skill is embedded later', async () => {
    embeddings.failWith = 503;
    const body = 'Tallies expense claims and bills for reimbursement.';
    const res = await t.request('POST', '/api/v1/skills', {
      body: {
        data: md('expense-reports', 'Expense reports for the finance team.', body),
        wait: true,
        timeout: 30,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.result.queue_status).toMatchObject({ pending: 0, processing: 0, completed: 1 });
    const lexical = await find(t, 'finance team expense');
    expect(lexical[0]).toMatchObject({ name: 'expense-reports', match_reason: 'lexical' });

    embeddings.failWith = null;
    // The idle backfill retries after its pause; meanwhile find works lexically.
    await until(async () => {
      const hits = await find(t, 'receipts for tax');
      return hits.some((h) => h.name === 'expense-reports' && h.match_reason !== 'lexical');
    }, 'the backfill to embed expense-reports');
  }, 120_000);
});

describe('when the embeddings model changes', () => {
  test('stored vectors are recomputed with the new model', async () => {
    await t.close();
    embeddings.requests.length = 0;
    t = await startTestServer({ dataDir, embeddings: { baseURL: embeddings.url, model: 'concepts-2' } });
    await until(async () => {
      const embedded = embeddings.requests
        .filter((r) => r.model === 'concepts-2')
        .reduce((n, r) => n + r.inputs, 0);
      return embedded >= SKILLS.length + 1; // every skill (the 12 above and expense-reports)
    }, 'the backfill to re-embed with concepts-2');
    const hits = await find(t, '从报名的人里随机抽取三个幸运中奖者');
    expect(hits[0]?.name).toBe('raffle-winner-picker');
  }, 120_000);
});
