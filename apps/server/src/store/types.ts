/**
 * The storage interface of the server. Routes and services talk only to this; the SQLite store
 * (default) implements it, and a PostgreSQL store can implement it without touching routes or
 * services. Every method is async so network-backed stores fit.
 *
 * Units: times are epoch milliseconds; sizes are bytes; `revision` is the hex sha-256 of the skill's
 * file manifest (sorted `path\0sha256\n` lines, see `computeRevision`).
 *
 * Files: every file given to `putSkill` is stored and covered by the revision. `.overview.md` (L1) is
 * reserved: it is derived, written by the processing job (`completeTask`), listed by `listFiles` once
 * written, and NOT part of the revision (so a finished job never changes the ETag a client holds).
 */
import type { ArchiveCounts, DataRecord } from '../archive/archive-format.js';

/** The path of the L1 overview, written only by the processing job. */
export const OVERVIEW_PATH = '.overview.md';
/** The path of the L0 abstract, written with the skill by `putSkill`. */
export const ABSTRACT_PATH = '.abstract.md';
/** The path of the L2 definition. */
export const DEFINITION_PATH = 'SKILL.md';

/** Roles, strongest first: root manages accounts/users/keys (no data access), admin and user hold data. */
export type Role = 'root' | 'admin' | 'user';

/** Who is calling: resolved from an API key, or `default`/`default`/`admin` in dev mode. */
export interface Identity {
  accountId: string;
  userId: string;
  role: Role;
  /** id of the API key used; null in dev mode. */
  keyId: string | null;
}

/** How a file relates to the skill (the OpenAPI document: `GET /api/v1/skills/{name}`, `files[].kind`). */
export type SkillFileKind = 'definition' | 'summary' | 'auxiliary';

/** A file to write with a skill: `SKILL.md` (definition), `.abstract.md`/`.overview.md` (summary), others. */
export interface SkillFileInput {
  /** POSIX relative path inside the skill folder, already checked (no `..`, no absolute, no `\`). */
  path: string;
  kind: SkillFileKind;
  content: Uint8Array;
  /**
   * Whether the file is executable (its owner's execute bit, as a zip from a Unix host recorded it):
   * part of the revision when true, stored and returned by get as `executable: true`. Absent: not
   * executable.
   */
  executable?: boolean;
}

/** A stored file; `content` present only when asked for. */
export interface StoredFile {
  path: string;
  kind: SkillFileKind;
  size: number;
  sha256: string;
  /** True for an executable file; absent otherwise. */
  executable?: true;
  content?: Uint8Array;
}

/** Searchable and listable metadata of a skill, derived from its SKILL.md by core. */
export interface SkillMetadata {
  description: string;
  tags: string[];
  allowedTools: string[];
  frontmatter: Record<string, unknown>;
  /** The Markdown body, indexed for search. */
  body: string;
  /** Provenance given by the client (`source_metadata`), returned by get with `include_source`. */
  sourceMetadata: Record<string, unknown> | null;
}

/** A stored skill (without file contents). */
export interface SkillRecord extends SkillMetadata {
  id: string;
  accountId: string;
  /** `viking://user/{id}/skills` or `viking://agent/skills`. */
  rootUri: string;
  name: string;
  revision: string;
  /** L1 overview text once the processing job has run, else null. */
  overview: string | null;
  createdAt: number;
  updatedAt: number;
}

export type TaskType = 'add_skill' | 'update_skill';

/**
 * The `priority` column of a new job: 0 when its write waits for it (`task.interactive`), else 1.
 * Jobs run in a fair order: each user has two lanes (waiting writes, everything else), and a new job
 * takes the round after its lane's last waiting job, or the round under way when its lane has none
 * waiting; jobs run by round, in a round the waiting writes first, then in enqueue order. So one
 * user's backlog of thousands of jobs takes thousands of rounds while every other lane (another
 * user's writes, or the same user's waiting writes) runs in the round under way — and the backlog
 * still gets a job in every round. Retries and released jobs run when due, before new jobs.
 *
 * @param task - the write's task
 * @returns 0 (interactive) or 1 (background)
 */
export function taskPriority(task: { interactive?: boolean }): 0 | 1 {
  return task.interactive === true ? 0 : 1;
}
export type TaskStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

