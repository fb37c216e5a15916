import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, test } from 'vitest';
import { threadExecArgv } from '../../src/workers/thread-entry.js';
import { createWorkerPool, isProcessingLimitError } from '../../src/workers/worker-pool.js';
import { FILL, HOARD, REFUSE, SPIN, WHERE_AM_I } from './pool-tasks.js';

const pool = createWorkerPool({ threads: 1, maxQueue: 2, taskBudgetMs: 20_000, maxMemoryMb: 64 });
afterAll(async () => {
  await pool.close();
});

describe('worker pool', () => {
  test('runs a task in a worker thread, or inline when asked', async () => {
    const off = await pool.run(WHERE_AM_I, 'a');
    expect(off).toMatchObject({ tag: 'a', isMainThread: false });
    expect(off.threadId).toBeGreaterThan(0);
    const inline = await pool.run(WHERE_AM_I, 'b', { inline: true });
    expect(inline).toMatchObject({ tag: 'b', isMainThread: true });
  });

  test('a SkillportError keeps its code, status and details across the thread boundary', async () => {
    const error = await pool.run(REFUSE, 'name').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', status: 400, message: 'bad name' });
    expect((error as { details: unknown }).details).toEqual({ field: 'name' });
  });

  test('a task over its budget fails alone; its thread is replaced and the next task runs', async () => {
    const before = pool.stats().overBudget;
    const first = await pool.run(WHERE_AM_I, 'before');
    const error = await pool.run(SPIN, 60_000, { budgetMs: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413 });
    expect((error as { details: { reason: string } }).details.reason).toBe('processing_budget');
    expect((error as Error).message).toContain('200 ms');
    expect(isProcessingLimitError(error)).toBe(true);
    expect(pool.stats().overBudget).toBe(before + 1);
    const after = await pool.run(WHERE_AM_I, 'after');
    expect(after.isMainThread).toBe(false);
    expect(after.threadId).not.toBe(first.threadId);
  });

  test('the budget counts from the start of the run, not the wait in the queue', async () => {
    // One thread: the second task waits 1.5 s for the first, but runs well within its own budget.
    const [a, b] = await Promise.all([
      pool.run(SPIN, 1500, { budgetMs: 10_000 }),
      pool.run(SPIN, 10, { budgetMs: 1000 }),
    ]);
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(0);
  });

  test('a full queue refuses new work at once with 503 UNAVAILABLE and Retry-After', async () => {
    const busy = pool.run(SPIN, 400);
    const waiting = [pool.run(SPIN, 1), pool.run(SPIN, 1)];
    const refused = await pool.run(SPIN, 1).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'UNAVAILABLE', status: 503 });
    expect((refused as { details: { retry_after: number } }).details.retry_after).toBeGreaterThan(0);
    await Promise.all([busy, ...waiting]);
  });

  test('a task past the heap limit fails alone with processing_memory', async () => {
    const error = await pool.run(HOARD, 4096).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((error as { details: { reason: string } }).details.reason).toBe('processing_memory');
    expect((await pool.run(WHERE_AM_I, 'alive')).isMainThread).toBe(false);
  });

  test('buffers marked with withTransfer arrive intact', async () => {
    const { bytes } = await pool.run(FILL, 1 << 20);
    expect(bytes.byteLength).toBe(1 << 20);
    expect(bytes[12345]).toBe(7);
    expect((await pool.run(FILL, 16, { inline: true })).bytes.byteLength).toBe(16);
  });

  test('many tasks on one pool add no listener per task (no MaxListenersExceededWarning)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    const fresh = createWorkerPool({ threads: 1 });
    try {
      for (let i = 0; i < 15; i++) await fresh.run(WHERE_AM_I, `t${i}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('warning', onWarning);
      await fresh.close();
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  test('a closed pool refuses work with 503', async () => {
    const other = createWorkerPool({ threads: 1 });
    await other.close();
    await expect(other.run(WHERE_AM_I, 'x')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

describe('threadExecArgv', () => {
  test.each([
    [['--input-type=module', '-e', 'code'], []],
    [['--eval', 'x', '--max-old-space-size=100'], []],
    [['-p', 'x', '--conditions=a', '--input-type', 'module'], ['--conditions=a']],
    [['--enable-source-maps'], ['--enable-source-maps']],
    [['--expose-gc', '--max-old-space-size=100'], []],
    [
      ['--max_semi_space_size=4', '--stack-size=2000', '--cpu-prof', '--no-warnings'],
      ['--cpu-prof', '--no-warnings'],
    ],
    [
      ['--v8-pool-size=2', '--title=skillport', '--no-zero-fill-buffers', '--trace-warnings'],
      ['--trace-warnings'],
    ],
  ])(
    '%j → %j (a thread refuses options about the process entry, V8 options and per-process options)',
    (given, expected) => {
      expect(threadExecArgv(given)).toEqual(expected);
    },
  );

  test('a thread starts with what is left of the memory and V8 options operators pass to node', async () => {
    const given = [
      '--max-old-space-size=512',
      '--max-semi-space-size=4',
      '--heap-growing-percent=20',
      '--stack-size=2000',
      '--v8-pool-size=2',
      '--expose-gc',
      '--enable-source-maps',
      '--no-warnings',
    ];
    for (const arg of given) {
      // Each of these alone is refused by a thread, or accepted: the filter keeps exactly the accepted.
      let refused = false;
      try {
        const probe = new Worker('', { eval: true, execArgv: [arg] });
        await probe.terminate();
      } catch (error) {
        refused = (error as { code?: string }).code === 'ERR_WORKER_INVALID_EXEC_ARGV';
      }
      expect({ arg, kept: threadExecArgv([arg]).length === 1 }).toEqual({ arg, kept: !refused });
    }
    const worker = new Worker('require("node:worker_threads").parentPort.postMessage("up")', {
      eval: true,
      execArgv: threadExecArgv(given),
    });
    const [message] = await once(worker, 'message');
    expect(message).toBe('up');
    await worker.terminate();
  });
});
