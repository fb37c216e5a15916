/** `task <id>`, `wait`, `observer queue`: processing jobs of the caller. */
import { TaskResultSchema } from '@skillport/core';
import type { Command } from 'commander';
import { type Context, createContext, parsePositive } from '../internal/context.js';
import { withInterruptReport } from '../internal/interrupt.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { withSpinner } from '../internal/spinner.js';
import { renderPairs, renderTable } from '../internal/table.js';

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

/** Registers `task`, `tasks list|cancel`, `wait` and `observer system|queue`. */
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

  const tasks = program.command('tasks').description('list or cancel your processing tasks');
  tasks
    .command('list', { isDefault: true })
    .description('your processing tasks, newest first')
    .option('--status <status>', 'only pending, running, completed, failed or cancelled tasks')
    .option('--type <type>', 'only add_skill or update_skill tasks')
    .option('--skill <uri>', 'only the tasks of this skill (viking://…/skills/<name>)')
    .option('--limit <n>', 'most tasks listed, 1–200 (default 50)')
    .action(async (options: { status?: string; type?: string; skill?: string; limit?: string }, command) => {
      const ctx = createContext(io, command);
      const limit = parsePositive('--limit', options.limit, true);
      // The server answers an unknown status or type with no tasks (as the seed API does): a typo such
      // as `--status complete` would read as "no tasks".
      oneOf('--status', options.status, TaskResultSchema.shape.status.options);
      oneOf('--type', options.type, TaskResultSchema.shape.task_type.options);
      const list = await (await ctx.client()).listTasks({
        ...(options.status ? { status: options.status } : {}),
        ...(options.type ? { task_type: options.type } : {}),
        ...(options.skill ? { resource_id: options.skill } : {}),
        ...(limit !== undefined ? { limit: String(limit) } : {}),
      });
      if (ctx.format === 'json') return printJson(io, list);
      if (list.length === 0) return ctx.print('no tasks\n');
      ctx.print(
        renderTable(
          list,
          [
            { header: 'task', value: (t) => t.task_id, flexible: false },
            { header: 'type', value: (t) => t.task_type, flexible: false },
            { header: 'status', value: (t) => t.status, flexible: false },
            { header: 'created', value: (t) => t.created_at.replace('T', ' ').slice(0, 19), flexible: false },
            { header: 'skill', value: (t) => t.resource_id ?? '(deleted)' },
            { header: 'error', value: (t) => t.error ?? '' },
          ],
          ctx.width,
        ),
      );
    });
  tasks
    .command('cancel')
    .description('cancel a pending task (it never runs; the skill stays stored)')
    .argument('<id>', 'task id')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      const task = await (await ctx.client()).cancelTask(id);
      if (ctx.format === 'json') return printJson(io, task);
      ctx.print(`cancelled ${task.task_id}${task.resource_id ? ` (${task.resource_id})` : ''}\n`);
    });

  program
    .command('wait')
    .description('wait until your pending processing jobs are done')
    .option('--timeout <seconds>', 'longest wait, in seconds (default: the server limit)')
    .action(async (options: { timeout?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const timeout = parsePositive('--timeout', options.timeout);
      const client = await ctx.client();
      const queue = await withInterruptReport(io, client, 'waiting for processing', () =>
        withSpinner(
          io,
          ctx.format,
          'Waiting for processing…',
          () => client.waitProcessed(timeout === undefined ? {} : { timeout }),
          { plain: true },
        ),
      );
      printQueue(ctx, queue);
    });

  const observer = program.command('observer').description('look at the server state of your account');
  observer
    .command('system')
    .description('overall server state: database, your queue, processing jobs (exit 2 when unhealthy)')
    .action(async (_options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      const status = await (await ctx.client()).getSystemStatus();
      if (ctx.format === 'json') printJson(io, status);
      else {
        ctx.print(`${status.is_healthy ? 'healthy' : 'unhealthy'}\n`);
        ctx.print(
          renderTable(
            Object.values(status.components),
            [
              { header: 'component', value: (c) => c.name, flexible: false },
              { header: 'healthy', value: (c) => (c.is_healthy ? 'yes' : 'no'), flexible: false },
              { header: 'status', value: (c) => c.status },
            ],
            ctx.width,
          ),
        );
      }
      if (!status.is_healthy) throw new CliError('', EXIT.server);
    });
  observer
    .command('queue')
    .description('your processing queue counts')
    .action(async (_options: unknown, command: Command) => {
      const ctx = createContext(io, command);
      printQueue(ctx, await (await ctx.client()).getQueueStatus());
    });
}

/** Refuses a value outside `allowed`, naming the flag and the values it takes. */
function oneOf(flag: string, value: string | undefined, allowed: readonly string[]): void {
  if (value === undefined || allowed.includes(value)) return;
  throw new CliError(`${flag} must be one of ${allowed.join(', ')}, got "${value}"`);
}