/** A full replacement of one skill, committed atomically with its processing job. */
export interface SkillWrite extends SkillMetadata {
  accountId: string;
  rootUri: string;
  name: string;
  /**
   * Every file of the new version (SKILL.md, .abstract.md, auxiliary files). Old files not listed are
   * removed. Paths must be unique; `.overview.md` is reserved (refused with `INVALID_ARGUMENT`).
   */
  files: SkillFileInput[];
  /**
   * When set, the write fails with a `CONFLICT` (412) SkillportError unless the current revision is one
   * of these (an `If-Match` header may list several), compared strongly (RFC 9110 §13.1.1): `*` matches
   * any existing skill, a weak tag (`W/"…"`, kept as sent) or an empty list matches nothing.
   */
  ifMatch?: readonly string[];
  /** When true the skill must already exist (update); a missing skill is `NOT_FOUND`. */
  mustExist?: boolean;
  /**
   * The temp upload (of `accountId`) this write was read from: deleted in the same transaction, so an
   * upload is used up only by a write that succeeds (a refused add leaves it for a retry). Gone
   * already (used by a concurrent write, expired and purged) → `NOT_FOUND` and nothing is written.
   */
  tempUploadId?: string;
  /**
   * The account's storage quota, bytes (0 or absent = none): the write fails with 507
   * `RESOURCE_EXHAUSTED` (`details.reason` `account_quota`) and changes nothing when the files of the
   * account's other live skills plus these files would pass it (see {@link AccountUsage.storedBytes}).
   * Checked inside the write's transaction, serialised per account on every engine.
   */
  quotaBytes?: number;
  /**
   * Most live skills of the account (0 or absent = none): a write that would create one more (a new
   * name, or a deleted skill brought back) fails with 403 `RESOURCE_EXHAUSTED` (`details.reason`
   * `account_skill_limit`) and changes nothing; replacing a live skill always passes. Checked inside
   * the write's transaction, serialised per account on every engine.
   */
  maxSkills?: number;
  /**
   * The processing job enqueued in the same transaction. `interactive`: the write waits for its job
   * (`wait=true`), so the job goes before other work of its round in the fair order (see
   * {@link taskPriority}); default false.
   */
  task: { type: TaskType; userId: string; interactive?: boolean };
  /**
   * The processing already done while writing: the L1 overview rendered from this very content. The
   * store writes it with the skill (`overview`, the `.overview.md` file, the search row) in the same
   * transaction and records the task `completed` at once (one attempt), its result
   * `{revision, ...result}` — what the job would have written, without a job run. With `result` null
   * the overview is written the same way but the task stays `pending`: its job has work left (the
   * embedding) and keeps the overview stored here. Absent: the task is `pending` and a job runner
   * writes the overview.
   */
  processed?: { overview: string; result: Record<string, unknown> | null };
}

export interface SkillWriteResult {
  skill: SkillRecord;
  taskId: string;
  /** false when an existing skill was replaced. */
  created: boolean;
  /**
   * History entries of the skill after the write, the new one included (a re-added skill counts the
   * kept entries from before its deletion): retention by count can delete nothing while this is at
   * most `RetentionPolicy.keepLast`.
   */
  revisions: number;
}

/** A persisted processing job. */
export interface TaskRecord {
  id: string;
  accountId: string;
  userId: string;
  type: TaskType;
  status: TaskStatus;
  /** The skill the task processes. */
  skillId: string;
  /** The skill revision the task was enqueued for. */
  revision: string;
  /** Times the task was claimed (a retry increments it). */
  attempts: number;
  /** Earliest time the task may run (later than `createdAt` while waiting for a retry). */
  runAt: number;
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: number;
  updatedAt: number;
  /** Replica holding the task while `running` (see {@link TaskLease.owner}); null otherwise. */
  leaseOwner: string | null;
  /** When the holder's lease runs out while `running` (epoch ms); null otherwise. */
  leaseExpiresAt: number | null;
  /**
   * `viking://…/skills/<name>` of the skill the task processes, filled by `getTask`, `listTasks` and
   * `cancelTask`; null when the skill was deleted since.
   */
  skillUri?: string | null;
}

/** What `Store.listTasks` returns: the caller's tasks matching every given field, newest first. */
export interface TaskListFilter {
  type?: TaskType;
  status?: TaskStatus;
  /** Only tasks of this skill (`viking://…/skills/<name>`). */
  skillUri?: string;
  /** Most tasks returned (1–200). */
  limit: number;
}

/** What `Store.cancelTask` did. */
export interface TaskCancelOutcome {
  /** `cancelled`: it was pending and is now cancelled; `unchanged`: it was already cancelled, running or finished. */
  outcome: 'cancelled' | 'unchanged';
  /** The task after the call. */
  task: TaskRecord;
}

/** A subscription of {@link Store.watchTasks}. */
export interface TaskWatch {
  /**
   * True while settlements in other processes sharing the database are delivered too (PostgreSQL with
   * its notification connection up); false when only this store object's own are (SQLite, or while
   * PostgreSQL's notification connection is down).
   */
  readonly shared: boolean;
  /** Ends the subscription (idempotent). */
  close(): void;
}

