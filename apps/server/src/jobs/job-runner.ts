import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { parseSkillMd } from '@skillport/core';
import { type Embedder, type EmbeddingSource, embeddingText } from '../embeddings/embedder.js';
import { IDEMPOTENCY_KEY_TTL_MS } from '../http/idempotency.js';
import { overviewFields, renderOverviewOnPool } from '../levels/extract-overview.js';
import { renderOverview } from '../levels/render-overview.js';
import {
  type ClaimedTask,
  DEFINITION_PATH,
  type QueueCounts,
  type RetentionPolicy,
  type SkillRecord,
  type Store,
  type TaskLease,
} from '../store/types.js';
import { isProcessingLimitError, type WorkerPool } from '../workers/worker-pool.js';
import { type BackoffPolicy, backoffDelay, DEFAULT_BACKOFF } from './backoff.js';

/**
 * Computes the L1 overview of a skill from its stored SKILL.md text. `signal` aborts when the job is
 * given up (graceful shutdown, or the lease was lost to another replica): a slow summariser (an LLM
 * call) should stop then; its result would be discarded anyway.
 */
export type OverviewSummarizer = (input: {
  skill: SkillRecord;
  definition: string;
  signal?: AbortSignal;
}) => string | Promise<string>;

/** Options of {@link createJobRunner}. */
export interface JobRunnerOptions {
  store: Store;
  /** Attempts before a task is `failed` for good; default 5. */
  maxAttempts?: number;
  /** Retry delays; default 1 s doubling up to 5 min. */
  backoff?: BackoffPolicy;
  /** How often an idle worker looks for due tasks (retries, other writers), in ms; default 1000. `kick()` skips the wait. */
  pollIntervalMs?: number;
  /** Tasks processed at once; default 1 (SQLite has one writer; the work is small). */
  concurrency?: number;
  /**
   * Who this runner is in `TaskRecord.leaseOwner` (and logs); default `<hostname>:<pid>:<random>`,
   * unique per process.
   */
  owner?: string;
  /**
   * Lease of a claimed task, in ms (`SKILLPORT_JOB_LEASE_SECONDS`; default 30 000). The runner renews
   * it every third of that while the task runs; when a process dies, another one (or the same one
   * restarted) takes its task over once the lease has run out.
   */
  leaseMs?: number;
  /**
   * On `stop()`, how long running tasks may still finish, in ms (default 3000); tasks still running
   * then are released (back to `pending`, attempt not counted) for another replica to run.
   */
  shutdownGraceMs?: number;
  /**
   * How often housekeeping runs (expired temp uploads, old finished tasks, history past `retention`),
   * in ms; default 10 minutes; 0 disables.
   */
  purgeIntervalMs?: number;
  /**
   * Finished (`completed`/`failed`) tasks are deleted this long after their last update, in ms;
   * default 7 days. `GET /tasks/{id}` and the `completed`/`failed` queue counts cover this window.
   */
  taskRetentionMs?: number;
  /**
   * Pages of search-index merging per step while idle (see `Store.compactSearchIndex`); default 64
   * (a few ms per step); 0 disables.
   */
  compactPagesPerStep?: number;
  /** Merging waits until no write (`kick()`) came for this long, in ms; default 5000. */
  compactQuietMs?: number;
  /** History retention applied by housekeeping (`Store.pruneHistory` over every skill); default none. */
  retention?: RetentionPolicy;
  /** The L1 generator; default: the deterministic extractor ({@link defaultSummarizer}). An LLM summariser can replace it. */
  summarize?: OverviewSummarizer;
  /**
   * True when `summarize` renders the overview the writes already store with each revision (the
   * deterministic one, rendered at write time when the job only has the embedding left): a job whose
   * skill already holds the overview of its revision keeps it — no SKILL.md read, no rendering, no
   * second search-row write — and only embeds. Default false: every job renders the overview.
   */
  keepStoredOverview?: boolean;
  /**
   * Computes the embedding of each processed skill revision (stored with `putSkillVector`), and while
   * idle the embeddings still missing: skills added while the embedder failed, or embedded by another
   * model before the model changed. Null/absent: no embeddings. A failure never fails the task: the
   * skill stays findable lexically and is embedded later.
   */
  embedder?: Embedder | null;
  /** After an embedding failure, the idle backfill waits this long before trying again, ms; default 60 000. */
  embedRetryMs?: number;
  /** Receives failures of tasks and of the loop itself (default: one line on stderr). */
  onError?: (error: unknown, context: { taskId?: string; phase: string }) => void;
  /** Clock in epoch ms; default `Date.now`. */
  now?: () => number;
}

