/**
 * The redaction step in front of a log sink (see `redact-record.ts`).
 */
import type { Logger } from '../logger.js';
import { FLAT_INFO, type FlatCapable, flatInfoOf } from './flat-line.js';
import { redactFlatValues, redactRecord } from './redact-record.js';

/** The sink and secrets behind a redacting logger, so wrapping one again merges instead of nesting. */
const wrapped = new WeakMap<Logger, { inner: Logger; secrets: readonly string[] }>();

/**
 * Wraps a logger so that every record is redacted (see `redactRecord`) before it reaches the sink.
 * Wrapping an already redacting logger gives one step with both sets of secrets. A sink that writes
 * flat info lines itself (see `flat-line.ts`) keeps that way, behind the same redaction.
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
  const flat = flatInfoOf(inner);
  if (flat !== undefined) {
    (result as FlatCapable)[FLAT_INFO] = {
      enabled: () => flat.enabled(),
      writeValues: (keys, values) => flat.writeValues(keys, redactFlatValues(keys, values, all)),
    };
  }
  wrapped.set(result, { inner, secrets: all });
  return result;
}
