import type pg from 'pg';
import { OVERVIEW_SHA_COLUMN, STAMP_COLUMNS, type StampedColumns, skillStamp } from '../skill-stamp.js';
import { type RevisionRow, type SkillRow, toRevisionRecord, toSkillRecord } from '../sqlite/rows.js';
import type {
  SkillFileKind,
  SkillRecord,
  SkillRevisionRecord,
  SkillRevisionState,
  SkillView,
  SkillViewOptions,
  StoredFile,
} from '../types.js';
import { SKILL_COLUMNS } from './skill-writes.js';

type Queryable = pg.Pool | pg.ClientBase;

interface FileRow {
  path: string;
  kind: string;
  size: number;
  sha256: string;
  executable: boolean;
  content?: Buffer;
}

function bytes(buffer: Buffer): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

function toStoredFile(row: FileRow): StoredFile {
  const file: StoredFile = {
    path: row.path,
    kind: row.kind as SkillFileKind,
    size: row.size,
    sha256: row.sha256,
  };
  if (row.executable) file.executable = true;
  if (row.content !== undefined) file.content = bytes(row.content);
  return file;
}

/** `Store.getSkill`. */
export async function getSkill(
  db: Queryable,
  accountId: string,
  rootUri: string,
  name: string,
): Promise<SkillRecord | null> {
  const { rows } = await db.query<SkillRow>(
    `SELECT ${SKILL_COLUMNS} FROM skills WHERE account_id = $1 AND root_uri = $2 AND name = $3`,
    [accountId, rootUri, name],
  );
  return rows[0] === undefined ? null : toSkillRecord(rows[0]);
}

/** `Store.getSkillById`. */
export async function getSkillById(db: Queryable, skillId: string): Promise<SkillRecord | null> {
  const { rows } = await db.query<SkillRow>(`SELECT ${SKILL_COLUMNS} FROM skills WHERE id = $1`, [skillId]);
  return rows[0] === undefined ? null : toSkillRecord(rows[0]);
}

/** Every column but `body` (left `''`). */
const WITHOUT_BODY = `seq, id, account_id, root_uri, name, description, tags, allowed_tools, source_metadata, revision,
  overview_revision, created_at, updated_at, frontmatter, overview, '' AS body`;

/** What a listing shows: no frontmatter, overview, source or body. */
const SUMMARY = `seq, id, account_id, root_uri, name, description, tags, allowed_tools, NULL AS source_metadata,
  revision, overview_revision, created_at, updated_at, '{}' AS frontmatter, NULL AS overview, '' AS body`;

/**
 * `Store.listSkills`: by name (code-point order, the `C` collation), at most `limit`, after `after`
 * when given (keyset pagination: an index range scan wherever the page starts), with the root's total
 * (the sum of its rows of `skill_root_counts`, PostgreSQL migration 8, not a count of its skills) —
 * one statement, so the page and the total come from the same snapshot.
 */
export async function listSkills(
  db: Queryable,
  accountId: string,
  rootUri: string,
  limit: number,
  fields: 'all' | 'without-body' | 'summary',
  after: string | null = null,
): Promise<{ skills: SkillRecord[]; total: number }> {
  const max = Math.max(0, Math.floor(limit));
  const columns = fields === 'all' ? SKILL_COLUMNS : fields === 'summary' ? SUMMARY : WITHOUT_BODY;
  const { rows } = await db.query<SkillRow & { total: number; seq: number | null }>(
    `WITH t AS (SELECT coalesce(sum(n), 0)::bigint AS total FROM skill_root_counts
       WHERE account_id = $1 AND root_uri = $2)
     SELECT t.total, s.* FROM t LEFT JOIN LATERAL (
       SELECT ${columns} FROM skills WHERE account_id = $1 AND root_uri = $2 AND ($4::text IS NULL OR name > $4)
       ORDER BY name LIMIT $3
     ) s ON true`,
    [accountId, rootUri, max, after],
  );
  const total = rows[0]?.total ?? 0;
  const skills = rows.filter((row) => row.seq !== null).map((row) => toSkillRecord(row));
  return { skills, total };
}

