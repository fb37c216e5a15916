/**
 * `Idempotency-Key` records on PostgreSQL (table `idempotency_keys`, schema version 2).
 */
import type pg from 'pg';
import type { IdempotencyRecord } from '../types.js';

type Queryable = pg.Pool | pg.ClientBase;

/**
 * `Store.reserveIdempotencyKey`: one upsert takes a free or stale key; two replicas reserving the same
 * key at once never both get it (the unique key serialises them).
 */
export async function reserveIdempotencyKey(
  db: Queryable,
  accountId: string,
  key: string,
  requestHash: string,
  now: number,
  staleBefore: number,
): Promise<IdempotencyRecord | null> {
  // A row released between the upsert and the read is reserved again: a few turns at most.
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = await db.query(
      `INSERT INTO idempotency_keys (account_id, idem_key, request_hash, response, created_at)
       VALUES ($1, $2, $3, NULL, $4)
       ON CONFLICT (account_id, idem_key) DO UPDATE SET
         request_hash = EXCLUDED.request_hash, response = NULL, created_at = EXCLUDED.created_at
       WHERE idempotency_keys.response IS NULL AND idempotency_keys.created_at < $5
       RETURNING 1`,
      [accountId, key, requestHash, now, staleBefore],
    );
    if ((taken.rowCount ?? 0) > 0) return null;
    const { rows } = await db.query<{ request_hash: string; response: string | null; created_at: string }>(
      'SELECT request_hash, response, created_at FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2',
      [accountId, key],
    );
    const row = rows[0];
    if (row !== undefined) {
      return { requestHash: row.request_hash, response: row.response, createdAt: Number(row.created_at) };
    }
  }
  throw new Error('reserveIdempotencyKey: the key kept changing hands');
}

/** `Store.finishIdempotencyKey`. */
export async function finishIdempotencyKey(
  db: Queryable,
  accountId: string,
  key: string,
  response: string,
): Promise<void> {
  await db.query('UPDATE idempotency_keys SET response = $3 WHERE account_id = $1 AND idem_key = $2', [
    accountId,
    key,
    response,
  ]);
}

/** `Store.releaseIdempotencyKey`: only a reservation without a response is dropped. */
export async function releaseIdempotencyKey(db: Queryable, accountId: string, key: string): Promise<void> {
  await db.query(
    'DELETE FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2 AND response IS NULL',
    [accountId, key],
  );
}

/** `Store.purgeIdempotencyKeys`. */
export async function purgeIdempotencyKeys(db: Queryable, olderThan: number): Promise<number> {
  const result = await db.query('DELETE FROM idempotency_keys WHERE created_at < $1', [olderThan]);
  return result.rowCount ?? 0;
}
