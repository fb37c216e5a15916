import { readFileSync } from 'node:fs';
import pg from 'pg';

/** How the connection to PostgreSQL is encrypted. */
export type PostgresSslMode = 'disable' | 'require' | 'verify-full';

/** Connection settings of the PostgreSQL store. */
export interface PostgresConnectionOptions {
  /** `postgres://user:password@host:port/database` (a `sslmode` parameter is honoured by `pg`). */
  url: string;
  /**
   * Schema holding Skillport's tables (created if missing; default `public`). Several registries can
   * share one database in different schemas.
   */
  schema?: string;
  /** Most connections this process opens (default 10). */
  poolSize?: number;
  /** Longest a statement may run before PostgreSQL cancels it, ms (default 30 000; 0 = no limit). */
  statementTimeoutMs?: number;
  /**
   * `disable` (plain TCP), `require` (TLS, certificate not checked), `verify-full` (TLS, certificate and
   * host checked against the system CAs or `sslCa`). Unset: as the URL's `sslmode` says, else plain.
   */
  ssl?: PostgresSslMode;
  /** PEM file of the CA to trust with `verify-full` (e.g. a cloud provider's bundle). */
  sslCaFile?: string;
}

/** PostgreSQL type OIDs parsed differently from node-postgres' defaults. */
const INT8_OID = 20;

/**
 * `bigint` columns (epoch-ms times, sizes, sequence numbers) as JavaScript numbers: every value the
 * store writes is below 2^53. Scoped to the store's pool (the global `pg.types` is left alone).
 */
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/** Checks a schema name: plain identifiers only, so it can be quoted into SQL safely. */
export function checkSchemaName(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(
      `SKILLPORT_DATABASE_SCHEMA: ${JSON.stringify(schema)} is not a plain identifier (letters, digits and _, ` +
        'not starting with a digit, at most 63 characters), e.g. skillport',
    );
  }
  return schema;
}

function sslConfig(options: PostgresConnectionOptions): pg.ClientConfig['ssl'] | undefined {
  switch (options.ssl) {
    case undefined:
      return undefined;
    case 'disable':
      return false;
    case 'require':
      return { rejectUnauthorized: false };
    case 'verify-full':
      return options.sslCaFile === undefined
        ? { rejectUnauthorized: true }
        : { rejectUnauthorized: true, ca: readFileSync(options.sslCaFile, 'utf8') };
    default:
      throw new Error(`Unknown PostgreSQL TLS mode ${JSON.stringify(options.ssl)}`);
  }
}

/**
 * What every connection of the store is opened with: the URL, TLS, `application_name`, a 10 s connect
 * timeout (the pool adds its settings; the task-notification connection uses this alone).
 */
export function clientConfig(options: PostgresConnectionOptions): pg.ClientConfig {
  const config: pg.ClientConfig = {
    connectionString: options.url,
    application_name: 'skillport',
    connectionTimeoutMillis: 10_000,
  };
  const ssl = sslConfig(options);
  if (ssl !== undefined) config.ssl = ssl;
  return config;
}

/**
 * The `pg` pool of the store: `search_path` set to the store's schema (then `extra`, where the
 * `pg_trgm` functions live), `statement_timeout` per connection, JIT off, bigint parsed as numbers. A
 * connection that fails, idle or checked out, is dropped from the pool (the error is not fatal: a
 * checked-out one fails the statement it runs or the next one).
 *
 * @param options - connection settings
 * @param searchPath - schemas, first the store's
 * @param max - pool size
 * @returns the pool
 */
export function createPool(
  options: PostgresConnectionOptions,
  searchPath: readonly string[],
  max: number,
): pg.Pool {
  const settings = [`-c search_path=${searchPath.map((s) => `"${s}"`).join(',')}`];
  const timeout = options.statementTimeoutMs ?? 30_000;
  settings.push(`-c statement_timeout=${Math.max(0, Math.floor(timeout))}`);
  // No JIT compilation: the store's statements run in milliseconds, and PostgreSQL compiles a plan
  // whenever its estimated cost passes `jit_above_cost`, which parameterised plans of find reach
  // with rough row estimates (~200 ms of compiling for a query that then runs in ~10 ms).
  settings.push('-c jit=off');
  const config: pg.PoolConfig = {
    ...clientConfig(options),
    max,
    options: settings.join(' '),
    types: TYPES,
    idleTimeoutMillis: 30_000,
  };
  const pool = new pg.Pool(config);
  // An idle client losing its connection (server restart, network) emits here; without a listener
  // the process would crash. The pool drops that client and opens a new one on the next query.
  pool.on('error', () => {});
  // The pool listens to a client only while it is idle: one checked out (a transaction, an export)
  // whose connection ends — `pg_ctl restart`, a failover, `pg_terminate_backend` — emits `error` on
  // the client itself, which crashed the process. Its query fails with the error instead (the
  // request gets 503), and the client, no longer queryable, is dropped when released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** SQLSTATEs after which the whole transaction is retried: serialization failure, deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);

/** The SQLSTATE of a PostgreSQL error, if it is one. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Runs `fn` in a transaction on one pooled connection: `BEGIN`, `fn`, `COMMIT` (or `ROLLBACK` when
 * it throws). Retried from the start, up to 5 times, on a serialization failure or deadlock, and when
 * `retryOn` says so (e.g. a unique violation from a concurrent insert of the same row).
 *
 * @param pool - the store's pool
 * @param fn - the work; must be safe to run again (no side effects outside the database)
 * @param retryOn - extra retry predicate
 * @returns what `fn` returned
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  retryOn: (error: unknown) => boolean = () => false,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        broken = true;
      }
      const state = sqlState(error);
      if (attempt < 5 && ((state !== undefined && RETRYABLE.has(state)) || retryOn(error))) continue;
      throw error;
    } finally {
      client.release(broken);
    }
  }
}
