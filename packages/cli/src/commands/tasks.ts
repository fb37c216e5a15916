/** `task <id>`, `wait`, `observer queue`: processing jobs of the caller. */
import type { Command } from 'commander';
import { type Context, createContext, parsePositive } from '../internal/context.js';
import { type CliIo, printJson } from '../internal/io.js';
import { withSpinner } from '../internal/spinner.js';
import { renderPairs } from '../internal/table.js';

function printQueue(
  ctx: Context,
  queue: { pending: number; processing: number; completed: number; failed: number },
) {
  if (ctx.format === 'json') return printJson(ctx.io, queue);
  ctx.print(
    renderPairs([
      ['pending', queue.pending],
      ['processing', queue.processing],
      ['completed', queue.completed],
      ['failed', queue.failed],
    ]),
  );
}

/** Registers `task`, `wait` and `observer queue`. */
export function registerTasks(program: Command, io: CliIo): void {
  program
    .command('task')
    .description('show a processing task (from the task id printed by add)')
    .argument('<id>', 'task id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      const task = await (await ctx.client()).getTask(id);
      if (ctx.format === 'json') return printJson(io, task);
      ctx.print(
        renderPairs(
          [
            ['task', task.task_id],
            ['type', task.task_type],
            ['status', task.status],
            ['created', task.created_at],
            ['updated', task.updated_at],
            ['error', task.error ?? undefined],
            ['result', task.result ? JSON.stringify(task.result) : undefined],
          ],
          ctx.width,
        ),
      );
    });

  program
    .command('wait')
    .description('wait until your pending processing jobs are done')
    .option('--timeout <seconds>', 'longest wait, in seconds (default: the server limit)')
    .action(async (options: { timeout?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const timeout = parsePositive('--timeout', options.timeout);
      const client = await ctx.client();
      const queue = await withSpinner(io, ctx.format, 'Waiting for processing…', () =>
        client.waitProcessed(timeout === undefined ? {} : { timeout }),
      );
      printQueue(ctx, queue);
    });

  const observer = program.command('observer').description('look at the server state of your account');
  observer
    .command('queue')
    .description('your processing queue counts')
    .action(async (_options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      printQueue(ctx, await (await ctx.client()).getQueueStatus());
    });
}