/**
 * A replica's claim on a running task. Only the holder of the current lease may renew, complete, fail
 * or release the task: each claim gets a fresh random `token`, and every such call presents it, so a
 * replica that stalled past its lease (and whose task another replica took over) changes nothing —
 * its calls answer `false` and write nothing. This is what makes each job's effect happen once.
 */
export interface TaskLease {
  taskId: string;
  /** Random per claim (a fencing token); never shown to clients. */
  token: string;
  /** Who holds it, e.g. `host:pid:random` (diagnostics: logs, `TaskRecord.leaseOwner`). */
  owner: string;
  /** End of the lease (epoch ms); past it another replica may take the task over. */
  expiresAt: number;
}

/** A task as returned by {@link Store.claimTask}: `running`, with the caller's lease. */
export interface ClaimedTask extends TaskRecord {
  lease: TaskLease;
}

export interface QueueCounts {
  pending: number;
  processing: number;
  completed: number;
  failed: number;
}

/** What {@link Store.readSkillView} reads besides the skill's metadata. */
export interface SkillViewOptions {
  /** Paths of files whose contents to return (e.g. `.abstract.md`, `SKILL.md`); missing ones are absent. */
  contents: readonly string[];
  /** Also list every live file (without contents). */
  listFiles: boolean;
  /**
   * Whether to read the Markdown body: `always`, `never` (left as `''`), or `without-overview` (only
   * when the overview is still null, i.e. when a reader must render it from the body).
   */
  body: 'always' | 'never' | 'without-overview';
}

/** What a get asks for (see {@link Store.readSkillJson}): the query of `GET /api/v1/skills/{name}`. */
export interface SkillJsonRequest {
  /** 0 (abstract), 1 (overview), 2 (SKILL.md), or null for all three. */
  level: 0 | 1 | 2 | null;
  /**
   * SKILL.md (`content`, `content_sha256`): `true` adds it at levels 0 and 1; `false` leaves it out of
   * a read of all levels (`level` null); `null` (not given) gives it with all levels and level 2.
   * Level 2 always carries it. See `wantsContent`.
   */
  includeContent: boolean | null;
  /** Also the file list (`files`, with one `directory` entry per folder). */
  includeFiles: boolean;
  /** Also the source metadata (`source`). */
  includeSource: boolean;
}

/**
 * What {@link Store.readSkillJson} answers: the get result as finished JSON bytes, or — when the request
 * carries the overview and the skill's processing job has not written it yet — the view, from whose body
 * the caller renders the overview.
 */
export type SkillJsonRead =
  | {
      /** `JSON.stringify` of the get result (the OpenAPI document's `GetSkillResult`), UTF-8. */
      json: Uint8Array;
      /** The skill's revision (its `ETag`). */
      revision: string;
      /** True once the skill's overview is stored (see {@link SkillRevisionState.settled}). */
      settled: boolean;
      /** The skill's stamp when settled (see {@link SkillRevisionState.stamp}), read with the JSON. */
      stamp: string | null;
    }
  | { view: SkillView };

/** The current revision of a skill and whether it is settled (see {@link Store.readSkillRevision}). */
export interface SkillRevisionState {
  /** The skill's revision (its `ETag`). */
  revision: string;
  /** True once the processing job has written the skill's overview (`overview` is not null). */
  settled: boolean;
  /**
   * When settled, the skill's stamp (`skillStamp`: a fingerprint of its row and stored overview, equal
   * for two reads exactly when a settled get result of the skill would be the same), else null. A
   * reader keeping a get result checks it against this to keep serving the result after commits that
   * did not touch the skill.
   */
  stamp: string | null;
}

/** One skill as a reader sees it, read in one statement (see {@link Store.readSkillView}). */
export interface SkillView {
  skill: SkillRecord;
  /** The requested files that exist, by path, with `content`. */
  contents: Map<string, StoredFile>;
  /** Every live file by path (no contents) when `listFiles` was asked, else null. */
  files: StoredFile[] | null;
}

/**
 * What a search hit carries of its skill: the fields `find` lists (no body, frontmatter, overview or
 * source metadata; the hit's `matchedFields` were computed from its fields by the store).
 */
export type SearchHitSkill = Pick<
  SkillRecord,
  'name' | 'rootUri' | 'description' | 'tags' | 'allowedTools' | 'revision' | 'updatedAt'
>;

export interface SearchHit {
  skill: SearchHitSkill;
  /** Normalised to [0, 1], descending. */
  score: number;
  /**
   * The matched fields that decide the hit's level (`find`'s `level`: the lowest level among them,
   * capped at 2), in index order: those of level 0 that matched (`name`, `tags`, `description`);
   * when none did, `overview` if the L1 overview matched; never `body` (a body match is level 2,
   * the level of a hit without a lower-level match anyway). Empty: level 2.
   */
  matchedFields: string[];
  /**
   * `name` when the query is the skill's name (or its kebab-case form); else `hybrid` when both the
   * words and the meaning matched, `lexical` for words only, `semantic` for meaning only.
   */
  matchReason: 'name' | 'lexical' | 'semantic' | 'hybrid';
}

