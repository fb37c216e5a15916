import type { SkillFileKind, SkillRecord, SkillRevisionRecord, StoredFile } from '../types.js';
import type { Connection } from './connection.js';
import { type RevisionRow, type SkillRow, toRevisionRecord, toSkillRecord } from './rows.js';

interface FileRow {
  path: string;
  kind: string;
  size: number;
  sha256: string;
  executable: number;
  content?: Buffer;
}

function toStoredFile(row: FileRow): StoredFile {
  const file: StoredFile = {
    path: row.path,
    kind: row.kind as SkillFileKind,
    size: row.size,
    sha256: row.sha256,
  };
  if (row.executable === 1) file.executable = true;
  if (row.content !== undefined) {
    file.content = new Uint8Array(row.content.buffer, row.content.byteOffset, row.content.byteLength);
  }
  return file;
}

/** `Store.getSkill`. */
export function getSkill(
  conn: Connection,
  accountId: string,
  rootUri: string,
  name: string,
): SkillRecord | null {
  const row = conn
    .stmt('SELECT * FROM skills WHERE account_id = ? AND root_uri = ? AND name = ?')
    .get(accountId, rootUri, name) as SkillRow | undefined;
  return row === undefined ? null : toSkillRecord(row);
}

/** `Store.getSkillById`. */
export function getSkillById(conn: Connection, skillId: string): SkillRecord | null {
  const row = conn.stmt('SELECT * FROM skills WHERE id = ?').get(skillId) as SkillRow | undefined;
  return row === undefined ? null : toSkillRecord(row);
}

/** Every column of `skills` but `body` (last in the row, so the body's pages are never read). */
const WITHOUT_BODY = `seq, id, account_id, root_uri, name, description, tags, allowed_tools, source_metadata, revision,
  overview_revision, created_at, updated_at, frontmatter, overview, '' AS body`;

/**
 * The columns a listing shows: no frontmatter, overview, source or body (the large ones). All of them
 * are in the `skills_listing` index (and `seq` is the rowid), so a listing never reads a table row.
 */
const SUMMARY = `seq, id, account_id, root_uri, name, description, tags, allowed_tools, NULL AS source_metadata,
  revision, NULL AS overview_revision, created_at, updated_at, '{}' AS frontmatter, NULL AS overview, '' AS body`;

/** How much of each row {@link listSkills} reads. */
export type ListFields = 'all' | 'without-body' | 'summary';

/**
 * `Store.listSkills`: by name (code-unit order: SQLite's BINARY collation compares UTF-8 bytes, which
 * orders ASCII names as JavaScript does), at most `limit`, after `after` when given, with the total
 * of the root.
 */
export function listSkills(
  conn: Connection,
  accountId: string,
  rootUri: string,
  limit: number,
  fields: ListFields,
  after: string | null = null,
): { skills: SkillRecord[]; total: number } {
  const counted = conn
    .stmt('SELECT n FROM skill_counts WHERE account_id = ? AND root_uri = ?')
    .get(accountId, rootUri) as { n: number } | undefined;
  const max = Math.max(0, Math.floor(limit));
  if (max === 0) return { skills: [], total: counted?.n ?? 0 };
  const columns = fields === 'all' ? '*' : fields === 'summary' ? SUMMARY : WITHOUT_BODY;
  const rows = (
    after === null
      ? conn
          .stmt(`SELECT ${columns} FROM skills WHERE account_id = ? AND root_uri = ? ORDER BY name LIMIT ?`)
          .all(accountId, rootUri, max)
      : conn
          .stmt(
            `SELECT ${columns} FROM skills WHERE account_id = ? AND root_uri = ? AND name > ? ORDER BY name LIMIT ?`,
          )
          .all(accountId, rootUri, after, max)
  ) as SkillRow[];
  return { skills: rows.map(toSkillRecord), total: counted?.n ?? 0 };
}

/** `Store.skillsVersion`: `<count>:<latest updated_at>` per root, joined by `|`. */
export function skillsVersion(conn: Connection, accountId: string, rootUris: readonly string[]): string {
  const statement = conn.stmt(
    'SELECT count(*) AS n, coalesce(max(updated_at), 0) AS t FROM skills WHERE account_id = ? AND root_uri = ?',
  );
  return rootUris
    .map((rootUri) => {
      const row = statement.get(accountId, rootUri) as { n: number; t: number };
      return `${row.n}:${row.t}`;
    })
    .join('|');
}

/** `Store.listFiles`: the live files of a skill by path (empty when the skill does not exist). */
export function listFiles(conn: Connection, skillId: string, withContent: boolean): StoredFile[] {
  const sql = withContent
    ? `SELECT f.path, f.kind, f.size, f.sha256, f.executable, b.content FROM skill_files f
         JOIN skills s ON s.seq = f.skill_seq JOIN blobs b ON b.sha256 = f.sha256
       WHERE s.id = ? ORDER BY f.path`
    : `SELECT f.path, f.kind, f.size, f.sha256, f.executable FROM skill_files f JOIN skills s ON s.seq = f.skill_seq
       WHERE s.id = ? ORDER BY f.path`;
  return (conn.stmt(sql).all(skillId) as FileRow[]).map(toStoredFile);
}

/** `Store.readFile`: one live file with its content, or null. */
export function readFile(conn: Connection, skillId: string, path: string): StoredFile | null {
  const row = conn
    .stmt(
      `SELECT f.path, f.kind, f.size, f.sha256, f.executable, b.content FROM skill_files f
         JOIN skills s ON s.seq = f.skill_seq JOIN blobs b ON b.sha256 = f.sha256
       WHERE s.id = ? AND f.path = ?`,
    )
    .get(skillId, path) as FileRow | undefined;
  return row === undefined ? null : toStoredFile(row);
}

/** `Store.listRevisions`: every version of a named skill, newest first. */
export function listRevisions(
  conn: Connection,
  accountId: string,
  rootUri: string,
  name: string,
): SkillRevisionRecord[] {
  const rows = conn
    .stmt(
      `SELECT seq, skill_id, revision, manifest, created_at, created_by, superseded_at FROM skill_revisions
       WHERE account_id = ? AND root_uri = ? AND name = ? ORDER BY seq DESC`,
    )
    .all(accountId, rootUri, name) as RevisionRow[];
  return rows.map(toRevisionRecord);
}

/** `Store.readBlobs`: the contents of the named blobs that exist. */
export function readBlobs(conn: Connection, sha256s: readonly string[]): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  const select = conn.stmt('SELECT content FROM blobs WHERE sha256 = ?');
  for (const sha256 of new Set(sha256s)) {
    const row = select.get(sha256) as { content: Buffer } | undefined;
    if (row !== undefined) {
      out.set(sha256, new Uint8Array(row.content.buffer, row.content.byteOffset, row.content.byteLength));
    }
  }
  return out;
}
