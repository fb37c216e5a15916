/**
 * What the services need from the rest of the server, injected by `createApp`.
 */
import type { NamePolicy, ServerLimits } from '../config.js';
import type { QueryVectors } from '../embeddings/query-vectors.js';
import type { QueueCounts, RetentionPolicy, Store } from '../store/types.js';
import type { WorkerPool } from '../workers/worker-pool.js';
import type { FindGate } from './find-gate.js';
import type { ReadCache } from './read-cache.js';
import type { RecentUploads } from './recent-uploads.js';

/** The fields the L0 abstract is rendered from. */
export interface AbstractInput {
  name: string;
  description: string;
  tags: readonly string[];
  allowedTools: readonly string[];
}

/** Dependencies of the services. */
export interface ServiceDeps {
  store: Store;
  limits: ServerLimits;
  /** What add and update do with a name that breaks the name rule (`ServerOptions.namePolicy`). */
  namePolicy: NamePolicy;
  /** Embeds a find query for the semantic half of find; null: find is lexical only. */
  queryVectors: QueryVectors | null;
  /** Small temp uploads this process stored lately, so the write using one need not read it back. */
  recentUploads: RecentUploads;
  /**
   * Tells the job runner of a write (no-op when jobs run elsewhere): wakes it for the new task, or with
   * `false`, for a write whose task was completed with it, only postpones its idle index merging.
   */
  kickJobs: (wake?: boolean) => void;
  /** Waits for tasks to leave pending/running (the job runner's `waitFor`); null = poll the store. */
  waitForJobs:
    | ((
        accountId: string,
        userId: string,
        options: { taskIds?: readonly string[]; timeoutMs: number },
      ) => Promise<{ done: boolean; counts: QueueCounts; stopped?: boolean }>)
    | null;
  /**
   * Add and update render the L1 overview themselves and store it with the write, whose task is then
   * recorded completed at once (`SkillWrite.processed`): true when the overview is the deterministic one
   * (no LLM summariser) and the processing jobs run in this process.
   */
  processAtWrite: boolean;
  /**
   * With {@link processAtWrite}: the processing job still embeds the skill (an embedder is on), so
   * the write stores the overview but leaves its task `pending` (`SkillWrite.processed.result` null);
   * the job keeps that overview and only embeds.
   */
  embedAfterWrite: boolean;
  /** Renders `.abstract.md` (L0) at write time. */
  renderAbstract: (skill: AbstractInput) => string;
  /** Renders the L1 overview from a skill body when the job has not written it yet; null when unavailable. */
  renderOverview: ((skill: AbstractInput & { body: string }) => Promise<string>) | null;
  /** Worker threads for CPU-heavy work on user input (large text, zips). */
  workers: WorkerPool;
  /** Told after an API key is stored (ends dev mode). */
  onApiKeyCreated: () => void;
  /** How much history to keep; applied to a skill after each write or delete of it. */
  retention: RetentionPolicy;
  /** Rendered reads kept while the store is unchanged (see `read-cache.ts`); values per service. */
  readCache: ReadCache<unknown>;
  /** Per-caller running and waiting finds (`ServerLimits.maxFindsPerKey`). */
  findGate: FindGate;
  /** Clock, epoch milliseconds. */
  now: () => number;
}