/** What `Store.searchAnswer` gives: the hits of `Store.search`, and whether they may be reused. */
export interface SearchAnswer {
  /** As `Store.search` gives them: best first, at most `limit`. */
  hits: SearchHit[];
  /**
   * True when the hits are a function of the arguments and of the database state the search read
   * alone, so a caller that read the change token (`Store.changeToken`) before searching may give
   * them again while the token is unchanged, on any replica. False when the engine consulted
   * something it keeps in memory that may be older than that state: on SQLite the vocabulary slices
   * of typo tolerance (reused for minutes), on PostgreSQL the process's copy of the stored vectors
   * (semantic queries: caught up by a read that concurrent finds share, which may have begun before
   * the token was read).
   */
  stable: boolean;
}

/** The query vector of a semantic search (see `Store.search`). */
export interface SemanticQuery {
  /** The embedder's model: only vectors stored with this model are compared. */
  model: string;
  /** The query's unit-length embedding. */
  vector: Float32Array;
  /**
   * The model's calibration (`Embedder.semanticOnlyMinZ`): least z-score for a skill found by
   * meaning alone. Absent: the chance level of `search/semantic.ts`.
   */
  semanticOnlyMinZ?: number;
}

/** A skill revision that needs an embedding (see `Store.skillsNeedingVectors`). */
export interface SkillToEmbed {
  skillId: string;
  revision: string;
  name: string;
  description: string;
  tags: string[];
  body: string;
}

/** One version of a skill in its history (the current one has `supersededAt: null`). */
export interface SkillRevisionRecord {
  skillId: string;
  revision: string;
  /** The files of that version (content-addressed; contents kept). */
  manifest: Array<{ path: string; kind: SkillFileKind; size: number; sha256: string; executable?: true }>;
  createdAt: number;
  /** The user whose write made this revision; null for revisions stored before authors were recorded. */
  createdBy: string | null;
  /** When a later write replaced it or the skill was deleted; null for the live version. */
  supersededAt: number | null;
}

/** One skill's place: account, root and name. */
export interface SkillKey {
  accountId: string;
  rootUri: string;
  name: string;
}

/**
 * How long a skill's history is kept (see `store/retention.ts` for the rules and defaults). A
 * superseded revision is deleted once it is neither among the `keepLast` newest revisions of its
 * (existing) skill nor superseded less than `keepForMs` ago, or once it is past the `keepMost` newest;
 * the live revision is always kept. A deleted skill's history is kept for `keepForMs` after the
 * deletion, then deleted whole.
 */
export interface RetentionPolicy {
  /** Newest revisions of each existing skill always kept, the live one included (≥ 1; `Infinity`: all). */
  keepLast: number;
  /** Superseded revisions younger than this are kept too, ms (0: none; `Infinity`: all). */
  keepForMs: number;
  /**
   * Most revisions kept of one skill, the live one included, whatever `keepForMs` says (≥ `keepLast`;
   * absent or `Infinity`: no cap). Applied when the skill's history is pruned (after each write).
   */
  keepMost?: number;
  /**
   * Deleted skills per account whose history is kept: the most recently deleted ones (≥ 0; absent or
   * `Infinity`: no cap). Applied by a prune with `deletedOf` (after each delete).
   */
  keepDeleted?: number;
}

/** What one {@link Store.pruneHistory} call deleted. */
export interface PruneResult {
  /** History entries deleted. */
  revisions: number;
  /** File contents deleted (no kept revision nor live file referenced them any more). */
  blobs: number;
  /** Bytes of those contents. */
  bytes: number;
  /** True when the call stopped at `maxRevisions` and more history may be prunable (call again). */
  more: boolean;
}

/** One entry of the change feed: the latest change of one skill (see {@link Store.listChanges}). */
export interface ChangeFeedEntry {
  /** Position in the feed: increases with every change, in commit order; never reused. */
  seq: number;
  rootUri: string;
  name: string;
  /** The revision written, or for a deletion the last revision the skill had. */
  revision: string;
  deleted: boolean;
  /** When the change was made, epoch ms. */
  changedAt: number;
  /** The live skill (the summary fields of `listSkills`), null for a deletion. */
  skill: SkillRecord | null;
}

/** A page of the change feed. */
export interface ChangeFeedPage {
  /** Changes in feed order (ascending `seq`), at most the limit asked. */
  changes: ChangeFeedEntry[];
  /**
   * The position to continue after: the `seq` of the last change returned, or when none were, the
   * highest `seq` of the account at read time (at least `afterSeq`).
   */
  lastSeq: number;
  /** True when more changes follow `lastSeq` already. */
  more: boolean;
}

