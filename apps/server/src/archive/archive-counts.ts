/**
 * Record kinds and counts of the database archive (see `archive-format.ts`), without its zod
 * schemas: the stores' import code counts records with these, and the SQLite store's database
 * thread loads that code, so this module stays free of zod (a thread starts faster without it).
 */

/** Kinds of data records, in archive order. */
export const ARCHIVE_RECORD_TYPES = [
  'account',
  'user',
  'api_key',
  'blob',
  'skill',
  'revision',
  'task',
  'temp_upload',
] as const;
export type ArchiveRecordType = (typeof ARCHIVE_RECORD_TYPES)[number];

/** Records per type, as in the `end` record and the result of an import. */
export type ArchiveCounts = Record<ArchiveRecordType, number>;

/** A zeroed {@link ArchiveCounts}. */
export function emptyCounts(): ArchiveCounts {
  return Object.fromEntries(ARCHIVE_RECORD_TYPES.map((t) => [t, 0])) as ArchiveCounts;
}
