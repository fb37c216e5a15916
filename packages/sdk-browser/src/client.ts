/**
 * `AsyncHTTPClient`: the typed Skillport HTTP client over ky + fetch. Request and response types come
 * from `@skillport/spec` (generated from the server's OpenAPI document); nothing here re-declares them.
 */
import type {
  AccountCreateResult,
  AccountListResult,
  ApiKeyCreateParams,
  ApiKeyCreateResult,
  ApiKeyListResult,
  ApiKeyRevokeResult,
  HealthResult,
  QueueStatus,
  ServerLimits,
  SkillAddResult,
  SkillDeleteParams,
  SkillDeleteResult,
  SkillFileParams,
  SkillFindParams,
  SkillFindResult,
  SkillGetParams,
  SkillGetResult,
  SkillListParams,
  SkillListResult,
  SkillRestoreParams,
  SkillRestoreResult,
  SkillRevisionsParams,
  SkillRevisionsResult,
  SkillUpdateResult,
  SkillValidateParams,
  SkillValidateResult,
  SystemStatus,
  TaskCancelResult,
  TaskGetResult,
  TaskListParams,
  TaskListResult,
  TempUploadReleaseResult,
  TempUploadResult,
  UserCreateResult,
  UserListResult,
} from '@skillport/spec';
import ky, { HTTPError, type KyInstance, TimeoutError as KyTimeoutError } from 'ky';
import {
  type AddSkillOptions,
  type CallOptions,
  type ClientOptions,
  DEFAULT_URL,
  type IdempotencyOptions,
  type QueryOf,
  type SkillData,
  type SkillSource,
  type UpdateSkillOptions,
} from './client-options.js';
import { ApiError, LocalError, NetworkError, TimeoutError } from './errors.js';
import { errorFromResponse, parseJson, unwrapResult } from './internal/envelope.js';
import {
  anySignal,
  describeCause,
  isBlob,
  type Query,
  type RequestInit,
  toSearchParams,
} from './internal/http.js';
import { checkRequestPath, filePathSegments, pathSegment } from './internal/url-path.js';
import { zipSkillFiles } from './zip-files.js';

/** `If-Match` and `Idempotency-Key` of a write, each when given. */
function writeHeaders(
  ifMatch: string | undefined,
  idempotencyKey: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (ifMatch) headers['If-Match'] = ifMatch;
  if (idempotencyKey !== undefined) headers['Idempotency-Key'] = idempotencyKey;
  return headers;
}

/**
 * Typed asynchronous client of the Skillport HTTP API. Runs in browsers, Node, Deno and workers.
 *
 * Every method resolves with the envelope's `result` and rejects with an {@link ApiError} subclass
 * (server refused), a {@link NetworkError} (no answer) or a {@link TimeoutError}.
 *
 * @example
 * ```ts
 * const client = new AsyncHTTPClient({ url: 'http://127.0.0.1:1933' });
 * await client.initialize();
 * await client.addSkill('---\nname: hello\ndescription: Say hello\n---\n\n# Hello\n', { wait: true });
 * const { skills } = await client.findSkills('greet someone');
 * ```
 * @see the OpenAPI document (every route), the @skillport/sdk-node README
 */
export class AsyncHTTPClient {
  /** Base URL of the server (no trailing slash). */
  readonly url: string;
  readonly #timeout: number;
  readonly #http: KyInstance;
  readonly #abort = new AbortController();
  #closed = false;

