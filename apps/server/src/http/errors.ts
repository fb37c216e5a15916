/**
 * Turning every failure into the error envelope with the status of core's code table:
 * thrown `SkillportError`s, schema mismatches (`details.validation_errors`), malformed JSON,
 * oversized bodies, unknown routes and methods, and unexpected exceptions (500 `INTERNAL`).
 */
import { ERROR_HTTP_STATUS, type ErrorCode, isSkillportError, SkillportError } from '@skillport/core';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Logger } from '../logger.js';
import type { AppEnv } from './context.js';
import { errorBody } from './envelope.js';

/** A zod issue as `@hono/zod-openapi` hands it to the validation hook. */
interface ZodIssueLike {
  code: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  keys?: string[];
  /** `invalid_union`: the issues of each alternative, in order. */
  errors?: ReadonlyArray<ReadonlyArray<ZodIssueLike & { expected?: unknown; values?: unknown[] }>>;
}

/** zod's type names as a JSON client spells them. */
const JSON_TYPE_NAMES: Record<string, string> = { record: 'object', object: 'object', array: 'array' };

/**
 * The message of an `invalid_union` issue whose alternatives all failed on the value's own type,
 * e.g. `Invalid input: expected boolean, null or false, received string` (zod says only `Invalid
 * input`); the issue's own message when an alternative got further (a nested field was wrong).
 */
function unionMessage(issue: ZodIssueLike): string {
  const branches = issue.errors;
  if (!branches || branches.length === 0) return issue.message;
  const accepted: string[] = [];
  let received: string | undefined;
  for (const branch of branches) {
    const [only] = branch;
    if (branch.length !== 1 || !only || only.path.length > 0) return issue.message;
    if (only.code === 'invalid_type' && typeof only.expected === 'string') {
      accepted.push(JSON_TYPE_NAMES[only.expected] ?? only.expected);
      received ??= / received (\w+)$/.exec(only.message)?.[1];
    } else if (only.code === 'invalid_value' && Array.isArray(only.values) && only.values.length > 0) {
      accepted.push(only.values.map((v) => JSON.stringify(v)).join(', '));
    } else {
      return issue.message;
    }
  }
  const names = [...new Set(accepted)];
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0];
  return `Invalid input: expected ${list}${received ? `, received ${received}` : ''}`;
}

/**
 * Converts zod issues to the contract's `validation_errors` `[{loc, message, type}]`.
 * `unrecognized_keys` issues are split into one entry per unknown key.
 *
 * @param issues - zod issues
 * @param where - the request part (`body`, `query`, `path`, `header`), first element of `loc`
 */
export function toValidationErrors(issues: readonly ZodIssueLike[], where: string) {
  const out: Array<{ loc: Array<string | number>; message: string; type: string }> = [];
  for (const issue of issues) {
    const loc = [where, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) {
        out.push({ loc: [...loc, key], message: `Unknown field '${key}'`, type: 'unrecognized_keys' });
      }
    } else {
      const message =
        issue.code === 'invalid_union'
          ? unionMessage(issue)
          : // zod's wording for a missing field of no particular type (a multipart `file`).
            issue.code === 'invalid_type' &&
              issue.message.endsWith('expected nonoptional, received undefined')
            ? 'Required field is missing'
            : issue.message;
      out.push({ loc, message, type: issue.code });
    }
  }
  return out;
}

/**
 * Builds the 400 `INVALID_ARGUMENT` error of a request that does not match its schema.
 *
 * @param issues - zod issues
 * @param where - request part
 * @returns a SkillportError whose message names the first offending field
 */
export function schemaError(issues: readonly ZodIssueLike[], where: string): SkillportError {
  const validationErrors = toValidationErrors(issues, where);
  const first = validationErrors[0];
  const message = first
    ? `Invalid request ${where}: ${first.loc.slice(1).join('.') || where}: ${first.message}` +
      (validationErrors.length > 1 ? ` (and ${validationErrors.length - 1} more)` : '')
    : `Invalid request ${where}`;
  const field = first && first.loc.length > 1 ? first.loc.slice(1).join('.') : undefined;
  return new SkillportError('INVALID_ARGUMENT', message, {
    details:
      field === undefined
        ? { validation_errors: validationErrors }
        : { field, validation_errors: validationErrors },
  });
}

/** Sends an error envelope for a code (status from the table unless overridden). */
export function sendError(
  c: Context<AppEnv>,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
  status?: number,
): Response {
  return c.json(
    errorBody(c, code, message, details),
    (status ?? ERROR_HTTP_STATUS[code]) as ContentfulStatusCode,
  );
}

/**
 * Node network errors that mean the database host cannot be reached at all: connection refused, lost
 * or timed out, its name not resolving (`ENOTFOUND`, `EAI_AGAIN`: DNS down or the name removed), no
 * route to it.
 */
const NETWORK_UNREACHABLE =
  'ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN';

/**
 * PostgreSQL SQLSTATEs and Node network errors a retry can fix: connection lost or refused, host not
 * found or unreachable, server shutting down or starting, too many connections, serialization
 * failure, deadlock, lock or statement timeout.
 */
const TRANSIENT_POSTGRES = new RegExp(
  `^(08...|57P01|57P02|57P03|53300|40001|40P01|55P03|57014|${NETWORK_UNREACHABLE})$`,
);

/**
 * True for store failures that a retry can fix: SQLite busy/locked, PostgreSQL unreachable, restarting
 * or overloaded, or a store closed while the server shuts down.
 */
