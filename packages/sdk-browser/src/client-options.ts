/** Options and input types of {@link AsyncHTTPClient}; request fields come from `@skillport/spec`. */
import type { McpTool, StructuredSkill } from '@skillport/core';
import type { SkillAddParams, TempUploadResult } from '@skillport/spec';
import type { ZipInput } from './zip-files.js';

/** The URL a client talks to when none is given: the embedded server of `skillport serve`. */
export const DEFAULT_URL = 'http://127.0.0.1:1933';

/** Options of {@link AsyncHTTPClient}. */
export interface ClientOptions {
  /** Server base URL, without `/api/v1`. Default {@link DEFAULT_URL}. */
  url?: string;
  /** API key, sent as `Authorization: Bearer <key>`. Default: none (dev-mode servers need none). */
  apiKey?: string;
  /** Milliseconds to wait for each HTTP attempt. Default 60 000. Waits (`wait: true`) get longer automatically. */
  timeout?: number;
  /**
   * Retries of idempotent requests on a network error or a 408, 429, 500, 502, 503 or 504 answer
   * (after the server's `Retry-After`, else 0.3 s, 0.6 s, … apart). Default 2; 0 = never. GET, PUT
   * and DELETE are retried, and a POST only when it carries an `idempotencyKey` (see
   * {@link IdempotencyOptions}); any other POST is sent once. A 504 `DEADLINE_EXCEEDED` (the server's own
   * `wait` ran out, after a write was stored) is never retried: it throws `DeadlineExceededError`, whose
   * `details` name what was stored and the task to follow.
   */
  retry?: number;
  /** `fetch` implementation to use. Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** Per-call options shared by every method. */
export interface CallOptions {
  /** Aborts the call. */
  signal?: AbortSignal;
}

/** Skill content the server reads itself: SKILL.md text, a structured skill, or an MCP tool. */
export type SkillData = string | StructuredSkill | McpTool;

/**
 * What {@link AsyncHTTPClient.addSkill} accepts: {@link SkillData}, a `Blob`/`File` (a zip of a skill
 * folder, or one SKILL.md), the files of a picked folder (zipped with {@link zipSkillFiles}), or the
 * result of {@link AsyncHTTPClient.tempUpload} (`{temp_file_id}`: an object with that one key).
 */
export type SkillSource = SkillData | Blob | ZipInput[] | TempUploadResult;

/** The `Idempotency-Key` option of the writes (add, update, restore). */
export interface IdempotencyOptions {
  /**
   * Sent as the `Idempotency-Key` header (1–255 printable ASCII characters, e.g. a UUID): makes a
   * retry of the same call safe. The first call with it runs; once it succeeded the server keeps its
   * response for 24 h, and the same call with the same key gets that response again, changing
   * nothing. The same key with a different request → `InvalidArgumentError` (`details.reason`
   * `idempotency_key_reused`); while the first still runs → `ConflictError`
   * (`idempotency_key_in_progress`). Keys are per user. A call with a key is retried by the client
   * itself on a network error or a 408, 429, 500, 502, 503 or 504 answer (up to
   * {@link ClientOptions.retry} times), but not on the server's own 504 `DEADLINE_EXCEEDED` (the write
   * was stored; the server keeps that answer for the key too). Default: none (each call is a new write, a POST sent once).
   * @see the OpenAPI document: the `Idempotency-Key` header of `POST /api/v1/skills`
   */
  idempotencyKey?: string;
}

/** Options of {@link AsyncHTTPClient.addSkill}: the request fields of `POST /api/v1/skills` besides the content. */
export type AddSkillOptions = Omit<SkillAddParams, 'data' | 'temp_file_id'> &
  CallOptions &
  IdempotencyOptions & {
    /** File name used when the source is uploaded (default `SKILL.md` for text, `skill.zip` for zips). */
    filename?: string;
  };

/** Options of {@link AsyncHTTPClient.updateSkill}: {@link AddSkillOptions} plus `ifMatch`. */
export type UpdateSkillOptions = AddSkillOptions & {
  /** Expected current revision; a stale one gives `ConflictError` (412). */
  ifMatch?: string;
};

/**
 * Query parameters of a route, with the names of the spec and natural values: numbers and booleans
 * are accepted where the wire carries strings (`{level: 2, include_content: true}`).
 */
export type QueryOf<T> = { [K in keyof T]?: T[K] | string | number | boolean | null };
