/**
 * `SyncHTTPClient`: the Skillport client with blocking methods, for scripts and tools that cannot be
 * async. Each call runs the async client in a worker thread (synckit: `Atomics.wait` on a shared
 * buffer) and returns its result, or throws the same typed error class the async client would.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import {
  type AddSkillOptions,
  DEFAULT_URL,
  deserializeClientError,
  type IdempotencyOptions,
  LocalError,
  type QueryOf,
  type SkillData,
  type UpdateSkillOptions,
} from '@skillport/sdk-browser';
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
import type { SyncClientOptions, SyncMethod, WorkerFn, WorkerReply } from './protocol.js';

/**
 * What the sync client's `addSkill`/`updateSkill` accept: content, a local path, zip/SKILL.md bytes,
 * or the result of `tempUpload` (`{temp_file_id}`).
 */
export type SyncSkillSource = SkillData | Uint8Array | TempUploadResult;

// synckit's CommonJS build, on purpose: its ES module build finds the preload it gives the worker
// thread from a global `__dirname` when one exists, and a script that Node evaluates (`node -e`, a
// script piped to `node`) defines one as `.`. The worker then fails to load that preload before it
// can report anything, and the first call blocks for ever. In CommonJS `__dirname` is the module's.
const { createSyncFn } = createRequire(import.meta.url)('synckit') as typeof import('synckit');

let call: ((options: SyncClientOptions, method: SyncMethod, args: unknown[]) => WorkerReply) | undefined;

/** The worker file: beside this module in `dist`; from sources (tests), the built copy. */
function workerPath(): string {
  const here = import.meta.url;
  const url = here.endsWith('.ts')
    ? new URL('../../dist/sync/worker.js', here)
    : new URL('./worker.js', here);
  const file = fileURLToPath(url);
  if (!existsSync(file)) {
    throw new Error(`SyncHTTPClient worker not found at ${file}: build @skillport/sdk-node first`);
  }
  return file;
}

function invoke<T>(options: SyncClientOptions, method: SyncMethod, args: unknown[]): T {
  call ??= createSyncFn<WorkerFn>(workerPath()) as unknown as typeof call;
  const reply = call!(options, method, args);
  if (reply.ok) return reply.value as T;
  const { error } = reply;
  if (error.kind === 'other') {
    const rebuilt = new Error(error.message);
    rebuilt.name = error.name;
    throw rebuilt;
  }
  throw deserializeClientError(error);
}

type NoSignal<T> = Omit<T, 'signal'>;

/**
 * Synchronous Skillport client: the methods of `AsyncHTTPClient` (Node flavour, so local paths work),
 * blocking until the answer arrives.
 *
 * Throws the same classes as the async client (`NotFoundError`, `SkillInvalidError`, …,
 * `NetworkError`, `TimeoutError`), rebuilt from the worker's answer with every field.
 * A custom `fetch` cannot cross to the worker and is not accepted; `Blob`s are given as `Uint8Array`.
 *
 * @example
 * ```ts
 * import { SyncHTTPClient } from '@skillport/sdk-node/sync';
 * const client = new SyncHTTPClient({ url: 'http://127.0.0.1:1933' });
 * client.addSkill('./skills/pdf-tools', { wait: true });
 * console.log(client.findSkills('fill a pdf form').skills[0]?.name);
 * ```
 * @see the @skillport/sdk-node README
 */
export class SyncHTTPClient {
  /** Base URL of the server. */
  readonly url: string;
  readonly #options: SyncClientOptions;
  #closed = false;

  /** @param options - as `AsyncHTTPClient` (`url`, `apiKey`, `timeout` ms, `retry`, `headers`), without `fetch`. */
  constructor(options: SyncClientOptions = {}) {
    this.#options = { ...options };
    this.url = (options.url ?? DEFAULT_URL).replace(/\/+$/, '');
  }

  #run<T>(method: SyncMethod, args: unknown[]): T {
    if (this.#closed) {
      // What the async client throws for a call after close(): nothing is sent.
      throw new LocalError(
        'UNAVAILABLE',
        `${method}: the client is closed (close() was called); create a new client to send requests`,
        { details: { reason: 'closed' } },
      );
    }
    return invoke<T>(this.#options, method, args);
  }

