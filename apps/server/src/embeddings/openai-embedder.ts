import { type Embedder, type EmbeddingKind, normaliseVector } from './embedder.js';

/** Options of {@link createOpenAiEmbedder}. */
export interface OpenAiEmbedderOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1` (Ollama). */
  baseURL: string;
  /** Model name, e.g. `text-embedding-3-small`, `nomic-embed-text`, `bge-m3`. */
  model: string;
  /** Bearer key, if the endpoint needs one. */
  apiKey?: string;
  /** Time limit of one HTTP request, ms; default 30 000. */
  timeoutMs?: number;
  /** Attempts per batch (the first included) on network errors, 408, 429 and 5xx; default 3. */
  maxAttempts?: number;
  /** Delay before the first retry, ms, doubled each time (a `Retry-After` header wins); default 500. */
  retryDelayMs?: number;
  /** Texts per request; default 64. */
  batchSize?: number;
  /** Characters of one text sent (longer texts are cut); default 8000. */
  maxInputChars?: number;
  /** `fetch` to use (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

/** An error of the embeddings endpoint, with the HTTP status when there was a response. */
export class EmbeddingEndpointError extends Error {
  readonly status: number | null;
  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingEndpointError';
    this.status = status;
  }
}

const RETRYABLE = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/**
 * An {@link Embedder} over any OpenAI-compatible `POST {baseURL}/embeddings` endpoint (OpenAI, Azure
 * OpenAI, Ollama, vLLM, LM Studio, text-embeddings-inference…), as documented at
 * https://platform.openai.com/docs/api-reference/embeddings. Texts are sent in batches of
 * `batchSize`; each request has a time limit and is retried with exponential backoff on network
 * errors, 408, 429 and 5xx (honouring `Retry-After`); other 4xx fail at once. Returned vectors are
 * put back in input order (by `index`) and normalised to unit length. The model's identity is
 * `model`.
 *
 * @param options - endpoint, model and limits
 * @returns the embedder
 * @throws EmbeddingEndpointError from `embed` when a batch cannot be embedded (status set when the
 *   endpoint answered), or when the answer is malformed (wrong count, mixed dimensions)
 * @example
 * ```ts
 * const embedder = createOpenAiEmbedder({ baseURL: 'http://127.0.0.1:11434/v1', model: 'bge-m3' });
 * const [v] = await embedder.embed(['fill a PDF form'], 'query');
 * ```
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const url = `${options.baseURL.replace(/\/+$/, '')}/embeddings`;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 500;
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const maxInputChars = Math.max(1, options.maxInputChars ?? 8000);
  const doFetch = options.fetch ?? fetch;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  async function request(input: string[]): Promise<Float32Array[]> {
    let lastError: EmbeddingEndpointError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      let retryAfterMs: number | null = null;
      let res: Response;
      try {
        res = await doFetch(url, {
          method: 'POST',
          headers,
          body: JSON.stringify({ model: options.model, input, encoding_format: 'float' }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        lastError = new EmbeddingEndpointError(`embeddings endpoint unreachable: ${reason}`, null, {
          cause: error,
        });
        res = undefined as unknown as Response;
      }
      if (res !== undefined) {
        if (res.ok) return parseResponse(await res.json().catch(() => null), input.length);
        const detail = (await res.text().catch(() => '')).slice(0, 300);
        lastError = new EmbeddingEndpointError(
          `embeddings endpoint answered ${res.status}${detail ? `: ${detail}` : ''}`,
          res.status,
        );
        if (!RETRYABLE.has(res.status)) throw lastError;
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'));
      }
      if (attempt < maxAttempts) {
        const backoff = retryDelayMs * 2 ** (attempt - 1);
        await sleep(Math.min(30_000, retryAfterMs ?? backoff));
      }
    }
    throw lastError ?? new EmbeddingEndpointError('embeddings endpoint failed', null);
  }

  return {
    model: options.model,
    async embed(texts: readonly string[], _kind: EmbeddingKind): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts
          .slice(start, start + batchSize)
          .map((text) => (text.length > maxInputChars ? text.slice(0, maxInputChars) : text) || ' ');
        out.push(...(await request(batch)));
      }
      const dimension = out[0]?.length;
      if (out.some((v) => v.length !== dimension)) {
        throw new EmbeddingEndpointError('embeddings endpoint returned vectors of different lengths', null);
      }
      return out;
    },
  };
}

function parseResponse(json: unknown, expected: number): Float32Array[] {
  const data = (json as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length !== expected) {
    throw new EmbeddingEndpointError(
      `embeddings endpoint returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${expected} inputs`,
      null,
    );
  }
  const vectors = new Array<Float32Array>(expected);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= expected || vectors[index] !== undefined) {
      throw new EmbeddingEndpointError(
        `embeddings endpoint returned a bad index ${String(item?.index)}`,
        null,
      );
    }
    if (!Array.isArray(item.embedding) || item.embedding.length === 0) {
      throw new EmbeddingEndpointError(
        'embeddings endpoint returned an item without an embedding array',
        null,
      );
    }
    vectors[index] = normaliseVector(item.embedding as number[]);
  });
  return vectors;
}

function parseRetryAfter(value: string | null): number | null {
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
