/**
 * `Store.exportRecords` / `Store.importRecords` on PostgreSQL: the rows of every table as archive
 * records (see `archive/archive-format.ts`) and back, in the same order and shape as on SQLite (rows in
 * insertion order: `seq`), so an archive moves between the engines unchanged.
 */
import { SkillportError } from '@skillport/core/base';
import type pg from 'pg';
import { type ArchiveCounts, emptyCounts } from '../../archive/archive-counts.js';
import type { DataRecord } from '../../archive/archive-format.js';
import { FAIR_ROUNDS_OF_IMPORTED_TASKS } from '../sqlite/archive-ops.js';
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
    for await (const r of pages<SkillRow & { files: Array<[string, FileKind, number, string, boolean]> }>(
      client,
      `SELECT seq, id, account_id, root_uri, name, description, tags, allowed_tools, source_metadata, revision,
         overview_revision, created_at, updated_at, frontmatter, overview, body,
         (SELECT coalesce(json_agg(json_build_array(f.path, f.kind, f.size, f.sha256, f.executable) ORDER BY f.path),
            '[]'::json) FROM skill_files f WHERE f.skill_seq = skills.seq) AS files
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
        files: r.files.map(([path, kind, size, sha256, executable]) =>
          executable ? { path, kind, size, sha256, executable: true as const } : { path, kind, size, sha256 },
        ),
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

/** Records {@link insertBatch} writes many to a statement. */
type BatchedRecord = Extract<DataRecord, { type: 'blob' | 'skill' | 'task' }>;

/** Inserts one record of the other types (inside the import transaction). */
async function insertRecord(client: pg.ClientBase, r: Exclude<DataRecord, BatchedRecord>): Promise<void> {
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
 * Row triggers that keep tables derived from the rows an import writes, per row: `skill_terms` and
 * `skill_term_counts` (migrations 4, 9, 22: its pending rows), `account_usage` (5), `skill_search_generation` (7), `skill_root_counts` (8). The last
 * three update a handful of counter rows, so in the one transaction of an import every change would
 * add a version of the same row, and each update walks the versions before it (quadratic in the
 * number of skills and files). An import disables them and derives the tables once,
 * in bulk, before committing ({@link deriveTables}) — the same contents the triggers give; the terms
 * in index order, so both indexes of `skill_terms` fill front to back.
 */
const DERIVING_TRIGGERS = [
  ['skills', 'skill_terms_added'],
  ['skills', 'skill_search_generation_added'],
  ['skills', 'skill_root_counts_added'],
  ['skill_files', 'skill_files_usage'],
] as const;

/** `ALTER TABLE … DISABLE|ENABLE TRIGGER …` for {@link DERIVING_TRIGGERS}. */
function switchTriggers(mode: 'DISABLE' | 'ENABLE'): string {
  const tables = [...new Set(DERIVING_TRIGGERS.map(([table]) => table))];
  return tables
    .map(
      (table) =>
        `ALTER TABLE ${table} ${DERIVING_TRIGGERS.filter(([t]) => t === table)
          .map(([, trigger]) => `${mode} TRIGGER ${trigger}`)
          .join(', ')}`,
    )
    .join('; ');
}

/**
 * What {@link DERIVING_TRIGGERS} would have written for the rows imported into a database that held
 * no skills: each skill's `skill_terms` rows (as migration 4's backfill) and their counts per lexeme,
 * label set and characters shared with the skill's lexeme before (migration 17), in shard 0 (as
 * migration 22 gathers them; nothing pending),
 * the stored bytes per account and shard (migration 11),
 * the skills per root and shard, and the search generation bumped once per skill in its shard.
 */
async function deriveTables(client: pg.ClientBase): Promise<void> {
  await client.query(
    `INSERT INTO skill_terms (lexeme, skill_seq, rank, labels)
       SELECT u.lexeme, s.seq, skill_term_rank(u.positions, u.weights), skill_term_labels(u.weights)
       FROM skills s CROSS JOIN LATERAL unnest(s.search) AS u
       ORDER BY u.lexeme COLLATE "C", s.seq`,
  );
  await client.query(
    `INSERT INTO skill_term_counts (lexeme, labels, shared, shard, n)
       SELECT u.lexeme, skill_term_labels(u.weights), skill_term_shared(u.lexeme, u.previous), 0, count(*)
       FROM skills s CROSS JOIN LATERAL (SELECT v.lexeme COLLATE "C" AS lexeme, v.weights,
           lag(v.lexeme COLLATE "C") OVER (ORDER BY v.lexeme COLLATE "C") AS previous FROM unnest(s.search) AS v) AS u
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
     ON CONFLICT (lexeme, labels, shared, shard) DO UPDATE SET n = skill_term_counts.n + EXCLUDED.n`,
  );
  await client.query(
    `INSERT INTO account_usage (account_id, shard, stored_bytes)
       SELECT s.account_id, (s.seq % 64)::smallint, sum(f.size) FROM skills s JOIN skill_files f ON f.skill_seq = s.seq
       WHERE f.path <> '.overview.md' GROUP BY 1, 2
     ON CONFLICT (account_id, shard) DO UPDATE SET stored_bytes = account_usage.stored_bytes + EXCLUDED.stored_bytes`,
  );
  await client.query(
    `INSERT INTO skill_root_counts (account_id, root_uri, shard, n)
       SELECT account_id, root_uri, (seq % 64)::smallint, count(*) FROM skills GROUP BY 1, 2, 3
     ON CONFLICT (account_id, root_uri, shard) DO UPDATE SET n = skill_root_counts.n + EXCLUDED.n`,
  );
  await client.query(
    `UPDATE skill_search_generation g SET n = g.n + c.added
       FROM (SELECT seq % 64 AS shard, count(*) AS added FROM skills GROUP BY 1) AS c
     WHERE g.shard = c.shard`,
  );
}

/** Records of one type inserted per statement (blobs: also at most {@link BATCH_BYTES} of content). */
const BATCH = 500;
const BATCH_BYTES = 8 * 1024 * 1024;

/**
 * Inserts records of one type, many per statement (one round trip per batch): blobs, skills with
 * their files, and tasks; the others one by one ({@link insertRecord}). Rows are inserted in the
 * order given, so their `seq` follows the archive's order.
 */
async function insertBatch(client: pg.ClientBase, batch: readonly DataRecord[]): Promise<void> {
  const first = batch[0];
  if (first === undefined) return;
  if (first.type !== 'blob' && first.type !== 'skill' && first.type !== 'task') {
    for (const record of batch) await insertRecord(client, record as Exclude<DataRecord, BatchedRecord>);
    return;
  }
  if (first.type === 'blob') {
    const blobs = batch as Array<Extract<DataRecord, { type: 'blob' }>>;
    await client.query(
      `INSERT INTO blobs (sha256, size, content)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bytea[])`,
      [
        blobs.map((b) => b.sha256),
        blobs.map((b) => b.size),
        blobs.map((b) => Buffer.from(b.content, 'base64')),
      ],
    );
    return;
  }
  if (first.type === 'task') {
    const tasks = batch as Array<Extract<DataRecord, { type: 'task' }>>;
    await client.query(
      `INSERT INTO tasks (id, account_id, user_id, type, status, skill_id, revision, attempts, run_at,
         result, error, created_at, updated_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::int[], $9::bigint[], $10::text[], $11::text[], $12::bigint[], $13::bigint[])`,
      [
        tasks.map((r) => r.id),
        tasks.map((r) => r.account_id),
        tasks.map((r) => r.user_id),
        tasks.map((r) => r.task_type),
        tasks.map((r) => r.status),
        tasks.map((r) => r.skill_id),
        tasks.map((r) => r.revision),
        tasks.map((r) => r.attempts),
        tasks.map((r) => r.run_at),
        tasks.map((r) => (r.result === null ? null : JSON.stringify(r.result))),
        tasks.map((r) => r.error),
        tasks.map((r) => r.created_at),
        tasks.map((r) => r.updated_at),
      ],
    );
    return;
  }
  const skills = batch as Array<Extract<DataRecord, { type: 'skill' }>>;
  const searches: string[] = [];
  for (const r of skills) {
    searches.push(
      await searchVector({
        name: r.name,
        tags: r.tags,
        description: r.description,
        overview: r.overview,
        body: r.body,
      }),
    );
  }
  const files = skills.flatMap((r) => r.files.map((f) => ({ id: r.id, ...f })));
  await client.query(
    `WITH s AS (
       INSERT INTO skills (id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter, body,
         source_metadata, revision, overview, overview_revision, created_at, updated_at, search)
       SELECT id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter, body,
         source_metadata, revision, overview, overview_revision, created_at, updated_at, search::tsvector
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::bigint[], $15::bigint[], $16::text[])
         WITH ORDINALITY AS r(id, account_id, root_uri, name, description, tags, allowed_tools, frontmatter, body,
           source_metadata, revision, overview, overview_revision, created_at, updated_at, search, n)
       ORDER BY n
       RETURNING seq, id)
     INSERT INTO skill_files (skill_seq, path, kind, size, sha256, executable)
       SELECT s.seq, f.path, f.kind, f.size, f.sha256, f.executable
       FROM unnest($17::text[], $18::text[], $19::text[], $20::bigint[], $21::text[], $22::boolean[])
         AS f(id, path, kind, size, sha256, executable)
       JOIN s ON s.id = f.id`,
    [
      skills.map((r) => r.id),
      skills.map((r) => r.account_id),
      skills.map((r) => r.root_uri),
      skills.map((r) => r.name),
      skills.map((r) => r.description),
      skills.map((r) => JSON.stringify(r.tags)),
      skills.map((r) => JSON.stringify(r.allowed_tools)),
      skills.map((r) => JSON.stringify(r.frontmatter)),
      skills.map((r) => r.body),
      skills.map((r) => (r.source_metadata === null ? null : JSON.stringify(r.source_metadata))),
      skills.map((r) => r.revision),
      skills.map((r) => r.overview),
      skills.map((r) => r.overview_revision),
      skills.map((r) => r.created_at),
      skills.map((r) => r.updated_at),
      searches,
      files.map((f) => f.id),
      files.map((f) => f.path),
      files.map((f) => f.kind),
      files.map((f) => f.size),
      files.map((f) => f.sha256),
      files.map((f) => 'executable' in f && f.executable === true),
    ],
  );
}

/**
 * Writes the records into an empty database in one transaction (all or nothing): accounts and users
 * are merged (a server's start-up may have created `default`), everything else must be new. Records
 * of one type go in batches (one statement each); skills are indexed for search as they arrive; the
 * tables derived from them by row triggers (search terms, counters) are written once at the end when
 * the importing role may switch those triggers off (it owns the tables: the role that ran the
 * migrations), else row by row as any write. A concurrent import into the same database waits for
 * this one (the table lock taken first), then finds it not empty.
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
      // A whole registry in one transaction: its bulk statements may run longer than a request's.
      await client.query('SET LOCAL statement_timeout = 0');
      await client.query('LOCK TABLE skills, skill_revisions, api_keys, blobs, tasks IN EXCLUSIVE MODE');
      await assertEmpty(client);
      // Another role than the tables' owner cannot switch triggers: then they run per row.
      await client.query('SAVEPOINT triggers');
      const derive = await client.query(switchTriggers('DISABLE')).then(
        () => true,
        async () => {
          await client.query('ROLLBACK TO SAVEPOINT triggers');
          return false;
        },
      );
      let batch: DataRecord[] = [];
      let bytes = 0;
      for await (const record of records) {
        if (
          batch.length > 0 &&
          (batch[0]?.type !== record.type || batch.length >= BATCH || bytes >= BATCH_BYTES)
        ) {
          await insertBatch(client, batch);
          batch = [];
          bytes = 0;
        }
        batch.push(record);
        if (record.type === 'blob' || record.type === 'temp_upload') bytes += record.content.length;
        counts[record.type] += 1;
      }
      await insertBatch(client, batch);
      await client.query(FAIR_ROUNDS_OF_IMPORTED_TASKS);
      if (derive) {
        await deriveTables(client);
        await client.query(switchTriggers('ENABLE'));
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
