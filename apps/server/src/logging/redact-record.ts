/**
 * Redaction of log records: what keeps an API key (or any credential) out of every log line.
 */
import type { FlatKeys, FlatValues } from './flat-line.js';

/** What replaces a redacted value. */
export const REDACTED = '[redacted]';

/** Key names (lowercased, without `-`/`_`) whose values are credentials, by their ending. */
const SENSITIVE_KEY = /(?:apikey|authorization|password|passwd|secret|token|cookie|credentials?)$/;

/** An API key of this server (`sk_` + base64url), wherever it appears in a string. */
const API_KEY = /\bsk_[A-Za-z0-9_-]{8,}/g;
/** `Bearer <credential>` / `Basic <credential>` (an Authorization header value quoted in a message). */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[^\s"',;)]{1,4096}/gi;
/** The value of each query-string parameter (`?key=value&…`): query strings never reach a log line. */
const QUERY_VALUE = /([?&][^\s=&#"'?]{1,128}=)[^\s&#"']{1,4096}/g;

/** Deepest nesting walked; deeper values are replaced by a marker. */
const MAX_DEPTH = 8;

/** Verdicts of {@link isSensitiveKey} by key: records repeat the same few keys line after line. */
const keyVerdicts = new Map<string, boolean>();
/** Most keys remembered; past it the memo starts over (keys are field names, not user data, as a rule). */
const MAX_KEY_VERDICTS = 1024;

function isSensitiveKey(key: string): boolean {
  let verdict = keyVerdicts.get(key);
  if (verdict === undefined) {
    verdict = SENSITIVE_KEY.test(key.toLowerCase().replace(/[-_]/g, ''));
    if (keyVerdicts.size >= MAX_KEY_VERDICTS) keyVerdicts.clear();
    keyVerdicts.set(key, verdict);
  }
  return verdict;
}

/** True when `text` holds only ASCII letters, digits and `. : / -`. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (
      !(
        (c >= 0x61 && c <= 0x7a) ||
        (c >= 0x41 && c <= 0x5a) ||
        (c >= 0x2d && c <= 0x3a) // - . / 0-9 :
      )
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Cuts credentials out of one string: the given secrets wherever they occur, `sk_…` keys, `Bearer`
 * and `Basic` credentials, and query-string values. Linear in the length of the text.
 *
 * @param text - any text headed for a log line
 * @param secrets - exact secrets to remove (e.g. the configured root key)
 * @returns the text with each credential replaced by `[redacted]`
 * @example redactText('GET /x?api_key=abc'); // 'GET /x?api_key=[redacted]'
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  // Most texts logged (ids, names, paths, addresses) hold none of the shapes below: each needs `_`
  // (`sk_…`), white space (`Bearer …`) or `=` (a query), none of them in such a text.
  if (isPlain(out)) return out;
  if (out.includes('sk_')) out = out.replace(API_KEY, `sk_${REDACTED}`);
  if (/bearer|basic/i.test(out)) out = out.replace(AUTH_SCHEME, `$1 ${REDACTED}`);
  if (out.includes('=') && (out.includes('?') || out.includes('&')))
    out = out.replace(QUERY_VALUE, `$1${REDACTED}`);
  return out;
}

function redactValue(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactText(value.message, secrets),
      ...(value.stack !== undefined ? { stack: redactText(value.stack, secrets) } : {}),
    };
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    out[key] =
      isSensitiveKey(key) && item !== null && item !== undefined
        ? REDACTED
        : redactValue(item, secrets, depth + 1);
  }
  return out;
}

/**
 * A copy of a log record with every credential replaced by `[redacted]`: values of keys named like
 * credentials (`x-api-key`, `authorization`, `api_key`, `apiKey`, `root_api_key`, `token`,
 * `password`, `secret`, `cookie`, …) at any depth, and in every string the given secrets, `sk_…` API
 * keys, `Bearer`/`Basic` credentials and query-string values. Errors become `{name, message, stack}`.
 * The record itself is not changed.
 *
 * @param record - the record to log
 * @param secrets - exact secrets to remove wherever they occur (shorter than 4 characters: ignored)
 * @returns the redacted copy
 * @example redactRecord({ headers: { 'x-api-key': 'sk_abc…' } }); // { headers: { 'x-api-key': '[redacted]' } }
 */
export function redactRecord(
  record: Record<string, unknown>,
  secrets: readonly string[] = [],
): Record<string, unknown> {
  return redactValue(record, secrets, 0) as Record<string, unknown>;
}

/** Whether each key of a {@link FlatKeys} is named like a credential, worked out once per keys. */
const sensitiveKeys = new WeakMap<FlatKeys, readonly boolean[]>();

/**
 * {@link redactRecord} of the flat record `keys` → `values` (strings, numbers or undefined), in place:
 * a value whose key is named like a credential becomes `[redacted]`, each string goes through
 * {@link redactText}, numbers and undefined stay as they are.
 *
 * @param keys - the record's keys (see `flatKeys`)
 * @param values - the record's values, index by index; redacted in place
 * @param secrets - exact secrets to remove wherever they occur
 * @returns `values`
 * @example redactFlatValues(flatKeys(['path']), ['/api/v1/tasks/sk_abcdefgh12']); // ['/api/v1/tasks/sk_[redacted]']
 */
export function redactFlatValues(
  keys: FlatKeys,
  values: FlatValues,
  secrets: readonly string[] = [],
): FlatValues {
  let sensitive = sensitiveKeys.get(keys);
  if (sensitive === undefined) {
    sensitive = keys.names.map(isSensitiveKey);
    sensitiveKeys.set(keys, sensitive);
  }
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === undefined) continue;
    if (sensitive[i] === true) values[i] = REDACTED;
    else if (typeof value === 'string') values[i] = redactText(value, secrets);
  }
  return values;
}
