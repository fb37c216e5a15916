/**
 * The storage engine a test runs on. The store and HTTP suites run twice: in the `default` vitest
 * project on SQLite, and in the `postgres` project (`SKILLPORT_TEST_ENGINE=postgres`) on the run's
 * throwaway PostgreSQL cluster (see `vitest.config.ts`). Tests name their database by a data folder,
 * as with SQLite: on PostgreSQL the folder maps to a schema of its own, so reopening the same folder
 * reopens the same data and two folders never see each other's.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import type { ServerOptions } from '../../src/config.js';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { POSTGRES_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import type { Store } from '../../src/store/types.js';

export type TestEngine = 'sqlite' | 'postgres';

/** The engine of this test run. */
export const TEST_ENGINE: TestEngine =
  process.env.SKILLPORT_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/** The cluster URL (PostgreSQL runs only). */
export function postgresUrl(): string {
  const url = inject('postgresUrl');
  if (!url) throw new Error('No PostgreSQL cluster: run the postgres vitest project (see vitest.config.ts)');
  return url;
}

/** The PostgreSQL schema standing for a data folder. */
export function schemaFor(dataDir: string): string {
  return `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 20)}`;
}

/** Server options selecting the engine under test for a data folder (none for SQLite). */
export function engineServerOptions(dataDir: string): Pick<ServerOptions, 'databaseUrl' | 'postgres'> {
  if (TEST_ENGINE === 'sqlite') return {};
  return { databaseUrl: postgresUrl(), postgres: { schema: schemaFor(dataDir), poolSize: 4 } };
}

/** Environment variables selecting the engine under test, for a server started as a child process. */
export function engineEnv(dataDir: string): Record<string, string> {
  if (TEST_ENGINE === 'sqlite') return {};
  return {
    SKILLPORT_DATABASE_URL: postgresUrl(),
    SKILLPORT_DATABASE_SCHEMA: schemaFor(dataDir),
    SKILLPORT_DATABASE_POOL_SIZE: '4',
  };
}

/** Opens the store of the engine under test for a data folder. */
export function openEngineStore(dataDir: string, options: { now?: () => number } = {}): Store {
  if (TEST_ENGINE === 'sqlite') return createSqliteStore({ ...options, dataDir });
  return createPostgresStore({ ...options, url: postgresUrl(), schema: schemaFor(dataDir), poolSize: 4 });
}

/** Drops what the engine keeps outside the data folder (the PostgreSQL schema); a no-op on SQLite. */
export async function dropEngineData(dataDir: string): Promise<void> {
  if (TEST_ENGINE === 'sqlite') return;
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schemaFor(dataDir)}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** The schema version this build writes on the engine under test. */
export const ENGINE_SCHEMA_VERSION: number =
  TEST_ENGINE === 'sqlite' ? SCHEMA_VERSION : POSTGRES_SCHEMA_VERSION;

/** Runs SQL on the PostgreSQL schema of a data folder (PostgreSQL runs only). */
export async function postgresQuery<T extends pg.QueryResultRow>(
  dataDir: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * How far `skill_term_counts` (PostgreSQL migrations 9, 17 and 22) is from the `skill_terms` rows it
 * counts: the number of (lexeme, label set, characters shared) triples whose count — the sum of its
 * rows over every shard plus the signs of its pending rows in `skill_term_count_deltas` — differs
 * from the rows of that lexeme and label set whose skill's lexeme before it in code-point order
 * shares that many characters (at most 8) with it, counted here character by character; 0 when every
 * count is exact. PostgreSQL runs only.
 */
export async function postgresTermCountDrift(dataDir: string): Promise<number> {
  const rows = await postgresQuery<{ n: string }>(
    dataDir,
    `WITH kept AS (SELECT lexeme, labels, shared, sum(n)::bigint AS n FROM (
           SELECT lexeme, labels, shared, n FROM skill_term_counts
           UNION ALL
           SELECT u.lexeme, u.labels, u.shared, d.sign FROM skill_term_count_deltas d
             CROSS JOIN LATERAL unnest(d.lexemes, d.labels, d.shared) AS u(lexeme, labels, shared)) AS c
         GROUP BY 1, 2, 3 HAVING sum(n) <> 0),
       ordered AS (SELECT lexeme, labels, skill_seq,
           lag(lexeme) OVER (PARTITION BY skill_seq ORDER BY lexeme COLLATE "C") AS previous
         FROM skill_terms),
       actual AS (SELECT lexeme, labels,
           (SELECT count(*) FROM generate_series(1, 8) AS k
             WHERE previous IS NOT NULL AND left(lexeme, k) = left(previous, k))::smallint AS shared,
           count(*) AS n
         FROM ordered GROUP BY 1, 2, 3)
     SELECT count(*) AS n FROM ((SELECT * FROM kept EXCEPT SELECT * FROM actual)
       UNION ALL (SELECT * FROM actual EXCEPT SELECT * FROM kept)) AS d`,
  );
  return Number(rows[0]?.n);
}

/**
 * Records `version` as the schema version of a data folder's database, behind the back of the stores
 * that have it open (as another build migrating it would): SQLite's `user_version`, PostgreSQL's
 * `skillport_migrations` rows.
 */
export async function setSchemaVersion(dataDir: string, version: number): Promise<void> {
  if (TEST_ENGINE === 'sqlite') {
    const db = new Database(path.join(dataDir, 'skillport.db'));
    try {
      db.pragma(`user_version = ${version}`);
    } finally {
      db.close();
    }
    return;
  }
  await postgresQuery(
    dataDir,
    `WITH gone AS (DELETE FROM skillport_migrations WHERE version > $1)
     INSERT INTO skillport_migrations (version, name, applied_at)
       SELECT v, 'set by a test', 0 FROM generate_series(1, $1) AS v ON CONFLICT (version) DO NOTHING`,
    [version],
  );
}
