/**
 * The bundled local embedding model, for real: its weights load from the installed package with the
 * network blocked, its vectors put a paraphrase near its skill and far from an unrelated text, and
 * the embedder schedules queries before skills and keeps every call's vectors in order.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import {
  createLocalEmbedder,
  localDocumentText,
  localModelReadsQuery,
} from '../../src/embeddings/local-embedder.js';
import {
  embedLocal,
  LOCAL_MAX_INPUT_CHARS,
  LOCAL_MODEL_DIMENSION,
  LOCAL_MODEL_ID,
  localModelInstalled,
} from '../../src/embeddings/local-model.js';
import { createQueryVectors } from '../../src/embeddings/query-vectors.js';
import { optionsFromEnv } from '../../src/index.js';
import { createWorkerPool, type WorkerPool } from '../../src/workers/worker-pool.js';
import type { WorkerTask } from '../../src/workers/worker-task.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

const RAFFLE_NEED = 'pick three lucky names out of the people who signed up for our draw';
const RAFFLE_SKILL =
  'raffle winner picker\nPicks random winners from a list of entrants for giveaways and contests.';
const UNRELATED = 'Bake a chocolate cake with buttercream frosting.';

describe('local model', () => {
  test('is installed with the server (optional dependencies)', () => {
    expect(localModelInstalled()).toBe(true);
  });

  test('loads its bundled weights with the network blocked and embeds by meaning', () => {
    // A separate process whose every way out (fetch, sockets, DNS) throws and is counted.
    const script = `
      import dns from 'node:dns';
      import net from 'node:net';
      let attempts = 0;
      const refuse = (what) => (...args) => { attempts++; throw new Error('network blocked: ' + what); };
      globalThis.fetch = refuse('fetch');
      net.Socket.prototype.connect = refuse('socket');
      dns.lookup = refuse('dns');
      const { embedLocal } = await import('./src/embeddings/local-model.ts');
      const vectors = await embedLocal({ texts: ${JSON.stringify([RAFFLE_NEED, RAFFLE_SKILL, UNRELATED])} });
      const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
      console.log(JSON.stringify({
        attempts,
        dimension: vectors[0].length,
        norms: vectors.map((v) => Math.sqrt(dot(v, v))),
        related: dot(vectors[0], vectors[1]),
        unrelated: dot(vectors[0], vectors[2]),
      }));
    `;
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--conditions=@skillport/source', '--input-type=module', '-e', script],
      { cwd: serverDir, encoding: 'utf8', timeout: 120_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout.trim().split('\n').pop() as string);
    expect(out.attempts).toBe(0);
    expect(out.dimension).toBe(LOCAL_MODEL_DIMENSION);
    for (const norm of out.norms) expect(norm).toBeCloseTo(1, 4);
    expect(out.related).toBeGreaterThan(out.unrelated + 0.2);
  }, 150_000);

  test('cuts long texts, embeds empty ones, returns nothing for no text', async () => {
    const long = `${RAFFLE_SKILL} ${'x'.repeat(LOCAL_MAX_INPUT_CHARS * 5)}`;
    const [cut, same, empty] = await embedLocal({
      texts: [long, long.slice(0, LOCAL_MAX_INPUT_CHARS), '   '],
    });
    expect(dot(cut as Float32Array, same as Float32Array)).toBeCloseTo(1, 5);
    expect(empty).toHaveLength(LOCAL_MODEL_DIMENSION);
    expect(await embedLocal({ texts: [] })).toEqual([]);
  }, 120_000);

  test('a skill is embedded from its name, description and tags, not its body', () => {
    const text = localDocumentText({
      name: 'raffle-winner-picker',
      description: 'Picks random winners.',
      tags: ['giveaway', 'contest'],
      body: '# Instructions that are not part of it',
    });
    expect(text).toBe('raffle winner picker\nPicks random winners.\ngiveaway, contest');
  });
});

describe('local embedder', () => {
  /** A real pool that also records the texts of every batch it is given, in order. */
  const batches: string[][] = [];
  const real: WorkerPool = createWorkerPool({ threads: 1, taskBudgetMs: 120_000 });
  const recording: WorkerPool = {
    run<A, R>(task: WorkerTask<A, R>, arg: A, options?: Parameters<WorkerPool['run']>[2]): Promise<R> {
      batches.push([...(arg as { texts: string[] }).texts]);
      return real.run(task, arg, options);
    },
    stats: () => real.stats(),
    close: () => real.close(),
  };
  const embedder = createLocalEmbedder({ pool: recording, batchSize: 4 });
  afterAll(async () => {
    await embedder.close();
    await real.close();
  });

  test('runs batches in a worker thread, queries first, each call getting its own vectors in order', async () => {
    expect(embedder.model).toBe(LOCAL_MODEL_ID);
    expect(embedder.available()).toBe(true);
    const skills = Array.from(
      { length: 10 },
      (_, i) => `skill number ${i}: ${i % 2 ? RAFFLE_SKILL : UNRELATED}`,
    );
    const documents = embedder.embed(skills, 'document');
    const query = embedder.embed([RAFFLE_NEED], 'query');
    const [docVectors, [queryVector]] = await Promise.all([documents, query]);
    // The first batch of skills was already running; the query went before the rest.
    expect(batches.map((b) => b.length)).toEqual([4, 1, 4, 2]);
    expect(batches[1]).toEqual([RAFFLE_NEED]);
    expect(docVectors).toHaveLength(10);
    // Same text in or out of a batch gives the same vector, at the caller's position.
    const [alone] = await embedder.embed([skills[3] as string], 'document');
    expect(dot(alone as Float32Array, docVectors[3] as Float32Array)).toBeCloseTo(1, 4);
    expect(dot(queryVector as Float32Array, docVectors[1] as Float32Array)).toBeGreaterThan(
      dot(queryVector as Float32Array, docVectors[0] as Float32Array),
    );
  }, 120_000);

  test('a query in another script gets no vector (ranked by its words), an English one does', async () => {
    expect(localModelReadsQuery('把语音转成文字')).toBe(false);
    expect(localModelReadsQuery('音声を文字に起こす')).toBe(false);
    expect(localModelReadsQuery('преобразовать речь в текст')).toBe(false);
    expect(localModelReadsQuery('transcribir audio a texto (español)')).toBe(true);
    const queryVectors = createQueryVectors(embedder);
    const before = batches.length;
    expect(await queryVectors('把语音转成文字')).toBeNull();
    expect(batches.length).toBe(before);
    const english = await queryVectors(RAFFLE_NEED);
    expect(english?.vector).toHaveLength(LOCAL_MODEL_DIMENSION);
    expect(batches.length).toBe(before + 1);
  }, 120_000);

  test('a closed embedder refuses work', async () => {
    const closed = createLocalEmbedder({ pool: recording });
    await closed.close();
    await expect(closed.embed(['x'], 'query')).rejects.toThrow(/closed/);
  });
});

