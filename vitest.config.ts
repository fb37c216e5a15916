import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { findPostgresBin } from './scripts/test-support/postgres-cluster.mjs';

// One vitest run over every workspace package. Packages resolve each other's TypeScript sources
// through the `@skillport/source` export condition, so unit tests need no build of their dependencies.
const source = '@skillport/source';

// The server's store, HTTP, job, archive and durability suites run on both storage engines: the
// `default` project runs everything on SQLite; the `postgres` project runs those suites again
// (SKILLPORT_TEST_ENGINE=postgres) against one throwaway PostgreSQL cluster per run, plus the
// PostgreSQL-only tests (the archive suite then moves a SQLite registry through PostgreSQL and back).
// Files named `sqlite-*.test.ts` are about SQLite itself and run once.
const ENGINE_SUITES = [
  'apps/server/test/store/**/*.test.ts',
  'apps/server/test/http/**/*.test.ts',
  'apps/server/test/jobs/**/*.test.ts',
  'apps/server/test/archive/**/*.test.ts',
  'apps/server/test/*.test.ts',
  'apps/server/test/postgres/**/*.test.ts',
];
const POSTGRES_ONLY = 'apps/server/test/postgres/**';

const postgresBin = findPostgresBin();
if (postgresBin === null) {
  const notice =
    'PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin: ' +
    'the PostgreSQL half of the store and HTTP suites is skipped (install postgresql to run it)';
  const ci = process.env.CI?.trim().toLowerCase();
  if (ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0') throw new Error(`CI: ${notice}`);
  console.warn(`\n[skillport] ${notice}\n`);
}

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: 'default',
      include: [
        'packages/*/test/**/*.test.ts',
        'apps/*/test/**/*.test.ts',
        'spec/test/**/*.test.ts',
        'examples/test/**/*.test.ts',
        'scripts/test/**/*.test.ts',
      ],
      exclude: ['**/node_modules/**', POSTGRES_ONLY],
    },
  },
];
if (postgresBin !== null) {
  projects.push({
    extends: true,
    test: {
      name: 'postgres',
      include: ENGINE_SUITES,
      exclude: ['**/node_modules/**', 'apps/server/test/**/sqlite-*.test.ts'],
      env: { SKILLPORT_TEST_ENGINE: 'postgres', SKILLPORT_PG_BIN: postgresBin, SKILLPORT_EMBEDDINGS: 'off' },
      globalSetup: ['apps/server/test/helpers/postgres-global-setup.ts'],
    },
  });
}

export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    projects,
    reporters: ['default', './scripts/summary-reporter.ts'],
    // Server processes started by tests rank lexically (no model to load) unless a test asks.
    env: { SKILLPORT_EMBEDDINGS: 'off' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