/** Result of {@link JobRunner.waitFor}. */
export interface WaitResult {
  /** True when none of the awaited tasks is pending or running any more. */
  done: boolean;
  /** Counts at the end of the wait (`processing` = running). */
  counts: QueueCounts;
  /**
   * True when the wait ended before its time because this runner stopped (the server is shutting
   * down): the tasks go on in other processes on the database, or when this one restarts.
   */
  stopped?: boolean;
}

/** Runs processing jobs (L1 overview + search index) from the store's task table. */
export interface JobRunner {
  /**
   * Takes back the tasks an earlier run of this process left running (see `owner`), then starts the
   * workers. Idempotent.
   */
  start(): Promise<void>;
  /**
   * Stops claiming, lets running tasks finish for up to `shutdownGraceMs`, then releases those still
   * running (back to `pending` for another replica), and ends pending waits. Idempotent.
   */
  stop(): Promise<void>;
  /** This runner's lease owner name (see {@link JobRunnerOptions.owner}). */
  readonly owner: string;
  /**
   * Tells the runner of a write: wakes idle workers now so its job runs without a polling delay, and
   * postpones idle search-index merging (`compactQuietMs`). `wake: false` (a write whose task was
   * completed with it, `SkillWrite.processed`) only postpones the merging: no worker looks for work.
   */
  kick(wake?: boolean): void;
  /**
   * Waits until the caller's tasks (or just `taskIds`) are neither pending nor running, or
   * `timeoutMs` passes.
   */
  waitFor(
    accountId: string,
    userId: string,
    options: { taskIds?: readonly string[]; timeoutMs: number },
  ): Promise<WaitResult>;
  /** Claims and processes at most one due task in the calling context; true when one was processed. */
  runOnce(): Promise<boolean>;
}

/** Skills embedded per request of the idle backfill. */
const EMBED_BATCH = 32;

/**
 * A waiting loop re-checks the counts at least this often, in ms, when the store cannot tell it of
 * tasks other processes finish (SQLite; PostgreSQL while its notification connection is down).
 */
const WAIT_RECHECK_MS = 100;
/** The same, while the store delivers every process's settlements (`TaskWatch.shared`): a safety net. */
const WAIT_RECHECK_SHARED_MS = 2000;
/**
 * A waiting loop counts the queue again no sooner than this many times the last count took after it
 * ended: counting a large queue costs the store time, so while jobs settle one after another (a
 * backlog of thousands draining) recounts take at most a fifth of the store's time instead of all of
 * it, however many jobs settle; a small queue counts in well under a millisecond, so the delay is too.
 * The delay is at most {@link WAIT_RECOUNT_MAX_MS} (a count that queued behind a long write).
 */
const WAIT_RECOUNT_GAP = 4;
const WAIT_RECOUNT_MAX_MS = 250;

/** `<hostname>:<pid>:<6 hex>`: unique per process, readable in logs. */
function defaultOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/**
 * Whether a lease owner is a dead earlier run of this process: the same configured owner name (a
 * replica id names one replica, so a task held under it while this run just started is from before
 * a restart), or a default name `<host>:<pid>:<random>` of this host whose process is gone (or whose
 * pid is ours: an earlier process in this pid namespace). A wrong guess is safe: the old holder's
 * completion is discarded (see `Store.expireLeases`).
 */