/** A request remembered under its `Idempotency-Key` (per account; the key includes the user). */
export interface IdempotencyRecord {
  /** sha-256 hex of the request (method, path and query, body). */
  requestHash: string;
  /** The response once the request succeeded (JSON: `{status, headers, body}`); null while it runs. */
  response: string | null;
  /** When the key was reserved, epoch ms. */
  createdAt: number;
}

export interface TempUploadRecord {
  id: string;
  accountId: string;
  filename: string;
  content: Uint8Array;
  expiresAt: number;
}

/** The quota of {@link Store.putTempUpload}. */
export interface TempUploadQuota {
  /** Most bytes of unexpired temp uploads per account (0 = none). */
  quotaBytes: number;
  /** Uploads whose `expiresAt` is at or before this time (epoch ms) no longer count. */
  now: number;
}

/** What an account stores, in bytes ({@link Store.accountUsage}). */
export interface AccountUsage {
  /**
   * Sum of the sizes of the files of the account's live skills: SKILL.md, the L0 abstract and the
   * auxiliary files (the generated `.overview.md` and kept history are not counted; a file stored
   * twice counts twice).
   */
  storedBytes: number;
  /** Sum of the sizes of the account's unexpired temp uploads. */
  tempUploadBytes: number;
  /** Live skills of the account, in all its roots (counted against {@link SkillWrite.maxSkills}). */
  skills: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  userId: string;
  role: Role;
  /** First characters of the key, for display; the key itself is never stored. */
  prefix: string;
  createdAt: number;
  revokedAt: number | null;
}

/** Result of {@link Store.checkReady}. */
export interface StoreReadiness {
  ready: boolean;
  /** Schema version found in the database; null when it could not be read. */
  schemaVersion: number | null;
  /** Schema version this build writes. */
  expectedSchemaVersion: number;
  /** Why not ready (e.g. `database unreachable: …`, `schema version 2, expected 4: …`); absent when ready. */
  reason?: string;
}

/**
 * The store. All methods may throw `SkillportError` (from `@skillport/core`) for contract errors
 * (`NOT_FOUND`, `CONFLICT`) and plain errors for failures of the engine.
 */
export interface Store {
  /** Human label for logs, e.g. `sqlite:/data/skillport.db`. */
  readonly description: string;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Whether this store can serve requests now (`GET /ready`): the database answers a query and its
   * schema is the version this build writes. Never throws: failures are `ready: false` with a reason.
   */
  checkReady(): Promise<StoreReadiness>;
  /**
   * A token that changes whenever data this store serves may have changed: after any commit that
   * wrote what an answer reads, by this process or any other on the same database (commits that only
   * maintain the search index need not move it). Readers keep what they derived from the store (a
   * rendered skill, a resolved API key) together with the token read *before* reading the store, and
   * reuse it only while the token is still the same — so a replica never serves what another one
   * has changed. It must be cheap (SQLite: a counter read from the database file's shared memory,
   * then a one-row counter only when that moved; no statement of the store's thread); an engine that
   * cannot tell cheaply may return a new value on every call, which turns such reuse off. Never
   * throws (a failure gives a new value).
   */
  changeToken(): Promise<string>;