/**
 * `Store.skillsVersion` on PostgreSQL: the latest change-feed position of each root (adds,
 * replacements and deletions all move it; index-only, cheap to poll).
 */
export async function skillsVersion(
  db: Queryable,
  accountId: string,
  rootUris: readonly string[],
): Promise<string> {
  const { rows } = await db.query<{ v: string }>(
    `SELECT coalesce((SELECT max(seq) FROM skill_changes WHERE account_id = $1 AND root_uri = r.root), 0)::text AS v
     FROM unnest($2::text[]) WITH ORDINALITY AS r(root, i) ORDER BY r.i`,
    [accountId, [...rootUris]],
  );
  return rows.map((row) => row.v).join('|');
}

/** `Store.listFiles`: the live files of a skill by path (empty when the skill does not exist). */
export async function listFiles(db: Queryable, skillId: string, withContent: boolean): Promise<StoredFile[]> {
  const sql = withContent
    ? `SELECT f.path, f.kind, f.size, f.sha256, f.executable, b.content FROM skill_files f
         JOIN skills s ON s.seq = f.skill_seq JOIN blobs b ON b.sha256 = f.sha256
       WHERE s.id = $1 ORDER BY f.path`
    : `SELECT f.path, f.kind, f.size, f.sha256, f.executable FROM skill_files f JOIN skills s ON s.seq = f.skill_seq
       WHERE s.id = $1 ORDER BY f.path`;
  const { rows } = await db.query<FileRow>(sql, [skillId]);
  return rows.map(toStoredFile);
}

/** `Store.readFile`: one live file with its content, or null. */
export async function readFile(db: Queryable, skillId: string, path: string): Promise<StoredFile | null> {
  const { rows } = await db.query<FileRow>(
    `SELECT f.path, f.kind, f.size, f.sha256, f.executable, b.content FROM skill_files f
       JOIN skills s ON s.seq = f.skill_seq JOIN blobs b ON b.sha256 = f.sha256
     WHERE s.id = $1 AND f.path = $2`,
    [skillId, path],
  );
  return rows[0] === undefined ? null : toStoredFile(rows[0]);
}

/** `Store.listRevisions`: every version of a named skill, newest first. */
export async function listRevisions(
  db: Queryable,
  accountId: string,
  rootUri: string,
  name: string,
): Promise<SkillRevisionRecord[]> {
  const { rows } = await db.query<RevisionRow>(
    `SELECT seq, skill_id, revision, manifest, created_at, created_by, superseded_at FROM skill_revisions
     WHERE account_id = $1 AND root_uri = $2 AND name = $3 ORDER BY seq DESC`,
    [accountId, rootUri, name],
  );
  return rows.map(toRevisionRecord);
}

/** `Store.readBlobs`: the contents of the named blobs that exist. */
export async function readBlobs(db: Queryable, sha256s: readonly string[]): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const unique = [...new Set(sha256s)];
  if (unique.length === 0) return out;
  const { rows } = await db.query<{ sha256: string; content: Buffer }>(
    'SELECT sha256, content FROM blobs WHERE sha256 = ANY($1::text[])',
    [unique],
  );
  for (const row of rows) out.set(row.sha256, bytes(row.content));
  return out;
}

function bodyColumn(mode: SkillViewOptions['body']): string {
  if (mode === 'always') return 's.body';
  if (mode === 'without-overview') return "CASE WHEN s.overview IS NULL THEN s.body ELSE '' END AS body";
  return "'' AS body";
}

type ViewRow = SkillRow & {
  overview_sha: string | null;
  files_json?: Array<[string, SkillFileKind, number, string, boolean]> | null;
  /** `[path, kind, size, sha256, base64 content]` of the requested files that exist. */
  contents_json: Array<[string, SkillFileKind, number, string, string]> | null;
};

/**
 * `Store.readSkillView` on PostgreSQL: one statement — the skill from the first root (in `rootUris`
 * order) that holds `name`, the requested file contents and, when asked, the file list.
 */
export async function readSkillView(
  db: Queryable,
  accountId: string,
  rootUris: readonly string[],
  name: string,
  options: SkillViewOptions,
): Promise<SkillView | null> {
  return (await readSkillViewStamped(db, accountId, rootUris, name, options))?.view ?? null;
}

