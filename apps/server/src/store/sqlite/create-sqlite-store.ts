import path from 'node:path';
import { makeFolderSync } from '@skillport/core/node/make-folder';
import type Database from 'better-sqlite3';
import { mergeSearchIndex } from '../../search/merge-index.js';
import { searchSkillsAnswer, TermCache } from '../../search/sqlite-search.js';
import { runTermListStep, TermListBuilder } from '../../search/term-lists.js';
import { createTaskSignal } from '../task-signal.js';
import type {
  SkillWrite,
  SkillWriteResult,
  Store,
  StoreReadiness,
  TempUploadQuota,
  TempUploadRecord,
} from '../types.js';
import * as accounts from './account-ops.js';
import * as archive from './archive-ops.js';
import {
  CHANGE_PROBE,
  type Connection,
  enableIncrementalVacuum,
  openConnection,
  readChangeCounter,
  type SqliteSynchronous,
} from './connection.js';
import { listChanges, pruneHistoryTx, releaseFreePages } from './history-ops.js';
import * as idempotency from './idempotency-ops.js';
import { applyMigrations, readSchemaVersion, SCHEMA_VERSION } from './migrations.js';
import { openFailure } from './open-failure.js';
import type { SkillRow } from './rows.js';
import * as reads from './skill-reads.js';
import { readSkillJson, readSkillRevision, readSkillView } from './skill-view.js';
import {
  deleteSkillTx,
  type PutSkillReply,
  type PutSkillTxResult,
  putSkillTx,
  toPutSkillReply,
  toWriteResult,
  writeSearchRow,
} from './skill-writes.js';
import * as tasks from './task-ops.js';
import { type StoreCallActivity, TermListPacer } from './term-list-pacing.js';
import { putSkillVectorTx, skillsNeedingVectors, VectorCache } from './vector-ops.js';

/**
 * Work of a per-term list step per page of a compaction step's budget, estimated µs (the default 64
 * pages: ~4 ms a step, its time budget too).
 */
const TERM_LIST_US_PER_PAGE = 64;

/** Free space inside the file above which a per-skill prune returns it to the OS at once, bytes. */
const RELEASE_THRESHOLD_BYTES = 4 * 1024 * 1024;

function freeBytes(conn: Connection): number {
  const pages = conn.db.pragma('freelist_count', { simple: true }) as number;
  const pageSize = conn.db.pragma('page_size', { simple: true }) as number;
  return pages * pageSize;
}

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions {
  /** Folder holding the database (created if missing). Env fallback is the caller's: `SKILLPORT_DATA_DIR`. */
  dataDir: string;
  /** File name inside `dataDir`; default `skillport.db`. */
  filename?: string;
  /** `NORMAL` (default; durable against process crashes) or `FULL` (also against power loss). */
  synchronous?: SqliteSynchronous;
  /** How long a connection waits for another writer, in ms; default 5000. */
  busyTimeoutMs?: number;
  /**
   * The writer's `wal_autocheckpoint` in pages (default `WAL_AUTOCHECKPOINT_PAGES`, 10,000); the
   * threaded store sets a larger backstop, its checkpoints running in a thread of their own.
   */
  walAutocheckpointPages?: number;
  /** Clock in epoch ms (default `Date.now`); tests pass a fixed clock. */
  now?: () => number;
  /**
   * The store calls of the threaded store this store serves in its database thread: while none came
   * for a while, the per-term lists' upkeep runs its steps back to back instead of at a fifth of the
   * thread (see `term-list-pacing.ts`). Without it (a store used on the thread that serves requests)
   * the upkeep always takes at most a fifth.
   */
  activity?: StoreCallActivity;
}

const pacers = new WeakMap<Store, TermListPacer>();

/**
 * The pacer of the per-term lists' upkeep of a store opened by {@link createSqliteStore} (its counts
 * of idle and paced steps, for tests and diagnostics).
 *
 * @returns the pacer, or undefined for any other store
 */
export function termListPacerOf(store: Store): TermListPacer | undefined {
  return pacers.get(store);
}

let uniqueTokens = 0;