  // skills
  putSkill(write: SkillWrite): Promise<SkillWriteResult>;
  getSkill(accountId: string, rootUri: string, name: string): Promise<SkillRecord | null>;
  getSkillById(skillId: string): Promise<SkillRecord | null>;
  /**
   * Every kept version of the named skill, newest first — also after the skill was deleted, until
   * retention deletes that history. One revision may appear several times (a restore writes the same
   * files again).
   */
  listRevisions(accountId: string, rootUri: string, name: string): Promise<SkillRevisionRecord[]>;
  /**
   * File contents by sha-256, as kept for live files and revisions. Callers name only hashes from a
   * manifest the caller may read; a hash no longer stored (retention ran meanwhile) is absent.
   */
  readBlobs(sha256s: readonly string[]): Promise<Map<string, Uint8Array>>;
  /**
   * Applies retention: deletes the history entries `policy` no longer keeps — of one skill (`scope`),
   * of the deleted skills of one account past its `keepDeleted` most recently deleted (`deletedOf`,
   * an account id: their whole history, the time rule aside; a skill added again since is not
   * touched), or of every skill, at most `maxRevisions` (default 1000) per call — and, in the same transaction,
   * every file content no kept revision and no live file references any more. Engines may then
   * return the freed space to the operating system (SQLite: incremental vacuum and a WAL checkpoint).
   */
  pruneHistory(
    policy: RetentionPolicy,
    now: number,
    options?: { scope?: SkillKey; deletedOf?: string; maxRevisions?: number },
  ): Promise<PruneResult>;
  /**
   * The change feed of some roots of one account: for each skill (live or deleted) its latest change,
   * in ascending `seq` after `afterSeq`, changed at or after `since` (epoch ms; null = any time), at
   * most `limit`. A skill written again moves to the end of the feed, so a reader that pages with
   * the returned `lastSeq` sees every skill's latest state and never misses a change.
   */
  listChanges(
    accountId: string,
    rootUris: readonly string[],
    options: { afterSeq: number; since: number | null; limit: number },
  ): Promise<ChangeFeedPage>;
  /**
   * Skills of one root by name, at most `limit`, with the root's total. `withBody: false` (default
   * true) leaves `body` as `''` and skips reading it — what a listing needs, and much cheaper for
   * large skills. `summary: true` reads only what a listing shows (name, root, description, tags,
   * allowed tools, revision, times): `body` `''`, `frontmatter` `{}`, `overview` and `sourceMetadata`
   * null. `after` continues a listing (keyset pagination): only names sorting after it (code-unit
   * order, as the listing is sorted), so a page costs the same wherever it starts.
   */
  listSkills(
    accountId: string,
    rootUri: string,
    options: { limit: number; after?: string; withBody?: boolean; summary?: boolean },
  ): Promise<{ skills: SkillRecord[]; total: number }>;
  /**
   * The named skill from the first of `rootUris` that holds it, with the requested file contents and
   * file list — everything `get` needs in one read (one statement on SQLite). Null when no root has it.
   */
  readSkillView(
    accountId: string,
    rootUris: readonly string[],
    name: string,
    options: SkillViewOptions,
  ): Promise<SkillView | null>;
  /**
   * The named skill from the first of `rootUris` that holds it as the body of a get: the same read as
   * {@link Store.readSkillView}, turned into JSON where the data is (on SQLite inside the database
   * thread, which hands over bytes instead of the view's objects). Byte for byte what building the result
   * from `readSkillView` gives. Null when no root has it.
   */
  readSkillJson(
    accountId: string,
    rootUris: readonly string[],
    name: string,
    request: SkillJsonRequest,
  ): Promise<SkillJsonRead | null>;
  /**
   * The revision of the named skill from the first of `rootUris` that holds it, and whether it is
   * settled (its overview written by the processing job) — what answering `If-None-Match` needs,
   * without reading the rest of the skill (one indexed lookup). Null when no root has it.
   */
  readSkillRevision(
    accountId: string,
    rootUris: readonly string[],
    name: string,
  ): Promise<SkillRevisionState | null>;
  /**
   * A token that changes whenever a skill of these roots of the account is added, replaced or
   * deleted (by any process on the database): the number of skills and the latest write time per
   * root. Cheap enough to poll; compare tokens for equality only.
   */
  skillsVersion(accountId: string, rootUris: readonly string[]): Promise<string>;
  listFiles(skillId: string, options: { withContent: boolean }): Promise<StoredFile[]>;
  readFile(skillId: string, path: string): Promise<StoredFile | null>;
  /**
   * Deletes the skill and its files; its history is kept (restorable) until retention deletes it, and
   * the change feed records the deletion. Returns the number of files deleted, or null if absent.
   */
  deleteSkill(
    accountId: string,
    rootUri: string,
    name: string,
    options?: { ifMatch?: readonly string[] },
  ): Promise<number | null>;
  /**
   * Search over the given roots of one account; best first, at most `limit`. Lexical always; with
   * `semantic`, skills whose stored vector (same `model`) is close to the query vector are candidates
   * too, and the engine-neutral ranking (`search/ranking.ts`) fuses both signals.
   */
  search(
    accountId: string,
    rootUris: string[],
    query: string,
    options: { limit: number; semantic?: SemanticQuery },
  ): Promise<SearchHit[]>;
  /**
   * {@link Store.search}, with whether its hits may be reused until the change token moves
   * ({@link SearchAnswer.stable}).
   */
  searchAnswer(
    accountId: string,
    rootUris: string[],
    query: string,
    options: { limit: number; semantic?: SemanticQuery },
  ): Promise<SearchAnswer>;

  // embeddings (one vector per skill, for its current revision)
  /**
   * Stores the embedding of one skill revision (replacing any earlier one). Nothing is stored, and
   * false returned, when the skill was deleted or has another revision by now.
   */
  putSkillVector(skillId: string, revision: string, model: string, vector: Float32Array): Promise<boolean>;
  /**
   * Skills (any account) whose current revision has no vector of `model` — new, updated, or embedded
   * by another model — at most `limit`, oldest first.
   */
  skillsNeedingVectors(model: string, limit: number): Promise<SkillToEmbed[]>;

