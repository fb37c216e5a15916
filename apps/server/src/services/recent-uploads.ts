/**
 * The small temp uploads this process received lately, kept so that the add or update that uses one
 * (a folder add is an upload followed by an add) does not read its bytes back from the store. The
 * store stays the authority: the write still uses the upload up in its own transaction and fails as
 * before (`NOT_FOUND`) when it is gone — used by another write, expired and purged, or never made
 * through this process (another replica), in which case it is read from the store as always.
 */
import type { TempUploadRecord } from '../store/types.js';

/** Uploads larger than this are not kept (bytes): the common case is a small zipped skill folder. */
export const RECENT_UPLOAD_MAX_BYTES = 256 * 1024;
/** Bytes kept in all, at most; the oldest entries go first. */
export const RECENT_UPLOADS_TOTAL_BYTES = 8 * 1024 * 1024;

/** Recently stored temp uploads of this process, by id (see the module comment). */
export interface RecentUploads {
  /** Keeps a just-stored upload (unless it is larger than {@link RECENT_UPLOAD_MAX_BYTES}). */
  remember(upload: TempUploadRecord): void;
  /**
   * The kept upload with this id when it belongs to `accountId` and has not expired at `now`, removed
   * from the keep (a write uses an upload once); else null — read it from the store.
   */
  take(accountId: string, id: string, now: number): TempUploadRecord | null;
}

/**
 * Creates an empty keep.
 *
 * @param totalBytes - most bytes kept in all (default {@link RECENT_UPLOADS_TOTAL_BYTES}; 0 keeps nothing)
 */
export function createRecentUploads(totalBytes = RECENT_UPLOADS_TOTAL_BYTES): RecentUploads {
  // Insertion order is age order: the first entries are the oldest.
  const entries = new Map<string, TempUploadRecord>();
  let bytes = 0;
  const drop = (id: string): void => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    bytes -= entry.content.byteLength;
  };
  return {
    remember(upload) {
      const size = upload.content.byteLength;
      if (size > RECENT_UPLOAD_MAX_BYTES || size > totalBytes) return;
      drop(upload.id);
      for (const id of entries.keys()) {
        if (bytes + size <= totalBytes) break;
        drop(id);
      }
      entries.set(upload.id, upload);
      bytes += size;
    },
    take(accountId, id, now) {
      const entry = entries.get(id);
      if (entry === undefined) return null;
      drop(id);
      return entry.accountId === accountId && entry.expiresAt > now ? entry : null;
    },
  };
}
