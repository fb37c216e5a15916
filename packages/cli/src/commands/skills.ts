/** `add-skill`, `skills add|list|find|show|update|remove`: the skill routes of the server. */
import { type ApiError, isApiError, type SkillData } from '@skillport/sdk-node';
import type { Command } from 'commander';
import { type Context, createContext, parsePositive } from '../internal/context.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { resolveSource } from '../internal/source.js';
import { startSpinner, withSpinner } from '../internal/spinner.js';
import { renderPairs, renderTable } from '../internal/table.js';

interface WriteOptions {
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

function printWriteResult(ctx: Context, result: WriteResultLike): void {
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

/** `agent` for the shared root, `user` for a user root, else the URI itself. */
function scopeOf(rootUri: string): string {
  if (rootUri.startsWith('viking://agent/')) return 'agent';
  if (rootUri.startsWith('viking://user/')) return 'user';
  return rootUri;
}

/** `2026-11-30T09:29:30.554Z` → `2026-11-30 09:29` (UTC). */
function shortTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso;
}

function writeFields(options: WriteOptions) {
  const timeout = parsePositive('--timeout', options.timeout);
  if (timeout !== undefined && !options.wait) throw new CliError('--timeout only applies with --wait');
  return {
    ...(options.wait ? { wait: true } : {}),
    ...(timeout !== undefined ? { timeout } : {}),
    ...(options.target ? { target_uri: options.target } : {}),
  };
}

async function addAction(io: CliIo, raw: string, options: WriteOptions, command: Command): Promise<void> {
  const ctx = createContext(io, command);
  const fields = writeFields(options);
  const { source, label, tools } = await resolveSource(io, raw, { many: true });
  const client = await ctx.client();
  const verb = options.wait ? 'Adding and processing' : 'Adding';
  if (tools) return addTools(ctx, tools, fields, `${verb} ${tools.length} tools of ${label}`);
  const result = await withSpinner(io, ctx.format, `${verb} ${label}…`, () =>
    client.addSkill(source, fields),
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
  const spinner = startSpinner(ctx.io, ctx.format, `${label}…`);
  const outcomes: Array<{ tool: string; result?: WriteResultLike; error?: unknown }> = [];
  try {
    for (const [index, tool] of tools.entries()) {
      spinner.update(`${label}: ${index + 1}/${tools.length}`);
      const name = typeof tool.name === 'string' ? tool.name : `#${index + 1}`;
      try {
        outcomes.push({ tool: name, result: await client.addSkill(tool as SkillData, fields) });
      } catch (error) {
        if (!isApiError(error)) throw error;
        outcomes.push({ tool: name, error });
      }
    }
  } finally {
    spinner.stop();
  }
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

function addWriteOptions(command: Command): Command {
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

/** Registers `skills …` on the program. */
export function registerSkills(program: Command, io: CliIo): Command {
  const skills = program.command('skills').description('manage the skills stored on the server');

  addWriteOptions(
    skills
      .command('add')
      .description('add a skill (same as add-skill)')
      .argument('<path|content>', 'skill folder, file, "-" or content'),
  ).action((raw: string, options: WriteOptions, command: Command) => addAction(io, raw, options, command));

  skills
    .command('list')
    .description('list the skills of your roots (or of --target)')
    .option('--target <uri>', 'only this skill root')
    .option('--limit <n>', 'most skills listed (server default 1000)')
    .action(async (options: { target?: string; limit?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const limit = parsePositive('--limit', options.limit, true);
      const client = await ctx.client();
      const result = await client.listSkills({
        ...(limit !== undefined ? { node_limit: limit } : {}),
        ...(options.target ? { target_uri: options.target } : {}),
      });
      if (ctx.format === 'json') return printJson(io, result);
      if (result.skills.length === 0) return ctx.print('no skills\n');
      ctx.print(
        renderTable(
          result.skills,
          [
            { header: 'name', value: (s) => s.name, flexible: false },
            { header: 'scope', value: (s) => scopeOf(s.root_uri), flexible: false },
            { header: 'updated', value: (s) => shortTime(s.updated_at), flexible: false },
            { header: 'tags', value: (s) => s.tags.join(',') },
            { header: 'description', value: (s) => s.description },
          ],
          ctx.width,
        ),
      );
      ctx.print(`${result.total} skill${result.total === 1 ? '' : 's'}\n`);
    });

  skills
    .command('find')
    .description('search skills by what they do')
    .argument('<query...>', 'words describing the task')
    .option('--limit <n>', 'most results (default 10)')
    .option('--threshold <score>', 'lowest score kept, 0–1')
    .option('--target <uri>', 'only this skill root')
    .action(
      async (words: string[], options: { limit?: string; threshold?: string; target?: string }, command) => {
        const ctx = createContext(io, command);
        const limit = parsePositive('--limit', options.limit, true);
        const threshold = options.threshold === undefined ? undefined : Number(options.threshold);
        if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) {
          throw new CliError(`--threshold must be a number from 0 to 1, got "${options.threshold}"`);
        }
        const client = await ctx.client();
        const result = await client.findSkills(words.join(' '), {
          ...(limit !== undefined ? { limit } : {}),
          ...(threshold !== undefined ? { score_threshold: threshold } : {}),
          ...(options.target ? { target_uri: options.target } : {}),
        });
        if (ctx.format === 'json') return printJson(io, result);
        if (result.skills.length === 0) return ctx.print('no match\n');
        ctx.print(
          renderTable(
            result.skills,
            [
              { header: 'score', value: (s) => s.score.toFixed(3), flexible: false, align: 'right' },
              { header: 'name', value: (s) => s.name, flexible: false },
              { header: 'description', value: (s) => s.description },
              { header: 'match', value: (s) => s.match_reason, flexible: false },
            ],
            ctx.width,
          ),
        );
      },
    );

  skills
    .command('show')
    .description(
      'print a skill: its SKILL.md (default), --level 0 abstract, 1 overview; --files lists its files',
    )
    .argument('<name>', 'skill name')
    .option('--level <level>', '0 abstract, 1 overview, 2 SKILL.md (default 2)')
    .option('--files', 'list the files of the skill (path, kind, size, sha-256) instead')
    .option('--target <uri>', 'look only in this skill root')
    .action(async (name: string, options: { level?: string; files?: boolean; target?: string }, command) => {
      const ctx = createContext(io, command);
      const level = options.level ?? '2';
      if (!['0', '1', '2'].includes(level))
        throw new CliError(`--level must be 0, 1 or 2, got "${options.level}"`);
      const client = await ctx.client();
      const target = options.target ? { target_uri: options.target } : {};
      if (ctx.format === 'json') {
        const full = await client.getSkill(name, { include_content: true, ...target });
        return printJson(io, full);
      }
      const result = await client.getSkill(name, { level, ...target });
      if (options.files) {
        const files = result.files ?? [];
        return ctx.print(
          renderTable(
            files,
            [
              { header: 'path', value: (f) => f.path },
              { header: 'kind', value: (f) => f.kind, flexible: false },
              { header: 'size', value: (f) => String(f.size), flexible: false, align: 'right' },
              { header: 'sha256', value: (f) => f.sha256 ?? '' },
            ],
            ctx.width,
          ),
        );
      }
      const text = level === '0' ? result.abstract : level === '1' ? result.overview : result.content;
      if (text === undefined) throw new CliError(`the server returned no level ${level} text for ${name}`, 2);
      io.stdout.write(text);
    });

  addWriteOptions(
    skills
      .command('update')
      .description('replace a skill completely with new content (its name must stay the same)')
      .argument('<name>', 'skill name')
      .argument('<path|content>', 'skill folder, file, "-" or content'),
  )
    .option('--if-match <revision>', 'only if the current revision is this one')
    .action(async (name: string, raw: string, options: WriteOptions, command: Command) => {
      const ctx = createContext(io, command);
      const fields = writeFields(options);
      const { source, label } = await resolveSource(io, raw);
      const client = await ctx.client();
      const result = await withSpinner(io, ctx.format, `Updating ${name} from ${label}…`, () =>
        client.updateSkill(name, source, {
          ...fields,
          ...(options.ifMatch ? { ifMatch: options.ifMatch } : {}),
        }),
      );
      printWriteResult(ctx, result);
    });

  skills
    .command('remove')
    .alias('rm')
    .description('delete a skill')
    .argument('<name>', 'skill name')
    .option('--target <uri>', 'skill root (default: your user root, then the agent root)')
    .action(async (name: string, options: { target?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const client = await ctx.client();
      const result = await client.deleteSkill(name, options.target ? { target_uri: options.target } : {});
      if (ctx.format === 'json') return printJson(io, result);
      ctx.print(`removed ${result.uri} (${result.estimated_deleted_count} files)\n`);
    });

  return skills;
}
