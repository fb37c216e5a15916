/**
 * The Skillport HTTP app: middleware, routes, OpenAPI document.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import { type Authenticator, createAuthenticator } from './auth/authenticator.js';
import { createFailureThrottle } from './auth/failure-throttle.js';
import { requireIdentity } from './auth/middleware.js';
import { resolveLimits, type ServerLimits, type ServerOptions } from './config.js';
import { bodyLimits } from './http/body-limit.js';
import { parseTrustedProxies } from './http/client-address.js';
import type { AppEnv } from './http/context.js';
import { createErrorHandler, schemaError } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { jsonBounds } from './http/json-bounds.js';
import { MemoRouter } from './http/memo-router.js';
import { createNotFoundHandler } from './http/method-not-allowed.js';
import { rateLimit } from './http/rate-limit.js';
import { requestEntry } from './http/request-entry.js';
import { mergeVary } from './http/response-header.js';
import { renderOverviewOnPool } from './levels/extract-overview.js';
import { renderAbstract } from './levels/render-abstract.js';
import { consoleLogger, type Logger, silentLogger } from './logger.js';
import { redactingLogger } from './logging/redacting-logger.js';
import type { McpEndpoint } from './mcp/mcp-endpoint.js';
import { mcpOriginGuard } from './mcp/origin-guard.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerFileRoutes } from './routes/files.js';
import { registerHealthRoute } from './routes/health.js';
import { registerResourceRoutes } from './routes/resources.js';
import { createFastGets, type FastGets } from './routes/skill-fast-get.js';
import { registerSkillHistoryRoutes } from './routes/skill-history.js';
import { registerSkillRoutes } from './routes/skills.js';
import { registerSystemRoutes } from './routes/system.js';
import type { ServiceDeps } from './services/deps.js';
import { createFindGate } from './services/find-gate.js';
import { createReadCache, DEFAULT_READ_CACHE_MB, READ_CACHE_SHARES } from './services/read-cache.js';
import { createRecentUploads } from './services/recent-uploads.js';
import { createSkillChanges, withSkillChanges } from './services/skill-changes.js';
import { retentionPolicy } from './store/retention.js';
import type { Store } from './store/types.js';
import { SERVER_VERSION } from './version.js';
import { findWebDir, loadWebAssets } from './web/web-assets.js';
import { registerWebRoutes } from './web/web-routes.js';
import { createWorkerPool, type WorkerPool } from './workers/worker-pool.js';

/** What the app needs beyond {@link ServerOptions}: an opened store and, optionally, a job kick. */
export interface CreateAppOptions
  extends Pick<
    ServerOptions,
    | 'rootApiKey'
    | 'corsOrigins'
    | 'limits'
    | 'logger'
    | 'namePolicy'
    | 'webDir'
    | 'trustedProxies'
    | 'retention'
    | 'readCacheMb'
  > {
  store: Store;
  /**
   * Called after each write so a job runner picks the new task up (default: nothing); with `false`
   * after a write whose task was completed with it (`processAtWrite`): nothing to pick up.
   */
  kickJobs?: (wake?: boolean) => void;
  /** Event-driven wait for tasks (the job runner's `waitFor`); default: polling the store. */
  waitForJobs?: ServiceDeps['waitForJobs'];
  /** True once the server is shutting down: `GET /ready` answers 503 (default: never). */
  draining?: () => boolean;
  /** Query vectors for semantic find (from the embeddings endpoint); default none: find is lexical. */
  queryVectors?: ServiceDeps['queryVectors'];
  /** Worker threads for CPU-heavy work (default: a pool of its own whose threads start on first use and exit when idle). */
  workers?: WorkerPool;
  /**
   * Add and update render the deterministic L1 overview and store it with the write, recording its
   * task completed at once (default false: the job runner does it). Only for a server whose overview
   * is the deterministic one: no LLM summariser (see `startServer`).
   */
  processAtWrite?: boolean;
  /**
   * With `processAtWrite`: the job runner still embeds each written skill (an embedder is on), so the
   * write's task stays pending and its job keeps the overview the write stored (default false).
   */
  embedAfterWrite?: boolean;
}

/** The app and what it was built with. */
export interface SkillportApp {
  app: OpenAPIHono<AppEnv>;
  /** Handles one fetch `Request` (for `@hono/node-server` or tests). */
  fetch: (request: Request) => Response | Promise<Response>;
  auth: Authenticator;
  limits: ServerLimits;
  logger: Logger;
  /** The `/mcp` endpoint (MCP over Streamable HTTP): open sessions, and `close()` to end them at shutdown. */
  mcp: { sessionCount(): number; close(): Promise<void> };
  /** Folder the web catalogue is served from at `/`, or null when there is none. */
  webDir: string | null;
  /**
   * Gets answered before the framework (see `createFastGets`): a Node `request` listener
   * offers each request to `fastGets.answer` first and passes it to `fetch` (through the Node
   * adapter) when that answers false. Off when the app answers CORS (`corsOrigins`).
   */
  fastGets: FastGets;
}

