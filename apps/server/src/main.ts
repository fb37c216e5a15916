#!/usr/bin/env node
/**
 * `node dist/main.js`: starts Skillport from environment variables (see `optionsFromEnv`) and stops
 * gracefully on SIGINT/SIGTERM.
 */
import { optionsFromEnv } from './config.js';
import { consoleLogger } from './logger.js';
import { startServer } from './start-server.js';

async function main(): Promise<void> {
  const options = optionsFromEnv(process.env);
  const server = await startServer({ ...options, logger: consoleLogger });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info({ msg: 'shutting down', signal, time: new Date().toISOString() });
    const force = setTimeout(() => process.exit(1), 10_000 + (options.shutdownDelaySeconds ?? 0) * 1000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        consoleLogger.error({ msg: 'shutdown failed', error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  consoleLogger.error({
    msg: 'failed to start',
    error: error instanceof Error ? error.message : String(error),
  });
  process.exit(1);
});
