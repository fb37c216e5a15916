/** `serve`: runs the Skillport server in this process, on the embedded SQLite store by default. */
import { createServer } from 'node:net';
import type { Command } from 'commander';
import { createContext } from '../internal/context.js';
import { CliError, type CliIo, EXIT } from '../internal/io.js';
import { describeStoreError, loadServer } from '../internal/load-server.js';
import { followParent, SERVE_CHILD_ENV } from '../internal/serve-process.js';

/** Parses `--port`: an integer from 0 to 65535, 0 meaning any free port. */
export function parsePort(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value > 65_535) {
    throw new CliError(`--port must be a TCP port from 0 to 65535 (0 = any free port), got "${raw}"`);
  }
  return value;
}

/**
 * Binds `host:port` and closes it again at once: resolves when the port could be bound now, rejects
 * with the listen error (`code` `EADDRINUSE`, `EACCES`, …) otherwise. Another process may still take
 * the port before the server listens; the server's own listen error then reports it.
 */
export async function probePort(host: string, port: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => resolve());
  });
  await new Promise((resolve) => probe.close(resolve));
}

interface ServeOptions {
  host?: string;
  port?: string;
  dataDir?: string;
  databaseUrl?: string;
}

/** Registers `serve`. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description(
      'start the Skillport server here (SQLite in --data-dir, or PostgreSQL with --database-url; env SKILLPORT_* options apply); needs @skillport/server',
    )
    .option('--host <host>', 'interface to bind (default 127.0.0.1, or SKILLPORT_HOST)')
    .option('--port <port>', 'TCP port 0–65535, 0 = any free one (default 1933, or SKILLPORT_PORT)')
    .option('--data-dir <dir>', 'data folder (default ./.skillport, or SKILLPORT_DATA_DIR)')
    .option(
      '--database-url <url>',
      'postgres://user:password@host:5432/db to use PostgreSQL, sqlite:<file> for one SQLite file (or SKILLPORT_DATABASE_URL)',
    )
    .action(async (options: ServeOptions, command: Command) => {
      const ctx = createContext(io, command);
      const port = parsePort(options.port);
      // Started by `skillport` as the child of a thin parent (serve-process.ts): end with it.
      followParent();
      const server = await loadServer('skillport serve');
      const settings = {
        ...server.optionsFromEnv(io.env),
        ...(options.host ? { host: options.host } : {}),
        ...(port !== undefined ? { port } : {}),
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        ...(options.databaseUrl ? { databaseUrl: options.databaseUrl } : {}),
        ...(ctx.format === 'json' ? { logger: false as const } : {}),
      };
      const host = settings.host ?? '127.0.0.1';
      const inUse = () =>
        new CliError(
          `cannot start the server: ${host}:${settings.port ?? 1933} is already in use (another Skillport server?). ` +
            'Choose another port with --port <n> (or SKILLPORT_PORT), or --port 0 for any free one.',
          EXIT.server,
        );
      // The server opens its store (creating the data folder) before it listens: a port already taken
      // is found first, so that mistake leaves nothing behind. Any other listen error is the
      // server's to report as it starts.
      if (settings.port !== 0) {
        await probePort(host, settings.port ?? 1933).catch((error: unknown) => {
          if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') throw inUse();
        });
      }
      const running = await server.startServer(settings).catch((error: unknown) => {
        if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') throw inUse();
        const refused = error as { code?: unknown; setting?: unknown } | null;
        if (refused?.code === 'SKILLPORT_CONFIG') {
          // A setting the user chose: exit 1, naming the flag when the setting came from one.
          const hint =
            refused.setting === 'SKILLPORT_HOST' && options.host
              ? ` The host came from --host ${options.host}: drop it or use --host 127.0.0.1.`
              : refused.setting === 'SKILLPORT_DATA_DIR' && options.dataDir
                ? ` The folder came from --data-dir ${options.dataDir}: choose a folder you can create and write.`
                : '';
          throw new CliError(`cannot start the server: ${(error as Error).message}${hint}`, EXIT.user);
        }
        throw new CliError(`cannot start the server: ${describeStoreError(error)}`, EXIT.server);
      });
      if (ctx.format === 'json') {
        // One line, so a supervising process can read the URL as soon as the line ends.
        const ready = {
          url: running.url,
          host: running.host,
          port: running.port,
          auth_mode: running.authMode,
        };
        io.stdout.write(`${JSON.stringify(ready)}\n`);
      } else {
        io.stderr.write(
          `Skillport ${server.SERVER_VERSION} listening on ${running.url} (auth: ${running.authMode})\n`,
        );
      }
      await new Promise<void>((resolve) => {
        // A child of `serve` may get a signal twice (from its terminal's process group or a service
        // manager, and passed on by its parent): it stops once and keeps ignoring repeats (its
        // parent ends it on a second signal). In one process a second Ctrl-C ends it at once.
        const child = io.env[SERVE_CHILD_ENV] === '1';
        let stopping = false;
        const stop = () => {
          if (!child) {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
          }
          if (stopping) return;
          stopping = true;
          running.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
        if (child) process.on('SIGHUP', stop);
      });
    });
}