function isPreviousRun(holder: string, owner: string, named: boolean): boolean {
  if (named) return holder === owner;
  const match = /^(.*):(\d+):[0-9a-f]{6}$/.exec(holder);
  if (match === null || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return holder !== owner;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * The deterministic L1 generator, in the calling thread: parses the stored SKILL.md with core's
 * `parseSkillMd` and renders the deterministic overview; falls back to the stored name/description
 * when the text lacks them. The server runs {@link createPooledSummarizer} instead.
 */
export const defaultSummarizer: OverviewSummarizer = ({ skill, definition }) => {
  const parsed = parseSkillMd(definition).skill;
  return renderOverview({
    name: parsed.name ?? skill.name,
    description: parsed.description ?? skill.description,
    body: parsed.body,
  });
};

/**
 * The deterministic L1 generator on the worker pool: small skills inline, larger ones in a worker
 * thread with the pool's time budget (a skill over budget fails its task, not the server). It renders
 * from the fields the write parsed out of this very SKILL.md and stored with the revision (the
 * frontmatter's `name` and `description`, the body), so the text is not parsed a second time: the
 * overview is the one {@link defaultSummarizer} renders from `definition`.
 *
 * @param workers - the pool
 * @returns an {@link OverviewSummarizer}
 */
export function createPooledSummarizer(workers: WorkerPool): OverviewSummarizer {
  return ({ skill }) => renderOverviewOnPool(workers, overviewFields(skill));
}

function describeError(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > 2000 ? `${text.slice(0, 1999)}…` : text;
}

/**
 * Creates the job runner. Each job: load the skill and its SKILL.md, compute the L1 overview, then
 * `completeTask` (overview + search row + status in one transaction). A failure is retried with
 * exponential backoff until `maxAttempts`, then the task is `failed` (the skill stays findable by
 * name, tags, description and body, which `putSkill` indexed). A task whose skill was deleted or
 * replaced since it was enqueued completes without work (`result.skipped`).
 *
 * Replicas: any number of runners (processes) may share one store. Each task is claimed with an
 * expiring lease (`leaseMs`), renewed while it runs; a task whose runner died is taken over by another
 * once its lease runs out; and completion, failure and release present the lease, so a runner that
 * lost its lease writes nothing — each job's effect happens once. `waitFor` re-reads the counts when
 * the store announces a settled task (`Store.watchTasks`: this process's at once; on PostgreSQL every
 * replica's, through `LISTEN`/`NOTIFY`), and on its own every 100 ms where the store cannot announce
 * other processes' tasks (SQLite), every 2 s as a safety net where it can.
 *
 * @param options - see {@link JobRunnerOptions}
 * @returns a stopped runner; call `start()`
 * @example
 * ```ts
 * const runner = createJobRunner({ store });
 * await runner.start();
 * const { taskId } = await store.putSkill(write);
 * runner.kick();
 * await runner.waitFor(accountId, userId, { taskIds: [taskId], timeoutMs: 30_000 });
 * ```
 * @see "How it stores and processes skills" in the @skillport/server README
 */
export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { store } = options;
  const now = options.now ?? Date.now;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const pollIntervalMs = Math.max(1, options.pollIntervalMs ?? 1000);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const purgeIntervalMs = options.purgeIntervalMs ?? 600_000;
  const taskRetentionMs = Math.max(0, options.taskRetentionMs ?? 7 * 24 * 3600_000);
  const summarize = options.summarize ?? defaultSummarizer;
  const owner = options.owner ?? defaultOwner();
  const leaseMs = Math.max(50, Math.floor(options.leaseMs ?? 30_000));
  const renewEveryMs = Math.max(10, Math.floor(leaseMs / 3));
  const shutdownGraceMs = Math.max(0, options.shutdownGraceMs ?? 3000);
  const onError =
    options.onError ??
    ((error, context) => {
      process.stderr.write(
        `[skillport jobs] ${context.phase}${context.taskId ? ` ${context.taskId}` : ''}: ${describeError(error)}\n`,
      );
    });

  let running = false;
  let stopped = false;
  /** Set once `stop()` has let the running tasks finish: waits end then. */
  let halted = false;
  let workers: Promise<void>[] = [];
  let kickGeneration = 0;
  let wakers = new Set<() => void>();
  let purgeTimer: NodeJS.Timeout | undefined;
  const compactPages = Math.max(0, Math.floor(options.compactPagesPerStep ?? 64));
  let compacting = false;
  const compactQuietMs = Math.max(0, options.compactQuietMs ?? 5000);
  let lastKickAt = Number.NEGATIVE_INFINITY;
  const embedder = options.embedder ?? null;
  const documentText = (skill: EmbeddingSource): string =>
    embedder?.documentText ? embedder.documentText(skill) : embeddingText(skill);
  const embedRetryMs = Math.max(0, options.embedRetryMs ?? 60_000);
  let embedding = false;
  let embedPausedUntil = Number.NEGATIVE_INFINITY;

  /** Resolves every sleeper (idle workers and waiters). */
  const wakeAll = (): void => {
    const current = wakers;
    wakers = new Set();
    for (const wake of current) wake();
  };

  /** Sleeps until woken or `ms` passes. */
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      timer.unref();
      function done(): void {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      }
      wakers.add(done);
    });

  /** Tasks this runner holds now, by id (for lease renewal and release on `stop()`). */
  const inFlight = new Map<string, { lease: TaskLease; controller: AbortController; released: boolean }>();

  /**
   * Runs one claimed task while renewing its lease. Every store call presents the lease, so when the
   * lease was lost (this process stalled past it and another replica took the task over), nothing
   * this run produces is written.
   */
  async function process_(task: ClaimedTask): Promise<void> {
    const { lease } = task;
    const controller = new AbortController();
    const entry = { lease, controller, released: false };
    inFlight.set(task.id, entry);
    let lost = false;
    const renew = setInterval(() => {
      store.renewTaskLease(lease, now() + leaseMs).then(
        (held) => {
          if (!held && !entry.released && !lost) {
            lost = true;
            const reason = new Error('lease lost to another replica; run abandoned, nothing written');
            controller.abort(reason);
            onError(reason, { taskId: task.id, phase: 'renewing lease' });
          }
        },
        (error: unknown) => onError(error, { taskId: task.id, phase: 'renewing lease' }),
      );
    }, renewEveryMs);
    renew.unref();
    /** Reports a store call that found the lease gone (result discarded). */
    const check = (held: boolean): void => {
      if (!held && !entry.released) {
        onError(new Error('lease lost to another replica; result discarded'), {
          taskId: task.id,
          phase: 'finishing task',
        });
      }
    };
    try {
      if (task.attempts > maxAttempts) {
        check(
          await store.failTask(
            lease,
            `Gave up after ${maxAttempts} attempts; last error: ${task.error ?? 'none'}`,
            null,
          ),
        );
        return;
      }
      // Read the record before the file: if a write lands in between, the overview is computed from
      // newer content than `skill.revision` and `completeTask` drops it (the newer task redoes it).
      const skill = await store.getSkillById(task.skillId);
      if (skill === null) {
        check(await store.completeTask(lease, { overview: null, result: { skipped: 'skill deleted' } }));
        return;
      }
      if (skill.revision !== task.revision) {
        check(
          await store.completeTask(lease, {
            overview: null,
            result: { skipped: 'superseded by a newer revision', revision: skill.revision },
          }),
        );
        return;
      }
      // The overview this revision was written with (a write clears the overview of any other
      // revision), when it is the one `summarize` would render.
      const kept = options.keepStoredOverview === true ? skill.overview : null;
      let overview: string;
      if (kept !== null) {
        overview = kept;
      } else {
        const file = await store.readFile(skill.id, DEFINITION_PATH);
        if (file?.content === undefined)
          throw new Error(`${DEFINITION_PATH} of skill ${skill.name} is missing`);
        const definition = new TextDecoder().decode(file.content);
        overview = await summarize({ skill, definition, signal: controller.signal });
      }
      if (entry.released || lost) return;
      const embedded =
        embedder && embedder.available?.() !== false ? await embedOne(skill, task.id) : undefined;
      if (entry.released || lost) return;
      check(
        await store.completeTask(lease, {
          // A kept overview is stored already (with its search row): only the task is completed.
          overview: kept !== null ? null : overview,
          revision: skill.revision,
          result: {
            revision: skill.revision,
            overview_bytes: new TextEncoder().encode(overview).byteLength,
            indexed: true,
            attempt: task.attempts,
            ...(embedded !== undefined ? { embedded } : {}),
          },
        }),
      );
    } catch (error) {
      if (entry.released || lost) return; // given back on shutdown, or owned by another replica now
      onError(error, { taskId: task.id, phase: 'task failed' });
      // Over its time or memory budget, the same input would fail again: no retry.
      const retryAt =
        task.attempts >= maxAttempts || isProcessingLimitError(error)
          ? null
          : now() + backoffDelay(task.attempts, backoff);
      try {
        check(await store.failTask(lease, describeError(error), retryAt));
      } catch (failError) {
        onError(failError, { taskId: task.id, phase: 'recording failure' });
      }
    } finally {
      clearInterval(renew);
      inFlight.delete(task.id);
    }
  }

  /** Embeds one skill revision; false (and reported) when the embedder failed. */
  async function embedOne(skill: SkillRecord, taskId: string): Promise<boolean> {
    if (!embedder) return false;
    try {
      const [vector] = await embedder.embed([documentText(skill)], 'document');
      if (vector === undefined) throw new Error('the embedder returned no vector');
      await store.putSkillVector(skill.id, skill.revision, embedder.model, vector);
      return true;
    } catch (error) {
      embedPausedUntil = performance.now() + embedRetryMs;
      // An embedder that cannot work at all has said so once itself.
      if (embedder.available?.() !== false)
        onError(error, { taskId, phase: 'embedding (the skill stays findable lexically)' });
      return false;
    }
  }

  /**
   * With no task to run: embeds skills whose current revision has no vector of the embedder's model,
   * a batch at a time, until none is left, new work arrives, or the embedder fails (then it waits
   * `embedRetryMs`). One worker does it at a time.
   */
  async function embedWhileIdle(generation: number): Promise<void> {
    if (!embedder || embedding || performance.now() < embedPausedUntil) return;
    if (embedder.available?.() === false) return;
    embedding = true;
    try {
      while (running && generation === kickGeneration) {
        const batch = await store.skillsNeedingVectors(embedder.model, EMBED_BATCH);
        if (batch.length === 0) return;
        const vectors = await embedder.embed(batch.map(documentText), 'document');
        for (const [i, skill] of batch.entries()) {
          const vector = vectors[i];
          if (vector !== undefined)
            await store.putSkillVector(skill.skillId, skill.revision, embedder.model, vector);
        }
      }
    } catch (error) {
      embedPausedUntil = performance.now() + embedRetryMs;
      if (embedder.available?.() !== false)
        onError(error, { phase: 'embedding skills (retried later; they stay findable lexically)' });
    } finally {
      embedding = false;
    }
  }

  async function runOnce(): Promise<boolean> {
    const task = await store.claimTask(now(), { owner, leaseMs });
    if (task === null) return false;
    try {
      await process_(task);
    } finally {
      wakeAll();
    }
    return true;
  }

  /** Gives every task still running back to the queue (stop() after the grace period). */
  async function releaseInFlight(): Promise<void> {
    const entries = [...inFlight.values()];
    await Promise.all(
      entries.map(async (entry) => {
        entry.released = true;
        entry.controller.abort(new Error('job runner stopping; task released'));
        try {
          await store.releaseTask(entry.lease);
        } catch (error) {
          onError(error, { taskId: entry.lease.taskId, phase: 'releasing task' });
        }
      }),
    );
  }

  async function work(): Promise<void> {
    while (running) {
      const generation = kickGeneration;
      let processed = false;
      try {
        processed = await runOnce();
      } catch (error) {
        onError(error, { phase: 'claiming' });
      }
      if (!processed && running && generation === kickGeneration) {
        await embedWhileIdle(generation);
        await compactWhileIdle(generation);
        if (running && generation === kickGeneration) await sleep(pollIntervalMs);
      } else if (processed) {
        // A task whose store calls and overview all finish at once is a chain of microtasks: without
        // this turn of the event loop a backlog (thousands of jobs after a restart or an import)
        // would be worked through before any request, or even the listening socket, got a turn.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }

  /**
   * With no task to run and no write for `compactQuietMs`, merges the search index in small steps
   * (yielding to requests between steps) until it is merged or new work arrives (`kick()`); before
   * that (writes still coming), only the upkeep that follows each write (`merge: false`: SQLite's
   * per-term lists, which pace themselves). One worker does it at a time.
   */
  async function compactWhileIdle(generation: number): Promise<void> {
    if (compacting || compactPages <= 0) return;
    // Merging waits for writes to pause: merging everything after each write would rewrite the
    // whole index per write (FTS5's own leveled merging already runs during writes).
    const merge = performance.now() - lastKickAt >= compactQuietMs;
    compacting = true;
    try {
      while (
        running &&
        generation === kickGeneration &&
        (await store.compactSearchIndex(compactPages, merge ? undefined : { merge: false }))
      ) {
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      onError(error, { phase: 'compacting the search index' });
    } finally {
      compacting = false;
    }
  }

  let pruning: Promise<void> | null = null;
  /**
   * Applies the retention policy to every skill, a bounded batch per transaction, yielding to
   * requests between batches; one sweep at a time (`stop()` waits for it).
   */
  function pruneHistory(): Promise<void> {
    const policy = options.retention;
    if (policy === undefined) return Promise.resolve();
    pruning ??= (async () => {
      try {
        for (;;) {
          const result = await store.pruneHistory(policy, now(), { maxRevisions: 500 });
          if (!result.more || !running) break;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } finally {
        pruning = null;
      }
    })();
    return pruning;
  }

  return {
    async start() {
      if (running) return;
      if (stopped) throw new Error('JobRunner: cannot restart a stopped runner; create a new one');
      // Tasks a previous run of this process left running (it crashed) are taken over now, not after
      // their leases run out.
      await store.expireLeases((holder) => isPreviousRun(holder, owner, options.owner !== undefined), now());
      running = true;
      workers = Array.from({ length: concurrency }, () => work());
      if (purgeIntervalMs > 0) {
        purgeTimer = setInterval(() => {
          store
            .purgeExpiredUploads(now())
            .catch((error: unknown) => onError(error, { phase: 'purging uploads' }));
          store
            .purgeIdempotencyKeys(now() - IDEMPOTENCY_KEY_TTL_MS)
            .catch((error: unknown) => onError(error, { phase: 'purging idempotency keys' }));
          store
            .purgeFinishedTasks(now() - taskRetentionMs)
            .catch((error: unknown) => onError(error, { phase: 'purging tasks' }));
          pruneHistory().catch((error: unknown) => onError(error, { phase: 'pruning history' }));
        }, purgeIntervalMs);
        purgeTimer.unref();
        // History that passed its time while the server was down goes now, not in 10 minutes.
        pruneHistory().catch((error: unknown) => onError(error, { phase: 'pruning history' }));
      }
    },
    async stop() {
      stopped = true;
      running = false;
      if (purgeTimer !== undefined) clearInterval(purgeTimer);
      wakeAll();
      const drained = Promise.all(workers);
      let graceTimer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        drained.then(() => true),
        new Promise<false>((resolve) => {
          graceTimer = setTimeout(() => resolve(false), shutdownGraceMs);
        }),
      ]);
      clearTimeout(graceTimer);
      // Tasks still running past the grace period go back to the queue for another replica; their
      // runs end on the abort signal, and whatever they return is not written.
      if (!finished) await releaseInFlight();
      await pruning?.catch(() => {});
      workers = [];
      halted = true;
      wakeAll();
    },
    kick(wake = true) {
      // A new generation also ends an idle merge or embedding run in progress.
      kickGeneration++;
      lastKickAt = performance.now();
      if (wake) wakeAll();
    },
    owner,
    async waitFor(accountId, userId, { taskIds, timeoutMs }) {
      const deadline = performance.now() + Math.max(0, timeoutMs);
      const narrow = taskIds === undefined ? undefined : { taskIds };
      // Settlements seen so far (this process's and, on PostgreSQL, every replica's): one arriving
      // while the counts are read means they may be stale, so they are read again (once the gap after
      // the last count has passed, see WAIT_RECOUNT_GAP).
      let settlements = 0;
      let wake: (() => void) | null = null;
      const watch = store.watchTasks(() => {
        settlements++;
        wake?.();
      });
      let nextCountAt = Number.NEGATIVE_INFINITY;
      try {
        for (;;) {
          const early = nextCountAt - performance.now();
          if (early > 0) {
            await new Promise<void>((resolve) => {
              setTimeout(resolve, Math.min(early, Math.max(0, deadline - performance.now()))).unref();
            });
          }
          const seen = settlements;
          const started = performance.now();
          const counts = await store.queueCounts(accountId, userId, narrow);
          const ended = performance.now();
          nextCountAt = ended + Math.min(WAIT_RECOUNT_MAX_MS, (ended - started) * WAIT_RECOUNT_GAP);
          if (counts.pending + counts.processing === 0) return { done: true, counts };
          const left = deadline - ended;
          if (left <= 0) return { done: false, counts };
          if (halted) return { done: false, counts, stopped: true };
          if (settlements !== seen) continue;
          const recheck = watch.shared ? WAIT_RECHECK_SHARED_MS : WAIT_RECHECK_MS;
          const slept = sleep(Math.min(left, recheck));
          await new Promise<void>((resolve) => {
            wake = resolve;
            void slept.then(resolve);
          });
          wake = null;
        }
      } finally {
        watch.close();
      }
    },
    runOnce,
  };
}
