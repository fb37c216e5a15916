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

/** One live vector held in memory. */
export interface CachedVector {
  seq: number;
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
  private seen = 0;

  /** Reads the changes since the last call (call inside a read transaction). */
  refresh(conn: Connection): void {
    const rows = conn
      .stmt(
        `SELECT v.skill_seq AS seq, v.model, v.vector, v.change, s.account_id, s.root_uri, s.name
         FROM skill_vectors v LEFT JOIN skills s ON s.seq = v.skill_seq
         WHERE v.change > ? ORDER BY v.change`,
      )
      .all(this.seen) as Array<{
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
      if (row.vector === null || row.account_id === null || row.root_uri === null || row.name === null) {
        this.byseq.delete(row.seq);
        continue;
      }
      const copy = new Uint8Array(row.vector);
      this.byseq.set(row.seq, {
        seq: row.seq,
        accountId: row.account_id,
        rootUri: row.root_uri,
        name: row.name,
        model: row.model,
        vector: new Float32Array(copy.buffer, 0, copy.byteLength / 4),
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
