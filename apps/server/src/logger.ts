/**
 * Server logs: JSON lines written by `pino`, one object per event, with an API-key-safe redaction
 * step in front of every sink (the default one and any logger passed in).
 */
import pino from 'pino';
import { FLAT_INFO, type FlatCapable, type FlatInfoSink, jsonLineOf } from './logging/flat-line.js';
import { flushWhenWaiting } from './logging/flush-when-waiting.js';
import { redactingLogger } from './logging/redacting-logger.js';

/**
 * A structured log sink: one JSON object per call. `info` and `error` are required; `warn` and
 * `debug` are used when present (`warn` falls back to `error`, `debug` to nothing). A `pino` logger
 * fits as is.
 */
export interface Logger {
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
  warn?(record: Record<string, unknown>): void;
  debug?(record: Record<string, unknown>): void;
}

/** Levels accepted by `LOG_LEVEL` / {@link createLogger}, most verbose first; `silent` logs nothing. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Reads `LOG_LEVEL`: unset or blank means `info`.
 *
 * @param raw - the variable's value
 * @returns the level, lowercased
 * @throws Error naming the variable and the accepted levels for any other value
 * @example parseLogLevel('DEBUG'); // 'debug'
 */
export function parseLogLevel(raw: string | undefined): LogLevel {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(value)) return value as LogLevel;
  throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
}

/** Bytes of `info`-and-below lines gathered before the default sink writes them to stdout. */
const LOG_BUFFER_BYTES = 4096;
/** Longest time a line waits in that buffer, ms. */
const LOG_FLUSH_MS = 100;

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  /** Lowest level written (default: `LOG_LEVEL` of the environment, else `info`). */
  level?: LogLevel;
  /**
   * Where lines go (default: `trace`–`info` on stdout, buffered — written at about 16 KB or within 100 ms,
   * and flushed when the process exits —, `warn` and above on stderr, at once). Anything with
   * `write(line)` works, e.g. a file stream.
   */
  destination?: { write(line: string): unknown };
  /** Secrets (API keys) to cut out of every string logged, wherever they occur. */
  secrets?: readonly (string | undefined)[];
}

let isoTimeMs = Number.NaN;
let isoTimeText = '';

/**
 * pino's `stdTimeFunctions.isoTime` (`,"time":"<ISO 8601>"`), formatted once per millisecond: the
 * lines logged within the same millisecond share the text instead of each formatting a `Date`.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== isoTimeMs) {
    isoTimeMs = now;
    isoTimeText = `,"time":"${new Date(now).toISOString()}"`;
  }
  return isoTimeText;
}

/**
 * Creates the server's JSON-lines logger on `pino`: `{"level":"info","time":"<ISO 8601>","pid":…,
 * "hostname":…,"msg":…, …fields}` per line. Every record passes through the redaction step first:
 * values of keys named like credentials (`x-api-key`, `authorization`, `api_key`, `apiKey`, `token`,
 * `password`, `secret`, `cookie`, …) become `[redacted]`, and in every string `sk_…` API keys,
 * `Bearer`/`Basic` credentials, query-string values and the given `secrets` are replaced.
 *
 * @param options - level (default `LOG_LEVEL`, else `info`), destination (default stdout/stderr),
 *   secrets to cut out
 * @returns a {@link Logger} (the pino logger, wrapped by the redaction step)
 * @throws Error when `LOG_LEVEL` holds an unknown level
 * @example
 * const server = await startServer({ logger: createLogger({ level: 'warn' }) });
 * @see the Logs section of the @skillport/server README
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  return redactingLogger(createPinoSink(options), options.secrets ?? []);
}

/** The info lines' own level formatter: `"level":"info"` instead of pino's number. */
const INFO_HEAD = '{"level":"info"';

/** A pino logger that also writes flat info records itself (see `flat-line.ts`), and says its level. */
type PinoSink = FlatCapable & { isLevelEnabled(level: string): boolean };

