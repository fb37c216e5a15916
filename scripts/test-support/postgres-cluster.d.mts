/** A running throwaway PostgreSQL cluster (see `startPostgresCluster`). */
export interface PostgresCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  url: string;
  port: number;
  /** Temp folder holding the data directory, socket and `server.log`. */
  dir: string;
  /**
   * Stops the server (immediate mode) and removes the folder; synchronous and idempotent. With
   * `keep`, shuts down cleanly (fast mode) and first moves the data directory to that path.
   */
  stop(options?: { keep?: string }): void;
}

/** The folder with `initdb` and `pg_ctl` (`SKILLPORT_PG_BIN`, PATH, `/usr/lib/postgresql/<v>/bin`), or null. */
export function findPostgresBin(): string | null;

/** Starts a throwaway cluster on a free loopback port; as root, runs the binaries as `postgres`. */
export function startPostgresCluster(options?: {
  bin?: string;
  maxConnections?: number;
  settings?: Record<string, string>;
  /** Start on a copy of this data directory (of a cluster stopped cleanly) instead of `initdb`. */
  dataFrom?: string;
}): Promise<PostgresCluster>;
