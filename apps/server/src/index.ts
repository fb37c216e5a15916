// Public API of @skillport/server: create and start the Skillport HTTP server in-process.
// Everything exported here is supported; nothing else is.

export type { CreateAppOptions, SkillportApp } from './app.js';
export { createApp, OPENAPI_INFO, openApiDocument } from './app.js';
export type { ArchiveCounts, ArchiveRecordType } from './archive/archive-format.js';
export { ARCHIVE_FORMAT, ARCHIVE_VERSION } from './archive/archive-format.js';
export { exportDatabase } from './archive/export-database.js';
export type { ImportResult } from './archive/import-database.js';
export { importDatabase } from './archive/import-database.js';
export type { AuthMode } from './auth/authenticator.js';
export type {
  EmbeddingsOptions,
  JobOptions,
  NamePolicy,
  PostgresSettings,
  ServerLimits,
  ServerOptions,
  SummaryModelOptions,
} from './config.js';
export { DEFAULT_LIMITS, optionsFromEnv, resolveLimits } from './config.js';
export type { CreateLoggerOptions, Logger, LogLevel } from './logger.js';
export { consoleLogger, createLogger, LOG_LEVELS, silentLogger } from './logger.js';
export { renderOpenApiJson } from './openapi-json.js';
export type { RunningServer } from './start-server.js';
export { openStore, startServer } from './start-server.js';
export type { PostgresSslMode } from './store/postgres/connection.js';
export type { PostgresStoreOptions } from './store/postgres/create-postgres-store.js';
export { createPostgresStore } from './store/postgres/create-postgres-store.js';
export { createSqliteStore } from './store/sqlite/create-sqlite-store.js';
export type { Store, TaskWatch } from './store/types.js';
export { SERVER_VERSION } from './version.js';
