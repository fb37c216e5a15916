/**
 * `Store.exportRecords` / `Store.importRecords` on PostgreSQL: the rows of every table as archive
 * records (see `archive/archive-format.ts`) and back, in the same order and shape as on SQLite (rows in
 * insertion order: `seq`), so an archive moves between the engines unchanged.
 */
import { SkillportError } from '@skillport/core/base';
import type pg from 'pg';
import { type ArchiveCounts, emptyCounts } from '../../archive/archive-counts.js';
import type { DataRecord } from '../../archive/archive-format.js';
import type { SkillRow, TaskRow } from '../sqlite/rows.js';
import { rebuildChangeFeed } from './history-ops.js';
import { searchVector } from './skill-writes.js';

/** Rows read per statement while exporting (blobs and uploads: fewer, they can be large). */
const PAGE = 500;
const BLOB_PAGE = 64;

const parse = <T>(text: string | null, fallback: T): T =>
  text === null ? fallback : (JSON.parse(text) as T);

/** Reads a table page by page in `seq` order (keyset pagination: each page is one index range scan). */
async function* pages<Row extends pg.QueryResultRow>(
  client: pg.ClientBase,
  sql: string,
  size: number,
): AsyncGenerator<Row> {
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const { rows } = await client.query<Row & { seq: number }>(
      `${sql} WHERE seq > $1 ORDER BY seq LIMIT ${size}`,
      [after],
    );
    for (const row of rows) yield row;
    const last = rows[rows.length - 1];
    if (rows.length < size || last === undefined) return;
    after = last.seq;
  }
}

type FileKind = 'definition' | 'summary' | 'auxiliary';

/**
 * Every record of the database, in archive order, read in one `REPEATABLE READ READ ONLY`
 * transaction on a connection of its own: a consistent snapshot while other replicas keep writing.
 */