describe('SKILLPORT_EMBEDDINGS', () => {
  test('local is the default; off, endpoint and the endpoint variables pick the others', () => {
    // Unset: the server's default (the local model) applies.
    expect(optionsFromEnv({}).embeddings).toBeUndefined();
    expect(optionsFromEnv({ SKILLPORT_EMBEDDINGS: 'local' }).embeddings).toBe('local');
    expect(optionsFromEnv({ SKILLPORT_EMBEDDINGS: ' OFF ' }).embeddings).toBe('off');
    const endpoint = {
      SKILLPORT_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1',
      SKILLPORT_EMBEDDINGS_MODEL: 'bge-m3',
    };
    expect(optionsFromEnv(endpoint).embeddings).toEqual({
      baseURL: endpoint.SKILLPORT_EMBEDDINGS_URL,
      model: 'bge-m3',
    });
    expect(optionsFromEnv({ ...endpoint, SKILLPORT_EMBEDDINGS: 'endpoint' }).embeddings).toMatchObject({
      model: 'bge-m3',
    });
    expect(optionsFromEnv({ ...endpoint, SKILLPORT_EMBEDDINGS: 'off' }).embeddings).toBe('off');
    expect(optionsFromEnv({ SKILLPORT_EMBEDDINGS_THREADS: '2' }).embeddingThreads).toBe(2);
  });

  test('refuses unknown modes, local with an endpoint URL, an endpoint without its model, zero threads', () => {
    expect(() => optionsFromEnv({ SKILLPORT_EMBEDDINGS: 'remote' })).toThrow(/"local", "endpoint" or "off"/);
    expect(() =>
      optionsFromEnv({ SKILLPORT_EMBEDDINGS: 'local', SKILLPORT_EMBEDDINGS_URL: 'http://127.0.0.1:1/v1' }),
    ).toThrow(/SKILLPORT_EMBEDDINGS_URL/);
    expect(() => optionsFromEnv({ SKILLPORT_EMBEDDINGS: 'endpoint' })).toThrow(/go together/);
    expect(() => optionsFromEnv({ SKILLPORT_EMBEDDINGS_THREADS: '0' })).toThrow(
      /SKILLPORT_EMBEDDINGS_THREADS/,
    );
  });
});
