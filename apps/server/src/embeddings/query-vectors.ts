import { createHash } from 'node:crypto';
import type { SemanticQuery } from '../store/types.js';
import type { Embedder } from './embedder.js';

/** Turns a find query into its query vector, or null when semantic search is unavailable for it. */
export type QueryVectors = (query: string) => Promise<SemanticQuery | null>;

/** Options of {@link createQueryVectors}. */
export interface QueryVectorsOptions {
  /** Query vectors remembered (least recently used forgotten first); default 1000. */
  cacheSize?: number;
  /**
   * Longest wait for a query's vector, ms (default: as long as the embedder takes). A vector that
   * comes later is still remembered for the next time the query is asked; this time `find` ranks
   * lexically.
   */
  waitMs?: number;
  /** Told about a failed embedding, at most once a minute. */
  onError?: (error: unknown) => void;
}

/**
 * The query side of semantic search: embeds a find query (`kind: 'query'`) and remembers the last
 * `cacheSize` queries' vectors (users and agents repeat queries; an embedding costs a round trip or
 * CPU time). A query the model cannot read (`Embedder.readsQuery`), a failure (endpoint down, model
 * unavailable) or a wait past `waitMs` yields null —
 * `find` then ranks lexically; failures are reported to `onError`, at most once a minute. Queries
 * are embedded as written, after collapsing white space; the vector carries the embedder's model
 * and calibration (`semanticOnlyMinZ`).
 *
 * @param embedder - the embedder (its own time limit bounds the wait too)
 * @param options - cache size, longest wait, error report
 * @returns the lookup
 */
export function createQueryVectors(embedder: Embedder, options: QueryVectorsOptions = {}): QueryVectors {
  const cacheSize = Math.max(0, options.cacheSize ?? 1000);
  const cache = new Map<string, Float32Array>();
  /** Embeddings under way, shared by concurrent finds of the same query. */
  const inFlight = new Map<string, Promise<Float32Array | undefined>>();
  let lastReport = Number.NEGATIVE_INFINITY;
  const semantic = (vector: Float32Array): SemanticQuery => ({
    model: embedder.model,
    vector,
    ...(embedder.semanticOnlyMinZ !== undefined ? { semanticOnlyMinZ: embedder.semanticOnlyMinZ } : {}),
  });
  const remember = (key: string, vector: Float32Array): void => {
    if (cacheSize === 0) return;
    cache.set(key, vector);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
  };
  return async (query) => {
    const text = query.trim().replace(/\s+/g, ' ');
    if (text === '' || embedder.readsQuery?.(text) === false) return null;
    const key = queryCacheKey(text);
    const cached = cache.get(key);
    if (cached !== undefined) {
      cache.delete(key);
      cache.set(key, cached); // most recently used last
      return semantic(cached);
    }
    if (embedder.available?.() === false) return null;
    try {
      let embedding = inFlight.get(key);
      if (embedding === undefined) {
        embedding = embedder.embed([text], 'query').then(([vector]) => {
          if (vector !== undefined) remember(key, vector);
          return vector;
        });
        const settled = (): void => {
          inFlight.delete(key);
        };
        embedding.then(settled, settled);
        inFlight.set(key, embedding);
      }
      const vector = await (options.waitMs === undefined ? embedding : withinMs(embedding, options.waitMs));
      return vector === undefined ? null : semantic(vector);
    } catch (error) {
      if (performance.now() - lastReport > 60_000) {
        lastReport = performance.now();
        options.onError?.(error);
      }
      return null;
    }
  };
}

/**
 * Longest query text used as its own cache key, in UTF-16 code units; a longer one is keyed by its
 * SHA-256. A find query may be as long as a request body (megabytes): the remembered queries must
 * not hold gigabytes.
 */
export const QUERY_KEY_MAX_CHARS = 512;

/**
 * The cache key of a (whitespace-normalised) query text: the text itself, or `sha256:` and its
 * SHA-256 in hex when it is longer than {@link QUERY_KEY_MAX_CHARS} (or itself starts with `sha256:`).
 *
 * @param text - the query, trimmed, runs of white space as one space
 * @returns a key of at most {@link QUERY_KEY_MAX_CHARS} code units
 */
export function queryCacheKey(text: string): string {
  return text.length <= QUERY_KEY_MAX_CHARS && !text.startsWith('sha256:')
    ? text
    : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/** The promise's value, or undefined when it takes longer than `ms` (its failure is then ignored). */
function withinMs<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  promise.catch(() => {});
  return new Promise<T | undefined>((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), Math.max(0, ms));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