export async function* exportRecords(pool: pg.Pool, now: number): AsyncGenerator<DataRecord> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for await (const r of pages<{ id: string; created_at: number }>(
      client,
      'SELECT seq, id, created_at FROM accounts',
      PAGE,
    )) {
      yield { type: 'account', id: r.id, created_at: r.created_at };
    }
    for await (const r of pages<{ account_id: string; id: string; created_at: number }>(
      client,
      'SELECT seq, account_id, id, created_at FROM users',
      PAGE,
    )) {
      yield { type: 'user', account_id: r.account_id, id: r.id, created_at: r.created_at };
    }
    for await (const r of pages<{
      id: string;
      account_id: string;
      user_id: string;
      role: 'root' | 'admin' | 'user';
      hash: string;
      prefix: string;
      created_at: number;
      revoked_at: number | null;
    }>(client, 'SELECT * FROM api_keys', PAGE)) {
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
    for await (const r of pages<{ sha256: string; size: number; content: Buffer }>(
      client,
      'SELECT seq, sha256, size, content FROM blobs',
      BLOB_PAGE,
    )) {
      yield { type: 'blob', sha256: r.sha256, size: r.size, content: r.content.toString('base64') };
    }
    for await (const r of pages<SkillRow & { files: Array<[string, FileKind, number, string]> }>(
      client,
      `SELECT seq, id, account_id, root_uri, name, description, tags, allowed_tools, source_metadata, revision,
         overview_revision, created_at, updated_at, frontmatter, overview, body,
         (SELECT coalesce(json_agg(json_build_array(f.path, f.kind, f.size, f.sha256) ORDER BY f.path), '[]'::json)
          FROM skill_files f WHERE f.skill_seq = skills.seq) AS files
       FROM skills`,
      PAGE,
    )) {
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
        files: r.files.map(([path, kind, size, sha256]) => ({ path, kind, size, sha256 })),
      };
    }
    for await (const r of pages<{
      skill_id: string;
      account_id: string;
      root_uri: string;
      name: string;
      revision: string;
      manifest: string;
      created_at: number;
      created_by: string | null;
      superseded_at: number | null;
    }>(client, 'SELECT * FROM skill_revisions', PAGE)) {
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
    for await (const r of pages<TaskRow>(client, 'SELECT * FROM tasks', PAGE)) {
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
    for await (const r of pages<{
      id: string;
      account_id: string;
      filename: string;
      content: Buffer;
      expires_at: number;
      created_at: number;
    }>(client, 'SELECT * FROM temp_uploads', BLOB_PAGE)) {
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
  } catch (error) {
    broken = true;
    throw error;
  } finally {
    // Also when the consumer stopped reading half-way: the read-only snapshot ends here.
    await client.query(broken ? 'ROLLBACK' : 'COMMIT').catch(() => {});
    client.release();
  }
}

/** Throws unless the database holds no skills, history, keys, file contents or tasks. */
async function assertEmpty(client: pg.ClientBase): Promise<void> {
  const { rows } = await client.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM skills) AS skills, (SELECT count(*) FROM skill_revisions) AS revisions,
       (SELECT count(*) FROM api_keys) AS keys, (SELECT count(*) FROM blobs) AS blobs,
       (SELECT count(*) FROM tasks) AS tasks`,
  );
  const held = Object.entries(rows[0] ?? {}).filter(([, n]) => n > 0);
  if (held.length > 0) {
    throw new SkillportError(
      'CONFLICT',
      `The target database is not empty (${held.map(([k, n]) => `${n} ${k}`).join(', ')}); import into a new database`,
      { details: { held: Object.fromEntries(held) } },
    );
  }
}

/** Inserts one record (inside the import transaction). */
async function insertRecord(client: pg.ClientBase, r: DataRecord): Promise<void> {
  switch (r.type) {
    case 'account':
      await client.query(
        'INSERT INTO accounts (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET created_at = excluded.created_at',
        [r.id, r.created_at],
      );
      return;
    case 'user':
      await client.query(
        `INSERT INTO users (account_id, id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (account_id, id) DO UPDATE SET created_at = excluded.created_at`,
        [r.account_id, r.id, r.created_at],
      );
      return;
    case 'api_key':
      await client.query(
        `INSERT INTO api_keys (id, account_id, user_id, role, hash, prefix, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [r.id, r.account_id, r.user_id, r.role, r.hash, r.prefix, r.created_at, r.revoked_at],
      );
      return;
    case 'blob':
      await client.query('INSERT INTO blobs (sha256, size, content) VALUES ($1, $2, $3)', [
        r.sha256,
        r.size,
        Buffer.from(r.content, 'base64'),
      ]);
      return;
    case 'skill': {
      const search = await searchVector({
        name: r.name,
        tags: r.tags,
        description: r.description,
        overview: r.overview,
        body: r.body,
      });
      await client.query(
        `WITH s AS (
           INSERT INTO skills (id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter, body,
             source_metadata, revision, overview, overview_revision, created_at, updated_at, search)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16::tsvector) RETURNING seq)
         INSERT INTO skill_files (skill_seq, path, kind, size, sha256)
           SELECT s.seq, f.path, f.kind, f.size, f.sha256 FROM s,
             unnest($17::text[], $18::text[], $19::bigint[], $20::text[]) AS f(path, kind, size, sha256)`,
        [
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
          search,
          r.files.map((f) => f.path),
          r.files.map((f) => f.kind),
          r.files.map((f) => f.size),
          r.files.map((f) => f.sha256),
        ],
      );
      return;
    }
    case 'revision':
      // With the blobs the revision keeps alive (retention frees a blob only when none references it).
      await client.query(
        `WITH history AS (
           INSERT INTO skill_revisions (skill_id, account_id, root_uri, name, revision, manifest, created_at,
             created_by, superseded_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING seq)
         INSERT INTO skill_revision_blobs (sha256, revision_seq)
           SELECT DISTINCT f.sha256, history.seq FROM history, unnest($10::text[]) AS f(sha256)
           ON CONFLICT DO NOTHING`,
        [
          r.skill_id,
          r.account_id,
          r.root_uri,
          r.name,
          r.revision,
          JSON.stringify(r.manifest),
          r.created_at,
          r.created_by ?? null,
          r.superseded_at,
          r.manifest.map((f) => f.sha256),
        ],
      );
      return;
    case 'task':
      await client.query(
        `INSERT INTO tasks (id, account_id, user_id, type, status, skill_id, revision, attempts, run_at,
           result, error, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
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
        ],
      );
      return;
    case 'temp_upload':
      await client.query(
        `INSERT INTO temp_uploads (id, account_id, filename, content, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [r.id, r.account_id, r.filename, Buffer.from(r.content, 'base64'), r.expires_at, r.created_at],
      );
      return;
  }
}

/**
 * Writes the records into an empty database in one transaction (all or nothing): accounts and users
 * are merged (a server's start-up may have created `default`), everything else must be new. Skills
 * are indexed for search as they arrive. A concurrent import into the same database waits for this
 * one (the table lock taken first), then finds it not empty.
 *
 * @returns the records written per type
 * @throws SkillportError `CONFLICT` when the database already holds data; the error of the source
 *   iterable or of a constraint (e.g. a file whose content is not in the archive) — nothing written
 */
export async function importRecords(
  pool: pg.Pool,
  records: AsyncIterable<DataRecord>,
): Promise<ArchiveCounts> {
  const counts = emptyCounts();
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    try {
      await client.query('LOCK TABLE skills, skill_revisions, api_keys, blobs, tasks IN EXCLUSIVE MODE');
      await assertEmpty(client);
      for await (const record of records) {
        await insertRecord(client, record);
        counts[record.type] += 1;
      }
      await rebuildChangeFeed(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
  return counts;
}