/**
 * {@link readSkillView} with the skill's stamp (`skillStamp`) read in the same statement: null while the
 * skill is not settled.
 */
export async function readSkillViewStamped(
  db: Queryable,
  accountId: string,
  rootUris: readonly string[],
  name: string,
  options: SkillViewOptions,
): Promise<{ view: SkillView; stamp: string | null } | null> {
  if (rootUris.length === 0) return null;
  const paths = [...new Set(options.contents)];
  const files = options.listFiles
    ? `, (SELECT coalesce(json_agg(json_build_array(f.path, f.kind, f.size, f.sha256, f.executable) ORDER BY f.path), '[]'::json)
         FROM skill_files f WHERE f.skill_seq = s.seq) AS files_json`
    : '';
  const { rows } = await db.query<ViewRow>(
    `WITH s AS (
       SELECT seq, id, account_id, root_uri, name, description, tags, allowed_tools, source_metadata, revision,
         overview_revision, created_at, updated_at, frontmatter, overview, body
       FROM skills WHERE account_id = $1 AND root_uri = ANY($2::text[]) AND name = $3
       ORDER BY array_position($2::text[], root_uri::text) LIMIT 1)
     SELECT s.seq, s.id, s.account_id, s.root_uri, s.name, s.description, s.tags, s.allowed_tools,
       s.source_metadata, s.revision, s.overview_revision, s.created_at, s.updated_at, s.frontmatter,
       s.overview, ${OVERVIEW_SHA_COLUMN}, ${bodyColumn(options.body)}${files}
       , (SELECT json_agg(json_build_array(f.path, f.kind, f.size, f.sha256, encode(b.content, 'base64')))
          FROM skill_files f JOIN blobs b ON b.sha256 = f.sha256
          WHERE f.skill_seq = s.seq AND f.path = ANY($4::text[])) AS contents_json
     FROM s`,
    [accountId, rootUris, name, paths],
  );
  const row = rows[0];
  if (row === undefined) return null;
  // Contents travel as base64 inside JSON: decoded natively (a bytea[] array would be parsed character
  // by character in JavaScript, ~100 ms for a 1 MiB file).
  const contents = new Map<string, StoredFile>();
  for (const [path, kind, size, sha256, base64] of row.contents_json ?? []) {
    contents.set(path, { path, kind, size, sha256, content: bytes(Buffer.from(base64, 'base64')) });
  }
  const list = options.listFiles
    ? (row.files_json ?? []).map(
        ([path, kind, size, sha256, executable]): StoredFile =>
          executable ? { path, kind, size, sha256, executable: true } : { path, kind, size, sha256 },
      )
    : null;
  const skill = toSkillRecord(row);
  const stamp = row.overview !== null ? skillStamp(row, row.overview_sha) : null;
  return { view: { skill, contents, files: list }, stamp };
}

/**
 * `Store.readSkillRevision` on PostgreSQL: the revision, settled state and stamp of `name` in the first
 * root (in `rootUris` order) holding it — one statement over the unique `(account_id, root_uri, name)`
 * index (and the overview's `skill_files` row), reading neither the body, the overview nor any content.
 */
export async function readSkillRevision(
  db: Queryable,
  accountId: string,
  rootUris: readonly string[],
  name: string,
): Promise<SkillRevisionState | null> {
  if (rootUris.length === 0) return null;
  const { rows } = await db.query<StampedColumns & { settled: boolean; overview_sha: string | null }>(
    `SELECT ${STAMP_COLUMNS}, s.overview IS NOT NULL AS settled, ${OVERVIEW_SHA_COLUMN}
     FROM skills s
     WHERE s.account_id = $1 AND s.root_uri = ANY($2::text[]) AND s.name = $3
     ORDER BY array_position($2::text[], s.root_uri::text) LIMIT 1`,
    [accountId, rootUris, name],
  );
  const row = rows[0];
  if (row === undefined) return null;
  return {
    revision: row.revision,
    settled: row.settled,
    stamp: row.settled ? skillStamp(row, row.overview_sha) : null,
  };
}
