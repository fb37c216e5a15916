/**
 * The server's pool of worker threads for CPU-heavy work on user input (parsing a large SKILL.md,
 * overview extraction, zip inflation, and later embeddings and search scoring), so the HTTP thread
 * only routes, authenticates and streams.
 *
 * Threads are `piscina` workers. On top of them this module keeps its own bounded queue and hands a
 * task to piscina only when a thread is free, so each task's time budget starts when it starts
 * running, not while it waits. A task over its budget is cancelled: its thread is terminated and
 * replaced, and that one call fails with a clear error. A full queue refuses new work at once with
 * 503 `UNAVAILABLE` rather than letting requests pile up.
 */
import { availableParallelism } from 'node:os';
import { isSkillportError, SkillportError } from '@skillport/core';
import { Piscina } from 'piscina';
import { threadEntry } from './thread-entry.js';
import { rebuildError } from './thread-errors.js';
import type { WorkerReply, WorkerRequest } from './worker-entry.js';
import { isTransferring, type WorkerTask } from './worker-task.js';

/** Settings of the pool (each has an environment variable; see the server README). */
export interface WorkerPoolSettings {
  /** Worker threads (`SKILLPORT_WORKER_THREADS`, default: cores − 1, at least 1, at most 4). */
  threads: number;
  /** Tasks waiting for a thread before new ones are refused with 503 (`SKILLPORT_WORKER_MAX_QUEUE`, default 256). */
  maxQueue: number;
  /** Default time budget of one task in ms, from when it starts running (`SKILLPORT_WORKER_TASK_BUDGET_MS`, default 10 000). */
  taskBudgetMs: number;
  /** Heap limit of one thread in MiB; a task past it fails and its thread is replaced (`SKILLPORT_WORKER_MAX_MEMORY_MB`, default 512). */
  maxMemoryMb: number;
  /** Idle threads exit after this many ms (default 30 000); a thread starts on first use. */
  idleTimeoutMs: number;
}

/** Options of {@link createWorkerPool} beyond its settings. */
export interface WorkerPoolHooks {
  /** Told about a thread failing outside any task (default: one line on stderr). */
  onThreadError?: (error: unknown) => void;
}

/** Defaults of {@link WorkerPoolSettings}. */
export function defaultWorkerPoolSettings(): WorkerPoolSettings {
  return {
    threads: Math.max(1, Math.min(4, availableParallelism() - 1)),
    maxQueue: 256,
    taskBudgetMs: 10_000,
    maxMemoryMb: 512,
    idleTimeoutMs: 30_000,
  };
}

/** Options of one {@link WorkerPool.run} call. */
export interface RunOptions {
  /** Run in the calling thread instead (for inputs small enough to cost less than the hop). */
  inline?: boolean;
  /** Time budget of this call in ms (default: the pool's `taskBudgetMs`). */
  budgetMs?: number;
  /** Buffers inside the argument to move to the thread instead of copying (they become unusable here). */
  transfer?: readonly ArrayBuffer[];
}

/** Counters of a pool, e.g. for an observer route or a bench. */
export interface WorkerPoolStats {
  threads: number;
  running: number;
  queued: number;
  completed: number;
  failed: number;
  /** Tasks cancelled for running past their budget (their thread was replaced). */
  overBudget: number;
}

/** A pool of worker threads; see the module comment. */
export interface WorkerPool {
  /**
   * Runs `task.fn(arg)` in a worker thread (or inline when `options.inline`).
   *
   * @returns the task's result
   * @throws the task's own error (a `SkillportError` keeps its code, status and details);
   *   `SkillportError` 413 `PAYLOAD_TOO_LARGE` with `details.reason` `processing_budget` when the
   *   task ran past its budget, or `processing_memory` when it ran out of heap; 503 `UNAVAILABLE`
   *   when the queue is full or the pool is closed
   */
  run<A, R>(task: WorkerTask<A, R>, arg: A, options?: RunOptions): Promise<R>;
  /** Current counters. */
  stats(): WorkerPoolStats;
  /** Refuses new work, fails queued work (503), stops the threads. Idempotent. */
  close(): Promise<void>;
}

/** True for the error of a task cancelled for its budget or heap (a property of the input: retrying will not help). */
export function isProcessingLimitError(error: unknown): boolean {
  const reason = (error as { details?: { reason?: unknown } } | null)?.details?.reason;
  return isSkillportError(error) && (reason === 'processing_budget' || reason === 'processing_memory');
}

