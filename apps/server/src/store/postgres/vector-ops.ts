import type pg from 'pg';
import { type CachedVector, VectorSlots } from '../sqlite/vector-ops.js';
import type { SkillToEmbed } from '../types.js';

type Queryable = pg.Pool | pg.ClientBase;

/**
 * Embeddings on PostgreSQL: one row per skill in `skill_vectors`, and in each server process an
 * in-memory copy of the live vectors for the semantic half of `find` (brute-force cosine over the
 * caller's skills, as on SQLite).
 */

/**
 * Stores the vector of one skill revision; false when the skill is gone or has moved to another
 * revision. The skill row is share-locked, so a concurrent update waits and its trigger then clears
 * this vector.
 */
export async function putSkillVector(
  db: Queryable,
  skillId: string,
  revision: string,
  model: string,
  vector: Float32Array,
): Promise<boolean> {
  const result = await db.query(
    `WITH s AS (SELECT seq FROM skills WHERE id = $1 AND revision = $2 FOR SHARE)
     INSERT INTO skill_vectors (skill_seq, revision, model, vector, change_xid)
       SELECT s.seq, $2, $3, $4, pg_current_xact_id() FROM s
     ON CONFLICT (skill_seq) DO UPDATE SET revision = excluded.revision, model = excluded.model,
       vector = excluded.vector, change_xid = excluded.change_xid`,
    [skillId, revision, model, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength)],
  );
  return result.rowCount === 1;
}

/** Skills whose current revision has no vector of `model`, oldest first. */
export async function skillsNeedingVectors(
  db: Queryable,
  model: string,
  limit: number,
): Promise<SkillToEmbed[]> {
  const { rows } = await db.query<{
    id: string;
    revision: string;
    name: string;
    description: string;
    tags: string;
    body: string;
  }>(
    `SELECT s.id, s.revision, s.name, s.description, s.tags, s.body FROM skills s
     LEFT JOIN skill_vectors v ON v.skill_seq = s.seq
     WHERE v.skill_seq IS NULL OR v.vector IS NULL OR v.model <> $1 OR v.revision <> s.revision
     ORDER BY s.seq LIMIT $2`,
    [model, Math.max(0, Math.floor(limit))],
  );
  return rows.map((row) => ({
    skillId: row.id,
    revision: row.revision,
    name: row.name,
    description: row.description,
    tags: JSON.parse(row.tags) as string[],
    body: row.body,
  }));
}

/**
 * The live vectors of the database, kept in memory and brought up to date before each semantic
 * search by reading only the rows changed by transactions this process may not have seen: those
 * whose id is at or above the oldest transaction still running at the last look (`horizon`). Rows
 * read twice are simply stored again; rows whose vector was cleared drop out.
 */
export class PostgresVectorCache {
  private readonly bySeq = new Map<number, CachedVector>();
  private readonly slots = new VectorSlots();
  private horizon = '0';
  private refreshing: Promise<void> | null = null;

  /** Catches up with the database (concurrent callers share one read). */
  refresh(db: Queryable): Promise<void> {
    this.refreshing ??= this.read(db).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async read(db: Queryable): Promise<void> {
    const { rows } = await db.query<{
      seq: number | null;
      model: string | null;
      vector: Buffer | null;
      account_id: string | null;
      root_uri: string | null;
      name: string | null;
      horizon: string;
    }>(
      `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon)
       SELECT v.skill_seq AS seq, v.model, v.vector, s.account_id, s.root_uri, s.name, h.horizon
       FROM h LEFT JOIN skill_vectors v ON v.change_xid >= $1::xid8
       LEFT JOIN skills s ON s.seq = v.skill_seq`,
      [this.horizon],
    );
    for (const row of rows) {
      if (row.seq === null) continue;
      const old = this.bySeq.get(row.seq);
      if (row.vector === null || row.account_id === null || row.root_uri === null || row.name === null) {
        if (old !== undefined) this.slots.release(old.vector);
        this.bySeq.delete(row.seq);
        continue;
      }
      this.bySeq.set(row.seq, {
        seq: row.seq,
        key: row.seq,
        accountId: row.account_id,
        rootUri: row.root_uri,
        name: row.name,
        model: row.model ?? '',
        vector: this.slots.store(row.vector, old?.vector),
      });
    }
    const horizon = rows[0]?.horizon;
    if (horizon !== undefined) this.horizon = horizon;
  }

  /** Live vectors of `model` in the given roots of one account. */
  *inScope(accountId: string, rootUris: ReadonlySet<string>, model: string): Iterable<CachedVector> {
    for (const entry of this.bySeq.values()) {
      if (entry.accountId === accountId && entry.model === model && rootUris.has(entry.rootUri)) yield entry;
    }
  }
}