/**
 * The sink behind {@link createLogger}, without the redaction step: pino, plus a writer of flat info
 * records (the request line) that builds the same bytes pino would and hands them to the stream
 * pino writes info lines to — skipping pino's general serializer, ~4 µs of CPU per line. Offered
 * only where that stream is known: the default one, or a `destination` that is not a pino
 * multistream.
 */
function createPinoSink(options: CreateLoggerOptions): PinoSink {
  const level = options.level ?? parseLogLevel(process.env.LOG_LEVEL);
  const pinoOptions: pino.LoggerOptions = {
    level,
    messageKey: 'msg',
    timestamp: isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  let infoStream: { write(line: string): unknown } | null = null;
  let destination = options.destination;
  if (destination === undefined) {
    // Asynchronous and buffered: lines are gathered and go out together — a chunk of ~16,000
    // characters at once, fewer within LOG_FLUSH_MS — not one write per request line;
    // the flush timer runs only while lines are waiting (an idle server writes nothing); what is
    // buffered is written synchronously when the process exits (normal stop, fatal error or
    // uncaught exception alike).
    const stdout = flushWhenWaiting(
      pino.destination({ fd: 1, sync: false, minLength: LOG_BUFFER_BYTES }),
      LOG_FLUSH_MS,
    );
    // With `dedupe`, a line goes to the stream of the highest level at or below its own: info and
    // below to stdout alone.
    infoStream = stdout;
    destination = pino.multistream(
      [
        { level: 'trace', stream: stdout },
        { level: 'warn', stream: pino.destination({ fd: 2, sync: true }) },
      ],
      { dedupe: true },
    );
  } else if ((destination as Record<symbol, unknown>)[pino.symbols.needsMetadataGsym] !== true) {
    // pino writes each line to such a destination as is.
    infoStream = destination;
  }
  const logger = pino(pinoOptions, destination as pino.DestinationStream);
  const sink = logger as unknown as PinoSink;
  if (infoStream !== null) {
    const stream = infoStream;
    const bindings = logger as unknown as Record<symbol, string>;
    // The line up to its fields, built once per millisecond (`isoTime` gives the same text within one).
    let headTime = '';
    let head = '';
    const flat: FlatInfoSink = {
      enabled: () => logger.isLevelEnabled('info'),
      writeValues: (keys, values) => {
        if (!logger.isLevelEnabled('info')) return;
        const time = isoTime();
        if (time !== headTime) {
          headTime = time;
          // `chindings`: pino's pre-serialized `,"pid":…,"hostname":…`.
          head = `${INFO_HEAD}${time}${bindings[pino.symbols.chindingsSym]}`;
        }
        stream.write(jsonLineOf(head, keys, values));
      },
    };
    sink[FLAT_INFO] = flat;
  }
  return sink;
}

let defaultSink: PinoSink | undefined;

/** The default sink, created on first use (so `LOG_LEVEL` is read then). */
function defaultPinoSink(): PinoSink {
  defaultSink ??= createPinoSink({});
  return defaultSink;
}

/** The default sink before redaction, created on first use; `consoleLogger` wraps it. */
const lazyDefaultSink: FlatCapable & { isLevelEnabled(level: string): boolean } = {
  info: (record) => defaultPinoSink().info(record),
  error: (record) => defaultPinoSink().error(record),
  warn: (record) => defaultPinoSink().warn?.(record),
  debug: (record) => defaultPinoSink().debug?.(record),
  isLevelEnabled: (level) => defaultPinoSink().isLevelEnabled(level),
  [FLAT_INFO]: {
    enabled: () => defaultPinoSink()[FLAT_INFO]?.enabled() ?? false,
    writeValues: (keys, values) => defaultPinoSink()[FLAT_INFO]?.writeValues(keys, values),
  },
};

/**
 * The default sink: {@link createLogger} with its defaults (level from `LOG_LEVEL`; `trace`–`info`
 * on stdout, `warn` and above on stderr), created on first use. Wrapping it in `redactingLogger`
 * again adds secrets to its one redaction step.
 */
export const consoleLogger: Logger = redactingLogger(lazyDefaultSink, []);

/** A logger that drops everything. */
export const silentLogger: Logger = { info: () => {}, error: () => {}, warn: () => {}, debug: () => {} };
