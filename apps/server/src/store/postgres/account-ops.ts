import type pg from 'pg';
import {
  checkTempUploadQuota,
  hasTempUploadQuota,
  liveTempUpload,
  newApiKeyId,
  newTempUploadId,
  type TempUploadRow,
  uploadContent,
} from '../account-records.js';
import { type ApiKeyRow, toApiKeyRecord } from '../sqlite/rows.js';
import type { AccountUsage, ApiKeyRecord, TempUploadQuota, TempUploadRecord } from '../types.js';
import { TEMP_UPLOAD_MIN_CHARGE } from '../write-checks.js';

type Queryable = pg.Pool | pg.ClientBase;

/** `Store.ensureAccount`. */
export async function ensureAccount(db: Queryable, accountId: string, now: number): Promise<void> {
  await db.query('INSERT INTO accounts (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
    accountId,
    now,
  ]);
}

/** `Store.ensureUser` (creates the account too), in one statement. */
export async function ensureUser(
  db: Queryable,
  accountId: string,
  userId: string,
  now: number,
): Promise<void> {
  await db.query(
    `WITH a AS (INSERT INTO accounts (id, created_at) VALUES ($1, $3) ON CONFLICT (id) DO NOTHING)
     INSERT INTO users (account_id, id, created_at) VALUES ($1, $2, $3) ON CONFLICT (account_id, id) DO NOTHING`,
    [accountId, userId, now],
  );
}

/** `Store.listAccounts`, sorted. */
export async function listAccounts(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM accounts ORDER BY id');
  return rows.map((r) => r.id);
}

/** `Store.listUsers`, sorted. */
export async function listUsers(db: Queryable, accountId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users WHERE account_id = $1 ORDER BY id', [
    accountId,
  ]);
  return rows.map((r) => r.id);
}