  /**
   * @param options - see {@link ClientOptions}; every field is optional.
   * @throws LocalError `INVALID_ARGUMENT` (`details.field` `url`) when `url` is not an absolute
   *   http(s) URL (`details.reason` `not_http_url`), has a query or fragment (`query_or_fragment`;
   *   a path prefix, as behind a proxy, is kept: `https://example.com/skillport`), or carries a user
   *   name or password (`credentials`: `http://alice:secret@host`; the message does not repeat them).
   */
  constructor(options: ClientOptions = {}) {
    const url = (options.url ?? DEFAULT_URL).replace(/\/+$/, '');
    const userinfo = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i.exec(url);
    if (userinfo) {
      // fetch refuses such a URL at every call, and a URL is quoted in error messages and logs: a
      // password in it would be shown wherever the first failure is reported.
      const shown = `${userinfo[1]}***@${url.slice(userinfo[0].length)}`;
      throw new LocalError(
        'INVALID_ARGUMENT',
        `url must not carry a user name or password (${shown.slice(0, 200)}): give the server's URL alone, such as ${DEFAULT_URL}, and the API key as apiKey (CLI: --api-key or SKILLPORT_API_KEY)`,
        { details: { field: 'url', reason: 'credentials' } },
      );
    }
    if (!/^https?:\/\/[^/]/i.test(url)) {
      throw new LocalError(
        'INVALID_ARGUMENT',
        `url must be an absolute http(s) URL such as ${DEFAULT_URL}, got "${url.slice(0, 200)}"`,
        { details: { field: 'url', reason: 'not_http_url' } },
      );
    }
    if (/[?#]/.test(url)) {
      // Every route is appended to the base URL: after a query or fragment it would not be a path.
      throw new LocalError(
        'INVALID_ARGUMENT',
        `url must be the server's base URL, without a query (?…) or fragment (#…), such as ${DEFAULT_URL} or https://example.com/skillport; got "${url.slice(0, 200)}"`,
        { details: { field: 'url', reason: 'query_or_fragment' } },
      );
    }
    this.url = url;
    this.#timeout = options.timeout ?? 60_000;
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    this.#http = ky.create({
      prefixUrl: `${url}/`,
      headers,
      timeout: this.#timeout,
      retry: {
        limit: options.retry ?? 2,
        methods: ['get', 'put', 'delete', 'head'],
        statusCodes: [408, 429, 500, 502, 503, 504],
        shouldRetry: async ({ error }) => ((await isServerWaitTimeout(error)) ? false : undefined),
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  }

  /**
   * Checks that the server answers (`GET /health`) and returns what it says about itself.
   * @returns `{status, healthy, version, auth_mode}` plus `{account_id, user_id, role}` with a valid key.
   * @throws NetworkError / TimeoutError when the server cannot be reached; ApiError on a non-2xx answer.
   * @see the OpenAPI document: `GET /api/v1/tasks/{task_id}`, `POST /api/v1/system/wait`, `GET /health`
   */
  async initialize(options: CallOptions = {}): Promise<HealthResult> {
    return this.#request<HealthResult>('GET', 'health', { signal: options.signal });
  }

  /**
   * Adds (or replaces) a skill.
   *
   * - a string is SKILL.md text, an object with `inputSchema` an MCP tool, another object a structured skill;
   * - a `Blob`/`File` is uploaded first (temp upload) — a zip of a skill folder or a single SKILL.md;
   * - an array of `File`s (a picked folder) is zipped with {@link zipSkillFiles} and uploaded;
   * - the result of {@link tempUpload} (`{temp_file_id}`, an object with that one key) adds that
   *   upload, sending nothing again. A successful add consumes the id; one the server refused (a bad
   *   name, a missing `skills` entry) keeps it, so the same upload can be added again.
   *
   * An upload this method makes itself (for a `Blob` or a picked folder) is released again when the
   * server refuses the add (a 4xx answer, or 507), so a refused input does not count toward the
   * account's temp-upload quota until it expires; after a network error or a timeout it is kept (the
   * add may still be running on the server).
   *
   * @param source - the skill, see above.
   * @param options - `wait` (default false), `timeout` (seconds, with `wait`), `target_uri` (default the
   *   caller's user root), `telemetry`, `source_metadata`, `filename`, `idempotencyKey` (sent as
   *   `Idempotency-Key`: a retry with the same key gets the first response, see {@link IdempotencyOptions}), `signal`.
   * @returns `{status: "success", root_uri, uri, name, auxiliary_files, revision, replaced, warnings}`
   *   plus `queue_status` (with `wait`) or `task_id`; `replaced` is true when a skill of that name
   *   already existed in the root and was replaced, false when it is new.
   * @throws SkillInvalidError when the skill cannot be parsed (`details.issues`); InvalidArgumentError
   *   for a bad name; PermissionDeniedError for a host path given as content.
   * @see the OpenAPI document: `POST /api/v1/skills`
   */
  async addSkill(source: SkillSource, options: AddSkillOptions = {}): Promise<SkillAddResult> {
    const { signal, filename, idempotencyKey, ...fields } = options;
    return this.#writeFrom(source, filename, signal, (body) =>
      this.#request<SkillAddResult>('POST', 'api/v1/skills', {
        json: { ...body, ...fields },
        headers: writeHeaders(undefined, idempotencyKey),
        timeout: this.#waitTimeout(fields.wait, fields.timeout),
        signal,
      }),
    );
  }

  /**
   * Lists the skills of the caller's roots, or of one root, by name, one page at a time.
   * @param params - `node_limit` (skills per page: default 100, at most 1000 — larger values are
   *   clamped), `cursor` (a previous page's `next_cursor`), `target_uri` (the same on every page).
   * @returns `{root_uris | root_uri, skills, total, has_more, next_cursor?}`; `total` counts every
   *   skill of the root(s); an empty root gives an empty list.
   * @example
   * ```ts
   * let page = await client.listSkills({ node_limit: 500 });
   * const all = [...page.skills];
   * while (page.has_more) {
   *   page = await client.listSkills({ node_limit: 500, cursor: page.next_cursor ?? null });
   *   all.push(...page.skills);
   * }
   * ```
   * @see the OpenAPI document: `GET /api/v1/skills`
   */
  async listSkills(
    params: QueryOf<SkillListParams> = {},
    options: CallOptions = {},
  ): Promise<SkillListResult> {
    return this.#request<SkillListResult>('GET', 'api/v1/skills', {
      query: params as Query,
      signal: options.signal,
    });
  }

  /**
   * Searches skills by meaning and words.
   * @param query - free text, non-empty.
   * @param params - `limit` (default 10; above 1000 the server clamps it to 1000), `score_threshold`,
   *   `target_uri`, `level`, `telemetry`.
   * @returns `{skills: [{…item, score (0–1, descending), match_reason}], …}`.
   * @throws InvalidArgumentError for an empty query.
   * @see the OpenAPI document: `POST /api/v1/skills/find`
   */
  async findSkills(
    query: string,
    params: Omit<SkillFindParams, 'query'> & CallOptions = {},
  ): Promise<SkillFindResult> {
    const { signal, ...fields } = params;
    return this.#request<SkillFindResult>('POST', 'api/v1/skills/find', {
      json: { query, ...fields },
      signal,
    });
  }

  /**
   * Validates a skill on the server without storing it (always resolves for well-formed requests).
   * @param data - SKILL.md text or a structured skill.
   * @param params - `strict` (false), `profile` (`openviking`), `skill_dir_name`, `source_path`.
   * @returns `{valid, strict, profile, name, description, tags, allowed_tools, body_lines, errors, warnings}`.
   * @see the OpenAPI document: `POST /api/v1/skills/validate`
   */
  async validateSkill(
    data: SkillData,
    params: Omit<SkillValidateParams, 'data'> & CallOptions = {},
  ): Promise<SkillValidateResult> {
    const { signal, ...fields } = params;
    return this.#request<SkillValidateResult>('POST', 'api/v1/skills/validate', {
      json: { data, ...fields },
      signal,
    });
  }

  /**
   * Reads one skill.
   * @param name - the skill name.
   * @param params - `level` (0|1|2), `include_content`, `include_files` (true), `target_uri`, …
   * @returns abstract/overview/content (per `level`), `content_sha256`, `files`, `frontmatter`, `revision`.
   * @throws NotFoundError when no root holds the skill.
   * @see the OpenAPI document: `GET /api/v1/skills/{name}`
   */
  async getSkill(
    name: string,
    params: QueryOf<SkillGetParams> = {},
    options: CallOptions = {},
  ): Promise<SkillGetResult> {
    return this.#request<SkillGetResult>('GET', `api/v1/skills/${this.#segment(name, 'name', 'GET')}`, {
      query: params as Query,
      signal: options.signal,
    });
  }

  /**
   * Downloads one file of a skill as raw bytes: `SKILL.md`, an auxiliary file (as listed in
   * {@link getSkill}'s `files[].path`), or the generated `.abstract.md` / `.overview.md`.
   * @param name - the skill name.
   * @param path - the file path inside the skill folder, e.g. `scripts/helper.py` (`/`-separated).
   * @param params - `target_uri` (default: user root, then agent root).
   * @returns the bytes exactly as stored, with the file's `sha256` (the ETag), the skill's `revision`
   *   and the `contentType` the server sent.
   * @throws NotFoundError when the skill or the file is absent (`details.type` `skill` or `file`);
   *   InvalidArgumentError for a path with `..`, empty segments or a backslash.
   * @example
   * ```ts
   * const { bytes } = await client.getSkillFile('my-skill', 'scripts/helper.py');
   * const text = new TextDecoder().decode(bytes);
   * ```
   */
  async getSkillFile(
    name: string,
    path: string,
    params: QueryOf<SkillFileParams> = {},
    options: CallOptions = {},
  ): Promise<{ bytes: Uint8Array; sha256: string; revision: string; contentType: string }> {
    const encodedPath = filePathSegments(path, 'GET', this.url);
    const response = await this.#send(
      'GET',
      `api/v1/skills/${this.#segment(name, 'name', 'GET')}/files/${encodedPath}`,
      { query: params as Query, signal: options.signal },
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    return {
      bytes,
      sha256: (response.headers.get('etag') ?? '').replace(/^W\//, '').replace(/"/g, ''),
      revision: response.headers.get('x-skill-revision') ?? '',
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    };
  }

  /**
   * Replaces a skill completely (same inputs as {@link addSkill}); the new content's name must equal `name`.
   * @param options - as {@link addSkill} (with `idempotencyKey`), plus `ifMatch` (expected revision).
   * @returns add's result plus `action: "update"`.
   * @throws NotFoundError when absent; InvalidArgumentError on a name mismatch (`details {expected, actual}`);
   *   ConflictError (412) on a stale `ifMatch`.
   * @see the OpenAPI document: `PUT /api/v1/skills/{name}`
   */
  async updateSkill(
    name: string,
    source: SkillSource,
    options: UpdateSkillOptions = {},
  ): Promise<SkillUpdateResult> {
    const { signal, filename, ifMatch, idempotencyKey, ...fields } = options;
    const path = `api/v1/skills/${this.#segment(name, 'name', 'PUT')}`;
    return this.#writeFrom(source, filename, signal, (body) =>
      this.#request<SkillUpdateResult>('PUT', path, {
        json: { ...body, ...fields },
        headers: writeHeaders(ifMatch, idempotencyKey),
        timeout: this.#waitTimeout(fields.wait, fields.timeout),
        signal,
      }),
    );
  }

  /**
   * Deletes a skill.
   * @param params - `target_uri` (default: user root, then agent root).
   * @param options - `ifMatch`: delete only at this revision (the skill's `revision` / `ETag`).
   * @returns `{name, uri, root_uri, estimated_deleted_count, privacy_deleted}`.
   * @throws NotFoundError when absent; ConflictError (412) on a stale `ifMatch` (nothing deleted).
   * @see the OpenAPI document: `DELETE /api/v1/skills/{name}`
   */
  async deleteSkill(
    name: string,
    params: QueryOf<SkillDeleteParams> = {},
    options: CallOptions & { ifMatch?: string } = {},
  ): Promise<SkillDeleteResult> {
    return this.#request<SkillDeleteResult>(
      'DELETE',
      `api/v1/skills/${this.#segment(name, 'name', 'DELETE')}`,
      {
        query: params as Query,
        headers: options.ifMatch ? { 'If-Match': options.ifMatch } : {},
        signal: options.signal,
      },
    );
  }

  /**
   * Lists the kept revisions of a skill, newest first (also of a deleted skill while its history is kept).
   * @param name - the skill name.
   * @param params - `target_uri` (default: user root, then agent root), `limit` (default 100, at most 1000).
   * @returns `{name, uri, root_uri, deleted, current_revision, revisions: [{revision, created_at,
   *   created_by, superseded_at, superseded_by, current, size, files, auxiliary_files}], total}`.
   * @throws NotFoundError when neither the skill nor a history of it exists.
   * @example
   * ```ts
   * const { revisions } = await client.listRevisions('pdf-tools');
   * const old = await client.getSkill('pdf-tools', { revision: revisions[1]!.revision, level: 2 });
   * ```
   */
  async listRevisions(
    name: string,
    params: QueryOf<SkillRevisionsParams> = {},
    options: CallOptions = {},
  ): Promise<SkillRevisionsResult> {
    return this.#request<SkillRevisionsResult>(
      'GET',
      `api/v1/skills/${this.#segment(name, 'name', 'GET')}/revisions`,
      {
        query: params as Query,
        signal: options.signal,
      },
    );
  }

  /**
   * Makes an earlier revision current again: its files are written anew (so the same `revision`),
   * with a processing job, like an update. Brings back a deleted skill while its history is kept.
   * @param name - the skill name.
   * @param revision - a revision from {@link listRevisions}, or an unambiguous prefix (≥ 4 hex characters).
   * @param options - `target_uri`, `wait`, `timeout` (seconds), `telemetry`, `ifMatch` (the revision
   *   expected to be current now), `idempotencyKey` (see {@link IdempotencyOptions}), `signal`.
   * @returns update's result with `action: "restore"`; `replaced` is false when a deleted skill came back.
   * @throws NotFoundError (skill or revision unknown); ConflictError (412) on a stale `ifMatch`;
   *   InvalidArgumentError for a malformed or ambiguous revision.
   */
  async restoreSkill(
    name: string,
    revision: string,
    options: Omit<SkillRestoreParams, 'revision'> &
      CallOptions &
      IdempotencyOptions & { ifMatch?: string } = {},
  ): Promise<SkillRestoreResult> {
    const { signal, ifMatch, idempotencyKey, ...fields } = options;
    return this.#request<SkillRestoreResult>(
      'POST',
      `api/v1/skills/${this.#segment(name, 'name', 'POST')}/restore`,
      {
        json: { revision, ...fields },
        headers: writeHeaders(ifMatch, idempotencyKey),
        timeout: this.#waitTimeout(fields.wait, fields.timeout),
        signal,
      },
    );
  }

  /**
   * One page of the change feed: the skills written (`skills`) and deleted (`deleted`) since a time
   * or a previous page, in the order the changes were made, each skill once with its latest state.
   * Follow `next_cursor` while `has_more`; keep the last one to poll for later changes.
   * @param params - `updated_since` (ISO 8601) for the first page, or `cursor` (a `next_cursor`);
   *   `node_limit` (changes per page, default and at most 1000), `target_uri`.
   * @returns list's shape plus `deleted`, `next_cursor`, `has_more`.
   * @throws InvalidArgumentError for a malformed time or cursor; LocalError `INVALID_ARGUMENT`
   *   (nothing sent) when neither `updated_since` nor `cursor` is given.
   * @example
   * ```ts
   * let page = await client.listChanges({ updated_since: '2026-01-01T00:00:00Z' });
   * while (page.has_more) page = await client.listChanges({ cursor: page.next_cursor ?? null });
   * ```
   */
  async listChanges(params: QueryOf<SkillListParams>, options: CallOptions = {}): Promise<SkillListResult> {
    if (params.updated_since == null && params.cursor == null) {
      throw new LocalError(
        'INVALID_ARGUMENT',
        'listChanges needs updated_since (an ISO 8601 time, e.g. "2026-01-01T00:00:00Z") or cursor (a next_cursor)',
        { details: { field: 'updated_since', reason: 'missing' } },
      );
    }
    return this.listSkills(params, options);
  }

  /**
   * Uploads a file for a later add/update (`temp_file_id`); ids are single-use and expire.
   * @param file - the bytes (a zip of a skill folder, or a SKILL.md).
   * @param options - `filename` (default `upload.bin`, or the File's name), `upload_mode` (`local` | `shared`).
   * @returns `{temp_file_id}`.
   * @throws PayloadTooLargeError above the server's upload limit; LocalError `INVALID_ARGUMENT`
   *   (`details {field: "file", reason: "not_bytes"}`, nothing sent) for anything but a Blob or a
   *   Uint8Array — a string would otherwise be uploaded as its own text (SKILL.md text goes to
   *   {@link addSkill}; the Node client's `tempUpload` reads a path).
   * @see the OpenAPI document: `POST /api/v1/resources/temp_upload`
   */
  async tempUpload(
    file: Blob | Uint8Array,
    options: CallOptions & { filename?: string; upload_mode?: 'local' | 'shared' } = {},
  ): Promise<TempUploadResult> {
    const value: unknown = file;
    if (!isBlob(value) && !ArrayBuffer.isView(value) && !(value instanceof ArrayBuffer)) {
      const shown =
        typeof file === 'string'
          ? `a string (${JSON.stringify((file as string).slice(0, 60))})`
          : typeof file;
      throw new LocalError(
        'INVALID_ARGUMENT',
        `tempUpload takes the bytes to upload (a Blob, File or Uint8Array), got ${shown}; add SKILL.md text with addSkill`,
        { details: { field: 'file', reason: 'not_bytes' } },
      );
    }
    const blob = isBlob(file) ? file : new Blob([file as Uint8Array<ArrayBuffer>]);
    const form = new FormData();
    const fallbackName = typeof File !== 'undefined' && file instanceof File ? file.name : 'upload.bin';
    form.append('file', blob, options.filename ?? fallbackName);
    if (options.upload_mode) form.append('upload_mode', options.upload_mode);
    return this.#request<TempUploadResult>('POST', 'api/v1/resources/temp_upload', {
      body: form,
      signal: options.signal,
    });
  }

  /**
   * Releases a temp upload that will not be used: the server deletes it at once, so it no longer
   * counts toward the account's temp-upload quota (an add or update the server refused leaves its
   * upload for a retry until it expires, 12 h by default).
   * @param tempFileId - the `temp_file_id` of {@link tempUpload}.
   * @returns `{temp_file_id, released: true}`.
   * @throws NotFoundError when the upload is unknown, expired, already used or of another account.
   * @see the OpenAPI document: `DELETE /api/v1/resources/temp_upload/{temp_file_id}`
   */
  async releaseTempUpload(tempFileId: string, options: CallOptions = {}): Promise<TempUploadReleaseResult> {
    const path = `api/v1/resources/temp_upload/${this.#segment(tempFileId, 'tempFileId', 'DELETE')}`;
    return this.#request<TempUploadReleaseResult>('DELETE', path, { signal: options.signal });
  }

  /**
   * Reads a processing task of the caller.
   * @returns `{task_id, task_type, status, created_at, updated_at, result?, error?}`.
   * @throws NotFoundError for an unknown id or another user's task.
   * @see the OpenAPI document: `GET /api/v1/tasks/{task_id}`, `POST /api/v1/system/wait`, `GET /health`
   */
  async getTask(taskId: string, options: CallOptions = {}): Promise<TaskGetResult> {
    return this.#request<TaskGetResult>('GET', `api/v1/tasks/${this.#segment(taskId, 'taskId', 'GET')}`, {
      signal: options.signal,
    });
  }

  /**
   * Lists the caller's processing tasks, newest first (`list_tasks` of the seed clients).
   * @param query - `task_type` (`add_skill` | `update_skill`), `status` (`pending` | `running` |
   *   `completed` | `failed` | `cancelled`), `resource_id` (a skill URI), `limit` (1–200, default 50).
   * @returns the tasks, each as {@link getTask} returns it.
   * @throws InvalidArgumentError for a `limit` outside 1–200.
   * @see the OpenAPI document: `GET /api/v1/tasks`
   * @example
   * ```ts
   * const failed = await client.listTasks({ status: 'failed' });
   * ```
   */
  async listTasks(query: TaskListParams = {}, options: CallOptions = {}): Promise<TaskListResult> {
    return this.#request<TaskListResult>('GET', 'api/v1/tasks', {
      query: query as Query,
      signal: options.signal,
    });
  }

  /**
   * Cancels one of the caller's processing tasks while it is still pending: it never runs, and the
   * skill keeps the overview and search entry of its previous revision. Cancelling twice is harmless.
   * @returns the task, `status: 'cancelled'`.
   * @throws NotFoundError for an unknown id or another user's task; ConflictError (409) when it is
   *   running or finished.
   * @see the OpenAPI document: `POST /api/v1/tasks/{task_id}/cancel`
   */
  async cancelTask(taskId: string, options: CallOptions = {}): Promise<TaskCancelResult> {
    return this.#request<TaskCancelResult>(
      'POST',
      `api/v1/tasks/${this.#segment(taskId, 'taskId', 'POST')}/cancel`,
      {
        signal: options.signal,
      },
    );
  }

  /**
   * The server's overall state as the caller sees it (`get_status()` of the seed clients).
   * @returns `{is_healthy, errors, components: {store, queue, jobs}}`, each component
   *   `{name, is_healthy, has_errors, status}`.
   * @see the OpenAPI document: `GET /api/v1/observer/system`
   */
  async getSystemStatus(options: CallOptions = {}): Promise<SystemStatus> {
    return this.#request<SystemStatus>('GET', 'api/v1/observer/system', { signal: options.signal });
  }

  /**
   * The limits the server enforces (sizes in bytes, counts, seconds) and, in `settings`, the server
   * setting behind each (`max_upload_bytes` → `SKILLPORT_MAX_UPLOAD_BYTES`), so an oversized skill
   * can be refused before it is zipped or uploaded.
   * @returns `{max_body_bytes, max_upload_bytes, max_zip_entries, max_uncompressed_bytes,
   *   max_files_per_skill, max_skill_md_bytes, …, settings}`.
   * @throws NotFoundError from a server older than this route (check with `isApiError(e) && e.status === 404`).
   * @see the OpenAPI document: `GET /api/v1/system/limits`
   */
  async getLimits(options: CallOptions = {}): Promise<ServerLimits> {
    return this.#request<ServerLimits>('GET', 'api/v1/system/limits', { signal: options.signal });
  }

  /**
   * Whether every server component is healthy (`is_healthy()` of the seed clients): the
   * `is_healthy` of {@link getSystemStatus}.
   * @throws the errors of {@link getSystemStatus} (a server that cannot be reached throws NetworkError).
   */
  async isHealthy(options: CallOptions = {}): Promise<boolean> {
    return (await this.getSystemStatus(options)).is_healthy;
  }

  /**
   * Waits until the caller's pending processing jobs are done.
   * @param options - `timeout` in seconds (default: the server's).
   * @returns `{pending, processing, completed, failed}`.
   * @throws DeadlineExceededError (504) when the server-side wait times out.
   * @see the OpenAPI document: `GET /api/v1/tasks/{task_id}`, `POST /api/v1/system/wait`, `GET /health`
   */
  async waitProcessed(options: CallOptions & { timeout?: number } = {}): Promise<QueueStatus> {
    const json = options.timeout === undefined ? {} : { timeout: options.timeout };
    return this.#request<QueueStatus>('POST', 'api/v1/system/wait', {
      json,
      timeout: this.#waitTimeout(true, options.timeout),
      signal: options.signal,
    });
  }

  /**
   * The caller's processing queue counts (`ov observer queue`).
   * @returns `{pending, processing, completed, failed}`.
   */
  async getQueueStatus(options: CallOptions = {}): Promise<QueueStatus> {
    return this.#request<QueueStatus>('GET', 'api/v1/observer/queue', { signal: options.signal });
  }

  /**
   * Creates an account (root key only). Idempotent: an existing account answers the same.
   * @param accountId - 1–64 characters of `[A-Za-z0-9_-]`.
   * @returns `{account_id}`.
   * @throws PermissionDeniedError with an admin or user key; InvalidArgumentError for a bad id.
   * @see `POST /api/v1/admin/accounts`
   */
  async createAccount(accountId: string, options: CallOptions = {}): Promise<AccountCreateResult> {
    return this.#request<AccountCreateResult>('POST', 'api/v1/admin/accounts', {
      json: { account_id: accountId },
      signal: options.signal,
    });
  }

  /**
   * Lists account ids: every account for a root key, only the caller's own for an admin key.
   * @returns `{accounts}`.
   * @throws PermissionDeniedError with a user key.
   * @see `GET /api/v1/admin/accounts`
   */
  async listAccounts(options: CallOptions = {}): Promise<AccountListResult> {
    return this.#request<AccountListResult>('GET', 'api/v1/admin/accounts', { signal: options.signal });
  }

  /**
   * Creates a user in an account (root key, or an admin key of that account). Idempotent: an existing
   * user answers the same. The user's skill root is `viking://user/{user_id}/skills`; create the user
   * before {@link createApiKey} makes a key for it.
   * @param accountId - the account, which must exist; `default` in dev mode.
   * @param userId - up to 128 characters of `[A-Za-z0-9_.@-]`, not `.` or `..`.
   * @returns `{account_id, user_id}`.
   * @throws NotFoundError for a missing account; PermissionDeniedError without admin rights on it;
   *   InvalidArgumentError for a bad id.
   * @see `POST /api/v1/admin/accounts/{account_id}/users`
   */
  async createUser(accountId: string, userId: string, options: CallOptions = {}): Promise<UserCreateResult> {
    return this.#request<UserCreateResult>(
      'POST',
      `api/v1/admin/accounts/${this.#segment(accountId, 'accountId', 'POST')}/users`,
      { json: { user_id: userId }, signal: options.signal },
    );
  }

  /**
   * Lists the user ids of an account (root key, or an admin key of that account).
   * @returns `{account_id, users}`.
   * @throws NotFoundError for a missing account; PermissionDeniedError without admin rights on it.
   * @see `GET /api/v1/admin/accounts/{account_id}/users`
   */
  async listUsers(accountId: string, options: CallOptions = {}): Promise<UserListResult> {
    return this.#request<UserListResult>(
      'GET',
      `api/v1/admin/accounts/${this.#segment(accountId, 'accountId', 'GET')}/users`,
      { signal: options.signal },
    );
  }

  /**
   * Creates an API key for an existing user of an account (admin key of that account, or a root
   * key); {@link createUser} first for a new user.
   * @param accountId - the account; `default` in dev mode.
   * @param params - `user_id` (required), `role` (`user` default, or `admin`).
   * @returns the key's info plus `api_key`, the secret, shown only this once.
   * @throws PermissionDeniedError without admin rights on the account; NotFoundError for a missing
   *   account or user.
   */
  async createApiKey(
    accountId: string,
    params: ApiKeyCreateParams,
    options: CallOptions = {},
  ): Promise<ApiKeyCreateResult> {
    return this.#request<ApiKeyCreateResult>(
      'POST',
      `api/v1/admin/accounts/${this.#segment(accountId, 'accountId', 'POST')}/keys`,
      {
        json: params,
        signal: options.signal,
      },
    );
  }

  /**
   * Lists the API keys of an account (never the secrets).
   * @returns `{keys: [{key_id, account_id, user_id, role, prefix, created_at, revoked_at}]}`.
   */
  async listApiKeys(accountId: string, options: CallOptions = {}): Promise<ApiKeyListResult> {
    return this.#request<ApiKeyListResult>(
      'GET',
      `api/v1/admin/accounts/${this.#segment(accountId, 'accountId', 'GET')}/keys`,
      {
        signal: options.signal,
      },
    );
  }

  /**
   * Revokes an API key; requests made with it are refused from then on.
   * @returns `{key_id, revoked}`.
   * @throws NotFoundError for an unknown key id.
   */
  async revokeApiKey(
    accountId: string,
    keyId: string,
    options: CallOptions = {},
  ): Promise<ApiKeyRevokeResult> {
    const path = `api/v1/admin/accounts/${this.#segment(accountId, 'accountId', 'DELETE')}/keys/${this.#segment(keyId, 'keyId', 'DELETE')}`;
    return this.#request<ApiKeyRevokeResult>('DELETE', path, { signal: options.signal });
  }

  /**
   * Sends any request to the API and returns the envelope's `result` — for routes without a method here.
   * @param method - HTTP method.
   * @param path - path under the server URL, e.g. `api/v1/admin/keys` (no leading slash needed).
   */
  async request<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    path: string,
    init: { json?: unknown; query?: Query; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<T> {
    return this.#request<T>(method, path.replace(/^\/+/, ''), init);
  }

  /**
   * Aborts requests in flight (they reject with `NetworkError`); later calls reject with `LocalError`
   * `UNAVAILABLE` (`details.reason` `closed`) before sending anything. Idempotent.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#abort.abort(new Error('client closed'));
  }

  #waitTimeout(wait: boolean | null | undefined, seconds: number | false | null | undefined): number {
    if (!wait) return this.#timeout;
    const wanted = typeof seconds === 'number' ? seconds * 1000 + 15_000 : 15 * 60_000;
    return Math.min(Math.max(this.#timeout, wanted), 2_147_483_647);
  }

  /**
   * Sends an add or update of `source` with `send`. When this call made a temp upload for it (a Blob
   * or a picked folder) and the server refused the write, the upload is released before the error is
   * rethrown: nobody else knows its id, so it could only wait for its expiry, counted toward the
   * account's temp-upload quota. A caller's own `{temp_file_id}` is left alone (kept for a retry).
   */
  async #writeFrom<T>(
    source: SkillSource,
    filename: string | undefined,
    signal: AbortSignal | undefined,
    send: (body: { data: SkillData } | { temp_file_id: string }) => Promise<T>,
  ): Promise<T> {
    const { body, uploaded } = await this.#contentFields(source, filename, signal);
    try {
      return await send(body);
    } catch (error) {
      if (uploaded && isRefusal(error)) {
        // Best effort: a server without the release route, or an upload gone already, changes nothing.
        await this.releaseTempUpload((body as { temp_file_id: string }).temp_file_id).catch(() => undefined);
      }
      throw error;
    }
  }

  /** The request fields for `source`, and whether a temp upload was made for them here. */
  async #contentFields(
    source: SkillSource,
    filename: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ body: { data: SkillData } | { temp_file_id: string }; uploaded: boolean }> {
    if (Array.isArray(source)) {
      const zip = await zipSkillFiles(source);
      const result = await this.tempUpload(zip, {
        filename: filename ?? 'skill.zip',
        ...(signal ? { signal } : {}),
      });
      return { body: { temp_file_id: result.temp_file_id }, uploaded: true };
    }
    if (isTempUploadRef(source)) return { body: { temp_file_id: source.temp_file_id }, uploaded: false };
    if (isBlob(source)) {
      const name =
        filename ?? (typeof File !== 'undefined' && source instanceof File ? source.name : 'upload.bin');
      const result = await this.tempUpload(source, { filename: name, ...(signal ? { signal } : {}) });
      return { body: { temp_file_id: result.temp_file_id }, uploaded: true };
    }
    return { body: { data: source as SkillData }, uploaded: false };
  }

  /** Caller text as one URL path segment; refused (no request sent) when it could leave its segment. */
  #segment(value: string, field: string, method: string): string {
    return pathSegment(value, field, method, this.url);
  }

  async #request<T>(method: string, path: string, init: RequestInit): Promise<T> {
    const response = await this.#send(method, path, init);
    return unwrapResult(parseJson(await response.text())) as T;
  }

  /** Sends a request; resolves with the 2xx response, rejects with the typed error. */
  async #send(method: string, path: string, init: RequestInit): Promise<Response> {
    const fullUrl = `${this.url}/${path}`;
    checkRequestPath(path, method, fullUrl);
    if (this.#closed) throw closedError(`${method} ${fullUrl}`);
    const signal = init.signal ? anySignal([this.#abort.signal, init.signal]) : this.#abort.signal;
    const params = toSearchParams(init.query);
    // A POST carrying an Idempotency-Key is safe to send again (the server answers a repeat with the
    // first response and writes nothing twice), so it is retried like GET/PUT/DELETE.
    const retryPost = method === 'POST' && init.headers?.['Idempotency-Key'] !== undefined;
    try {
      const response = await this.#http(path, {
        method,
        ...(retryPost ? { retry: { methods: ['post'] } } : {}),
        ...(init.json !== undefined ? { json: init.json } : {}),
        ...(init.body !== undefined ? { body: init.body } : {}),
        ...(params.size > 0 ? { searchParams: params } : {}),
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.timeout !== undefined ? { timeout: init.timeout } : {}),
        ...(signal ? { signal } : {}),
      });
      return response;
    } catch (error) {
      if (error instanceof HTTPError) {
        const { response } = error;
        const bodyText = await response.text().catch(() => '');
        throw errorFromResponse({
          status: response.status,
          statusText: response.statusText,
          bodyText,
          method,
          url: response.url || fullUrl,
          requestId: response.headers.get('x-request-id') ?? undefined,
        });
      }
      if (error instanceof KyTimeoutError) {
        throw new TimeoutError(
          `${method} ${fullUrl} got no answer within ${init.timeout ?? this.#timeout} ms`,
          {
            method,
            url: fullUrl,
            cause: error,
          },
        );
      }
      if (this.#closed) {
        throw new NetworkError(`${method} ${fullUrl}: the client was closed`, {
          method,
          url: fullUrl,
          cause: error,
        });
      }
      if (init.signal?.aborted) throw error;
      throw new NetworkError(
        `cannot reach the Skillport server at ${this.url}: ${describeCause(error)}${corsHint(this.url)}`,
        {
          method,
          url: fullUrl,
          cause: error,
        },
      );
    }
  }
}

