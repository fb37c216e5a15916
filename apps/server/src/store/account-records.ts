/**
 * What the SQLite and PostgreSQL account operations share whatever the engine: the ids they mint,
 * the temp upload row and its record, and the temp upload quota check. Each engine keeps only its
 * statements (see `sqlite/account-ops.ts`, `postgres/account-ops.ts`).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { TempUploadQuota, TempUploadRecord } from './types.js';
import { checkQuota, tempUploadCharge } from './write-checks.js';

/** A fresh API key id: `key_` + a random UUID (the key itself is never stored, only its hash). */
export function newApiKeyId(): string {
  return `key_${randomUUID()}`;
}

/** A fresh temp upload id: `tmp_` + 32 hex characters (128 random bits), unguessable; never a path. */
export function newTempUploadId(): string {
  return `tmp_${randomBytes(16).toString('hex')}`;
}

/** A `temp_uploads` row as both engines read it. */
export interface TempUploadRow {
  id: string;
  account_id: string;
  filename: string;
  content: Buffer;
  expires_at: number;
}

/** The row as a record, or null when there is none or it has expired at `now` (ms). */
export function liveTempUpload(row: TempUploadRow | undefined, now: number): TempUploadRecord | null {
  if (row === undefined || row.expires_at <= now) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    filename: row.filename,
    content: new Uint8Array(row.content.buffer, row.content.byteOffset, row.content.byteLength),
    expiresAt: row.expires_at,
  };
}

/** The upload's bytes as a `Buffer` over the same memory (no copy), as the drivers bind a blob. */
export function uploadContent(upload: Pick<TempUploadRecord, 'content'>): Buffer {
  return Buffer.from(upload.content.buffer, upload.content.byteOffset, upload.content.byteLength);
}

/**
 * Whether a temp upload write must check the account's temp upload quota (one is given, not 0).
 * When true, the engine reads the bytes used and calls {@link checkTempUploadQuota}.
 */
export function hasTempUploadQuota(quota: TempUploadQuota | undefined): quota is TempUploadQuota {
  return quota !== undefined && quota.quotaBytes > 0;
}

/**
 * @param used - bytes of the account's unexpired temp uploads at `quota.now`
 * @param size - bytes of the new upload
 * @throws SkillportError `RESOURCE_EXHAUSTED` (507, `reason: temp_upload_quota`) when it does not fit
 */
export function checkTempUploadQuota(quota: TempUploadQuota, used: number, size: number): void {
  checkQuota('temp_upload_quota', quota.quotaBytes, used, tempUploadCharge(size));
}
