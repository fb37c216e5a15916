/**
 * The database archive of `skillport db export|import` (format `skillport-db-archive`, version 1):
 * a gzip-compressed JSON Lines file, one record per line, in this order:
 *
 * | line | `type` | what |
 * |---|---|---|
 * | 1 | `header` | `format`, `version`, `created_at` (ISO 8601), `server_version`, `source_engine` |
 * | … | `account` | every account (`id`, `created_at`) |
 * | … | `user` | every user (`account_id`, `id`, `created_at`) |
 * | … | `api_key` | every API key: its sha-256 `hash` (never the key), role, prefix, times |
 * | … | `blob` | every stored file content once, content-addressed: `sha256`, `size`, `content` (base64) |
 * | … | `skill` | every live skill: metadata, `revision`, `overview`, times, and `files` (its manifest, `.overview.md` included) |
 * | … | `revision` | the kept history of every skill, oldest first: `manifest`, `created_at`, `created_by` (optional: null or absent when unknown), `superseded_at` |
 * | … | `task` | processing jobs kept by the task retention (`running` ones exported as `pending`) |
 * | … | `temp_upload` | unexpired temporary uploads (`content` base64) |
 * | last | `end` | the number of records of each type, so a cut-off file is refused |
 *
 * Times are epoch milliseconds (integers) unless named otherwise; ids, revisions and sha-256s are
 * carried over unchanged, so an archive imported into another store (SQLite ↔ PostgreSQL) and exported
 * again gives the same records. Readers refuse a `version` they do not know.
 */
import { z } from 'zod';
import { ARCHIVE_RECORD_TYPES, type ArchiveRecordType } from './archive-counts.js';

export {
  ARCHIVE_RECORD_TYPES,
  type ArchiveCounts,
  type ArchiveRecordType,
  emptyCounts,
} from './archive-counts.js';

/** Value of the header's `format`. */
export const ARCHIVE_FORMAT = 'skillport-db-archive';
/** The archive version this build writes and reads. */
export const ARCHIVE_VERSION = 1;

const epochMs = z.number().int().nonnegative();
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'a lowercase hex sha-256');
const fileKind = z.enum(['definition', 'summary', 'auxiliary']);
/**
 * A file of a skill or revision. `executable` is written only when true (absent in archives written
 * before executable files were recorded: not executable); read as given, kept only when true.
 */
const manifestEntry = z
  .object({
    path: z.string().min(1),
    kind: fileKind,
    size: z.number().int().nonnegative(),
    sha256,
    executable: z.boolean().optional(),
  })
  .transform(({ executable, ...file }) =>
    executable === true ? { ...file, executable: true as const } : file,
  );
const base64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64');

export const HeaderRecordSchema = z.object({
  type: z.literal('header'),
  format: z.literal(ARCHIVE_FORMAT),
  version: z.number().int(),
  created_at: z.string(),
  server_version: z.string(),
  source_engine: z.string(),
});
export const AccountRecordSchema = z.object({
  type: z.literal('account'),
  id: z.string().min(1),
  created_at: epochMs,
});
export const UserRecordSchema = z.object({
  type: z.literal('user'),
  account_id: z.string().min(1),
  id: z.string().min(1),
  created_at: epochMs,
});
export const ApiKeyRecordSchema = z.object({
  type: z.literal('api_key'),
  id: z.string().min(1),
  account_id: z.string().min(1),
  user_id: z.string().min(1),
  role: z.enum(['root', 'admin', 'user']),
  hash: z.string().min(1),
  prefix: z.string(),
  created_at: epochMs,
  revoked_at: epochMs.nullable(),
});
export const BlobRecordSchema = z.object({
  type: z.literal('blob'),
  sha256,
  size: z.number().int().nonnegative(),
  content: base64,
});
export const SkillRecordSchema = z.object({
  type: z.literal('skill'),
  id: z.string().min(1),
  account_id: z.string().min(1),
  root_uri: z.string().min(1),
  name: z.string().min(1),
  description: z.string(),
  tags: z.array(z.string()),
  allowed_tools: z.array(z.string()),
  frontmatter: z.record(z.string(), z.unknown()),
  body: z.string(),
  source_metadata: z.record(z.string(), z.unknown()).nullable(),
  revision: sha256,
  overview: z.string().nullable(),
  overview_revision: sha256.nullable(),
  created_at: epochMs,
  updated_at: epochMs,
  files: z.array(manifestEntry).min(1),
});
export const RevisionRecordSchema = z.object({
  type: z.literal('revision'),
  skill_id: z.string().min(1),
  account_id: z.string().min(1),
  root_uri: z.string().min(1),
  name: z.string().min(1),
  revision: sha256,
  manifest: z.array(manifestEntry),
  created_at: epochMs,
  /** The user whose write made the revision; absent in archives written before it was recorded. */
  created_by: z.string().nullable().optional(),
  superseded_at: epochMs.nullable(),
});
export const TaskRecordSchema = z.object({
  type: z.literal('task'),
  id: z.string().min(1),
  account_id: z.string().min(1),
  user_id: z.string().min(1),
  task_type: z.enum(['add_skill', 'update_skill']),
  status: z.enum(['pending', 'completed', 'failed', 'cancelled']),
  skill_id: z.string().min(1),
  revision: z.string(),
  attempts: z.number().int().nonnegative(),
  run_at: epochMs,
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  created_at: epochMs,
  updated_at: epochMs,
});
export const TempUploadRecordSchema = z.object({
  type: z.literal('temp_upload'),
  id: z.string().min(1),
  account_id: z.string().min(1),
  filename: z.string(),
  content: base64,
  expires_at: epochMs,
  created_at: epochMs,
});

export const EndRecordSchema = z.object({
  type: z.literal('end'),
  counts: z.object(
    Object.fromEntries(ARCHIVE_RECORD_TYPES.map((t) => [t, z.number().int().nonnegative()])) as Record<
      ArchiveRecordType,
      z.ZodNumber
    >,
  ),
});

export const DataRecordSchema = z.discriminatedUnion('type', [
  AccountRecordSchema,
  UserRecordSchema,
  ApiKeyRecordSchema,
  BlobRecordSchema,
  SkillRecordSchema,
  RevisionRecordSchema,
  TaskRecordSchema,
  TempUploadRecordSchema,
]);

export type HeaderRecord = z.infer<typeof HeaderRecordSchema>;
export type AccountRecord = z.infer<typeof AccountRecordSchema>;
export type UserRecord = z.infer<typeof UserRecordSchema>;
export type ApiKeyArchiveRecord = z.infer<typeof ApiKeyRecordSchema>;
export type BlobRecord = z.infer<typeof BlobRecordSchema>;
export type SkillArchiveRecord = z.infer<typeof SkillRecordSchema>;
export type RevisionRecord = z.infer<typeof RevisionRecordSchema>;
export type TaskArchiveRecord = z.infer<typeof TaskRecordSchema>;
export type TempUploadArchiveRecord = z.infer<typeof TempUploadRecordSchema>;
export type EndRecord = z.infer<typeof EndRecordSchema>;
/** One data record of an archive (everything but `header` and `end`). */
export type DataRecord = z.infer<typeof DataRecordSchema>;