/**
 * In a web page, a request to another origin that the server's CORS settings do not allow fails
 * exactly as one to a server that is down (`TypeError: Failed to fetch`, nothing else is readable),
 * so the message names that cause too. Empty outside a page (Node, Deno) and for the page's own
 * origin.
 *
 * @param serverUrl - the client's server URL
 * @returns `""` or ` (if the server is running, …)`
 */
function corsHint(serverUrl: string): string {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  if (typeof origin !== 'string' || !/^https?:\/\//.test(origin)) return '';
  let server: string;
  try {
    server = new URL(serverUrl).origin;
  } catch {
    return '';
  }
  if (server === origin) return '';
  return ` (if the server is running, it may not allow calls from this page's origin ${origin}: the server's SKILLPORT_CORS_ORIGINS must list it)`;
}

/**
 * True for a 504 the server answered itself with `DEADLINE_EXCEEDED`: its `wait` ran out after the
 * request was done (a write is stored; its details name the task to follow). Sending it again would
 * do it again — a second revision, or 412 on a stale `If-Match` — so it is not retried, unlike a 504
 * of a gateway that gave up. The body is read from a copy: the error is built from the response.
 */
async function isServerWaitTimeout(error: Error): Promise<boolean> {
  if (!(error instanceof HTTPError) || error.response.status !== 504) return false;
  try {
    const body = (await error.response.clone().json()) as { error?: { code?: unknown } } | null;
    return body?.error?.code === 'DEADLINE_EXCEEDED';
  } catch {
    return false;
  }
}

/**
 * The refusal of a call made after `close()`: nothing is sent. `UNAVAILABLE` is the server's code for
 * a service that is not taking requests; `details.reason` is `closed`.
 * @param call - what was refused, e.g. `GET http://127.0.0.1:1933/health` or `findSkills`
 */
function closedError(call: string): LocalError {
  return new LocalError(
    'UNAVAILABLE',
    `${call}: the client is closed (close() was called); create a new client to send requests`,
    { details: { reason: 'closed' } },
  );
}

/**
 * True when the server answered a write with a refusal, so nothing was stored and nothing is still
 * running: a 4xx (a request timeout, 408, aside: the write may go on) or 507 (a quota). A 5xx or a
 * network error or timeout may leave a write in progress, which a release would make fail.
 */
function isRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return (error.status >= 400 && error.status < 500 && error.status !== 408) || error.status === 507;
}

/**
 * True for the result of `tempUpload` — an object whose only key is a string `temp_file_id` — which
 * no skill is: a structured skill or an MCP tool has a `name`.
 */
function isTempUploadRef(source: SkillSource): source is TempUploadResult {
  if (typeof source !== 'object' || source === null || Array.isArray(source) || isBlob(source)) return false;
  const keys = Object.keys(source);
  return (
    keys.length === 1 &&
    keys[0] === 'temp_file_id' &&
    typeof (source as { temp_file_id?: unknown }).temp_file_id === 'string'
  );
}