/** Title, version and servers of the OpenAPI document. */
export const OPENAPI_INFO = {
  openapi: '3.1.0',
  info: {
    title: 'Skillport API',
    version: SERVER_VERSION,
    description: 'Self-hostable registry for agent skills (SKILL.md) and MCP tools.',
  },
  security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
};

/**
 * Builds the HTTP app on an opened store (no listening socket; see `startServer`).
 *
 * @param options.store - the store (required)
 * @param options.rootApiKey - a root key; with none and no stored keys the app runs in dev mode
 * @param options.corsOrigins - allowed browser origins (default none)
 * @param options.limits - overrides of the default limits
 * @param options.logger - log sink (default {@link consoleLogger}: JSON lines by pino at `LOG_LEVEL`;
 *   `false` silences); every record is redacted first, so API keys never reach it
 * @param options.webDir - folder of the built web catalogue served at `/` (default: the copy in this
 *   package's `dist/webapp`, else the workspace's `apps/web/dist`); `false` serves none
 * @param options.retention - history kept per skill (default: last 10 revisions and 30 days, at most 100)
 * @param options.readCacheMb - memory for reads kept while the database is unchanged, MiB (default 32)
 * @returns the app, its fetch handler, the authenticator (for `mode`), the effective limits and the
 *   catalogue folder
 * @throws Error when a configured `webDir` holds no built catalogue
 * @example
 * const { fetch } = await createApp({ store: createSqliteStore({ dataDir }) });
 * const res = await fetch(new Request('http://x/health'));
 * @see the OpenAPI document (every route), the @skillport/server README
 */