  // processing jobs (L1 overview + search index), safe across replicas (see TaskLease)
  /**
   * Claims one runnable task for `options.owner` with a lease of `options.leaseMs`: a task `running`
   * whose lease expired before `now` (its replica died or stalled: taken over), else the retry or
   * released task whose `runAt` came first, else the next new task in the fair order (see
   * {@link taskPriority}). The task becomes `running` and `attempts` grows by one. Each step is an
   * index probe, however many tasks are pending.
   * Two replicas never hold the same task at once (SQLite: one write transaction; PostgreSQL:
   * `FOR UPDATE SKIP LOCKED`).
   *
   * @returns the claimed task with its lease, or null when nothing is runnable
   */
  claimTask(now: number, options: { owner: string; leaseMs: number }): Promise<ClaimedTask | null>;
  /**
   * Ends at `now` the leases of running tasks whose holder `isGone` says is dead (a replica starting
   * again after a crash: its previous run's tasks need not wait for their leases to run out). The
   * tasks become claimable at once; their old holders, if alive after all, can no longer finish them
   * (a new claim changes the token), so a wrong guess costs a repeated run, never a repeated effect.
   *
   * @param isGone - called once per distinct lease owner of a running task
   * @returns the number of tasks whose lease was ended
   */
  expireLeases(isGone: (owner: string) => boolean, now: number): Promise<number>;
  /**
   * Extends a lease to `expiresAt` (epoch ms) while the holder works.
   *
   * @returns false when the lease is no longer held (the task was taken over, released or finished):
   *   the holder should stop, its result would be discarded
   */
  renewTaskLease(lease: TaskLease, expiresAt: number): Promise<boolean>;
  /**
   * Stores the overview (`.overview.md` + `overview`) and re-indexes the skill for search, then marks
   * the task completed — one transaction, only while `lease` is held. When `revision` is given and the
   * skill has moved on (or was deleted) the overview is not written (a newer task covers it); the task
   * still completes.
   *
   * @returns false when the lease is no longer held: nothing was written (another replica owns the
   *   task now, or it already finished)
   */
  completeTask(
    lease: TaskLease,
    output: { overview: string | null; revision?: string; result: Record<string, unknown> },
  ): Promise<boolean>;
  /**
   * Background upkeep of the search index: merges its segments by about `maxPages` pages of work
   * (each write adds a small segment, and every query probes every segment), then (SQLite) brings
   * the per-term match lists up to the rows written since their last pass, a bounded step at a
   * time with a rest after each while requests come (at most a fifth of the database thread; none
   * while the threaded store saw no request for 100 ms). Cheap when there is nothing to do.
   *
   * @param maxPages - work budget of this step, in index pages (≈ 4 KiB each); ~64 takes a few ms
   * @param options - `merge: false` skips the merge (it waits for writes to pause) and does only
   *   the upkeep that follows each write; default true
   * @returns true when work was done and more may remain (call again), false when the index is
   *   already merged and the lists are up to date
   */
  compactSearchIndex(maxPages: number, options?: { merge?: boolean }): Promise<boolean>;
  /**
   * Records a failure of the lease holder: back to `pending` at `retryAt`, or `failed` for good when
   * `retryAt` is null.
   *
   * @returns false when the lease is no longer held (nothing recorded)
   */
  failTask(lease: TaskLease, error: string, retryAt: number | null): Promise<boolean>;
  /**
   * Gives a claimed task back (graceful shutdown): `pending` again, runnable at once by any replica,
   * and the attempt is not counted.
   *
   * @returns false when the lease is no longer held
   */
  releaseTask(lease: TaskLease): Promise<boolean>;
  getTask(accountId: string, userId: string, taskId: string): Promise<TaskRecord | null>;
  /** The caller's tasks matching `filter`, newest first (by `createdAt`), at most `filter.limit`. */
  listTasks(accountId: string, userId: string, filter: TaskListFilter): Promise<TaskRecord[]>;
  /**
   * Cancels one of the caller's tasks while it is `pending` (no replica holds it): it becomes
   * `cancelled` and is never claimed. A running, finished or already cancelled task is left as it is
   * (`outcome: 'unchanged'`).
   *
   * @returns null when the caller has no task with that id
   */
  cancelTask(
    accountId: string,
    userId: string,
    taskId: string,
    now: number,
  ): Promise<TaskCancelOutcome | null>;
  /** Counts of the caller's tasks by status (`processing` = running); `taskIds` narrows to those tasks. */
  queueCounts(
    accountId: string,
    userId: string,
    options?: { taskIds?: readonly string[] },
  ): Promise<QueueCounts>;
  /** Deletes `completed`/`failed`/`cancelled` tasks last updated before `olderThan` (retention); returns how many. */
  purgeFinishedTasks(olderThan: number): Promise<number>;
  /**
   * Subscribes to task settlements: `listener` is called (with no arguments, possibly more than once
   * per change) after a task left `pending`/`running` — completed, failed for good or cancelled —
   * through this store object, and, when {@link TaskWatch.shared} is true, through any process sharing
   * the database (PostgreSQL: `LISTEN`/`NOTIFY` on one dedicated connection of the store). A hint, not
   * a record: a waiter re-reads {@link Store.queueCounts} when called, and still re-checks now and then
   * on its own (a notification can be missed while the connection is re-established).
   *
   * @param listener - called after the change is committed; must not throw
   * @returns the subscription; `close()` it when done
   */
  watchTasks(listener: () => void): TaskWatch;