interface Queued {
  request: WorkerRequest;
  task: WorkerTask<unknown, unknown>;
  budgetMs: number;
  transfer: readonly ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Creates a pool. Threads start on first use and exit when idle, so an unused pool costs nothing.
 *
 * @param settings - overrides of {@link defaultWorkerPoolSettings}
 * @returns the pool; `close()` it with the server
 * @example
 * ```ts
 * const pool = createWorkerPool({ threads: 2 });
 * const prepared = await pool.run(PREPARE_SKILL, { text }, { inline: text.length < 16_384 });
 * await pool.close();
 * ```
 */
export function createWorkerPool(
  settings: Partial<WorkerPoolSettings> = {},
  hooks: WorkerPoolHooks = {},
): WorkerPool {
  const onThreadError =
    hooks.onThreadError ??
    ((error: unknown) => {
      process.stderr.write(
        `[skillport workers] thread error: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    });
  const s: WorkerPoolSettings = { ...defaultWorkerPoolSettings() };
  for (const [key, value] of Object.entries(settings) as Array<
    [keyof WorkerPoolSettings, number | undefined]
  >) {
    if (value !== undefined) s[key] = value;
  }
  const threads = Math.max(1, Math.floor(s.threads));
  const entry = threadEntry(import.meta.url, 'worker-entry');
  let piscina: Piscina | null = null;
  const queue: Queued[] = [];
  let running = 0;
  let closed = false;
  const counters = { completed: 0, failed: 0, overBudget: 0 };
  /** Fails one running task because a thread broke (see the `error` handler). */
  const inFlight = new Set<(error: unknown) => void>();

  const threadsOf = (): Piscina => {
    if (piscina !== null) return piscina;
    piscina = new Piscina({
      filename: entry.url.href,
      workerData: entry.workerData,
      ...(entry.execArgv !== undefined ? { execArgv: entry.execArgv } : {}),
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: s.idleTimeoutMs,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(32, s.maxMemoryMb) },
    });
    // A thread that fails outside a task (e.g. cannot load its entry) must not crash the server;
    // piscina fails that thread's task and replaces the thread.
    // Tasks waiting on such a thread would wait for their whole budget: fail them now.
    piscina.on('error', (error: unknown) => {
      onThreadError(error);
      for (const fail of [...inFlight]) fail(error);
    });
    return piscina;
  };

  const pump = (): void => {
    while (!closed && running < threads && queue.length > 0) {
      const job = queue.shift() as Queued;
      running++;
      start(job).finally(() => {
        running--;
        pump();
      });
    }
  };

  async function start(job: Queued): Promise<void> {
    const controller = new AbortController();
    let overBudget = false;
    let threadError: unknown = null;
    const timer = setTimeout(() => {
      overBudget = true;
      controller.abort();
    }, job.budgetMs);
    const failThread = (error: unknown): void => {
      threadError = error;
      controller.abort();
    };
    inFlight.add(failThread);
    try {
      const reply = (await threadsOf().run(job.request, {
        signal: controller.signal,
        transferList: job.transfer as ArrayBuffer[],
      })) as WorkerReply;
      if (reply.ok) {
        counters.completed++;
        job.resolve(reply.value);
      } else {
        counters.failed++;
        job.reject(rebuildError(reply.error));
      }
    } catch (error) {
      counters.failed++;
      if (overBudget) {
        counters.overBudget++;
        job.reject(
          new SkillportError(
            'PAYLOAD_TOO_LARGE',
            `Processing stopped after its time budget of ${job.budgetMs} ms (${job.task.label}): the input is too large or too complex to process`,
            { details: { reason: 'processing_budget', budget_ms: job.budgetMs, task: job.task.label } },
          ),
        );
      } else if ((error as { code?: unknown })?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        job.reject(
          new SkillportError(
            'PAYLOAD_TOO_LARGE',
            `Processing stopped at its memory limit of ${s.maxMemoryMb} MiB (${job.task.label}): the input is too large or too complex to process`,
            { details: { reason: 'processing_memory', limit_mb: s.maxMemoryMb, task: job.task.label } },
          ),
        );
      } else if (closed) {
        job.reject(unavailable('the worker pool is shutting down'));
      } else if (threadError !== null) {
        const why = threadError instanceof Error ? threadError.message : String(threadError);
        job.reject(new Error(`worker thread failed (${job.task.label}): ${why}`, { cause: threadError }));
      } else {
        job.reject(error);
      }
    } finally {
      clearTimeout(timer);
      inFlight.delete(failThread);
    }
  }

  return {
    async run<A, R>(task: WorkerTask<A, R>, arg: A, options: RunOptions = {}): Promise<R> {
      if (options.inline === true) {
        const value = await task.fn(arg);
        return (isTransferring(value) ? value.value : value) as R;
      }
      if (closed) throw unavailable('the worker pool is shut down');
      if (queue.length >= s.maxQueue) {
        throw unavailable(`${queue.length} tasks are waiting for a worker thread`);
      }
      return new Promise<R>((resolve, reject) => {
        queue.push({
          request: { moduleUrl: task.moduleUrl, exportName: task.exportName, arg },
          task: task as WorkerTask<unknown, unknown>,
          budgetMs: Math.max(1, options.budgetMs ?? s.taskBudgetMs),
          transfer: options.transfer ?? [],
          resolve: resolve as (value: unknown) => void,
          reject,
        });
        pump();
      });
    },
    stats() {
      return { threads: piscina?.threads.length ?? 0, running, queued: queue.length, ...counters };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of queue.splice(0)) job.reject(unavailable('the worker pool is shutting down'));
      await piscina?.destroy();
    },
  };
}

function unavailable(why: string): SkillportError {
  return new SkillportError('UNAVAILABLE', `The server is busy (${why}); retry shortly`, {
    details: { reason: 'workers_busy', retry_after: 1 },
  });
}
