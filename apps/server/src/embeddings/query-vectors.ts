import type { SemanticQuery } from '../store/types.js';
import type { Embedder } from './embedder.js';

/** Turns a find query into its query vector, or null when semantic search is unavailable for it. */
export type QueryVectors = (query: string) => Promise<SemanticQuery | null>;

/**
 * The query side of semantic search: embeds a find query (`kind: 'query'`) and remembers the last
 * `cacheSize` queries' vectors (users and agents repeat queries; an embedding costs a round trip or
 * CPU time). A failure (endpoint down, time limit) yields null — `find` then ranks lexically — and
 * is reported to `onError`, at most once a minute.
 *
 * @param embedder - the embedder (its own time limit bounds the wait)
 * @param options - `cacheSize` (default 1000 queries), `onError`
 * @returns the lookup
 */
export function createQueryVectors(
  embedder: Embedder,
  options: { cacheSize?: number; onError?: (error: unknown) => void } = {},
): QueryVectors {
  const cacheSize = Math.max(0, options.cacheSize ?? 1000);
  const cache = new Map<string, Float32Array>();
  let lastReport = Number.NEGATIVE_INFINITY;
  return async (query) => {
    const key = query.trim().replace(/\s+/g, ' ');
    if (key === '') return null;
    const cached = cache.get(key);
    if (cached !== undefined) {
      cache.delete(key);
      cache.set(key, cached); // most recently used last
      return { model: embedder.model, vector: cached };
    }
    try {
      const [vector] = await embedder.embed([key], 'query');
      if (vector === undefined) return null;
      if (cacheSize > 0) {
        cache.set(key, vector);
        if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
      }
      return { model: embedder.model, vector };
    } catch (error) {
      if (performance.now() - lastReport > 60_000) {
        lastReport = performance.now();
        options.onError?.(error);
      }
      return null;
    }
  };
}
