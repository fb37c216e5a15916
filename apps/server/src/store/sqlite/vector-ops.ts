import type { SkillToEmbed } from '../types.js';
import type { Connection } from './connection.js';

/**
 * Embeddings on SQLite: one row per skill in `skill_vectors` (see migration 4), and an in-memory
 * copy of the live vectors for the semantic half of `find` (brute-force cosine over the caller's
 * skills; reading thousands of blobs per query would cost more than the scoring).
 */

/** Stores the vector of one skill revision; false when the skill is gone or has moved to another revision. */
export function putSkillVectorTx(
  conn: Connection,
  skillId: string,
  revision: string,
  model: string,
  vector: Float32Array,
): boolean {
  const row = conn.stmt('SELECT seq, revision FROM skills WHERE id = ?').get(skillId) as
    | { seq: number; revision: string }
    | undefined;
  if (row === undefined || row.revision !== revision) return false;
  const bytes = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  conn
    .stmt(
      `INSERT INTO skill_vectors (skill_seq, revision, model, vector, change)
       VALUES (?, ?, ?, ?, (SELECT coalesce(max(change), 0) + 1 FROM skill_vectors))
       ON CONFLICT (skill_seq) DO UPDATE SET revision = excluded.revision, model = excluded.model,
         vector = excluded.vector, change = excluded.change`,
    )
    .run(row.seq, revision, model, bytes);
  return true;
}

/** Skills whose current revision has no vector of `model`, oldest first. */
export function skillsNeedingVectors(conn: Connection, model: string, limit: number): SkillToEmbed[] {
  const rows = conn
    .stmt(
      `SELECT s.id, s.revision, s.name, s.description, s.tags, s.body FROM skills s
       LEFT JOIN skill_vectors v ON v.skill_seq = s.seq
       WHERE v.skill_seq IS NULL OR v.vector IS NULL OR v.model <> ? OR v.revision <> s.revision
       ORDER BY s.seq LIMIT ?`,
    )
    .all(model, Math.max(0, Math.floor(limit))) as Array<{
    id: string;
    revision: string;
    name: string;
    description: string;
    tags: string;
    body: string;
  }>;
  return rows.map((row) => ({
    skillId: row.id,
    revision: row.revision,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    body: row.body,
  }));
}

/** Vectors per chunk of {@link VectorSlots}. */
const SLOTS_PER_CHUNK = 256;

/**
 * In-memory vectors packed into shared `Float32Array` chunks of {@link SLOTS_PER_CHUNK} vectors of
 * one dimension, instead of an `ArrayBuffer` of its own per vector (whose bookkeeping costs about as
 * much again as a 512-dimension vector's 2 KiB once there are 100,000 of them). A slot given back is
 * reused by the next vector of its dimension; chunks are kept for the life of the cache.
 */
export class VectorSlots {
  private readonly pools = new Map<number, { chunks: Float32Array[]; free: Float32Array[]; used: number }>();

  /**
   * Stores a vector given as its bytes (float32, the platform's byte order, as written by
   * `putSkillVectorTx`) and returns its slot: `previous` itself when it has the same dimension,
   * else a new slot (and `previous` is given back).
   */
  store(bytes: Uint8Array, previous?: Float32Array): Float32Array {
    const dim = Math.floor(bytes.byteLength / 4);
    let slot = previous;
    if (slot === undefined || slot.length !== dim) {
      if (slot !== undefined) this.release(slot);
      slot = this.take(dim);
    }
    new Uint8Array(slot.buffer, slot.byteOffset, dim * 4).set(bytes.subarray(0, dim * 4));
    return slot;
  }

  /** Gives a slot back (its vector is no longer used). */
  release(slot: Float32Array): void {
    this.pools.get(slot.length)?.free.push(slot);
  }

  private take(dim: number): Float32Array {
    let pool = this.pools.get(dim);
    if (pool === undefined) {
      pool = { chunks: [], free: [], used: 0 };
      this.pools.set(dim, pool);
    }
    const reused = pool.free.pop();
    if (reused !== undefined) return reused;
    const index = pool.used++;
    const offset = index % SLOTS_PER_CHUNK;
    if (offset === 0) pool.chunks.push(new Float32Array(SLOTS_PER_CHUNK * dim));
    const chunk = pool.chunks[pool.chunks.length - 1] as Float32Array;
    return chunk.subarray(offset * dim, (offset + 1) * dim);
  }
}

/** One live vector held in memory (`key` = `seq`: it is handed to `semanticMatches` as is). */
export interface CachedVector {
  seq: number;
  key: number;
  accountId: string;
  rootUri: string;
  name: string;
  model: string;
  vector: Float32Array;
}

/**
 * The live vectors of the database, kept in memory and brought up to date before each semantic
 * search by reading only the rows changed since the last look (`change > seen`). Rows whose vector
 * was cleared (new revision, deleted skill) drop out.
 */
export class VectorCache {
  private readonly byseq = new Map<number, CachedVector>();
  private readonly slots = new VectorSlots();
  /** One copy of each account id, root and model name (shared by every entry that has it). */
  private readonly strings = new Map<string, string>();
  private seen = 0;

  private intern(value: string): string {
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  /**
   * Reads the changes since the last call (call inside a read transaction). Rows are read one at a
   * time, not all at once: the first call at 100,000 skills reads ~200 MB of vectors, which would
   * otherwise sit in memory twice (as read and as kept) before the copies could be freed.
   */
  refresh(conn: Connection): void {
    const rows = conn
      .stmt(
        `SELECT v.skill_seq AS seq, v.model, v.vector, v.change, s.account_id, s.root_uri, s.name
         FROM skill_vectors v LEFT JOIN skills s ON s.seq = v.skill_seq
         WHERE v.change > ? ORDER BY v.change`,
      )
      .iterate(this.seen) as IterableIterator<{
      seq: number;
      model: string;
      vector: Buffer | null;
      change: number;
      account_id: string | null;
      root_uri: string | null;
      name: string | null;
    }>;
    for (const row of rows) {
      this.seen = Math.max(this.seen, row.change);
      const old = this.byseq.get(row.seq);
      if (row.vector === null || row.account_id === null || row.root_uri === null || row.name === null) {
        if (old !== undefined) this.slots.release(old.vector);
        this.byseq.delete(row.seq);
        continue;
      }
      this.byseq.set(row.seq, {
        seq: row.seq,
        key: row.seq,
        accountId: this.intern(row.account_id),
        rootUri: this.intern(row.root_uri),
        name: row.name,
        model: this.intern(row.model),
        vector: this.slots.store(row.vector, old?.vector),
      });
    }
  }

  /** Live vectors of `model` in the given roots of one account. */
  *inScope(accountId: string, rootUris: ReadonlySet<string>, model: string): Iterable<CachedVector> {
    for (const entry of this.byseq.values()) {
      if (entry.accountId === accountId && entry.model === model && rootUris.has(entry.rootUri)) yield entry;
    }
  }
}
