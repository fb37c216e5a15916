/**
 * Dense text embeddings for the semantic half of `find` (see "How it stores and processes skills" in the @skillport/server README).
 *
 * An {@link Embedder} turns texts into unit-length vectors. Skill documents are embedded by the
 * processing job, once per skill revision, and stored with the skill together with the embedder's
 * `model`; queries are embedded on the find path. Vectors of different models are never compared:
 * when `model` changes, stored vectors of the old model are recomputed in the background and, until
 * then, those skills are found lexically only.
 */

/** What a text is, for models that embed questions and documents differently. */
export type EmbeddingKind = 'query' | 'document';

/** Turns texts into vectors. Implementations must be safe to call concurrently. */
export interface Embedder {
  /**
   * Identity of the vectors: two embedders with the same `model` produce comparable vectors.
   * Stored with every vector.
   */
  readonly model: string;
  /**
   * Embeds texts, in order: one L2-normalised `Float32Array` per text, all of one dimension.
   *
   * @param texts - at most a few hundred texts; long texts may be cut by the implementation
   * @param kind - `query` for a search query, `document` for a skill
   * @throws Error when the embedding could not be computed (the caller falls back to lexical search)
   */
  embed(texts: readonly string[], kind: EmbeddingKind): Promise<Float32Array[]>;
  /**
   * Calibration of the model for `find`: the least z-score (deviations above the caller's other
   * skills, see the server's `search/semantic.ts`) from which a skill that matches no word of the
   * query is returned for its meaning alone. Models whose unrelated texts can stand out strongly by
   * chance need a higher bar. Absent: the chance level `√(2 ln n)` among `n` skills.
   */
  readonly semanticOnlyMinZ?: number;
  /**
   * The text a skill is embedded from, when the model wants another than {@link embeddingText}
   * (part of the vectors' identity: a change needs a new `model`).
   */
  documentText?(skill: EmbeddingSource): string;
  /**
   * False when the model cannot read this query (e.g. an English-only model and a query written in
   * another script): the query gets no vector and `find` ranks it by its words alone, as it would
   * without a model. Absent: every query is embedded.
   */
  readsQuery?(query: string): boolean;
  /**
   * False when the embedder cannot work at all (e.g. its model failed to load); the job runner then
   * stops asking it. Absent: always assumed available (failures are retried).
   */
  available?(): boolean;
}

/** What a skill is embedded from. */
export interface EmbeddingSource {
  name: string;
  description: string;
  tags: readonly string[];
  body: string;
}

/**
 * What a skill is for, as one text: its name (separators as spaces), description and tags, one per
 * line (empty parts left out).
 *
 * @param skill - name, description and tags
 * @returns the text
 * @example
 * ```ts
 * skillHeadText({ name: 'pdf-forms', description: 'Fill PDF forms', tags: ['docs'], body: '' });
 * // 'pdf forms\nFill PDF forms\ndocs'
 * ```
 */
export function skillHeadText(skill: EmbeddingSource): string {
  return [skill.name.replace(/[-_]+/g, ' '), skill.description.trim(), skill.tags.join(', ')]
    .filter((part) => part !== '')
    .join('\n');
}

/** Characters of a skill document sent to the embedder (name, description, tags, then the body). */
export const EMBEDDING_TEXT_MAX_CHARS = 2000;

/**
 * The text a skill is embedded from: what it is for comes first (name, description, tags), then the
 * start of the body, cut to {@link EMBEDDING_TEXT_MAX_CHARS} characters. Deterministic, so the same
 * revision always yields the same text.
 *
 * @param skill - name, description, tags and Markdown body
 * @returns the text to embed
 * @example
 * ```ts
 * embeddingText({ name: 'pdf', description: 'Fill PDF forms', tags: ['docs'], body: '# PDF' });
 * // 'pdf\nFill PDF forms\ndocs\n# PDF'
 * ```
 */
export function embeddingText(skill: EmbeddingSource): string {
  const text = `${skillHeadText(skill)}\n${skill.body.trim()}`;
  return text.length > EMBEDDING_TEXT_MAX_CHARS ? text.slice(0, EMBEDDING_TEXT_MAX_CHARS) : text;
}

/**
 * Scales a vector to unit length (cosine similarity becomes a dot product).
 *
 * @param values - any finite numbers
 * @returns a new `Float32Array` of length 1 (all zeros when the input is all zeros)
 * @throws Error when a value is not a finite number
 */
export function normaliseVector(values: ArrayLike<number>): Float32Array {
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (!Number.isFinite(v)) throw new Error(`embedding value ${i} is not a finite number`);
    sum += v * v;
  }
  const out = new Float32Array(values.length);
  if (sum === 0) return out;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < values.length; i++) out[i] = (values[i] as number) * scale;
  return out;
}
