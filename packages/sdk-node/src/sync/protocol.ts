/**
 * Messages between {@link SyncHTTPClient} and its worker thread. Results and errors cross the thread
 * boundary as structured-clone data; errors are rebuilt into the same typed classes on the caller's side.
 */
import type { ClientOptions, SerializedClientError } from '@skillport/sdk-browser';

/** Client options that can cross to the worker (a custom `fetch` function cannot). */
export type SyncClientOptions = Omit<ClientOptions, 'fetch'>;

/** Methods of the async client the worker runs. */
export const SYNC_METHODS = [
  'initialize',
  'addSkill',
  'listSkills',
  'findSkills',
  'validateSkill',
  'getSkill',
  'getSkillFile',
  'updateSkill',
  'deleteSkill',
  'listRevisions',
  'restoreSkill',
  'listChanges',
  'tempUpload',
  'releaseTempUpload',
  'getTask',
  'listTasks',
  'cancelTask',
  'waitProcessed',
  'getQueueStatus',
  'getSystemStatus',
  'getLimits',
  'isHealthy',
  'createAccount',
  'listAccounts',
  'createUser',
  'listUsers',
  'createApiKey',
  'listApiKeys',
  'revokeApiKey',
  'request',
] as const;

/** One of {@link SYNC_METHODS}. */
export type SyncMethod = (typeof SYNC_METHODS)[number];

/** What the worker answers: the method's result, or the error in plain form. */
export type WorkerReply =
  | { ok: true; value: unknown }
  | {
      ok: false;
      error: SerializedClientError | { kind: 'other'; name: string; message: string; stack?: string };
    };

/** The function the worker registers with synckit. */
export type WorkerFn = (
  options: SyncClientOptions,
  method: SyncMethod,
  args: unknown[],
) => Promise<WorkerReply>;