  /** `GET /health`; see `AsyncHTTPClient.initialize`. */
  initialize(): HealthResult {
    return this.#run('initialize', []);
  }
  /** Adds a skill (content, local file or folder, or bytes); see `AsyncHTTPClient.addSkill`. */
  addSkill(source: SyncSkillSource, options: NoSignal<AddSkillOptions> = {}): SkillAddResult {
    return this.#run('addSkill', [source, options]);
  }
  /** Lists skills; see `AsyncHTTPClient.listSkills`. */
  listSkills(params: QueryOf<SkillListParams> = {}): SkillListResult {
    return this.#run('listSkills', [params]);
  }
  /** Searches skills; see `AsyncHTTPClient.findSkills`. */
  findSkills(query: string, params: Omit<SkillFindParams, 'query'> = {}): SkillFindResult {
    return this.#run('findSkills', [query, params]);
  }
  /** Validates on the server; see `AsyncHTTPClient.validateSkill`. */
  validateSkill(data: SkillData, params: Omit<SkillValidateParams, 'data'> = {}): SkillValidateResult {
    return this.#run('validateSkill', [data, params]);
  }
  /** Reads a skill; see `AsyncHTTPClient.getSkill`. */
  getSkill(name: string, params: QueryOf<SkillGetParams> = {}): SkillGetResult {
    return this.#run('getSkill', [name, params]);
  }
  /** Downloads one file of a skill as bytes; see `AsyncHTTPClient.getSkillFile`. */
  getSkillFile(
    name: string,
    path: string,
    params: QueryOf<SkillFileParams> = {},
  ): { bytes: Uint8Array; sha256: string; revision: string; contentType: string } {
    return this.#run('getSkillFile', [name, path, params]);
  }
  /** Replaces a skill; see `AsyncHTTPClient.updateSkill`. */
  updateSkill(
    name: string,
    source: SyncSkillSource,
    options: NoSignal<UpdateSkillOptions> = {},
  ): SkillUpdateResult {
    return this.#run('updateSkill', [name, source, options]);
  }
  /** Deletes a skill; see `AsyncHTTPClient.deleteSkill`. */
  deleteSkill(
    name: string,
    params: QueryOf<SkillDeleteParams> = {},
    options: { ifMatch?: string } = {},
  ): SkillDeleteResult {
    return this.#run('deleteSkill', [name, params, options]);
  }
  /** Lists a skill's kept revisions, newest first; see `AsyncHTTPClient.listRevisions`. */
  listRevisions(name: string, params: QueryOf<SkillRevisionsParams> = {}): SkillRevisionsResult {
    return this.#run('listRevisions', [name, params]);
  }
  /** Makes an earlier revision current again; see `AsyncHTTPClient.restoreSkill`. */
  restoreSkill(
    name: string,
    revision: string,
    options: Omit<SkillRestoreParams, 'revision'> & IdempotencyOptions & { ifMatch?: string } = {},
  ): SkillRestoreResult {
    return this.#run('restoreSkill', [name, revision, options]);
  }
  /** One page of the change feed; see `AsyncHTTPClient.listChanges`. */
  listChanges(params: QueryOf<SkillListParams>): SkillListResult {
    return this.#run('listChanges', [params]);
  }
  /** Uploads bytes, or a local file or folder named by its path, for a later add; see `AsyncHTTPClient.tempUpload`. */
  tempUpload(
    file: Uint8Array | string,
    options: { filename?: string; upload_mode?: 'local' | 'shared' } = {},
  ): TempUploadResult {
    return this.#run('tempUpload', [file, options]);
  }
  /** Releases a temp upload that will not be used; see `AsyncHTTPClient.releaseTempUpload`. */
  releaseTempUpload(tempFileId: string): TempUploadReleaseResult {
    return this.#run('releaseTempUpload', [tempFileId]);
  }
  /** Reads a task; see `AsyncHTTPClient.getTask`. */
  getTask(taskId: string): TaskGetResult {
    return this.#run('getTask', [taskId]);
  }
  /** Lists the caller's tasks, newest first; see `AsyncHTTPClient.listTasks`. */
  listTasks(query: TaskListParams = {}): TaskListResult {
    return this.#run('listTasks', [query]);
  }
  /** Cancels a pending task; see `AsyncHTTPClient.cancelTask`. */
  cancelTask(taskId: string): TaskCancelResult {
    return this.#run('cancelTask', [taskId]);
  }
  /** The server's limits; see `AsyncHTTPClient.getLimits`. */
  getLimits(): ServerLimits {
    return this.#run('getLimits', []);
  }

  /** Overall server state; see `AsyncHTTPClient.getSystemStatus`. */
  getSystemStatus(): SystemStatus {
    return this.#run('getSystemStatus', []);
  }
  /** Whether every server component is healthy; see `AsyncHTTPClient.isHealthy`. */
  isHealthy(): boolean {
    return this.#run('isHealthy', []);
  }
  /** Waits for the caller's processing jobs; `timeout` in seconds. See `AsyncHTTPClient.waitProcessed`. */
  waitProcessed(options: { timeout?: number } = {}): QueueStatus {
    return this.#run('waitProcessed', [options]);
  }
  /** Queue counts; see `AsyncHTTPClient.getQueueStatus`. */
  getQueueStatus(): QueueStatus {
    return this.#run('getQueueStatus', []);
  }
  /** Creates an account (root key); see `AsyncHTTPClient.createAccount`. */
  createAccount(accountId: string): AccountCreateResult {
    return this.#run('createAccount', [accountId]);
  }
  /** Lists account ids; see `AsyncHTTPClient.listAccounts`. */
  listAccounts(): AccountListResult {
    return this.#run('listAccounts', []);
  }
  /** Creates a user in an account; see `AsyncHTTPClient.createUser`. */
  createUser(accountId: string, userId: string): UserCreateResult {
    return this.#run('createUser', [accountId, userId]);
  }
  /** Lists the users of an account; see `AsyncHTTPClient.listUsers`. */
  listUsers(accountId: string): UserListResult {
    return this.#run('listUsers', [accountId]);
  }
  /** Creates an API key; see `AsyncHTTPClient.createApiKey`. */
  createApiKey(accountId: string, params: ApiKeyCreateParams): ApiKeyCreateResult {
    return this.#run('createApiKey', [accountId, params]);
  }
  /** Lists API keys; see `AsyncHTTPClient.listApiKeys`. */
  listApiKeys(accountId: string): ApiKeyListResult {
    return this.#run('listApiKeys', [accountId]);
  }
  /** Revokes an API key; see `AsyncHTTPClient.revokeApiKey`. */
  revokeApiKey(accountId: string, keyId: string): ApiKeyRevokeResult {
    return this.#run('revokeApiKey', [accountId, keyId]);
  }
  /** Any route; see `AsyncHTTPClient.request`. */
  request<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    path: string,
    init: { json?: unknown; query?: Record<string, string | number | boolean | null | undefined> } = {},
  ): T {
    return this.#run('request', [method, path, init]);
  }
  /**
   * Refuses further calls: each then throws `LocalError` `UNAVAILABLE` (`details.reason` `closed`), as
   * the async client does. The shared worker thread is unref'd and ends with the process.
   */
  close(): void {
    this.#closed = true;
  }
}
