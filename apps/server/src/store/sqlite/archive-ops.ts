/**
 * `Store.exportRecords` / `Store.importRecords` on SQLite: the rows of every table as archive records
 * (see `archive/archive-format.ts`) and back.
 */
import { SkillportError } from '@skillport/core/base';
import { type ArchiveCounts, emptyCounts } from '../../archive/archive-counts.js';
import type { DataRecord } from '../../archive/archive-format.js';
import type { Connection } from './connection.js';
import { rebuildChangeFeed } from './history-ops.js';
import type { SkillRow, TaskRow } from './rows.js';
import { writeSearchRow } from './skill-writes.js';

/** Rows read per statement while exporting (skills carry their body, up to 1 MiB each: fewer). */
const PAGE = 500;
const SKILL_PAGE = 100;
/** Temp uploads per statement (each up to the upload limit, 25 MiB by default). */
const UPLOAD_PAGE = 4;

const parse = <T>(text: string | null, fallback: T): T =>
  text === null ? fallback : (JSON.parse(text) as T);

/** Reads a table page by page in key order (`key` is an integer column or `rowid`). */
function* pages<Row extends object>(
  conn: Connection,
  sql: string,
  key: string,
  size: number,
): Generator<Row> {
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = conn.stmt(`${sql} WHERE ${key} > ? ORDER BY ${key} LIMIT ${size}`).all(after) as Array<
      Row & { _key: number }
    >;
    for (const row of rows) yield row;
    const last = rows[rows.length - 1];
    if (rows.length < size || last === undefined) return;
    after = last._key;
  }
}

/**
 * Every record of the database, in archive order, read in one read transaction (a consistent
 * snapshot even while a server writes to the file). The connection is busy until the iteration
 * ends: use a store opened for the export.
 */
