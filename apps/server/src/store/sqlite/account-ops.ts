import {
  checkTempUploadQuota,
  hasTempUploadQuota,
  liveTempUpload,
  newApiKeyId,
  newTempUploadId,
  type TempUploadRow,
  uploadContent,
} from '../account-records.js';
import type { AccountUsage, ApiKeyRecord, TempUploadQuota, TempUploadRecord } from '../types.js';
import { TEMP_UPLOAD_MIN_CHARGE, tempUploadGone } from '../write-checks.js';
import type { Connection } from './connection.js';
import { type ApiKeyRow, toApiKeyRecord } from './rows.js';

/** `Store.ensureAccount`. */
export function ensureAccount(conn: Connection, accountId: string, now: number): void {
  conn
    .stmt('INSERT INTO accounts (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING')
    .run(accountId, now);
}

/** `Store.ensureUser` (creates the account too). */
export function ensureUser(conn: Connection, accountId: string, userId: string, now: number): void {
  ensureAccount(conn, accountId, now);
  conn
    .stmt(
      'INSERT INTO users (account_id, id, created_at) VALUES (?, ?, ?) ON CONFLICT (account_id, id) DO NOTHING',
    )
    .run(accountId, userId, now);
}

/** `Store.listAccounts`, sorted. */
export function listAccounts(conn: Connection): string[] {
  return (conn.stmt('SELECT id FROM accounts ORDER BY id').all() as Array<{ id: string }>).map((r) => r.id);
}

/** `Store.listUsers`, sorted. */
export function listUsers(conn: Connection, accountId: string): string[] {
  return (
    conn.stmt('SELECT id FROM users WHERE account_id = ? ORDER BY id').all(accountId) as Array<{ id: string }>
  ).map((r) => r.id);
}

/** `Store.createApiKey`: stores the hash (never the key) with a fresh id. */
export function createApiKey(
  conn: Connection,
  record: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt'> & { hash: string },
  now: number,
): ApiKeyRecord {
  const id = newApiKeyId();
  conn
    .stmt(
      `INSERT INTO api_keys (id, account_id, user_id, role, hash, prefix, created_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, NULL)`,
    )
    .run(id, record.accountId, record.userId, record.role, record.hash, record.prefix, now);
  return toApiKeyRecord(conn.stmt('SELECT * FROM api_keys WHERE id = ?').get(id) as ApiKeyRow);
}

/** `Store.findApiKeyByHash`: the live key with that hash; revoked keys are never returned. */
export function findApiKeyByHash(conn: Connection, hash: string): ApiKeyRecord | null {
  const row = conn.stmt('SELECT * FROM api_keys WHERE hash = ? AND revoked_at IS NULL').get(hash) as
    | ApiKeyRow
    | undefined;
  return row === undefined ? null : toApiKeyRecord(row);
}

/** `Store.listApiKeys`: every key (revoked included), oldest first, optionally of one account. */
export function listApiKeys(conn: Connection, accountId?: string): ApiKeyRecord[] {
  const rows = (
    accountId === undefined
      ? conn.stmt('SELECT * FROM api_keys ORDER BY created_at, id').all()
      : conn.stmt('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id').all(accountId)
  ) as ApiKeyRow[];
  return rows.map(toApiKeyRecord);
}

