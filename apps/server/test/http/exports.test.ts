import { expect, test } from 'vitest';
import * as server from '../../src/index.js';

// A change of the public surface of @skillport/server must be deliberate: update this list with it.
test('@skillport/server exports exactly its public API', () => {
  expect(Object.keys(server).sort()).toEqual([
    'ARCHIVE_FORMAT',
    'ARCHIVE_VERSION',
    'DEFAULT_LIMITS',
    'LOG_LEVELS',
    'OPENAPI_INFO',
    'SERVER_VERSION',
    'consoleLogger',
    'createApp',
    'createLogger',
    'createPostgresStore',
    'createSqliteStore',
    'exportDatabase',
    'importDatabase',
    'openApiDocument',
    'openStore',
    'optionsFromEnv',
    'renderOpenApiJson',
    'resolveLimits',
    'silentLogger',
    'startServer',
  ]);
});

test('SERVER_VERSION matches package.json', async () => {
  const pkg = await import('../../package.json', { with: { type: 'json' } });
  expect(server.SERVER_VERSION).toBe(pkg.default.version);
});