/** `Store.createApiKey`: stores the hash (never the key) with a fresh id. */
export async function createApiKey(
  db: Queryable,
  record: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt'> & { hash: string },
  now: number,
): Promise<ApiKeyRecord> {
  const { rows } = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (id, account_id, user_id, role, hash, prefix, created_at, revoked_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, NULL) RETURNING *`,
    [newApiKeyId(), record.accountId, record.userId, record.role, record.hash, record.prefix, now],
  );
  return toApiKeyRecord(rows[0] as ApiKeyRow);
}

/** `Store.findApiKeyByHash`: the live key with that hash; revoked keys are never returned. */
export async function findApiKeyByHash(db: Queryable, hash: string): Promise<ApiKeyRecord | null> {
  const { rows } = await db.query<ApiKeyRow>(
    'SELECT * FROM api_keys WHERE hash = $1 AND revoked_at IS NULL',
    [hash],
  );
  return rows[0] === undefined ? null : toApiKeyRecord(rows[0]);
}

/** `Store.listApiKeys`: every key (revoked included), oldest first, optionally of one account. */
export async function listApiKeys(db: Queryable, accountId?: string): Promise<ApiKeyRecord[]> {
  const { rows } =
    accountId === undefined
      ? await db.query<ApiKeyRow>('SELECT * FROM api_keys ORDER BY created_at, id')
      : await db.query<ApiKeyRow>('SELECT * FROM api_keys WHERE account_id = $1 ORDER BY created_at, id', [
          accountId,
        ]);
  return rows.map(toApiKeyRecord);
}

/** `Store.revokeApiKey`: true when a live key was revoked now. */
export async function revokeApiKey(db: Queryable, id: string, now: number): Promise<boolean> {
  const result = await db.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [
    now,
    id,
  ]);
  return (result.rowCount ?? 0) > 0;
}

/** `Store.countApiKeys`: live (not revoked) keys. */
export async function countApiKeys(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*) AS n FROM api_keys WHERE revoked_at IS NULL',
  );
  return rows[0]?.n ?? 0;
}

/**
 * Serialises, until the transaction ends, the quota checks of one account (`kind`: which quota), so
 * two concurrent writes cannot both pass a quota that only one fits.
 */
export async function lockAccountQuota(
  client: pg.ClientBase,
  kind: string,
  accountId: string,
): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
    `skillport.${kind}:${accountId}`,
  ]);
}

/** Bytes of the account's unexpired temp uploads at `now`. */
async function tempUploadBytes(db: Queryable, accountId: string, now: number): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT COALESCE(SUM(GREATEST(octet_length(content), ${TEMP_UPLOAD_MIN_CHARGE})), 0)::text AS n FROM temp_uploads WHERE account_id = $1 AND expires_at > $2`,
    [accountId, now],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * SQL expressions of an account's totals (`$1` account; `$2`, `$3` root and name of the skill left
 * out): `bytes`, its stored bytes (files of its live skills, `.overview.md` not counted: the total kept
 * in `account_usage`, schema version 5, the sum of the account's rows) less the files of that skill
 * (the one a write replaces), and `skills`, its live skills in all roots (the sum of its
 * `skill_root_counts` rows). Both are decimal text.
 */
export const ACCOUNT_TOTALS_COLUMNS = `(COALESCE((SELECT SUM(stored_bytes) FROM account_usage WHERE account_id = $1), 0)
       - COALESCE((SELECT SUM(f.size) FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
           WHERE s.account_id = $1 AND s.root_uri = $2 AND s.name = $3 AND f.path <> '.overview.md'), 0))::text AS bytes,
       (SELECT COALESCE(SUM(n), 0) FROM skill_root_counts WHERE account_id = $1)::text AS skills`;

/**
 * The account's stored bytes less the files of the skill `except`, and its live skills in all roots
 * (see {@link ACCOUNT_TOTALS_COLUMNS}), in one statement (what a skill write checks before and again
 * after it has written; see `putSkillTx`). A named statement: parsed and planned once per connection.
 */
export async function accountTotals(
  db: Queryable,
  accountId: string,
  except?: { rootUri: string; name: string },
): Promise<{ storedBytes: number; skills: number }> {
  const { rows } = await db.query<{ bytes: string; skills: string }>({
    name: 'skillport-account-totals',
    text: `SELECT ${ACCOUNT_TOTALS_COLUMNS}`,
    values: [accountId, except?.rootUri ?? '', except?.name ?? ''],
  });
  return { storedBytes: Number(rows[0]?.bytes ?? 0), skills: Number(rows[0]?.skills ?? 0) };
}

/** `Store.accountUsage`. */
export async function accountUsage(db: Queryable, accountId: string, now: number): Promise<AccountUsage> {
  const totals = await accountTotals(db, accountId);
  return {
    storedBytes: totals.storedBytes,
    tempUploadBytes: await tempUploadBytes(db, accountId, now),
    skills: totals.skills,
  };
}

/**
 * `Store.putTempUpload`: the upload is a row (`bytea`), so any replica can take it; returns an
 * unguessable id (`tmp_` + 32 hex), never a path. With a quota, `client` is in a transaction: the
 * account's quota lock is held from the check to the commit.
 */
export async function putTempUpload(
  db: Queryable,
  upload: Omit<TempUploadRecord, 'id'>,
  now: number,
  quota?: TempUploadQuota,
): Promise<string> {
  if (hasTempUploadQuota(quota)) {
    await lockAccountQuota(db as pg.ClientBase, 'temp_upload_quota', upload.accountId);
    const used = await tempUploadBytes(db, upload.accountId, quota.now);
    checkTempUploadQuota(quota, used, upload.content.byteLength);
  }
  const id = newTempUploadId();
  await db.query(
    'INSERT INTO temp_uploads (id, account_id, filename, content, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
    [id, upload.accountId, upload.filename, uploadContent(upload), upload.expiresAt, now],
  );
  return id;
}

/** `Store.getTempUpload`: the upload of that account, unless expired; not consumed. */
export async function getTempUpload(
  db: Queryable,
  accountId: string,
  id: string,
  now: number,
): Promise<TempUploadRecord | null> {
  // PostgreSQL text cannot hold NUL (the query would fail); no id has one.
  if (id.includes('\u0000')) return null;
  const { rows } = await db.query<TempUploadRow>(
    'SELECT id, account_id, filename, content, expires_at FROM temp_uploads WHERE id = $1 AND account_id = $2',
    [id, accountId],
  );
  return liveTempUpload(rows[0], now);
}

/**
 * `Store.takeTempUpload`: returns and deletes the upload in one statement, so two replicas taking the
 * same id concurrently never both get it. An upload of another account is neither returned nor
 * consumed; an expired one is deleted and not returned.
 */
export async function takeTempUpload(
  db: Queryable,
  accountId: string,
  id: string,
  now: number,
): Promise<TempUploadRecord | null> {
  if (id.includes('\u0000')) return null;
  const { rows } = await db.query<TempUploadRow>(
    'DELETE FROM temp_uploads WHERE id = $1 AND account_id = $2 RETURNING id, account_id, filename, content, expires_at',
    [id, accountId],
  );
  return liveTempUpload(rows[0], now);
}

/** `Store.releaseTempUpload`: deletes the account's upload in one statement; true when it had not expired. */
export async function releaseTempUpload(
  db: Queryable,
  accountId: string,
  id: string,
  now: number,
): Promise<boolean> {
  if (id.includes('\u0000')) return false;
  const result = await db.query(
    'DELETE FROM temp_uploads WHERE id = $1 AND account_id = $2 AND expires_at > $3',
    [id, accountId, now],
  );
  return (result.rowCount ?? 0) > 0;
}

/** `Store.purgeExpiredUploads`: deletes uploads whose expiry has passed; returns how many. */
export async function purgeExpiredUploads(db: Queryable, now: number): Promise<number> {
  const result = await db.query('DELETE FROM temp_uploads WHERE expires_at <= $1', [now]);
  return result.rowCount ?? 0;
}
