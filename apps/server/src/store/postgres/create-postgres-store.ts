import pg from 'pg';
import { PostgresFindAnswers } from '../../search/postgres-find-answers.js';
import { searchSkillsPostgres } from '../../search/postgres-search.js';
import { PostgresTermStats } from '../../search/postgres-term-stats.js';
import { skillJsonOfView, viewOptionsFor } from '../skill-json.js';
import { createTaskSignal } from '../task-signal.js';
import type { Store, StoreReadiness } from '../types.js';
import { checkFiles } from '../write-checks.js';
import * as accounts from './account-ops.js';
import * as archive from './archive-ops.js';
import {
  checkSchemaName,
  clientConfig,
  createPool,
  type PostgresConnectionOptions,
  withTransaction,
} from './connection.js';
import * as history from './history-ops.js';
import * as idempotency from './idempotency-ops.js';
import { applyPostgresMigrations, currentPostgresVersion, POSTGRES_SCHEMA_VERSION } from './migrations.js';
import * as reads from './skill-reads.js';
import {
  commitLimitError,
  deleteSkillTx,
  isBlobInsertRace,
  isSkillInsertRace,
  prepareWrite,
  putSkillTx,
} from './skill-writes.js';
import * as tasks from './task-ops.js';
import * as vectors from './vector-ops.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** Clock in epoch ms (default `Date.now`); tests pass a fixed clock. */
  now?: () => number;
}

/**
 * `NOTIFY` channel of task settlements (completed, failed for good, cancelled); the payload is the
 * store's schema, so registries sharing a database in different schemas do not wake each other.
 */
const TASKS_CHANNEL = 'skillport_tasks';
/** Wait before the notification connection is opened again after it failed, ms. */
const RELISTEN_MS = 1000;

/** Announces a task settlement to every process listening (delivered when the transaction commits). */
async function notifySettled(db: pg.ClientBase | pg.Pool, schema: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [TASKS_CHANNEL, schema]);
}

/**
 * A fold of the pending search-term counts (PostgreSQL migration 22) is started after this many
 * writes of this process: each add leaves one pending row, which every `find` counting a new term
 * reads until it is folded, so the pending rows stay few while a fold still merges the counts of
 * many skills (a term they share is updated once per fold, not once per skill).
 */
const TERM_FOLD_EVERY = 64;
/** Pending rows folded per transaction at most (64 rows of corpus skills: ~0.1–0.3 s of database work). */
const TERM_FOLD_BATCH = 256;

/**
 * Folds up to {@link TERM_FOLD_BATCH} pending search-term count rows into `skill_term_counts`.
 *
 * @returns the rows folded; -1 when another process (or connection) is folding
 */
async function foldTermCounts(db: pg.Pool): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT skill_term_counts_fold($1) AS n', [TERM_FOLD_BATCH]);
  return rows[0]?.n ?? 0;
}

/** The URL without its password, for logs. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

let uniqueTokens = 0;

/** A change token never given before (reuse of cached reads off). */
function uniqueToken(): string {
  uniqueTokens += 1;
  return `unique.${process.pid}.${uniqueTokens}.${Date.now()}`;
}

/**
 * Opens the PostgreSQL store: every skill, file (`bytea`, content-addressed), revision, temp upload,
 * job, account, user and key hash lives in the database, so any number of server processes can share
 * it and none keeps state on its own disk.
 *
 * The store connects lazily: the first call (normally `migrate()`, which `startServer` awaits)
 * connects, creates the schema if missing and applies migrations under an advisory lock (several
 * replicas starting together apply each step once); every other method waits for that.
 *
 * Every write is one transaction: `putSkill` replaces the skill row (search vector included), its file
 * rows, its history entry and enqueues its task together, with `If-Match` checked against the row it
 * locks (`SELECT … FOR UPDATE`), so concurrent writers through different replicas never lose an
 * update; a concurrent first insert of the same name is retried as an update. Jobs are claimed with
 * `FOR UPDATE SKIP LOCKED`.
 *
 * @param options - connection settings (`url`, `schema`, `poolSize`, `statementTimeoutMs`, `ssl`)
 * @returns a {@link Store}; call `close()` when done
 * @throws Error (from `migrate()` or the first call) when the database is unreachable, the schema is
 *   newer than this build, or `pg_trgm` is missing and cannot be created
 * @example
 * ```ts
 * const store = createPostgresStore({ url: 'postgres://skillport@db:5432/skillport' });
 * await store.migrate();
 * ```
 * @see the server README, "PostgreSQL" (settings, replicas, migrations)
 */