  // temporary uploads
  /**
   * Stores a temp upload; with `quota`, in a transaction serialised per account, and fails with 507
   * `RESOURCE_EXHAUSTED` (`details.reason` `temp_upload_quota`, nothing stored) when the account's
   * unexpired uploads plus this one would pass `quota.quotaBytes`.
   */
  putTempUpload(upload: Omit<TempUploadRecord, 'id'>, quota?: TempUploadQuota): Promise<string>;
  /** The account's stored bytes and unexpired temp upload bytes at `now` (epoch ms). */
  accountUsage(accountId: string, now: number): Promise<AccountUsage>;
  /** Returns and deletes the upload (consumed once); null when unknown, expired or of another account. */
  takeTempUpload(accountId: string, id: string, now: number): Promise<TempUploadRecord | null>;
  /**
   * Returns the upload without using it up (a write naming it in `SkillWrite.tempUploadId` does);
   * null when unknown, expired or of another account.
   */
  getTempUpload(accountId: string, id: string, now: number): Promise<TempUploadRecord | null>;
  /**
   * Deletes the upload without reading it (its owner gives it up before it expires, so it no longer
   * counts toward the temp-upload quota). True when an unexpired upload of that account was deleted;
   * false when unknown, expired, already used or of another account (one of another account is kept).
   */
  releaseTempUpload(accountId: string, id: string, now: number): Promise<boolean>;
  purgeExpiredUploads(now: number): Promise<number>;

  // Idempotency-Key (POST/PUT retried by a client that lost the reply)
  /**
   * Reserves `key` of `accountId` for a request with `requestHash`. Returns null when the caller now
   * holds it (it runs the request, then `finishIdempotencyKey` or `releaseIdempotencyKey`), else the
   * record already there. A reservation with no response created before `staleBefore` (its request
   * died with its process) is taken over.
   */
  reserveIdempotencyKey(
    accountId: string,
    key: string,
    requestHash: string,
    now: number,
    staleBefore: number,
  ): Promise<IdempotencyRecord | null>;
  /** Stores the response of a reserved key (`response`: JSON `{status, headers, body}`). */
  finishIdempotencyKey(accountId: string, key: string, response: string): Promise<void>;
  /** Drops a reservation whose request failed, so a retry runs again. */
  releaseIdempotencyKey(accountId: string, key: string): Promise<void>;
  /** Deletes keys created before `olderThan`; returns how many. */
  purgeIdempotencyKeys(olderThan: number): Promise<number>;

  // accounts, users, keys (keys stored as sha-256 hashes)
  ensureAccount(accountId: string): Promise<void>;
  ensureUser(accountId: string, userId: string): Promise<void>;
  listAccounts(): Promise<string[]>;
  listUsers(accountId: string): Promise<string[]>;
  createApiKey(
    record: Omit<ApiKeyRecord, 'id' | 'createdAt' | 'revokedAt'> & { hash: string },
  ): Promise<ApiKeyRecord>;
  findApiKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  listApiKeys(accountId?: string): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: string): Promise<boolean>;
  countApiKeys(): Promise<number>;

  // moving data between stores (`skillport db export|import`; records of `archive/archive-format.ts`)
  /**
   * Every record of the database in archive order (accounts, users, keys, blobs, skills with their
   * live manifests, revision history oldest first, tasks, unexpired temp uploads), read as one
   * consistent snapshot and streamed (a page at a time, never the whole database in memory). Ids,
   * revisions, sha-256s and times are returned unchanged; a `running` task is returned as `pending`.
   * The store may be busy until the iteration ends: use a store opened for the export.
   */
  exportRecords(): AsyncIterable<DataRecord>;
  /**
   * Writes archive records into this store, all or nothing, keeping every id, revision, sha-256 and
   * time; skills are indexed for search as they arrive. The records come in archive order (blobs
   * before the skills and revisions that name them). Accounts and users that already exist are
   * merged; any other data already present makes it refuse.
   *
   * @returns the number of records written per type
   * @throws SkillportError `CONFLICT` when the store already holds skills, history, keys, file
   *   contents or tasks; whatever the iterable throws (nothing is written then)
   */
  importRecords(records: AsyncIterable<DataRecord>): Promise<ArchiveCounts>;
}
