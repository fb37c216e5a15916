/**
 * vitest global setup of the `postgres` test project: one throwaway PostgreSQL cluster for the whole
 * run (each test file and store then works in its own schema, see `engine.ts`), stopped and removed
 * after the last file — also when the run is interrupted.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster } from '../../../../scripts/test-support/postgres-cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the run's throwaway cluster (`postgres` database, superuser `postgres`). */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const cluster = await startPostgresCluster();
  const stop = (): void => cluster.stop();
  process.once('exit', stop);
  project.provide('postgresUrl', cluster.url);
  return () => {
    process.off('exit', stop);
    cluster.stop();
  };
}
