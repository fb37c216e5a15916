/**
 * Flat info lines: a record of strings and numbers written as one JSON line without pino's general
 * serializer, byte for byte as pino writes it. The request line — one per request — goes this way
 * when the sink is the server's own logger (`createLogger`); any other sink gets the record through
 * its `info`.
 */
import type { Logger } from '../logger.js';

/** A log record whose values are strings, numbers or undefined (left out, as pino leaves them out). */
export type FlatRecord = Readonly<Record<string, string | number | undefined>>;

/** A sink's way of writing flat info records (see {@link flatInfoOf}). */
export interface FlatInfoSink {
  /** False when the sink drops info lines (its level is above `info`): the record need not be built. */
  enabled(): boolean;
  /** Writes `record` (already redacted) as one info line. */
  write(record: FlatRecord): void;
}

/** Where a logger keeps its {@link FlatInfoSink}, if it has one. */
export const FLAT_INFO: unique symbol = Symbol('skillport.flatInfo');

/** A logger that may carry a {@link FlatInfoSink}. */
export type FlatCapable = Logger & { [FLAT_INFO]?: FlatInfoSink };

/** The flat-line sink of `logger`, or undefined when records must go through its `info`. */
export function flatInfoOf(logger: Logger): FlatInfoSink | undefined {
  return (logger as FlatCapable)[FLAT_INFO];
}

/**
 * A string as pino writes it (its `asString`): quoted, with `"` and `\` escaped; a string with a
 * character below U+0020, or longer than 100 characters, through `JSON.stringify`.
 */
function pinoString(text: string): string {
  const length = text.length;
  if (length > 100) return JSON.stringify(text);
  let out = '';
  let last = 0;
  let found = false;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 32) return JSON.stringify(text);
    if (c === 34 || c === 92) {
      out += `${text.slice(last, i)}\\`;
      last = i;
      found = true;
    }
  }
  return found ? `"${out}${text.slice(last)}"` : `"${text}"`;
}

/**
 * The JSON line of `record` after `head` (`{"level":…,"time":…,"pid":…,"hostname":…`, unclosed), as
 * pino's `asJson` builds it for a record of strings and numbers: each defined value as
 * `,"key":value` in the record's key order (a number that is not finite as `null`), then `}` and a
 * newline.
 *
 * @param head - the line up to the record's fields
 * @param record - the fields
 * @returns the line, newline included
 * @example jsonLineOf('{"level":"info"', { msg: 'request', status: 200 }); // '{"level":"info","msg":"request","status":200}\n'
 */
export function jsonLineOf(head: string, record: FlatRecord): string {
  let line = head;
  for (const key in record) {
    const value = record[key];
    if (value === undefined) continue;
    line += `,${pinoString(key)}:${
      typeof value === 'string' ? pinoString(value) : Number.isFinite(value) ? value : 'null'
    }`;
  }
  return `${line}}\n`;
}