/** A connection's last probe (`data_version`, and `total_changes()` when it writes) and the token read with it. */
const lastTokens = new WeakMap<Connection, { probe: string; token: string }>();

/**
 * `Store.changeToken` on SQLite: `epoch.n` of `change_counter`, which triggers move on every write to
 * a table an answer reads (schema version 16), so commits of search-index upkeep leave it alone.
 * The row is read only when the connection's probe moved: `data_version` (changes when another
 * connection, in this process or another, commits) and, for a connection that writes,
 * `total_changes()` (rows it changed), both read from the WAL index in shared memory. A failure (a
 * closed or busy database, a file before version 16) gives a token never given before.
 *
 * @param writes - false for a connection that never writes (`data_version` alone then tells it all)
 * @returns the token, e.g. `"9f2c4e01a7b3d855.1042"`
 */
export function readChangeToken(conn: Connection, writes = true): string {
  try {
    let probe: string;
    if (writes) {
      const row = conn.stmt(CHANGE_PROBE).get() as { c: number; v: number };
      probe = `${row.v}.${row.c}`;
    } else probe = String(conn.stmt('PRAGMA data_version').pluck().get());
    const last = lastTokens.get(conn);
    if (last !== undefined && last.probe === probe) return last.token;
    const token = readChangeCounter(conn);
    lastTokens.set(conn, { probe, token });
    return token;
  } catch {
    lastTokens.delete(conn);
    uniqueTokens += 1;
    return `unique.${process.pid}.${uniqueTokens}.${Date.now()}`;
  }
}