export function createPostgresStore(options: PostgresStoreOptions): Store {
  const schema = checkSchemaName(options.schema ?? 'public');
  const now = options.now ?? Date.now;
  const poolSize = Math.max(1, Math.floor(options.poolSize ?? 10));
  let pool: pg.Pool | null = null;
  let opening: Promise<pg.Pool> | null = null;
  let closed = false;
  // The live embeddings, in memory for the semantic half of find (caught up before each search).
  const vectorCache = new vectors.PostgresVectorCache();
  const termStats = new PostgresTermStats();
  // Rankings of recent lexical finds, given again while the database's search generation is unchanged.
  const findAnswers = new PostgresFindAnswers();
  // watchTasks: listeners of this process, told of this store's own settlements at once and of every
  // process's through one connection LISTENing on TASKS_CHANNEL (opened by the first watch, kept until
  // close, re-opened after RELISTEN_MS when it fails; `shared` is false meanwhile).
  const settled = createTaskSignal();
  let notifier: pg.Client | null = null;
  let listening: Promise<void> | null = null;
  let relistenTimer: NodeJS.Timeout | undefined;
  const dropped = new WeakSet<pg.Client>();

  const dropNotifier = (client: pg.Client): void => {
    if (dropped.has(client)) return;
    dropped.add(client);
    if (notifier === client) notifier = null;
    client.end().catch(() => {});
    if (closed || relistenTimer !== undefined) return;
    relistenTimer = setTimeout(() => {
      relistenTimer = undefined;
      listen();
    }, RELISTEN_MS);
    relistenTimer.unref();
  };

  const listen = (): void => {
    if (closed || notifier !== null || listening !== null) return;
    const client = new pg.Client(clientConfig(options));
    client.on('notification', (message) => {
      if (message.channel === TASKS_CHANNEL && message.payload === schema) settled.notify();
    });
    client.on('error', () => dropNotifier(client));
    client.on('end', () => dropNotifier(client));
    listening = (async () => {
      await client.connect();
      await client.query(`LISTEN ${TASKS_CHANNEL}`);
      if (closed) {
        dropped.add(client);
        await client.end();
        return;
      }
      notifier = client;
      // Settlements announced while no connection listened are not replayed: waiters re-check now.
      settled.notify();
    })()
      .catch(() => dropNotifier(client))
      .finally(() => {
        listening = null;
      });
  };

  const open = async (): Promise<pg.Pool> => {
    const migrator = createPool(options, [schema, 'public'], 1);
    try {
      let client: pg.PoolClient;
      try {
        client = await migrator.connect();
      } catch (error) {
        const reason = error instanceof Error ? error.message || error.name : String(error);
        throw Object.assign(
          new Error(`PostgreSQL at ${redact(options.url)} is unreachable: ${reason}`, { cause: error }),
          {
            code: (error as { code?: unknown }).code,
          },
        );
      }
      try {
        const { trigramSchema } = await applyPostgresMigrations(client, schema);
        const searchPath = trigramSchema === schema ? [schema] : [schema, trigramSchema];
        return createPool(options, searchPath, poolSize);
      } finally {
        client.release();
      }
    } finally {
      await migrator.end();
    }
  };

  /** The migrated pool; a failed open is retried by the next call. */
  const ready = (): Promise<pg.Pool> => {
    if (closed) return Promise.reject(new Error('The PostgreSQL store is closed'));
    if (pool !== null) return Promise.resolve(pool);
    opening ??= open().then(
      (opened) => {
        pool = opened;
        return opened;
      },
      (error: unknown) => {
        opening = null;
        throw error;
      },
    );
    return opening;
  };

  const tx = async <T>(fn: (client: pg.PoolClient) => Promise<T>, retryOn?: (e: unknown) => boolean) =>
    withTransaction(await ready(), fn, retryOn);

  // Search-term count upkeep after writes: every TERM_FOLD_EVERY writes, one background fold of every
  // pending row (batch by batch) unless one is running. Not awaited by the write; a failed fold
  // leaves the rows pending (finds stay exact) for the next fold or the idle upkeep.
  let writesSinceFold = 0;
  let folding: Promise<void> | null = null;
  const noteTermWrite = (): void => {
    writesSinceFold += 1;
    if (writesSinceFold < TERM_FOLD_EVERY || folding !== null || closed) return;
    writesSinceFold = 0;
    folding = (async () => {
      const db = await ready();
      while (!closed && (await foldTermCounts(db)) === TERM_FOLD_BATCH) {}
    })()
      .catch(() => {})
      .finally(() => {
        folding = null;
      });
  };

  const searchAnswer: Store['searchAnswer'] = async (accountId, rootUris, query, { limit, semantic }) => {
    const hits = await searchSkillsPostgres(
      await ready(),
      accountId,
      rootUris,
      query,
      limit,
      semantic === undefined ? undefined : { query: semantic, cache: vectorCache },
      termStats,
      findAnswers,
    );
    // Every read of a lexical find is of the database (each statement at or after the change token
    // the caller read); a semantic one also reads the process's copy of the vectors, whose catch-up
    // read concurrent finds share, so it may have begun before that token was read.
    return { hits, stable: semantic === undefined };
  };

  return {
    description: `postgres:${redact(options.url)}${schema === 'public' ? '' : ` (schema ${schema})`}`,
    async migrate() {
      await ready();
    },
    async changeToken() {
      // The cluster's current snapshot (`xmin:xmax:in-progress xids`) moves whenever a write
      // transaction starts or ends, so an unchanged snapshot means nothing was committed in between.
      try {
        const { rows } = await (await ready()).query<{ s: string }>(
          'SELECT pg_current_snapshot()::text AS s',
        );
        return `pg.${rows[0]?.s ?? uniqueToken()}`;
      } catch {
        return uniqueToken();
      }
    },
    async checkReady(): Promise<StoreReadiness> {
      const expectedSchemaVersion = POSTGRES_SCHEMA_VERSION;
      if (closed) return { ready: false, schemaVersion: null, expectedSchemaVersion, reason: 'store closed' };
      let schemaVersion: number;
      try {
        schemaVersion = await currentPostgresVersion(await ready(), schema);
      } catch (error) {
        return {
          ready: false,
          schemaVersion: null,
          expectedSchemaVersion,
          reason: `database unreachable: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      if (schemaVersion !== expectedSchemaVersion) {
        return {
          ready: false,
          schemaVersion,
          expectedSchemaVersion,
          reason: `schema version ${schemaVersion}, expected ${expectedSchemaVersion}: ${
            schemaVersion > expectedSchemaVersion
              ? 'the database was migrated by a newer build'
              : 'migrations pending'
          }`,
        };
      }
      return { ready: true, schemaVersion, expectedSchemaVersion };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(relistenTimer);
      await listening;
      await folding;
      if (notifier !== null) {
        const client = notifier;
        notifier = null;
        dropped.add(client);
        await client.end().catch(() => {});
      }
      const opened = pool ?? (await opening?.catch(() => null)) ?? null;
      pool = null;
      await opened?.end();
    },

    async putSkill(write) {
      checkFiles(write);
      const prepared = await prepareWrite(write);
      try {
        const result = await tx(
          (client) => putSkillTx(client, write, now(), prepared),
          (error) => isSkillInsertRace(error) || isBlobInsertRace(error) || history.isBlobRace(error),
        );
        noteTermWrite();
        return result;
      } catch (error) {
        // The second quota / skill-limit check fails the commit (see `putSkillTx`).
        throw commitLimitError(error, write) ?? error;
      }
    },
    async getSkill(accountId, rootUri, name) {
      return reads.getSkill(await ready(), accountId, rootUri, name);
    },
    async getSkillById(skillId) {
      return reads.getSkillById(await ready(), skillId);
    },
    async listRevisions(accountId, rootUri, name) {
      return reads.listRevisions(await ready(), accountId, rootUri, name);
    },
    async readBlobs(sha256s) {
      return reads.readBlobs(await ready(), sha256s);
    },
    async pruneHistory(policy, at, pruneOptions = {}) {
      return tx((client) => history.pruneHistoryTx(client, policy, at, pruneOptions), history.isBlobRace);
    },
    async listChanges(accountId, rootUris, changeOptions) {
      return history.listChanges(await ready(), accountId, rootUris, changeOptions);
    },
    async listSkills(accountId, rootUri, { limit, after, withBody, summary }) {
      const fields = summary === true ? 'summary' : withBody === false ? 'without-body' : 'all';
      return reads.listSkills(await ready(), accountId, rootUri, limit, fields, after ?? null);
    },
    async skillsVersion(accountId, rootUris) {
      return reads.skillsVersion(await ready(), accountId, rootUris);
    },
    async listFiles(skillId, { withContent }) {
      return reads.listFiles(await ready(), skillId, withContent);
    },
    async readSkillView(accountId, rootUris, name, viewOptions) {
      return reads.readSkillView(await ready(), accountId, rootUris, name, viewOptions);
    },
    async readSkillJson(accountId, rootUris, name, request) {
      const read = await reads.readSkillViewStamped(
        await ready(),
        accountId,
        rootUris,
        name,
        viewOptionsFor(request),
      );
      return read === null ? null : skillJsonOfView(read.view, request, read.stamp);
    },
    async readSkillRevision(accountId, rootUris, name) {
      return reads.readSkillRevision(await ready(), accountId, rootUris, name);
    },
    async readFile(skillId, filePath) {
      return reads.readFile(await ready(), skillId, filePath);
    },
    async deleteSkill(accountId, rootUri, name, deleteOptions = {}) {
      const result = await tx(
        (client) => deleteSkillTx(client, accountId, rootUri, name, now(), deleteOptions.ifMatch),
        history.isBlobRace,
      );
      noteTermWrite();
      return result;
    },
    async search(accountId, rootUris, query, options) {
      return (await searchAnswer(accountId, rootUris, query, options)).hits;
    },
    searchAnswer,
    async putSkillVector(skillId, revision, model, vector) {
      return vectors.putSkillVector(await ready(), skillId, revision, model, vector);
    },
    async skillsNeedingVectors(model, limit) {
      return vectors.skillsNeedingVectors(await ready(), model, limit);
    },

    async claimTask(at, claimOptions) {
      return tasks.claimTask(await ready(), at, claimOptions);
    },
    async expireLeases(isGone, at) {
      return tasks.expireLeases(await ready(), isGone, at);
    },
    async renewTaskLease(lease, expiresAt) {
      return tasks.renewTaskLease(await ready(), lease, expiresAt);
    },
    async completeTask(lease, output) {
      const completed = await tx(async (client) => {
        const done = await tasks.completeTaskTx(client, lease, output, now());
        if (done) await notifySettled(client, schema);
        return done;
      }, history.isBlobRace);
      if (completed) {
        settled.notify();
        // A new overview changes the skill's search vector: its terms' counts move (a pending row).
        if (output.overview !== null) noteTermWrite();
      }
      return completed;
    },
    async compactSearchIndex(_maxPages, compactOptions) {
      // GIN indexes are maintained by PostgreSQL itself (pending list flushed by autovacuum). The
      // search-term counts' pending rows are folded here once writes pause, a batch per step (-1:
      // another process is folding them); while writes come, the writes fold them (TERM_FOLD_EVERY),
      // so a fold merges many skills' counts.
      if (compactOptions?.merge === false) return false;
      return (await foldTermCounts(await ready())) === TERM_FOLD_BATCH;
    },
    async failTask(lease, error, retryAt) {
      const final = retryAt === null;
      const failed = await tx(async (client) => {
        const done = await tasks.failTaskTx(client, lease, error, retryAt, now());
        if (done && final) await notifySettled(client, schema);
        return done;
      });
      if (failed && final) settled.notify();
      return failed;
    },
    async releaseTask(lease) {
      return tasks.releaseTask(await ready(), lease, now());
    },
    async getTask(accountId, userId, taskId) {
      return tasks.getTask(await ready(), accountId, userId, taskId);
    },
    async listTasks(accountId, userId, filter) {
      return tasks.listTasks(await ready(), accountId, userId, filter);
    },
    async cancelTask(accountId, userId, taskId, at) {
      const db = await ready();
      const outcome = await tasks.cancelTask(db, accountId, userId, taskId, at);
      if (outcome?.outcome === 'cancelled') {
        await notifySettled(db, schema);
        settled.notify();
      }
      return outcome;
    },
    watchTasks(listener) {
      listen();
      return settled.watch(listener, () => notifier !== null);
    },
    async queueCounts(accountId, userId, countOptions) {
      return tasks.queueCounts(await ready(), accountId, userId, countOptions?.taskIds);
    },
    async purgeFinishedTasks(olderThan) {
      return tasks.purgeFinishedTasks(await ready(), olderThan);
    },

    async putTempUpload(upload, quota) {
      if (quota === undefined || quota.quotaBytes <= 0) {
        return accounts.putTempUpload(await ready(), upload, now());
      }
      return tx((client) => accounts.putTempUpload(client, upload, now(), quota));
    },
    async accountUsage(accountId, at) {
      return accounts.accountUsage(await ready(), accountId, at);
    },
    async takeTempUpload(accountId, id, at) {
      return accounts.takeTempUpload(await ready(), accountId, id, at);
    },
    async releaseTempUpload(accountId, id, at) {
      return accounts.releaseTempUpload(await ready(), accountId, id, at);
    },
    async getTempUpload(accountId, id, at) {
      return accounts.getTempUpload(await ready(), accountId, id, at);
    },
    async purgeExpiredUploads(at) {
      return accounts.purgeExpiredUploads(await ready(), at);
    },
    async reserveIdempotencyKey(accountId, key, requestHash, at, staleBefore) {
      return idempotency.reserveIdempotencyKey(await ready(), accountId, key, requestHash, at, staleBefore);
    },
    async finishIdempotencyKey(accountId, key, response) {
      await idempotency.finishIdempotencyKey(await ready(), accountId, key, response);
    },
    async releaseIdempotencyKey(accountId, key) {
      await idempotency.releaseIdempotencyKey(await ready(), accountId, key);
    },
    async purgeIdempotencyKeys(olderThan) {
      return idempotency.purgeIdempotencyKeys(await ready(), olderThan);
    },

    async ensureAccount(accountId) {
      await accounts.ensureAccount(await ready(), accountId, now());
    },
    async ensureUser(accountId, userId) {
      await accounts.ensureUser(await ready(), accountId, userId, now());
    },
    async listAccounts() {
      return accounts.listAccounts(await ready());
    },
    async listUsers(accountId) {
      return accounts.listUsers(await ready(), accountId);
    },
    async createApiKey(record) {
      return accounts.createApiKey(await ready(), record, now());
    },
    async findApiKeyByHash(hash) {
      return accounts.findApiKeyByHash(await ready(), hash);
    },
    async listApiKeys(accountId) {
      return accounts.listApiKeys(await ready(), accountId);
    },
    async revokeApiKey(id) {
      return accounts.revokeApiKey(await ready(), id, now());
    },
    async countApiKeys() {
      return accounts.countApiKeys(await ready());
    },

    async *exportRecords() {
      yield* archive.exportRecords(await ready(), now());
    },
    async importRecords(records) {
      return archive.importRecords(await ready(), records);
    },
  };
}
