/**
 * `Idempotency-Key` records on SQLite (table `idempotency_keys`, schema version 9).
 */
import type { IdempotencyRecord } from '../types.js';
import type { Connection } from './connection.js';

interface KeyRow {
  request_hash: string;
  response: string | null;
  created_at: number;
}

/** `Store.reserveIdempotencyKey` (the database thread runs one call at a time, so no race). */
export function reserveIdempotencyKey(
  conn: Connection,
  accountId: string,
  key: string,
  requestHash: string,
  now: number,
  staleBefore: number,
): IdempotencyRecord | null {
  const taken = conn
    .stmt(
      `INSERT INTO idempotency_keys (account_id, idem_key, request_hash, response, created_at)
       VALUES (?, ?, ?, NULL, ?)
       ON CONFLICT (account_id, idem_key) DO UPDATE SET
         request_hash = excluded.request_hash, response = NULL, created_at = excluded.created_at
       WHERE idempotency_keys.response IS NULL AND idempotency_keys.created_at < ?
       RETURNING 1 AS taken`,
    )
    .get(accountId, key, requestHash, now, staleBefore);
  if (taken !== undefined) return null;
  const row = conn
    .stmt(
      'SELECT request_hash, response, created_at FROM idempotency_keys WHERE account_id = ? AND idem_key = ?',
    )
    .get(accountId, key) as KeyRow | undefined;
  if (row === undefined) return null;
  return { requestHash: row.request_hash, response: row.response, createdAt: row.created_at };
}

/** `Store.finishIdempotencyKey`. */
export function finishIdempotencyKey(
  conn: Connection,
  accountId: string,
  key: string,
  response: string,
): void {
  conn
    .stmt('UPDATE idempotency_keys SET response = ? WHERE account_id = ? AND idem_key = ?')
    .run(response, accountId, key);
}

/** `Store.releaseIdempotencyKey`: only a reservation without a response is dropped. */
export function releaseIdempotencyKey(conn: Connection, accountId: string, key: string): void {
  conn
    .stmt('DELETE FROM idempotency_keys WHERE account_id = ? AND idem_key = ? AND response IS NULL')
    .run(accountId, key);
}

/** `Store.purgeIdempotencyKeys`. */
export function purgeIdempotencyKeys(conn: Connection, olderThan: number): number {
  return conn.stmt('DELETE FROM idempotency_keys WHERE created_at < ?').run(olderThan).changes;
}
