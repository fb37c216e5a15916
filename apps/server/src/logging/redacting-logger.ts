/**
 * The redaction step in front of a log sink (see `redact-record.ts`).
 */
import type { Logger } from '../logger.js';
import { redactRecord } from './redact-record.js';

/** The sink and secrets behind a redacting logger, so wrapping one again merges instead of nesting. */
const wrapped = new WeakMap<Logger, { inner: Logger; secrets: readonly string[] }>();

/**
 * Wraps a logger so that every record is redacted (see `redactRecord`) before it reaches the sink.
 * Wrapping an already redacting logger gives one step with both sets of secrets.
 *
 * @param logger - the sink (the default logger, a custom one, a pino logger)
 * @param secrets - exact secrets to cut out (undefined and entries shorter than 4 characters ignored)
 * @returns a logger with `info`, `error`, `warn` (the sink's, else its `error`) and `debug` (the
 *   sink's, else nothing)
 * @example const logger = redactingLogger(pino(), [options.rootApiKey]);
 */
export function redactingLogger(logger: Logger, secrets: readonly (string | undefined)[]): Logger {
  const known = wrapped.get(logger);
  const inner = known?.inner ?? logger;
  const all = [
    ...new Set([
      ...(known?.secrets ?? []),
      ...secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4),
    ]),
  ];
  const redact = (record: Record<string, unknown>) => redactRecord(record, all);
  const result: Logger = {
    info: (record) => inner.info(redact(record)),
    error: (record) => inner.error(redact(record)),
    warn: (record) => (inner.warn ? inner.warn(redact(record)) : inner.error(redact(record))),
    debug: (record) => {
      // Skipped before redacting when the sink says debug lines are off (pino's isLevelEnabled).
      const enabled = (inner as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled;
      if (inner.debug && (enabled === undefined || enabled.call(inner, 'debug'))) inner.debug(redact(record));
    },
  };
  wrapped.set(result, { inner, secrets: all });
  return result;
}
