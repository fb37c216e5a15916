#!/usr/bin/env node
/**
 * `node dist/main.js`: starts Skillport from environment variables (see `optionsFromEnv`; `LOG_LEVEL`
 * for the logs) and stops gracefully on SIGINT, SIGTERM and SIGHUP. It takes no arguments (`readMainArgs`):
 * `--help` prints the main settings, any other argument is refused with exit code 2.
 */
import { optionsFromEnv, SHUTDOWN_FORCE_AFTER_MS } from './config.js';
import { consoleLogger, type Logger, parseLogLevel } from './logger.js';
import { redactingLogger } from './logging/redacting-logger.js';
import { readMainArgs } from './main-args.js';
import { startServer } from './start-server.js';

let logger: Logger = consoleLogger;

async function main(): Promise<void> {
  parseLogLevel(process.env.LOG_LEVEL);
  const options = optionsFromEnv(process.env);
  logger = redactingLogger(consoleLogger, [
    options.rootApiKey,
    options.summary?.apiKey,
    typeof options.embeddings === 'object' ? options.embeddings.apiKey : undefined,
  ]);
  const server = await startServer({ ...options, logger });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ msg: 'shutting down', signal });
    // The grace period (5 s), handlers still running (up to 10 s more), then closing: 20 s at most.
    const force = setTimeout(
      () => process.exit(1),
      SHUTDOWN_FORCE_AFTER_MS + (options.shutdownDelaySeconds ?? 0) * 1000,
    );
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ msg: 'shutdown failed', error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A hangup (the session that started it closed) would otherwise end the process at once, without
  // handing running jobs back nor writing the last buffered log lines; `skillport serve` does the same.
  process.on('SIGHUP', () => stop('SIGHUP'));
}

const verdict = readMainArgs(process.argv.slice(2));
if (verdict.action === 'exit') {
  if (verdict.stdout) process.stdout.write(verdict.stdout);
  if (verdict.stderr) process.stderr.write(verdict.stderr);
  process.exitCode = verdict.code;
} else {
  startMain();
}

function startMain(): void {
  main().catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    try {
      logger.error({ msg: 'failed to start', error: message });
    } catch {
      // The log settings themselves are wrong (LOG_LEVEL): say so plainly.
      process.stderr.write(`failed to start: ${message}\n`);
    }
    process.exit(1);
  });
}