export function isTransientStoreError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT') return true;
  // The database thread stopped (it is restarted on the next call) or the store is closing.
  if (code === 'SKILLPORT_STORE_THREAD_EXIT' || code === 'SKILLPORT_STORE_CLOSED') return true;
  if (typeof code === 'string' && TRANSIENT_POSTGRES.test(code)) return true;
  return /database connection is not open|store is closed|Connection terminated|timeout exceeded when trying to connect|is not queryable/i.test(
    err.message,
  );
}

/**
 * PostgreSQL SQLSTATEs and Node network errors that mean the database cannot be reached: connection
 * refused, lost or timed out, host not found or unreachable, server shutting down or starting.
 */
const UNREACHABLE_POSTGRES = new RegExp(`^(08...|57P01|57P02|57P03|${NETWORK_UNREACHABLE})$`);

/**
 * What a transient store error says of the database when it could not be reached at all (the code,
 * e.g. `ECONNREFUSED`, never the address), else null (busy: a lock, a timeout, a closing store).
 */
export function unreachableDatabase(err: unknown): string | null {
  if (!(err instanceof Error)) return null;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && UNREACHABLE_POSTGRES.test(code)) return code;
  // `pg` refuses a statement on a client whose connection ended with "Client has encountered a
  // connection error and is not queryable" (no code).
  if (/Connection terminated|timeout exceeded when trying to connect|is not queryable/i.test(err.message)) {
    return 'connection lost or timed out';
  }
  return null;
}

/**
 * True when the store could not write because the disk (or the filesystem quota) is full: SQLite's
 * `SQLITE_FULL`, a Node `ENOSPC`/`EDQUOT`, PostgreSQL's `53100` (disk_full). The write's transaction
 * was rolled back, so nothing changed.
 */
export function isStorageFullError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^(SQLITE_FULL|ENOSPC|EDQUOT|53100)$/.test(code)) return true;
  return /database or disk is full|no space left on device|could not extend file/i.test(err.message);
}

/**
 * The app's `onError`: maps any thrown value to the envelope.
 *
 * @param logger - receives unexpected errors (500s) with their stack
 */
export function createErrorHandler(logger: Logger) {
  return (err: unknown, c: Context<AppEnv>): Response => {
    if (isSkillportError(err)) {
      if (err.status >= 500) {
        logger.error({
          msg: 'request failed',
          request_id: c.get('requestId'),
          code: err.code,
          error: err.message,
          ...(err.cause !== undefined
            ? { cause: err.cause instanceof Error ? err.cause.stack : String(err.cause) }
            : {}),
        });
      }
      const retryAfter = err.details?.retry_after;
      if (typeof retryAfter === 'number') c.header('Retry-After', String(retryAfter));
      return sendError(c, err.code, err.message, err.details, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      if (status === 413) {
        return sendError(c, 'PAYLOAD_TOO_LARGE', err.message || 'Request body too large');
      }
      if (status === 400) {
        // Hono's own message already reads "Malformed JSON in request body": say it once.
        const message = /json/i.test(err.message)
          ? err.message.startsWith('Malformed JSON')
            ? err.message
            : `Malformed JSON in request body: ${err.message}`
          : err.message || 'Bad request';
        return sendError(c, 'INVALID_ARGUMENT', message);
      }
      if (status === 401) return sendError(c, 'UNAUTHENTICATED', err.message || 'Authentication required');
      if (status === 403) return sendError(c, 'PERMISSION_DENIED', err.message || 'Permission denied');
      if (status === 404) return sendError(c, 'NOT_FOUND', err.message || 'Not found');
      if (status === 415) {
        const type = c.req.header('content-type') ?? '(none)';
        // The one form route says what it takes; every other body is JSON.
        const wanted = c.req.path.endsWith('/resources/temp_upload')
          ? 'temp_upload takes multipart/form-data with the file in the field "file"'
          : 'send application/json';
        return sendError(
          c,
          'INVALID_ARGUMENT',
          `Unsupported Content-Type ${JSON.stringify(type)}: ${wanted}`,
          {
            field: 'content-type',
          },
        );
      }
      if (status >= 400 && status < 500)
        return sendError(c, 'INVALID_ARGUMENT', err.message || 'Bad request');
    }
    const stack = err instanceof Error ? err.stack : String(err);
    if (isStorageFullError(err)) {
      logger.error({ msg: 'storage full', request_id: c.get('requestId'), error: stack });
      return sendError(
        c,
        'RESOURCE_EXHAUSTED',
        'The server is out of storage space (disk full); nothing was changed. Free space on the server or delete skills, then retry',
        { request_id: c.get('requestId'), reason: 'storage_full' },
        507,
      );
    }
    if (isTransientStoreError(err)) {
      logger.error({ msg: 'store unavailable', request_id: c.get('requestId'), error: stack });
      c.header('Retry-After', '1');
      const locked = /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown }).code));
      const unreachable = locked ? null : unreachableDatabase(err);
      return sendError(
        c,
        'UNAVAILABLE',
        locked
          ? 'The database is locked by another connection (e.g. a backup or maintenance tool); nothing was changed, retry shortly'
          : unreachable !== null
            ? `The server cannot reach its database (${unreachable}); retry shortly. If this lasts, the ` +
              "server's operator should check that the database is running and reachable (SKILLPORT_DATABASE_URL)"
            : 'The skill store is busy or shutting down; retry shortly',
        {
          request_id: c.get('requestId'),
          reason: locked ? 'database_locked' : 'store_unavailable',
          retry_after: 1,
        },
      );
    }
    logger.error({ msg: 'unhandled error', request_id: c.get('requestId'), error: stack });
    return sendError(c, 'INTERNAL', 'Internal server error', { request_id: c.get('requestId') });
  };
}
