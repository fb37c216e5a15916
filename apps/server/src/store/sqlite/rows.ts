import type {
  ApiKeyRecord,
  Role,
  SearchHitSkill,
  SkillFileKind,
  SkillRecord,
  SkillRevisionRecord,
  TaskRecord,
  TaskStatus,
  TaskType,
} from '../types.js';

/** A `skills` row as SQLite returns it. */
export interface SkillRow {
  seq: number;
  id: string;
  account_id: string;
  root_uri: string;
  name: string;
  description: string;
  tags: string;
  allowed_tools: string;
  frontmatter: string;
  body: string;
  source_metadata: string | null;
  revision: string;
  overview: string | null;
  overview_revision: string | null;
  created_at: number;
  updated_at: number;
}

/** A `tasks` row. */
export interface TaskRow {
  seq: number;
  id: string;
  account_id: string;
  user_id: string;
  type: string;
  status: string;
  skill_id: string;
  revision: string;
  attempts: number;
  run_at: number;
  started_at: number | null;
  result: string | null;
  error: string | null;
  created_at: number;
  updated_at: number;
  lease_owner: string | null;
  lease_token: string | null;
  lease_expires_at: number | null;
}

/** An `api_keys` row. */
export interface ApiKeyRow {
  id: string;
  account_id: string;
  user_id: string;
  role: string;
  hash: string;
  prefix: string;
  created_at: number;
  revoked_at: number | null;
}

/** A `skill_revisions` row. */
export interface RevisionRow {
  seq: number;
  skill_id: string;
  revision: string;
  manifest: string;
  created_at: number;
  created_by: string | null;
  superseded_at: number | null;
}

/**
 * A manifest entry as kept in `skill_revisions.manifest` (JSON). `executable` is written only when
 * true, so a manifest without executable files reads as it did before they were recorded.
 */
export interface ManifestFile {
  path: string;
  kind: SkillFileKind;
  size: number;
  sha256: string;
  executable?: true;
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  return JSON.parse(text) as T;
}

/** The columns of a `skills` row a search hit is made from (see {@link toSearchSource}). */
export const SEARCH_HIT_COLUMNS =
  'seq, name, root_uri, description, tags, allowed_tools, revision, updated_at';

/** A `skills` row read with {@link SEARCH_HIT_COLUMNS}. */
export type SearchHitRow = Pick<
  SkillRow,
  'seq' | 'name' | 'root_uri' | 'description' | 'tags' | 'allowed_tools' | 'revision' | 'updated_at'
>;

/** Maps a row of {@link SEARCH_HIT_COLUMNS} to the skill fields `toSearchHit` needs. */
export function toSearchSource(row: SearchHitRow): SearchHitSkill {
  return {
    name: row.name,
    rootUri: row.root_uri,
    description: row.description,
    tags: parseJson<string[]>(row.tags, []),
    allowedTools: parseJson<string[]>(row.allowed_tools, []),
    revision: row.revision,
    updatedAt: row.updated_at,
  };
}

/** Maps a `skills` row to the store's record. */
export function toSkillRecord(row: SkillRow): SkillRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    rootUri: row.root_uri,
    name: row.name,
    description: row.description,
    tags: parseJson<string[]>(row.tags, []),
    allowedTools: parseJson<string[]>(row.allowed_tools, []),
    frontmatter: parseJson<Record<string, unknown>>(row.frontmatter, {}),
    body: row.body,
    sourceMetadata: parseJson<Record<string, unknown> | null>(row.source_metadata, null),
    revision: row.revision,
    overview: row.overview,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Maps a `tasks` row to the store's record. */
export function toTaskRecord(row: TaskRow): TaskRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    userId: row.user_id,
    type: row.type as TaskType,
    status: row.status as TaskStatus,
    skillId: row.skill_id,
    revision: row.revision,
    attempts: row.attempts,
    runAt: row.run_at,
    result: parseJson<Record<string, unknown> | null>(row.result, null),
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    leaseOwner: row.status === 'running' ? row.lease_owner : null,
    leaseExpiresAt: row.status === 'running' ? row.lease_expires_at : null,
  };
}

/** Maps an `api_keys` row to the store's record (the hash is never returned). */
export function toApiKeyRecord(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    userId: row.user_id,
    role: row.role as Role,
    prefix: row.prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Maps a `skill_revisions` row to the store's record. */
export function toRevisionRecord(row: RevisionRow): SkillRevisionRecord {
  return {
    skillId: row.skill_id,
    revision: row.revision,
    manifest: parseJson<ManifestFile[]>(row.manifest, []),
    createdAt: row.created_at,
    createdBy: row.created_by,
    supersededAt: row.superseded_at,
  };
}