export async function createApp(options: CreateAppOptions): Promise<SkillportApp> {
  const logger =
    options.logger === false || options.logger === silentLogger
      ? silentLogger
      : redactingLogger(options.logger ?? consoleLogger, [options.rootApiKey]);
  const limits = resolveLimits(options.limits);
  const store = options.store;
  const auth = await createAuthenticator(store, { rootApiKey: options.rootApiKey });
  if (auth.mode === 'dev') {
    await store.ensureAccount('default');
    await store.ensureUser('default', 'default');
  }
  // Writes through any route are announced (MCP sessions send list_changed notifications).
  const changes = createSkillChanges();
  const workers = options.workers ?? createWorkerPool();
  const deps: ServiceDeps = {
    store: withSkillChanges(store, changes),
    limits,
    namePolicy: options.namePolicy ?? 'strict',
    queryVectors: options.queryVectors ?? null,
    kickJobs: options.kickJobs ?? (() => {}),
    processAtWrite: options.processAtWrite ?? false,
    embedAfterWrite: options.embedAfterWrite ?? false,
    waitForJobs: options.waitForJobs ?? null,
    renderAbstract,
    renderOverview: (skill) =>
      renderOverviewOnPool(workers, { name: skill.name, description: skill.description, body: skill.body }),
    workers,
    onApiKeyCreated: () => auth.keyCreated(),
    retention: retentionPolicy(options.retention),
    recentUploads: createRecentUploads(),
    readCache: createReadCache(
      Math.max(0, options.readCacheMb ?? DEFAULT_READ_CACHE_MB) * 2 ** 20,
      READ_CACHE_SHARES,
    ),
    findGate: createFindGate(limits.maxFindsPerKey),
    now: Date.now,
  };

  const app = new OpenAPIHono<AppEnv>({
    // Routing of a path asked again comes from memory (see `MemoRouter`).
    router: new MemoRouter(),
    defaultHook: (result) => {
      if (!result.success)
        throw schemaError(result.error.issues, result.target === 'json' ? 'body' : result.target);
    },
  });
  // Request id, client address, the dot-segment refusal and the access log line, in one step.
  app.use('*', requestEntry(logger, parseTrustedProxies(options.trustedProxies ?? [])));
  if (options.corsOrigins && options.corsOrigins.length > 0) {
    // Runs around the CORS step: its `Vary: Origin` would otherwise replace the `Vary` a route set on
    // Node's response (see `mergeVary`).
    app.use('*', async (c, next) => {
      await next();
      mergeVary(c);
    });
    app.use(
      '*',
      cors({
        origin: options.corsOrigins,
        allowHeaders: [
          'Content-Type',
          'Authorization',
          'X-API-Key',
          'X-Request-Id',
          'If-Match',
          'Mcp-Session-Id',
          'Mcp-Protocol-Version',
          'Last-Event-ID',
          'If-None-Match',
          'Idempotency-Key',
          // Sent by OpenViking's clients whenever configured (see auth/identity-headers.ts; the
          // agent header is accepted and ignored).
          'X-OpenViking-Account',
          'X-OpenViking-User',
          'X-OpenViking-Agent',
        ],
        allowMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
        // Retry-After: a browser on another origin sees it only when exposed, and its client (ky)
        // waits as long as a 429 or 503 asks instead of retrying at once into the same refusal.
        exposeHeaders: [
          'X-Request-Id',
          'ETag',
          'Mcp-Session-Id',
          'X-Skill-Revision',
          'Idempotent-Replayed',
          'Retry-After',
        ],
        maxAge: 600,
      }),
    );
  }
  const throttle = {
    counts: createFailureThrottle(limits.maxAuthFailuresPerMinute),
    perMinute: limits.maxAuthFailuresPerMinute,
  };
  const adminAccess = requireIdentity(auth, 'admin', throttle);
  const dataAccess = requireIdentity(auth, 'data', throttle);
  const limiter = rateLimit(limits.rateLimitPerMinute);
  // Authentication, then the rate limit (keyed on the caller), in one step of the chain.
  app.use('/api/v1/*', (c, next) =>
    (c.req.path.startsWith('/api/v1/admin/') ? adminAccess : dataAccess)(c, async () => {
      await limiter(c, next);
    }),
  );
  // A body is read (a streamed one counted as it arrives) and a JSON one walked only for a caller
  // with a valid key: a stranger gets 401 before any of it is buffered.
  app.use('/api/v1/*', bodyLimits(limits));
  app.use('/api/v1/*', jsonBounds(limits));
  // Writes a client may retry after losing the reply (after auth: keys are per caller).
  const idempotent = idempotency(store);
  app.on('POST', '/api/v1/skills', idempotent);
  app.on('PUT', '/api/v1/skills/:name', idempotent);
  app.on('POST', '/api/v1/skills/:name/restore', idempotent);
  // MCP over Streamable HTTP: same keys, limits and rate limit as the API.
  // The MCP SDK is loaded when `/mcp` is first used, so servers that never serve MCP start as fast.
  let mcpEndpoint: Promise<McpEndpoint> | null = null;
  let mcpLoaded: McpEndpoint | null = null;
  const loadMcp = () =>
    (mcpEndpoint ??= import('./mcp/mcp-endpoint.js').then((m) => {
      mcpLoaded = m.createMcpEndpoint(deps, changes, limits, logger);
      return mcpLoaded;
    }));
  const mcp: SkillportApp['mcp'] = {
    sessionCount: () => mcpLoaded?.sessionCount() ?? 0,
    async close() {
      if (mcpEndpoint) await (await mcpEndpoint).close();
    },
  };
  app.use('/mcp', mcpOriginGuard(options.corsOrigins ?? [], auth));
  app.use('/mcp', dataAccess);
  app.use('/mcp', limiter);
  // As on the API: the body is read only for a caller with a valid key.
  app.use('/mcp', bodyLimits(limits));
  app.use('/mcp', jsonBounds(limits));
  app.all('/mcp', async (c) => (await loadMcp()).handle(c));

  registerHealthRoute(
    app,
    auth,
    SERVER_VERSION,
    { store, draining: options.draining ?? (() => false) },
    throttle,
  );
  registerResourceRoutes(app, deps);
  registerSkillRoutes(app, deps);
  registerFileRoutes(app, deps);
  registerSkillHistoryRoutes(app, deps);
  registerSystemRoutes(app, deps);
  registerAdminRoutes(app, deps);
  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKeyAuth', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'BearerAuth', { type: 'http', scheme: 'bearer' });
  // The document is built once, on first request (building it walks every schema: ~15 ms).
  let openApiText: string | null = null;
  app.get('/openapi.json', (c) => {
    openApiText ??= JSON.stringify(app.getOpenAPI31Document(OPENAPI_INFO));
    return c.body(openApiText, 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  const webDir = findWebDir(options.webDir);
  registerWebRoutes(app, webDir ? loadWebAssets(webDir) : null);

  app.onError(createErrorHandler(logger));
  app.notFound(
    createNotFoundHandler([
      ...app.openAPIRegistry.definitions.flatMap((d) =>
        d.type === 'route' ? [{ method: d.route.method, path: d.route.path }] : [],
      ),
      { method: 'GET', path: '/openapi.json' },
    ]),
  );
  const trusted = parseTrustedProxies(options.trustedProxies ?? []);
  const fastGets = createFastGets({
    auth,
    deps,
    limiter,
    logger,
    trusted,
    // The CORS middleware shapes every response's headers: with it, every request goes through it.
    enabled: !(options.corsOrigins && options.corsOrigins.length > 0),
  });
  return { app, fetch: app.fetch, auth, limits, logger, mcp, webDir, fastGets };
}

/**
 * The OpenAPI 3.1 document of the API, as served at `GET /openapi.json`.
 *
 * @param app - an app from {@link createApp}
 * @returns the document object (key order as generated; see `renderOpenApiJson` for the file)
 * @example const doc = openApiDocument((await createApp({ store })).app);
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>): Record<string, unknown> {
  return app.getOpenAPI31Document(OPENAPI_INFO) as unknown as Record<string, unknown>;
}
