import { createWorkerPool, type WorkerPool } from '../workers/worker-pool.js';
import { type Embedder, type EmbeddingKind, type EmbeddingSource, skillHeadText } from './embedder.js';
import {
  EMBED_LOCAL,
  LOCAL_MAX_INPUT_CHARS,
  LOCAL_MODEL_ID,
  LOCAL_MODEL_UNAVAILABLE,
  localModelInstalled,
} from './local-model.js';

/** Options of {@link createLocalEmbedder}. */
export interface LocalEmbedderOptions {
  /**
   * Worker threads running the model (`SKILLPORT_EMBEDDINGS_THREADS`, default 1). Each thread holds
   * its own copy of the model (about 130 MB); with one thread, embedding the skills of a large
   * registry keeps at most one core busy and leaves the others to requests.
   */
  threads?: number;
  /** Texts per model call (default 8: a batch of skills takes well under a second of CPU, so a query waits little behind it). */
  batchSize?: number;
  /** Time budget of one model call, ms (default 60 000, covering the first call's model load); past it the thread is replaced. */
  budgetMs?: number;
  /** A thread with nothing to do exits after this long, ms, freeing the model's memory (default 15 minutes). */
  idleTimeoutMs?: number;
  /** Told once when the model cannot be loaded (its packages missing or broken); the embedder then refuses all work. */
  onUnavailable?: (error: unknown) => void;
  /** The pool to run on (tests); default a pool of its own with `threads` threads. */
  pool?: WorkerPool;
}

/** The local embedder: an {@link Embedder} that can also be closed and asked whether it works. */
export interface LocalEmbedder extends Embedder {
  /** False once the model failed to load (missing or broken packages): `find` is lexical then. */
  available(): boolean;
  /** Stops its threads (queued work fails). */
  close(): Promise<void>;
}

/**
 * The text the local model embeds a skill from: what it is for (name, description, tags), without
 * the body. On the relevance set of `pnpm bench search` this beat adding the start of the body
 * (600 characters) on every kind of need and costs a third less CPU per skill (67 vs 98 ms): the
 * model reads a short statement of purpose better than the instructions that follow it.
 *
 * @param skill - name, description, tags (the body is not used)
 * @returns at most {@link LOCAL_MAX_INPUT_CHARS} characters
 */
export function localDocumentText(skill: EmbeddingSource): string {
  return skillHeadText(skill).slice(0, LOCAL_MAX_INPUT_CHARS);
}

/**
 * The local model's calibration (see {@link Embedder.semanticOnlyMinZ}). Over the 1,880 skills of
 * the relevance set's corpus, queries about nothing there (cooking, knitting, travel…) still have
 * a closest skill 3.5–6.6 deviations above the rest, so a skill is returned for its meaning alone
 * only from z = 7; below that the model's meaning only re-ranks skills that share words with the
 * query.
 */
export const LOCAL_SEMANTIC_ONLY_MIN_Z = 7;

/** A letter of any script but Latin (Han, kana, Hangul, Cyrillic, Arabic…). */
const NON_LATIN_LETTER = /(?!\p{Script=Latin})\p{L}/u;

/**
 * Whether the local model can read a query: it was trained on English, so a query with letters of
 * another script (Chinese, Japanese, Korean, Russian…) gets no vector and is ranked by its words,
 * exactly as without the model; on such queries its vectors only add noise. Queries in Latin-script
 * languages (Spanish, German…) are embedded, though the model understands them little.
 *
 * @param query - the query as asked
 * @returns false when the query has a letter outside the Latin script
 */
export function localModelReadsQuery(query: string): boolean {
  return !NON_LATIN_LETTER.test(query);
}

interface Pending {
  texts: readonly string[];
  vectors: Float32Array[];
  /** Texts of this request not yet handed to a thread. */
  next: number;
  /** Texts still being embedded. */
  outstanding: number;
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
  failed: boolean;
}

/**
 * The default {@link Embedder} of the server: the bundled English model of `local-model.ts`
 * (Universal Sentence Encoder lite) on worker threads, so no request ever waits for the model on the
 * HTTP thread. The model loads on the first call, in the worker thread (start-up does not wait for
 * it), and stays loaded while the thread is in use.
 *
 * Work is scheduled in batches of at most `batchSize` texts, one batch per thread at a time:
 * queries go before skills (a find waits at most for the batch running now), and texts of
 * concurrent calls of the same kind share batches. When the model cannot be loaded, every call
 * fails at once with the load error, `available()` turns false and `onUnavailable` is told once.
 *
 * @param options - threads, batch size, budgets
 * @returns the embedder; `close()` it with the server
 * @throws Error from `embed` when the model is unavailable or a batch failed
 */
