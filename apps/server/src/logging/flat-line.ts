/**
 * Flat info lines: a record of strings and numbers written as one JSON line without pino's general
 * serializer, byte for byte as pino writes it. The request line — one per request — goes this way
 * when the sink is the server's own logger (`createLogger`); any other sink gets the record through
 * its `info`.
 */
import type { Logger } from '../logger.js';

/** A log record whose values are strings, numbers or undefined (left out, as pino leaves them out). */
export type FlatRecord = Readonly<Record<string, string | number | undefined>>;

/**
 * The keys of a flat line, in order, each with its JSON text (`,"key":`) built once: a line that
 * is written again and again (the request line) names its keys once, not per line.
 */
export interface FlatKeys {
  readonly names: readonly string[];
  /** `,"<name>":` per name, escaped as pino escapes a key. */
  readonly texts: readonly string[];
}

/** The values of a {@link FlatKeys}' names, index by index (undefined: left out of the line). */
export type FlatValues = (string | number | undefined)[];

/**
 * The {@link FlatKeys} of `names`.
 *
 * @param names - the keys, in the order they are written
 * @example const REQUEST_KEYS = flatKeys(['msg', 'request_id', 'status']);
 */
export function flatKeys(names: readonly string[]): FlatKeys {
  return { names: [...names], texts: names.map((name) => `,${pinoString(name)}:`) };
}

/** A sink's way of writing flat info records (see {@link flatInfoOf}). */
export interface FlatInfoSink {
  /** False when the sink drops info lines (its level is above `info`): the record need not be built. */
  enabled(): boolean;
  /**
   * Writes the record `keys` → `values` as one info line: the line pino writes for the record whose
   * keys are `keys.names` in that order and whose values are `values`. The sink may change `values`
   * (the redaction step redacts them in place): the caller gives a fresh array each time.
   */
  writeValues(keys: FlatKeys, values: FlatValues): void;
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
 * The JSON line of the record `keys` → `values` after `head` (`{"level":…,"time":…,"pid":…,
 * "hostname":…`, unclosed), as pino's `asJson` builds it for a record of strings and numbers: each
 * defined value as `,"key":value` in the keys' order (a number that is not finite as `null`), then
 * `}` and a newline.
 *
 * @param head - the line up to the record's fields
 * @param keys - the record's keys (see {@link flatKeys})
 * @param values - the record's values, index by index
 * @returns the line, newline included
 * @example jsonLineOf('{"level":"info"', flatKeys(['msg', 'status']), ['request', 200]); // '{"level":"info","msg":"request","status":200}\n'
 */
export function jsonLineOf(head: string, keys: FlatKeys, values: FlatValues): string {
  const texts = keys.texts;
  let line = head;
  for (let i = 0; i < texts.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    line += `${texts[i]}${typeof value === 'string' ? pinoString(value) : Number.isFinite(value) ? value : 'null'}`;
  }
  return `${line}}\n`;
}