export async function* exportRecords(conn: Connection, now: number): AsyncGenerator<DataRecord> {
  conn.db.exec('BEGIN');
  try {
    for (const r of pages<{ id: string; created_at: number }>(
      conn,
      'SELECT rowid AS _key, id, created_at FROM accounts',
      'rowid',
      PAGE,
    )) {
      yield { type: 'account', id: r.id, created_at: r.created_at };
    }
    for (const r of pages<{ account_id: string; id: string; created_at: number }>(
      conn,
      'SELECT rowid AS _key, account_id, id, created_at FROM users',
      'rowid',
      PAGE,
    )) {
      yield { type: 'user', account_id: r.account_id, id: r.id, created_at: r.created_at };
    }
    for (const r of pages<{
      id: string;
      account_id: string;
      user_id: string;
      role: 'root' | 'admin' | 'user';
      hash: string;
      prefix: string;
      created_at: number;
      revoked_at: number | null;
    }>(conn, 'SELECT rowid AS _key, * FROM api_keys', 'rowid', PAGE)) {
      yield {
        type: 'api_key',
        id: r.id,
        account_id: r.account_id,
        user_id: r.user_id,
        role: r.role,
        hash: r.hash,
        prefix: r.prefix,
        created_at: r.created_at,
        revoked_at: r.revoked_at,
      };
    }
    // Contents one at a time (a file may be tens of MiB): memory holds one blob, not a page of them.
    const blobContent = conn.stmt('SELECT content FROM blobs WHERE seq = ?');
    for (const r of pages<{ seq: number; sha256: string; size: number }>(
      conn,
      'SELECT seq AS _key, seq, sha256, size FROM blobs',
      'seq',
      PAGE,
    )) {
      const { content } = blobContent.get(r.seq) as { content: Buffer };
      yield { type: 'blob', sha256: r.sha256, size: r.size, content: content.toString('base64') };
    }
    const filesOf = conn.stmt(
      'SELECT path, kind, size, sha256, executable FROM skill_files WHERE skill_seq = ? ORDER BY path',
    );
    for (const r of pages<SkillRow>(conn, 'SELECT seq AS _key, * FROM skills', 'seq', SKILL_PAGE)) {
      yield {
        type: 'skill',
        id: r.id,
        account_id: r.account_id,
        root_uri: r.root_uri,
        name: r.name,
        description: r.description,
        tags: parse<string[]>(r.tags, []),
        allowed_tools: parse<string[]>(r.allowed_tools, []),
        frontmatter: parse<Record<string, unknown>>(r.frontmatter, {}),
        body: r.body,
        source_metadata: parse<Record<string, unknown> | null>(r.source_metadata, null),
        revision: r.revision,
        overview: r.overview,
        overview_revision: r.overview_revision,
        created_at: r.created_at,
        updated_at: r.updated_at,
        files: (
          filesOf.all(r.seq) as Array<{
            path: string;
            kind: 'definition' | 'summary' | 'auxiliary';
            size: number;
            sha256: string;
            executable: number;
          }>
        ).map(({ executable, ...file }) =>
          executable === 1 ? { ...file, executable: true as const } : file,
        ),
      };
    }
    for (const r of pages<{
      skill_id: string;
      account_id: string;
      root_uri: string;
      name: string;
      revision: string;
      manifest: string;
      created_at: number;
      created_by: string | null;
      superseded_at: number | null;
    }>(conn, 'SELECT seq AS _key, * FROM skill_revisions', 'seq', PAGE)) {
      yield {
        type: 'revision',
        skill_id: r.skill_id,
        account_id: r.account_id,
        root_uri: r.root_uri,
        name: r.name,
        revision: r.revision,
        manifest: JSON.parse(r.manifest),
        created_at: r.created_at,
        created_by: r.created_by,
        superseded_at: r.superseded_at,
      };
    }
    for (const r of pages<TaskRow>(conn, 'SELECT seq AS _key, * FROM tasks', 'seq', PAGE)) {
      yield {
        type: 'task',
        id: r.id,
        account_id: r.account_id,
        user_id: r.user_id,
        task_type: r.type as 'add_skill' | 'update_skill',
        // A job running at export time runs again after import.
        status:
          r.status === 'running' ? 'pending' : (r.status as 'pending' | 'completed' | 'failed' | 'cancelled'),
        skill_id: r.skill_id,
        revision: r.revision,
        attempts: r.attempts,
        run_at: r.run_at,
        result: parse<Record<string, unknown> | null>(r.result, null),
        error: r.error,
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
    }
    for (const r of pages<{
      id: string;
      account_id: string;
      filename: string;
      content: Buffer;
      expires_at: number;
      created_at: number;
    }>(conn, 'SELECT rowid AS _key, * FROM temp_uploads', 'rowid', UPLOAD_PAGE)) {
      if (r.expires_at <= now) continue;
      yield {
        type: 'temp_upload',
        id: r.id,
        account_id: r.account_id,
        filename: r.filename,
        content: r.content.toString('base64'),
        expires_at: r.expires_at,
        created_at: r.created_at,
      };
    }
  } finally {
    conn.db.exec('COMMIT');
  }
}

/**
 * Puts the imported jobs not yet run in the fair order (see `fairRoundOfNewTask`), each user's in
 * archive order, one per round: a restored registry's backlog does not hold up the writes that come
 * after it. Retries and the jobs that were running (`attempts` > 0) stay in `run_at` order, first.
 * The same statement on PostgreSQL.
 */
export const FAIR_ROUNDS_OF_IMPORTED_TASKS = `UPDATE tasks SET fair_round = r.n
  FROM (SELECT seq, row_number() OVER (PARTITION BY account_id, user_id ORDER BY seq) - 1 AS n
    FROM tasks WHERE status = 'pending' AND attempts = 0) AS r
  WHERE tasks.seq = r.seq`;

/** Throws unless the database holds no skills, history, keys, file contents or tasks. */
function assertEmpty(conn: Connection): void {
  const row = conn
    .stmt(
      `SELECT (SELECT count(*) FROM skills) AS skills, (SELECT count(*) FROM skill_revisions) AS revisions,
         (SELECT count(*) FROM api_keys) AS keys, (SELECT count(*) FROM blobs) AS blobs,
         (SELECT count(*) FROM tasks) AS tasks`,
    )
    .get() as Record<string, number>;
  const held = Object.entries(row).filter(([, n]) => n > 0);
  if (held.length > 0) {
    throw new SkillportError(
      'CONFLICT',
      `The target database is not empty (${held.map(([k, n]) => `${n} ${k}`).join(', ')}); import into a new database`,
      { details: { held: Object.fromEntries(held) } },
    );
  }
}

/** Inserts one record (inside the import transaction). */
function insertRecord(conn: Connection, r: DataRecord): void {
  switch (r.type) {
    case 'account':
      conn
        .stmt(
          'INSERT INTO accounts (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at',
        )
        .run(r.id, r.created_at);
      return;
    case 'user':
      conn
        .stmt(
          `INSERT INTO users (account_id, id, created_at) VALUES (?, ?, ?)
           ON CONFLICT (account_id, id) DO UPDATE SET created_at = excluded.created_at`,
        )
        .run(r.account_id, r.id, r.created_at);
      return;
    case 'api_key':
      conn
        .stmt(
          `INSERT INTO api_keys (id, account_id, user_id, role, hash, prefix, created_at, revoked_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(r.id, r.account_id, r.user_id, r.role, r.hash, r.prefix, r.created_at, r.revoked_at);
      return;
    case 'blob':
      conn
        .stmt('INSERT INTO blobs (sha256, size, content) VALUES (?, ?, ?)')
        .run(r.sha256, r.size, Buffer.from(r.content, 'base64'));
      return;
    case 'skill': {
      const info = conn
        .stmt(
          `INSERT INTO skills (id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter, body,
             source_metadata, revision, overview, overview_revision, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          r.id,
          r.account_id,
          r.root_uri,
          r.name,
          r.description,
          JSON.stringify(r.tags),
          JSON.stringify(r.allowed_tools),
          JSON.stringify(r.frontmatter),
          r.body,
          r.source_metadata === null ? null : JSON.stringify(r.source_metadata),
          r.revision,
          r.overview,
          r.overview_revision,
          r.created_at,
          r.updated_at,
        );
      const seq = Number(info.lastInsertRowid);
      const insertFile = conn.stmt(
        'INSERT INTO skill_files (skill_seq, path, kind, size, sha256, executable) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const f of r.files) {
        insertFile.run(seq, f.path, f.kind, f.size, f.sha256, 'executable' in f && f.executable ? 1 : 0);
      }
      writeSearchRow(conn, conn.stmt('SELECT * FROM skills WHERE seq = ?').get(seq) as SkillRow);
      return;
    }
    case 'revision': {
      const info = conn
        .stmt(
          `INSERT INTO skill_revisions (skill_id, account_id, root_uri, name, revision, manifest, created_at,
             created_by, superseded_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          r.skill_id,
          r.account_id,
          r.root_uri,
          r.name,
          r.revision,
          JSON.stringify(r.manifest),
          r.created_at,
          r.created_by ?? null,
          r.superseded_at,
        );
      // The blobs the revision keeps alive (retention frees a blob only when none references it).
      const ref = conn.stmt(
        'INSERT OR IGNORE INTO skill_revision_blobs (sha256, revision_seq) VALUES (?, ?)',
      );
      for (const f of r.manifest) ref.run(f.sha256, info.lastInsertRowid);
      return;
    }
    case 'task':
      conn
        .stmt(
          `INSERT INTO tasks (id, account_id, user_id, type, status, skill_id, revision, attempts, run_at,
             result, error, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          r.id,
          r.account_id,
          r.user_id,
          r.task_type,
          r.status,
          r.skill_id,
          r.revision,
          r.attempts,
          r.run_at,
          r.result === null ? null : JSON.stringify(r.result),
          r.error,
          r.created_at,
          r.updated_at,
        );
      return;
    case 'temp_upload':
      conn
        .stmt(
          `INSERT INTO temp_uploads (id, account_id, filename, content, expires_at, created_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
        )
        .run(r.id, r.account_id, r.filename, Buffer.from(r.content, 'base64'), r.expires_at, r.created_at);
      return;
  }
}

/**
 * Writes the records into an empty database in one transaction (all or nothing; the write lock is
 * held until the last record): accounts and users are merged (a server's start-up may have created
 * `default`), everything else must be new. Skills are indexed for search as they arrive.
 *
 * @returns the records written per type
 * @throws SkillportError `CONFLICT` when the database already holds data; the error of the source
 *   iterable or of a constraint (e.g. a file whose content is not in the archive) — nothing written
 */
export async function importRecords(
  conn: Connection,
  records: AsyncIterable<DataRecord>,
): Promise<ArchiveCounts> {
  const counts = emptyCounts();
  conn.db.exec('BEGIN IMMEDIATE');
  try {
    assertEmpty(conn);
    for await (const record of records) {
      insertRecord(conn, record);
      counts[record.type] += 1;
    }
    conn.db.exec(FAIR_ROUNDS_OF_IMPORTED_TASKS);
    rebuildChangeFeed(conn.db);
    conn.db.exec('COMMIT');
  } catch (error) {
    if (conn.db.inTransaction) conn.db.exec('ROLLBACK');
    throw error;
  }
  return counts;
}