/** `Store.checkReady` on SQLite: the file answers a query and its schema is current. */
function checkSqliteReady(db: Database.Database, closed: boolean): StoreReadiness {
  const expectedSchemaVersion = SCHEMA_VERSION;
  if (closed) return { ready: false, schemaVersion: null, expectedSchemaVersion, reason: 'store closed' };
  let schemaVersion: number;
  try {
    db.prepare('SELECT 1 FROM tasks LIMIT 1').get();
    schemaVersion = readSchemaVersion(db);
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
}

/**
 * Opens the embedded SQLite store: one file (`<dataDir>/skillport.db`) with WAL journaling, the schema
 * migrated on open, skills and their files stored as rows, jobs in a table, FTS5 for search.
 *
 * Every write method is one transaction (`BEGIN IMMEDIATE`): `putSkill` replaces the skill, all its
 * file rows, its history entry, its search row and enqueues its task together, so after a crash the
 * database holds the old version or the new one, never a mix. Durability of acknowledged writes
 * across a SIGKILL follows from WAL (see `openConnection` for the `synchronous` trade-off).
 *
 * Search index: `putSkill` indexes name, tags, description and body at once, so `find` sees a skill
 * as soon as the add returns, even if its processing job later fails; the job adds the L1 overview.
 *
 * @param options - see {@link SqliteStoreOptions}
 * @returns a migrated, ready {@link Store}; call `close()` when done
 * @throws Error when the folder cannot be created, the file cannot be opened, or its schema is newer
 * @example
 * ```ts
 * const store = createSqliteStore({ dataDir: process.env.SKILLPORT_DATA_DIR ?? './.skillport' });
 * const { skills } = await store.listSkills('default', 'viking://agent/skills', { limit: 100 });
 * await store.close();
 * ```
 * @see "How it stores and processes skills" in the @skillport/server README
 */
/** The outcome of one write of a group (see {@link putSkillGroupOf}). */
export type GroupOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Writes several skills in one transaction: see {@link putSkillGroupOf}. */
export type PutSkillGroup = (writes: readonly SkillWrite[]) => GroupOutcome<SkillWriteResult>[];

/** One call of a {@link WriteGroup}: a `putSkill` or a `putTempUpload` (the arguments of the Store method). */
export type GroupedWrite =
  | { method: 'putSkill'; args: [SkillWrite] }
  | { method: 'putTempUpload'; args: [Omit<TempUploadRecord, 'id'>, TempUploadQuota?] };

/** Runs several write calls in one transaction: see {@link writeGroupOf}. */
export type WriteGroup = (writes: readonly GroupedWrite[]) => GroupOutcome<unknown>[];

const writeGroups = new WeakMap<Store, WriteGroup>();

/**
 * The writers of the database thread (`sqlite-thread-entry.ts`): the group commit of
 * {@link writeGroupOf} and `putSkill`, a write answered with a {@link PutSkillReply} instead of its
 * `SkillWriteResult` (the calling thread rebuilds that from the write it sent: `writeResultFromReply`).
 */
export interface ThreadWriters {
  group: WriteGroup;
  putSkill(write: SkillWrite): PutSkillReply;
}

const threadWriters = new WeakMap<Store, ThreadWriters>();

/**
 * The {@link ThreadWriters} of a store opened by {@link createSqliteStore}.
 *
 * @returns the writers, or undefined for any other store
 */
export function threadWritersOf(store: Store): ThreadWriters | undefined {
  return threadWriters.get(store);
}

/**
 * The group commit of a store opened by {@link createSqliteStore}: `putSkill` of several writes in
 * one `BEGIN IMMEDIATE` transaction, each write in a savepoint of its own. A write that is refused
 * (validation of its files, `If-Match`, quota, a missing skill on update) is rolled back to its
 * savepoint and reported as its own outcome; the others are committed together, once, so the
 * per-commit work (the search index segment, the WAL frames of shared pages, the fsync under
 * `synchronous = FULL`) is shared. Nothing is committed when it throws — the transaction could not
 * start (another connection holds the lock), SQLite rolled it back (disk full), or `COMMIT` failed:
 * the caller then runs the writes one by one. Outcomes are only final once it returns.
 *
 * @param store - a store from {@link createSqliteStore}
 * @returns the group writer, or undefined for any other store
 */
export function putSkillGroupOf(store: Store): PutSkillGroup | undefined {
  const group = writeGroups.get(store);
  if (group === undefined) return undefined;
  return (writes) =>
    group(writes.map((write) => ({ method: 'putSkill', args: [write] }))) as GroupOutcome<SkillWriteResult>[];
}

/**
 * The group commit of {@link putSkillGroupOf} for a mix of `putSkill` and `putTempUpload` calls (a
 * folder add is an upload then a write, so concurrent folder adds post the two kinds interleaved):
 * run in the order given, each in a savepoint of its own, committed together; a later call of the
 * group sees what the earlier ones wrote (a write consuming an upload of the same group). Outcomes,
 * refusals and the cases where it throws are those of {@link putSkillGroupOf}.
 *
 * @param store - a store from {@link createSqliteStore}
 * @returns the group writer, or undefined for any other store
 */
export function writeGroupOf(store: Store): WriteGroup | undefined {
  return writeGroups.get(store);
}

export function createSqliteStore(options: SqliteStoreOptions): Store {
  makeFolderSync(options.dataDir);
  const file = path.join(options.dataDir, options.filename ?? 'skillport.db');
  const connOptions: Parameters<typeof openConnection>[1] = {};
  if (options.synchronous !== undefined) connOptions.synchronous = options.synchronous;
  if (options.busyTimeoutMs !== undefined) connOptions.busyTimeoutMs = options.busyTimeoutMs;
  if (options.walAutocheckpointPages !== undefined)
    connOptions.walAutocheckpointPages = options.walAutocheckpointPages;
  let conn: ReturnType<typeof openConnection>;
  try {
    conn = openConnection(file, connOptions);
  } catch (error) {
    throw openFailure(error, file);
  }
  const { db } = conn;
  const now = options.now ?? Date.now;
  try {
    enableIncrementalVacuum(db);
    applyMigrations(db);
    // Set after the migrations and the one-time VACUUM, which may rewrite the whole file through
    // temporary storage. Each write of a group commit runs in a savepoint, whose undo journal holds
    // the original of every page the write changes (dozens for an add): past 64 KiB SQLite spills
    // it to a temporary file, created, written and deleted for nearly every write. In memory it is
    // bounded by the pages one write changes and freed at each savepoint's release, and the commit
    // stays as durable (temporary storage never holds committed data). Sorts on this connection then
    // no longer spill past the page cache either; they sort rows of a few keys (retention's ranking,
    // the change feed rebuilt after an import); request paths sort at most their LIMIT.
    db.pragma('temp_store = MEMORY');
  } catch (error) {
    db.close();
    throw openFailure(error, file);
  }
  let closed = false;
  // Whether the search index may hold unmerged segments: true at open (unknown), after every write
  // that touches the index, false once a merge step finds nothing to merge.
  let searchIndexDirty = true;
  /** Whether the per-term lists may lag the index (see `search/term-lists.ts`). */
  let termListsDirty = true;
  const termLists = new TermListBuilder();
  /** The rests between per-term list steps (see `term-list-pacing.ts`). */
  const termListPacer = new TermListPacer(options.activity);
  const indexWritten = () => {
    searchIndexDirty = true;
    termListsDirty = true;
  };
  // The live embeddings, in memory for the semantic half of find (caught up before each search).
  const vectors = new VectorCache();
  // Slices of the search vocabulary for typo tolerance (reused for a few minutes).
  const terms = new TermCache();
  // Listeners of watchTasks: this store object's own settlements (SQLite has no cross-process signal).
  const settled = createTaskSignal();

  /** Runs `fn` in a `BEGIN IMMEDIATE` transaction (takes the write lock up front: no upgrade deadlocks). */
  const write = <T>(fn: () => T): T => db.transaction(fn).immediate();

  /** The group commit (see `writeGroupOf`); `answer` makes each stored skill write's outcome value. */
  const runGroup = (
    writes: readonly GroupedWrite[],
    answer: (written: PutSkillTxResult, write: SkillWrite) => unknown,
  ): GroupOutcome<unknown>[] => {
    const outcomes: GroupOutcome<unknown>[] = [];
    write(() => {
      // The search rows of the writes that stand, by skill (the last write of a skill wins), written
      // after the savepoints: FTS5 flushes its pending rows into a new index segment at each savepoint
      // it takes part in, so they are written once no savepoint follows — one segment per group.
      const toIndex = new Map<number, SkillRow>();
      for (const grouped of writes) {
        try {
          // Nested in the open transaction: a savepoint, rolled back alone when this write throws.
          let indexed: SkillRow | undefined;
          const value = db.transaction((): unknown =>
            grouped.method === 'putSkill'
              ? answer(
                  putSkillTx(conn, grouped.args[0], now(), (row) => {
                    indexed = row;
                  }),
                  grouped.args[0],
                )
              : accounts.putTempUpload(conn, grouped.args[0], now(), grouped.args[1]),
          )();
          if (indexed !== undefined) toIndex.set(indexed.seq, indexed);
          outcomes.push({ ok: true, value });
        } catch (error) {
          // SQLite ended the whole transaction (disk full, I/O error): nothing of the group stands.
          if (!db.inTransaction) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      for (const row of toIndex.values()) writeSearchRow(conn, row);
    });
    indexWritten();
    return outcomes;
  };
  const writeGroup: WriteGroup = (writes) => runGroup(writes, toWriteResult);
  const putSkill = <T>(
    skillWrite: SkillWrite,
    answer: (written: PutSkillTxResult, w: SkillWrite) => T,
  ): T => {
    const written = write(() => putSkillTx(conn, skillWrite, now()));
    indexWritten();
    return answer(written, skillWrite);
  };

  const store: Store = {
    description: `sqlite:${file}`,
    async migrate() {
      applyMigrations(db);
    },
    async close() {
      if (closed) return;
      closed = true;
      termLists.close();
      db.close();
    },
    async checkReady() {
      return checkSqliteReady(db, closed);
    },
    async changeToken() {
      return readChangeToken(conn);
    },

    async putSkill(skillWrite) {
      return putSkill(skillWrite, toWriteResult);
    },
    async getSkill(accountId, rootUri, name) {
      return reads.getSkill(conn, accountId, rootUri, name);
    },
    async getSkillById(skillId) {
      return reads.getSkillById(conn, skillId);
    },
    async listRevisions(accountId, rootUri, name) {
      return reads.listRevisions(conn, accountId, rootUri, name);
    },
    async readBlobs(sha256s) {
      return reads.readBlobs(conn, sha256s);
    },
    async pruneHistory(policy, at, pruneOptions = {}) {
      const result = write(() => pruneHistoryTx(conn, policy, at, pruneOptions));
      // A sweep (no scope) always hands free pages back; a per-skill prune after a write does once
      // at least 4 MiB are free, so a stream of small updates does not checkpoint on every write.
      if (
        pruneOptions.scope === undefined ||
        (result.blobs > 0 && freeBytes(conn) >= RELEASE_THRESHOLD_BYTES)
      ) {
        releaseFreePages(conn);
      }
      return result;
    },
    async listChanges(accountId, rootUris, changeOptions) {
      return db.transaction(() => listChanges(conn, accountId, rootUris, changeOptions)).deferred();
    },
    async listSkills(accountId, rootUri, { limit, after, withBody, summary }) {
      const fields = summary === true ? 'summary' : withBody === false ? 'without-body' : 'all';
      return db
        .transaction(() => reads.listSkills(conn, accountId, rootUri, limit, fields, after ?? null))
        .deferred();
    },
    async skillsVersion(accountId, rootUris) {
      return db.transaction(() => reads.skillsVersion(conn, accountId, rootUris)).deferred();
    },
    async listFiles(skillId, { withContent }) {
      return reads.listFiles(conn, skillId, withContent);
    },
    async readSkillView(accountId, rootUris, name, viewOptions) {
      return readSkillView(conn, accountId, rootUris, name, viewOptions);
    },
    async readSkillJson(accountId, rootUris, name, request) {
      return readSkillJson(conn, accountId, rootUris, name, request);
    },
    async readSkillRevision(accountId, rootUris, name) {
      return readSkillRevision(conn, accountId, rootUris, name);
    },
    async readFile(skillId, filePath) {
      return reads.readFile(conn, skillId, filePath);
    },
    async deleteSkill(accountId, rootUri, name, options = {}) {
      const deleted = write(() => deleteSkillTx(conn, accountId, rootUri, name, now(), options.ifMatch));
      if (deleted !== null) indexWritten();
      return deleted;
    },
    async search(accountId, rootUris, query, options) {
      return (await store.searchAnswer(accountId, rootUris, query, options)).hits;
    },
    async searchAnswer(accountId, rootUris, query, { limit, semantic }) {
      return db
        .transaction(() =>
          searchSkillsAnswer(
            conn,
            accountId,
            rootUris,
            query,
            limit,
            semantic === undefined ? undefined : { query: semantic, cache: vectors },
            terms,
          ),
        )
        .deferred();
    },
    async putSkillVector(skillId, revision, model, vector) {
      return write(() => putSkillVectorTx(conn, skillId, revision, model, vector));
    },
    async skillsNeedingVectors(model, limit) {
      return skillsNeedingVectors(conn, model, limit);
    },

    async claimTask(at, claimOptions) {
      return write(() => tasks.claimTaskTx(conn, at, claimOptions));
    },
    async expireLeases(isGone, at) {
      return write(() => tasks.expireLeasesTx(conn, isGone, at));
    },
    async renewTaskLease(lease, expiresAt) {
      return write(() => tasks.renewTaskLeaseTx(conn, lease, expiresAt));
    },
    async completeTask(lease, output) {
      const completed = write(() => tasks.completeTaskTx(conn, lease, output, now()));
      if (completed) {
        indexWritten();
        settled.notify();
      }
      return completed;
    },
    async compactSearchIndex(maxPages, options) {
      if (closed) return false;
      if (searchIndexDirty && options?.merge !== false) {
        const worked = write(() => mergeSearchIndex(conn, maxPages));
        if (worked) return true;
        searchIndexDirty = false;
      }
      // The per-term lists of the search index: a rest (none while the thread is idle), then a
      // bounded step (see term-list-pacing.ts).
      if (!termListsDirty) return false;
      const rest = termListPacer.restBeforeStep();
      if (rest > 0) await new Promise<void>((resolve) => setTimeout(resolve, rest));
      if (closed) return false;
      const budget = Math.max(1, maxPages) * TERM_LIST_US_PER_PAGE;
      const more = runTermListStep(conn, termLists, budget);
      const report = termLists.last;
      termListPacer.stepped(report.work, performance.now() - report.startedAt);
      if (!more) termListsDirty = false;
      return more;
    },
    async failTask(lease, error, retryAt) {
      const failed = write(() => tasks.failTaskTx(conn, lease, error, retryAt, now()));
      if (failed && retryAt === null) settled.notify();
      return failed;
    },
    async releaseTask(lease) {
      return write(() => tasks.releaseTaskTx(conn, lease, now()));
    },
    async getTask(accountId, userId, taskId) {
      return tasks.getTask(conn, accountId, userId, taskId);
    },
    async listTasks(accountId, userId, filter) {
      return tasks.listTasks(conn, accountId, userId, filter);
    },
    async cancelTask(accountId, userId, taskId, now) {
      const outcome = write(() => tasks.cancelTaskTx(conn, accountId, userId, taskId, now));
      if (outcome?.outcome === 'cancelled') settled.notify();
      return outcome;
    },
    watchTasks(listener) {
      return settled.watch(listener, () => false);
    },
    async queueCounts(accountId, userId, countOptions) {
      return tasks.queueCounts(conn, accountId, userId, countOptions?.taskIds);
    },
    async purgeFinishedTasks(olderThan) {
      return write(() => tasks.purgeFinishedTasks(conn, olderThan));
    },

    async putTempUpload(upload, quota) {
      return write(() => accounts.putTempUpload(conn, upload, now(), quota));
    },
    async accountUsage(accountId, at) {
      return accounts.accountUsage(conn, accountId, at);
    },
    async takeTempUpload(accountId, id, at) {
      return write(() => accounts.takeTempUploadTx(conn, accountId, id, at));
    },
    async releaseTempUpload(accountId, id, at) {
      return write(() => accounts.releaseTempUpload(conn, accountId, id, at));
    },
    async getTempUpload(accountId, id, at) {
      return accounts.getTempUpload(conn, accountId, id, at);
    },
    async purgeExpiredUploads(at) {
      return write(() => accounts.purgeExpiredUploads(conn, at));
    },
    async reserveIdempotencyKey(accountId, key, requestHash, at, staleBefore) {
      return write(() =>
        idempotency.reserveIdempotencyKey(conn, accountId, key, requestHash, at, staleBefore),
      );
    },
    async finishIdempotencyKey(accountId, key, response) {
      write(() => idempotency.finishIdempotencyKey(conn, accountId, key, response));
    },
    async releaseIdempotencyKey(accountId, key) {
      write(() => idempotency.releaseIdempotencyKey(conn, accountId, key));
    },
    async purgeIdempotencyKeys(olderThan) {
      return write(() => idempotency.purgeIdempotencyKeys(conn, olderThan));
    },

    async ensureAccount(accountId) {
      write(() => accounts.ensureAccount(conn, accountId, now()));
    },
    async ensureUser(accountId, userId) {
      write(() => accounts.ensureUser(conn, accountId, userId, now()));
    },
    async listAccounts() {
      return accounts.listAccounts(conn);
    },
    async listUsers(accountId) {
      return accounts.listUsers(conn, accountId);
    },
    async createApiKey(record) {
      return write(() => accounts.createApiKey(conn, record, now()));
    },
    async findApiKeyByHash(hash) {
      return accounts.findApiKeyByHash(conn, hash);
    },
    async listApiKeys(accountId) {
      return accounts.listApiKeys(conn, accountId);
    },
    async revokeApiKey(id) {
      return write(() => accounts.revokeApiKey(conn, id, now()));
    },
    async countApiKeys() {
      return accounts.countApiKeys(conn);
    },

    exportRecords() {
      return archive.exportRecords(conn, now());
    },
    async importRecords(records) {
      const counts = await archive.importRecords(conn, records);
      indexWritten();
      return counts;
    },
  };
  writeGroups.set(store, writeGroup);
  pacers.set(store, termListPacer);
  threadWriters.set(store, {
    group: (writes) => runGroup(writes, toPutSkillReply),
    putSkill: (skillWrite) => putSkill(skillWrite, toPutSkillReply),
  });
  return store;
}
