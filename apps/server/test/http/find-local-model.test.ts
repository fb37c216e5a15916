/**
 * `find` with the bundled local model, over real HTTP on real skills (a slice of the large corpus:
 * every 20th skill plus the answers asked for), on the engine under test: a paraphrase ranks its
 * skill in the top three with relevance gained from its meaning (`hybrid`), a typo still finds its
 * skill, and a query about nothing in the registry gets nothing from the model. The same vectors
 * served by a real OpenAI-compatible HTTP server rank the paraphrases by meaning through the
 * endpoint path too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { corpusPath, inCi } from '../../../../scripts/test-corpus.js';
import { embedLocal } from '../../src/embeddings/local-model.js';
import { type EmbeddingsServer, startEmbeddingsServer } from '../helpers/embeddings-server.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** The 1,880-skill corpus (`SKILLPORT_CORPUS_LARGE`, else `corpus-large` beside the small corpus). */
function largeCorpus(): string | undefined {
  const dir = path.resolve(
    process.env.SKILLPORT_CORPUS_LARGE ?? path.join(path.dirname(corpusPath()), 'corpus-large'),
  );
  if (existsSync(path.join(dir, 'skills'))) return dir;
  if (inCi()) throw new Error(`the large skill corpus is required under CI and was not found at ${dir}`);
  return undefined;
}

const corpus = largeCorpus();
const describeLarge = corpus ? describe : describe.skip;

/** Paraphrases of a skill's purpose that share few of its words. */
const PARAPHRASES: Array<[string, string]> = [
  ['turn speech into written text', 'davila7-transcribe'],
  ['convert an audio recording to text', 'davila7-transcribe'],
  ['pick three lucky names out of the people who signed up for our draw', 'composio-raffle-winner-picker'],
];
const TYPO: [string, string] = ['remotoin video', 'davila7-remotion'];
/** Queries about nothing in these skills. */
const NOTHING_HERE = 'knit a woolen scarf';
/** A query about nothing here that shares common words (grow, on) with some skills. */
const WORDS_ONLY = 'grow tomatoes on a balcony';
/** The threshold the server README documents as keeping related hits (0.1–0.3). */
const THRESHOLD = 0.2;

interface Hit {
  name: string;
  score: number;
  match_reason: string;
}

function skillTexts(dir: string): Array<[string, string]> {
  const wanted = new Set([...PARAPHRASES.map(([, name]) => name), TYPO[1]]);
  const folders = readdirSync(path.join(dir, 'skills'))
    .sort()
    .filter((name) => existsSync(path.join(dir, 'skills', name, 'SKILL.md')));
  return folders
    .filter((name, i) => i % 20 === 0 || wanted.has(name))
    .map((name) => {
      const text = readFileSync(path.join(dir, 'skills', name, 'SKILL.md'), 'utf8');
      // Stored under its folder name (unique, kebab case), the rest of SKILL.md as published.
      return [name, text.replace(/^name:.*$/m, `name: ${name}`)];
    });
}

async function addAll(t: TestServer, skills: Array<[string, string]>): Promise<Set<string>> {
  const added = new Set<string>();
  for (const [name, text] of skills) {
    const res = await t.request('POST', '/api/v1/skills', { body: { data: text } });
    if (res.status === 200) added.add(name);
  }
  const done = await t.request('POST', '/api/v1/system/wait', { body: { timeout: 600 } });
  expect(done.status, done.text).toBe(200);
  return added;
}

async function find(t: TestServer, query: string, extra: Record<string, unknown> = {}): Promise<Hit[]> {
  const res = await t.request('POST', '/api/v1/skills/find', { body: { query, limit: 10, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.json.result.skills;
}

describeLarge('find with the bundled local model', () => {
  let local: TestServer;
  let lexical: TestServer;
  let added: Set<string>;
  beforeAll(async () => {
    // Four jobs at once: their skills are embedded in shared batches.
    local = await startTestServer({ embeddings: 'local', jobs: { concurrency: 4 } });
    added = await addAll(local, skillTexts(corpus as string));
    // The same skills, ranked by words alone (a second server on the same database).
    lexical = await startTestServer({ dataDir: local.dataDir, embeddings: 'off', runJobs: false });
  }, 900_000);
  afterAll(async () => {
    await lexical?.close();
    await local?.close();
  });

  test('the slice holds the skills the needs ask for', () => {
    expect(added.size).toBeGreaterThan(80);
    for (const [, name] of [...PARAPHRASES, TYPO]) expect(added).toContain(name);
  });

  test.each(PARAPHRASES)('a paraphrase ranks its skill higher by meaning: %s', async (query, skill) => {
    const words = await find(lexical, query);
    const hits = await find(local, query);
    const rank = hits.findIndex((hit) => hit.name === skill);
    const rankByWords = words.findIndex((hit) => hit.name === skill);
    expect(rank).toBeGreaterThanOrEqual(0);
    expect(rank).toBeLessThan(3);
    expect(rankByWords === -1 || rank <= rankByWords).toBe(true);
    // The model agrees with the words: the skill gains relevance from its meaning.
    expect(hits[rank]?.match_reason).toBe('hybrid');
    expect(hits[rank]?.score).toBeGreaterThan(Math.max(THRESHOLD, words[rankByWords]?.score ?? 0));
  });

  test('a misspelt word still finds its skill', async () => {
    const hits = await find(local, TYPO[0]);
    expect(hits[0]?.name).toBe(TYPO[1]);
  });

  test('a query about nothing here finds nothing by meaning, even with no threshold', async () => {
    expect(await find(lexical, NOTHING_HERE)).toEqual([]);
    expect(await find(local, NOTHING_HERE)).toEqual([]);
    expect(await find(local, NOTHING_HERE, { score_threshold: THRESHOLD })).toEqual([]);
  });

  test('the model adds nothing to skills that share only common words with the query', async () => {
    const words = await find(lexical, WORDS_ONLY);
    expect(words.length).toBeGreaterThan(0);
    const hits = await find(local, WORDS_ONLY);
    expect(hits.map((hit) => [hit.name, hit.match_reason, hit.score])).toEqual(
      words.map((hit) => [hit.name, hit.match_reason, hit.score]),
    );
  });

  describe('the same vectors from an OpenAI-compatible endpoint', () => {
    let endpoint: EmbeddingsServer;
    let served: TestServer;
    beforeAll(async () => {
      endpoint = await startEmbeddingsServer((texts) => embedLocal({ texts }));
      served = await startTestServer({
        embeddings: { baseURL: endpoint.url, model: 'use-lite-served' },
        jobs: { concurrency: 4 },
      });
      await addAll(served, skillTexts(corpus as string));
    }, 900_000);
    afterAll(async () => {
      await served?.close();
      await endpoint?.close();
    });

    test.each(PARAPHRASES)('rank the paraphrase by meaning too: %s', async (query, skill) => {
      const hits = await find(served, query);
      const rank = hits.findIndex((hit) => hit.name === skill);
      expect(rank).toBeGreaterThanOrEqual(0);
      expect(rank).toBeLessThan(3);
      expect(hits[rank]?.match_reason).toBe('hybrid');
      expect(endpoint.requests.some((r) => r.model === 'use-lite-served')).toBe(true);
    });
  });
});
