/** Writing skills: `add-skill`, `skills add` and `skills update`, and how their results print. */
import { type ApiError, isApiError, type SkillData } from '@skillport/sdk-node';
import type { Command } from 'commander';
import { type Context, createContext, parsePositive } from '../internal/context.js';
import { withInterruptReport } from '../internal/interrupt.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { withProgress } from '../internal/progress.js';
import { resolveSource } from '../internal/source.js';
import { withSpinner } from '../internal/spinner.js';
import { renderPairs, renderTable } from '../internal/table.js';
import { checkedSource } from '../internal/upload-limits.js';

export interface WriteOptions {
  wait?: boolean;
  timeout?: string;
  target?: string;
  ifMatch?: string;
}

interface WriteResultLike {
  name: string;
  uri: string;
  revision: string;
  auxiliary_files: number;
  action?: string | undefined;
  task_id?: string | undefined;
  queue_status?: { pending: number; processing: number; completed: number; failed: number } | undefined;
  warnings: Array<{ rule: string; message: string; line?: number | undefined; column?: number | undefined }>;
}

export function printWriteResult(ctx: Context, result: WriteResultLike): void {
  if (ctx.format === 'json') {
    printJson(ctx.io, result);
    return;
  }
  const queue = result.queue_status;
  ctx.print(
    renderPairs(
      [
        ['name', result.name],
        ['uri', result.uri],
        ['revision', result.revision],
        ['auxiliary files', result.auxiliary_files],
        ['action', result.action],
        ['task', result.task_id],
        [
          'queue',
          queue
            ? `${queue.completed} completed, ${queue.failed} failed, ${queue.pending} pending, ${queue.processing} processing`
            : undefined,
        ],
        ['warnings', result.warnings.length],
      ],
      ctx.width,
    ),
  );
  for (const warning of result.warnings) {
    const where = warning.line ? `${warning.line}:${warning.column ?? 1} ` : '';
    ctx.print(`  ${where}warning ${warning.rule} ${warning.message}\n`);
  }
}

export function writeFields(options: WriteOptions) {
  const timeout = parsePositive('--timeout', options.timeout);
  if (timeout !== undefined && !options.wait) throw new CliError('--timeout only applies with --wait');
  return {
    ...(options.wait ? { wait: true } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(options.target ? { target_uri: options.target } : {}),
  };
}

export async function addAction(
  io: CliIo,
  raw: string,
  options: WriteOptions,
  command: Command,
): Promise<void> {
  const ctx = createContext(io, command);
  const fields = writeFields(options);
  const resolved = await resolveSource(io, raw, { many: true });
  const { label, tools } = resolved;
  const client = await ctx.client();
  const verb = options.wait ? 'Adding and processing' : 'Adding';
  // With --wait, Ctrl-C says what the server is still processing and how to follow it.
  const interruptible = <T>(work: () => Promise<T>) =>
    options.wait ? withInterruptReport(io, client, `adding ${label}`, work) : work();
  if (tools) return interruptible(() => addTools(ctx, tools, fields, `${verb} the tools of ${label}`));
  const result = await interruptible(() =>
    withSpinner(io, ctx.format, `${verb} ${label}…`, async () => {
      // A file or folder too large for the server is refused here, before it is zipped or uploaded.
      const { source, filename } = await checkedSource(client, resolved);
      return client.addSkill(source, { ...fields, ...(filename ? { filename } : {}) });
    }),
  );
  printWriteResult(ctx, result);
}

/** Adds every tool of a `tools/list` document; one line (or JSON item) per tool, failures included. */
async function addTools(
  ctx: Context,
  tools: Array<Record<string, unknown>>,
  fields: ReturnType<typeof writeFields>,
  label: string,
): Promise<void> {
  const client = await ctx.client();
  const { fromMcpTool } = await import('@skillport/core');
  const outcomes: Array<{ tool: string; result?: WriteResultLike; error?: unknown }> = [];
  /** Skill name → the tool that took it first: two tools becoming one skill would replace each other. */
  const taken = new Map<string, string>();
  await withProgress(ctx.io, ctx.format, { total: tools.length, label }, async (bar) => {
    for (const [index, tool] of tools.entries()) {
      const name = typeof tool.name === 'string' ? tool.name : `#${index + 1}`;
      bar.update(name);
      let skillName: string | undefined;
      try {
        skillName = fromMcpTool(tool as Parameters<typeof fromMcpTool>[0]).name || undefined;
      } catch {
        skillName = undefined; // the server reports what is wrong with the tool
      }
      const first = skillName === undefined ? undefined : taken.get(skillName);
      if (first !== undefined) {
        const collision: Pick<ApiError, 'code' | 'message' | 'status'> = {
          code: 'CONFLICT',
          status: 409,
          message:
            `becomes the skill "${skillName}" like the tool "${first}" before it, which it would replace; ` +
            'not added (rename one of the tools)',
        };
        outcomes.push({ tool: name, error: collision });
        bar.advance();
        continue;
      }
      if (skillName !== undefined) taken.set(skillName, name);
      try {
        outcomes.push({ tool: name, result: await client.addSkill(tool as SkillData, fields) });
      } catch (error) {
        if (!isApiError(error)) throw error;
        outcomes.push({ tool: name, error });
      }
      bar.advance();
    }
  });
  const failed = outcomes.filter((o) => o.error);
  if (ctx.format === 'json') {
    printJson(
      ctx.io,
      outcomes.map((o) =>
        o.result ? { tool: o.tool, ...o.result } : { tool: o.tool, error: errorBody(o.error) },
      ),
    );
  } else {
    ctx.print(
      renderTable(
        outcomes,
        [
          { header: 'tool', value: (o) => o.tool, flexible: false },
          { header: 'skill', value: (o) => o.result?.name ?? '' },
          {
            header: 'result',
            value: (o) =>
              o.result ? 'added' : `${(o.error as ApiError).code}: ${(o.error as ApiError).message}`,
          },
        ],
        ctx.width,
      ),
    );
  }
  if (failed.length > 0) {
    const worst = failed.some((o) => (o.error as ApiError).status >= 500) ? EXIT.server : EXIT.user;
    throw new CliError(
      ctx.format === 'json' ? '' : `${failed.length} of ${tools.length} tools were refused`,
      worst,
    );
  }
}

function errorBody(error: unknown): { code: string; message: string } {
  const api = error as ApiError;
  return { code: api.code, message: api.message };
}

export function addWriteOptions(command: Command): Command {
  return command
    .option('--wait', 'wait until the server has processed the skill (overview, search index)')
    .option('--timeout <seconds>', 'longest wait with --wait, in seconds')
    .option(
      '--target <uri>',
      'skill root: your user root (default), viking://~/skills or viking://agent/skills',
    );
}

/** Registers `add-skill` on the program. */
export function registerAddSkill(program: Command, io: CliIo): void {
  addWriteOptions(
    program
      .command('add-skill')
      .description(
        'add a skill: a folder, a SKILL.md, a zip, an MCP tool .json, "-" (stdin) or SKILL.md text',
      )
      .argument('<path|content>', 'skill folder, file, "-" or content'),
  ).action((raw: string, options: WriteOptions, command: Command) => addAction(io, raw, options, command));
}