export function createLocalEmbedder(options: LocalEmbedderOptions = {}): LocalEmbedder {
  const threads = Math.max(1, Math.floor(options.threads ?? 1));
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 8));
  const budgetMs = Math.max(1000, options.budgetMs ?? 60_000);
  const pool =
    options.pool ??
    createWorkerPool({
      threads,
      maxQueue: threads,
      taskBudgetMs: budgetMs,
      idleTimeoutMs: options.idleTimeoutMs ?? 15 * 60_000,
    });
  const ownsPool = options.pool === undefined;
  const queues: Record<EmbeddingKind, Pending[]> = { query: [], document: [] };
  let running = 0;
  let unavailable: Error | null = localModelInstalled()
    ? null
    : new Error('the local embedding model is not installed (optional packages @energetic-ai/*)');
  let reported = false;
  let closed = false;

  const markUnavailable = (error: unknown): void => {
    unavailable ??= error instanceof Error ? error : new Error(String(error));
    if (!reported) {
      reported = true;
      options.onUnavailable?.(unavailable);
    }
    for (const kind of ['query', 'document'] as const) {
      for (const pending of queues[kind].splice(0)) fail(pending, unavailable);
    }
  };

  const fail = (pending: Pending, error: unknown): void => {
    if (pending.failed) return;
    pending.failed = true;
    pending.reject(error);
  };

  /** Takes up to `batchSize` texts from the front of a queue (possibly from several calls). */
  const takeBatch = (queue: Pending[]): Array<{ pending: Pending; index: number; text: string }> => {
    const batch: Array<{ pending: Pending; index: number; text: string }> = [];
    while (batch.length < batchSize && queue.length > 0) {
      const pending = queue[0] as Pending;
      while (batch.length < batchSize && pending.next < pending.texts.length) {
        batch.push({ pending, index: pending.next, text: pending.texts[pending.next] as string });
        pending.next++;
      }
      if (pending.next >= pending.texts.length) queue.shift();
    }
    return batch;
  };

  const pump = (): void => {
    while (!closed && running < threads) {
      const queue = queues.query.length > 0 ? queues.query : queues.document;
      const batch = takeBatch(queue);
      if (batch.length === 0) return;
      running++;
      pool
        .run(EMBED_LOCAL, { texts: batch.map((item) => item.text) })
        .then(
          (vectors) => {
            batch.forEach((item, i) => {
              const vector = vectors[i];
              if (vector === undefined) {
                fail(item.pending, new Error('the local model returned too few vectors'));
                return;
              }
              item.pending.vectors[item.index] = vector;
              item.pending.outstanding--;
              if (item.pending.outstanding === 0 && !item.pending.failed)
                item.pending.resolve(item.pending.vectors);
            });
          },
          (error: unknown) => {
            // A missing or broken package fails every call the same way: stop trying.
            if (isLoadError(error)) markUnavailable(error);
            for (const item of batch) fail(item.pending, error);
          },
        )
        .finally(() => {
          running--;
          pump();
        });
    }
  };

  return {
    model: LOCAL_MODEL_ID,
    semanticOnlyMinZ: LOCAL_SEMANTIC_ONLY_MIN_Z,
    documentText: localDocumentText,
    readsQuery: localModelReadsQuery,
    available: () => unavailable === null,
    embed(texts: readonly string[], kind: EmbeddingKind): Promise<Float32Array[]> {
      if (unavailable !== null) {
        markUnavailable(unavailable);
        return Promise.reject(unavailable);
      }
      if (closed) return Promise.reject(new Error('the local embedder is closed'));
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise<Float32Array[]>((resolve, reject) => {
        queues[kind].push({
          texts,
          vectors: new Array<Float32Array>(texts.length),
          next: 0,
          outstanding: texts.length,
          resolve,
          reject,
          failed: false,
        });
        pump();
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const error = new Error('the local embedder is closed');
      for (const kind of ['query', 'document'] as const) {
        for (const pending of queues[kind].splice(0)) fail(pending, error);
      }
      if (ownsPool) await pool.close();
    },
  };
}

/** An error of loading the model (as opposed to one batch failing). */
function isLoadError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === LOCAL_MODEL_UNAVAILABLE;
}
