// Throwaway PostgreSQL clusters for tests and benchmarks: `initdb` in a temp folder, `postgres` on a
// free loopback port through `pg_ctl`, stopped and removed at the end. Plain JavaScript (types in
// postgres-cluster.d.mts) so the vitest config, test helpers and the .mjs benchmarks share it.
//
// The binaries are found on PATH or in /usr/lib/postgresql/<version>/bin (Debian's layout). They
// refuse to run as root: as root, they run as the `postgres` user (`runuser -u postgres --`), which
// gets the temp folder.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, cpSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const TOOLS = ['initdb', 'pg_ctl'];

/**
 * The folder holding `initdb` and `pg_ctl`: `SKILLPORT_PG_BIN` when set, else the first PATH entry
 * with both, else the newest `/usr/lib/postgresql/<version>/bin`.
 *
 * @returns the folder, or null when PostgreSQL is not installed
 */
export function findPostgresBin() {
  const candidates = [];
  if (process.env.SKILLPORT_PG_BIN) candidates.push(process.env.SKILLPORT_PG_BIN);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debian, version, 'bin'));
  }
  return candidates.find((dir) => TOOLS.every((tool) => existsSync(path.join(dir, tool)))) ?? null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
function run(bin, tool, args) {
  const asRoot = process.getuid?.() === 0;
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]]
    : [path.join(bin, tool), args];
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(
      `${tool} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}): ${output}`,
    );
  }
  return result.stdout;
}

/**
 * Starts a throwaway cluster: superuser `postgres`, trust authentication on 127.0.0.1 only, UTF-8,
 * durability settings off (fsync, synchronous_commit: a test cluster holds nothing worth keeping).
 *
 * With `dataFrom` (the data folder of a cluster stopped cleanly, e.g. one kept by `stop({ keep })`)
 * the cluster starts on a copy of that folder instead of a new one: a seeded database in seconds.
 *
 * @param {{ bin?: string, maxConnections?: number, settings?: Record<string, string>, dataFrom?: string }} [options]
 * @returns {Promise<{ url: string, port: number, dir: string, stop(options?: { keep?: string }): void }>}
 *   `url` points at the `postgres` database; `stop()` (synchronous, idempotent) stops the server and
 *   removes the folder; `stop({ keep })` shuts down cleanly first and moves the data folder to `keep`
 * @throws Error when the binaries are missing or the cluster cannot start (with initdb/pg_ctl output)
 */
export async function startPostgresCluster(options = {}) {
  const bin = options.bin ?? findPostgresBin();
  if (bin === null)
    throw new Error('PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  let started = false;
  const stop = (stopOptions = {}) => {
    if (started) {
      started = false;
      try {
        run(bin, 'pg_ctl', ['-D', data, '-m', stopOptions.keep ? 'fast' : 'immediate', '-w', 'stop']);
      } catch (error) {
        // Already stopped (unless the data is to be kept: then it may be inconsistent).
        if (stopOptions.keep) throw error;
      }
      if (stopOptions.keep) renameSync(data, stopOptions.keep);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (options.dataFrom) {
      cpSync(options.dataFrom, data, { recursive: true });
      if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres:postgres', data]);
    } else
      run(bin, 'initdb', [
        '-D',
        data,
        '-U',
        'postgres',
        '--auth=trust',
        '--no-sync',
        '-E',
        'UTF8',
        '--locale=C.UTF-8',
      ]);
    const port = await freePort();
    const settings = {
      listen_addresses: '127.0.0.1',
      unix_socket_directories: dir,
      max_connections: String(options.maxConnections ?? 300),
      fsync: 'off',
      synchronous_commit: 'off',
      full_page_writes: 'off',
      ...options.settings,
    };
    const flags = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(' ');
    run(bin, 'pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      flags,
      'start',
    ]);
    started = true;
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, dir, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
