/** `serve`: runs the Skillport server in this process, on the embedded SQLite store by default. */
import type { Command } from 'commander';
import { createContext, parsePositive } from '../internal/context.js';
import { CliError, type CliIo, EXIT } from '../internal/io.js';

/** Registers `serve`. */
export function registerServe(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description('start the Skillport server here (SQLite in --data-dir; env SKILLPORT_* options apply)')
    .option('--host <host>', 'interface to bind (default 127.0.0.1, or SKILLPORT_HOST)')
    .option('--port <port>', 'TCP port, 0 = any free one (default 1933, or SKILLPORT_PORT)')
    .option('--data-dir <dir>', 'data folder (default ./.skillport, or SKILLPORT_DATA_DIR)')
    .action(async (options: { host?: string; port?: string; dataDir?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const port = options.port === '0' ? 0 : parsePositive('--port', options.port, true);
      let server: typeof import('@skillport/server');
      try {
        server = await import('@skillport/server');
      } catch (error) {
        throw new CliError(
          `cannot load @skillport/server (${(error as Error).message}); install it next to the CLI`,
        );
      }
      const running = await server
        .startServer({
          ...server.optionsFromEnv(io.env),
          ...(options.host ? { host: options.host } : {}),
          ...(port !== undefined ? { port } : {}),
          ...(options.dataDir ? { dataDir: options.dataDir } : {}),
          ...(ctx.format === 'json' ? { logger: false } : {}),
        })
        .catch((error: unknown) => {
          throw new CliError(
            `cannot start the server: ${error instanceof Error ? error.message : String(error)}`,
            EXIT.server,
          );
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
        const stop = () => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          running.close().then(resolve, resolve);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
    });
}
