import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { embeddingText, normaliseVector } from '../../src/embeddings/embedder.js';
import { createOpenAiEmbedder, EmbeddingEndpointError } from '../../src/embeddings/openai-embedder.js';
import {
  createQueryVectors,
  QUERY_KEY_MAX_CHARS,
  queryCacheKey,
} from '../../src/embeddings/query-vectors.js';
import { conceptVector, type EmbeddingsServer, startEmbeddingsServer } from '../helpers/embeddings-server.js';

let server: EmbeddingsServer;
beforeAll(async () => {
  server = await startEmbeddingsServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.failWith = null;
  server.delayMs = 0;
});

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number);
  return sum;
}

describe('createOpenAiEmbedder against a real HTTP server', () => {
  test('returns unit vectors in input order, sends model and bearer key', async () => {
    const embedder = createOpenAiEmbedder({ baseURL: server.url, model: 'concepts-1', apiKey: 'sk-test' });
    const texts = ['pick the raffle winner', 'transcribe this recording', 'who wins the lottery draw'];
    const vectors = await embedder.embed(texts, 'document');
    expect(vectors).toHaveLength(3);
    for (const [i, v] of vectors.entries()) {
      expect(Math.abs(dot(v, v) - 1)).toBeLessThan(1e-5);
      expect(Array.from(v)).toEqual(Array.from(normaliseVector(conceptVector(texts[i] as string))));
    }
    expect(dot(vectors[0] as Float32Array, vectors[2] as Float32Array)).toBeGreaterThan(
      dot(vectors[0] as Float32Array, vectors[1] as Float32Array),
    );
    expect(server.requests).toEqual([{ model: 'concepts-1', inputs: 3, authorization: 'Bearer sk-test' }]);
    expect(embedder.model).toBe('concepts-1');
  });

  test('splits large inputs into batches', async () => {
    const embedder = createOpenAiEmbedder({ baseURL: `${server.url}/`, model: 'm', batchSize: 4 });
    const texts = Array.from({ length: 10 }, (_, i) => `text ${i}`);
    const vectors = await embedder.embed(texts, 'document');
    expect(vectors).toHaveLength(10);
    expect(server.requests.map((r) => r.inputs)).toEqual([4, 4, 2]);
    expect(server.requests[0]?.authorization).toBeUndefined();
  });

  test('retries 503 with backoff, then gives up with the status', async () => {
    server.failWith = 503;
    const embedder = createOpenAiEmbedder({
      baseURL: server.url,
      model: 'm',
      maxAttempts: 3,
      retryDelayMs: 5,
    });
    const error = await embedder.embed(['x'], 'query').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingEndpointError);
    expect((error as EmbeddingEndpointError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  test('a 400 fails at once (not retried)', async () => {
    server.failWith = 400;
    const embedder = createOpenAiEmbedder({
      baseURL: server.url,
      model: 'm',
      maxAttempts: 3,
      retryDelayMs: 5,
    });
    await expect(embedder.embed(['x'], 'query')).rejects.toThrow(/answered 400/);
    expect(server.requests).toHaveLength(1);
  });

  test('a slow endpoint hits the time limit; an unreachable one fails with status null', async () => {
    server.delayMs = 300;
    const slow = createOpenAiEmbedder({ baseURL: server.url, model: 'm', timeoutMs: 50, maxAttempts: 1 });
    await expect(slow.embed(['x'], 'query')).rejects.toThrow(/unreachable/);
    const down = createOpenAiEmbedder({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'm',
      maxAttempts: 2,
      retryDelayMs: 1,
    });
    const error = await down.embed(['x'], 'query').catch((e: unknown) => e);
    expect((error as EmbeddingEndpointError).status).toBeNull();
  });
});

describe('createQueryVectors', () => {
  test('caches query vectors and returns null when the endpoint fails', async () => {
    const errors: unknown[] = [];
    const lookup = createQueryVectors(
      createOpenAiEmbedder({ baseURL: server.url, model: 'm', maxAttempts: 1 }),
      {
        onError: (e) => errors.push(e),
      },
    );
    const first = await lookup('draw  a winner');
    const second = await lookup('draw a winner');
    expect(first?.model).toBe('m');
    expect(second?.vector).toBe(first?.vector);
    expect(server.requests).toHaveLength(1);
    server.failWith = 500;
    expect(await lookup('something else')).toBeNull();
    expect(errors).toHaveLength(1);
    expect(await lookup('   ')).toBeNull();
  });
});

describe('query cache keys stay short whatever the query length', () => {
  test('a long query is remembered under its SHA-256, not its text', async () => {
    const long = `draw a winner ${'from the list of entrants '.repeat(40_000)}`.trim();
    const key = queryCacheKey(long);
    expect(key).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(queryCacheKey(`${long} and more`)).not.toBe(key);
    expect(queryCacheKey('draw a winner')).toBe('draw a winner');
    expect(queryCacheKey('x'.repeat(QUERY_KEY_MAX_CHARS))).toHaveLength(QUERY_KEY_MAX_CHARS);
    expect(queryCacheKey(key)).not.toBe(key); // a query that looks like a hashed key is hashed too
    const lookup = createQueryVectors(
      createOpenAiEmbedder({ baseURL: server.url, model: 'm', maxAttempts: 1 }),
    );
    const first = await lookup(long);
    const second = await lookup(`  ${long}  `);
    expect(first?.vector).toBeDefined();
    expect(second?.vector).toBe(first?.vector);
    expect(server.requests).toHaveLength(1);
  });
});

describe('embeddingText', () => {
  test('puts name, description and tags first and cuts long bodies', () => {
    const text = embeddingText({
      name: 'raffle-winner-picker',
      description: 'Pick winners',
      tags: ['fun'],
      body: 'x'.repeat(5000),
    });
    expect(text.startsWith('raffle winner picker\nPick winners\nfun\nxxx')).toBe(true);
    expect(text).toHaveLength(2000);
  });
});