/** `Store.revokeApiKey`: true when a live key was revoked now. */
export function revokeApiKey(conn: Connection, id: string, now: number): boolean {
  return (
    conn.stmt('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes >
    0
  );
}

/** `Store.countApiKeys`: live (not revoked) keys. */
export function countApiKeys(conn: Connection): number {
  return (conn.stmt('SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL').get() as { n: number }).n;
}

/** Bytes of the account's unexpired temp uploads at `now`. */
function tempUploadBytes(conn: Connection, accountId: string, now: number): number {
  return (
    conn
      .stmt(
        `SELECT COALESCE(SUM(MAX(length(content), ${TEMP_UPLOAD_MIN_CHARGE})), 0) AS n FROM temp_uploads WHERE account_id = ? AND expires_at > ?`,
      )
      .get(accountId, now) as { n: number }
  ).n;
}

/**
 * Bytes of the files of the account's live skills (`.overview.md` not counted), leaving out the skill
 * `except` (the one a write replaces): the account's total kept in `account_usage` (schema version
 * 10) less the files of `except`.
 */
export function storedBytes(
  conn: Connection,
  accountId: string,
  except?: { rootUri: string; name: string },
): number {
  const total =
    (
      conn.stmt('SELECT stored_bytes AS n FROM account_usage WHERE account_id = ?').get(accountId) as
        | { n: number }
        | undefined
    )?.n ?? 0;
  if (except === undefined) return total;
  const replaced = (
    conn
      .stmt(
        `SELECT COALESCE(SUM(f.size), 0) AS n FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
         WHERE s.account_id = ? AND s.root_uri = ? AND s.name = ? AND f.path <> '.overview.md'`,
      )
      .get(accountId, except.rootUri, except.name) as { n: number }
  ).n;
  return total - replaced;
}

/** Live skills of the account, in all its roots (from the per-root counts kept by triggers). */
export function skillCount(conn: Connection, accountId: string): number {
  return (
    conn.stmt('SELECT COALESCE(SUM(n), 0) AS n FROM skill_counts WHERE account_id = ?').get(accountId) as {
      n: number;
    }
  ).n;
}

/** `Store.accountUsage`. */
export function accountUsage(conn: Connection, accountId: string, now: number): AccountUsage {
  return {
    storedBytes: storedBytes(conn, accountId),
    tempUploadBytes: tempUploadBytes(conn, accountId, now),
    skills: skillCount(conn, accountId),
  };
}

/**
 * `Store.putTempUpload` (inside one IMMEDIATE transaction, so the quota check and the insert see no
 * other writer): returns an unguessable id (`tmp_` + 32 hex), never a path.
 */
export function putTempUpload(
  conn: Connection,
  upload: Omit<TempUploadRecord, 'id'>,
  now: number,
  quota?: TempUploadQuota,
): string {
  if (hasTempUploadQuota(quota)) {
    checkTempUploadQuota(
      quota,
      tempUploadBytes(conn, upload.accountId, quota.now),
      upload.content.byteLength,
    );
  }
  const id = newTempUploadId();
  conn
    .stmt(
      'INSERT INTO temp_uploads (id, account_id, filename, content, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    .run(id, upload.accountId, upload.filename, uploadContent(upload), upload.expiresAt, now);
  return id;
}

/** `Store.getTempUpload`: the upload of that account, unless expired; not consumed. */
export function getTempUpload(
  conn: Connection,
  accountId: string,
  id: string,
  now: number,
): TempUploadRecord | null {
  const row = conn.stmt('SELECT * FROM temp_uploads WHERE id = ? AND account_id = ?').get(id, accountId) as
    | TempUploadRow
    | undefined;
  return liveTempUpload(row, now);
}

/**
 * Deletes the temp upload a skill write was read from, inside that write's transaction.
 * @throws SkillportError `NOT_FOUND` when it is gone (a concurrent write used it, or it was purged)
 */
export function consumeTempUploadTx(conn: Connection, accountId: string, id: string): void {
  const { changes } = conn
    .stmt('DELETE FROM temp_uploads WHERE id = ? AND account_id = ?')
    .run(id, accountId);
  if (changes === 0) throw tempUploadGone(id);
}

/**
 * `Store.takeTempUpload` (inside one transaction): returns and deletes the upload. An upload of another
 * account is neither returned nor consumed; an expired one is deleted and not returned.
 */
export function takeTempUploadTx(
  conn: Connection,
  accountId: string,
  id: string,
  now: number,
): TempUploadRecord | null {
  const row = conn.stmt('SELECT * FROM temp_uploads WHERE id = ? AND account_id = ?').get(id, accountId) as
    | TempUploadRow
    | undefined;
  if (row === undefined) return null;
  conn.stmt('DELETE FROM temp_uploads WHERE id = ?').run(id);
  return liveTempUpload(row, now);
}

/** `Store.releaseTempUpload`: deletes the account's upload; true when it had not expired. */
export function releaseTempUpload(conn: Connection, accountId: string, id: string, now: number): boolean {
  const { changes } = conn
    .stmt('DELETE FROM temp_uploads WHERE id = ? AND account_id = ? AND expires_at > ?')
    .run(id, accountId, now);
  return changes > 0;
}

/** `Store.purgeExpiredUploads`: deletes uploads whose expiry has passed; returns how many. */
export function purgeExpiredUploads(conn: Connection, now: number): number {
  return conn.stmt('DELETE FROM temp_uploads WHERE expires_at <= ?').run(now).changes;
}
