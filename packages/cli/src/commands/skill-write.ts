/** Writing skills: `add-skill`, `skills add` and `skills update`, and how their results print. */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { isApiError } from '@skillport/sdk-node';
import type { Command } from 'commander';
import pMap from 'p-map';
import { type BulkItem, expandInputs, findCollisions, storedName } from '../internal/bulk-inputs.js';
import { type Context, createContext, parsePositive } from '../internal/context.js';
import { withInterruptReport } from '../internal/interrupt.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { pathArg } from '../internal/path-arg.js';
import { withProgress } from '../internal/progress.js';
import { withSpinner } from '../internal/spinner.js';
import { renderPairs, renderTable } from '../internal/table.js';
import { escapeInlineControls } from '../internal/terminal-text.js';
import {
  type CheckedUpload,
  checkedSource,
  fetchUploadLimits,
  readCheckedUpload,
  type SkippedFile,
} from '../internal/upload-limits.js';

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
  /** Add: whether a skill of this name existed and was replaced (its earlier revision is kept). */
  replaced?: boolean | undefined;
  task_id?: string | undefined;
  queue_status?: { pending: number; processing: number; completed: number; failed: number } | undefined;
  warnings: Array<{ rule: string; message: string; line?: number | undefined; column?: number | undefined }>;
}

/** `3 files not uploaded` / `1 file not uploaded`. */
function notUploaded(count: number): string {
  return `${count} file${count === 1 ? '' : 's'} not uploaded`;
}

/** `skipped <path> <reason>: <message>`: one file left out of an upload. */
function describeSkipped(file: SkippedFile): string {
  return `skipped ${file.path} ${file.reason}: ${file.message}`;
}

/**
 * Prints the result of one write. `skipped` lists the entries of a local folder that were not
 * uploaded (symlinks, ignored names, special files): a row with their count and one line each, and
 * a `skipped` array (`[{path, reason, message}]`) in `--json` output, so nothing is dropped silently.
 */
export function printWriteResult(
  ctx: Context,
  result: WriteResultLike,
  skipped: readonly SkippedFile[] = [],
): void {
  if (ctx.format === 'json') {
    printJson(ctx.io, { ...result, skipped });
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
        // An add that replaced an existing skill says so (update and restore name their action).
        [
          'action',
          result.action ?? (result.replaced ? 'replaced the existing skill of this name' : undefined),
        ],
        ['task', result.task_id],
        [
          'queue',
          queue
            ? `${queue.completed} completed, ${queue.failed} failed, ${queue.pending} pending, ${queue.processing} processing`
            : undefined,
        ],
        ['warnings', result.warnings.length],
        ['skipped files', skipped.length > 0 ? notUploaded(skipped.length) : 0],
      ],
      ctx.width,
    ),
  );
  for (const warning of result.warnings) {
    const where = warning.line ? `${warning.line}:${warning.column ?? 1} ` : '';
    ctx.print(escapeInlineControls(`  ${where}warning ${warning.rule} ${warning.message}`) + '\n');
  }
  for (const file of skipped) ctx.print(`  ${escapeInlineControls(describeSkipped(file))}\n`);
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
  raws: string[],
  options: WriteOptions,
  command: Command,
): Promise<void> {
  const ctx = createContext(io, command);
  const fields = writeFields(options);
  // A folder of skill folders: each folder left out is named on stderr (as the lone-SKILL.md note),
  // so the results table and `-o json` keep their shape.
  const items = await expandInputs(io, raws, {
    onSkippedFolder: (folder) =>
      io.stderr.write(`note: ${escapeInlineControls(`skipped ${folder.path}: ${folder.message}`)}\n`),
  });
  const client = await ctx.client();
  const only = items[0];
  const verb = options.wait ? 'Adding and processing' : 'Adding';
  const label = items.length === 1 && only !== undefined ? only.label : `${items.length} skills`;
  // With --wait, Ctrl-C says what the server is still processing and how to follow it.
  const interruptible = <T>(work: () => Promise<T>) =>
    options.wait ? withInterruptReport(io, client, `adding ${label}`, work) : work();
  if (items.length === 1 && only !== undefined && only.tool === undefined) {
    // One skill: the detailed result (and a failure is the command's error).
    const result = await interruptible(() =>
      withSpinner(
        io,
        ctx.format,
        `${verb} ${only.label}…`,
        async () => {
          // A file or folder too large for the server is refused here, before it is zipped or uploaded.
          const upload = await checkedSource(client, only);
          const { source, filename } = upload;
          const write = await client.addSkill(source, { ...fields, ...(filename ? { filename } : {}) });
          return { write, skipped: upload.skipped };
        },
        { plain: options.wait },
      ),
    );
    printWriteResult(ctx, result.write, result.skipped);
    if (only.local !== undefined) await noteLeftBehind(io, only.local);
    return;
  }
  await interruptible(() => addMany(ctx, items, fields));
}

/**
 * After adding (or updating from) a lone `SKILL.md` file: when its folder holds other entries, says on stderr that they
 * were not uploaded (a skill is its whole folder, and add replaces every file of an existing skill)
 * and the command that gives the folder instead (`again`, default `skillport add-skill <folder>`; the folder
 * as {@link pathArg} writes it, so the line can be pasted into a shell). Nothing for a folder, a zip, or a SKILL.md alone in its folder.
 */
export async function noteLeftBehind(
  io: CliIo,
  local: string,
  again: (folder: string) => string = (folder) => `skillport add-skill ${folder}`,
): Promise<void> {
  if (path.basename(local) !== 'SKILL.md') return;
  const folder = path.dirname(local);
  let others: string[];
  try {
    others = (await readdir(folder)).filter((entry) => entry !== 'SKILL.md').sort();
  } catch {
    return;
  }
  if (others.length === 0) return;
  const shown = others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '');
  io.stderr.write(
    `note: only SKILL.md was uploaded; ${others.length} other ${others.length === 1 ? 'entry' : 'entries'} ` +
      `of its folder (${shown}) ${others.length === 1 ? 'was' : 'were'} not. To store the skill with its ` +
      `auxiliary files, give the folder: ${again(pathArg(io.cwd, folder))}\n`,
  );
}

/**
 * The refusal of an input that would write the same skill as an earlier one (it would replace it
 * without anyone noticing): `CONFLICT`, naming both.
 */
function collisionError(
  item: BulkItem,
  earlier: BulkItem,
  name: string | null,
): { code: string; message: string; status: number } {
  const message =
    item.tool !== undefined && earlier.tool !== undefined
      ? `becomes the skill "${name}" like the tool "${earlier.tool}" before it, which it would replace; ` +
        'not added (rename one of the tools)'
      : `is the skill "${name}" like ${earlier.label} before it, which it would replace; not added ` +
        '(rename one of them)';
  return { code: 'CONFLICT', message, status: 409 };
}

/** Task reads at once after a bulk add with `--wait`. */
const TASK_READ_CONCURRENCY = 8;

/**
 * The status of each task a bulk add queued (`pending`, `running`, `completed`, `failed`,
 * `cancelled`), read by the `task_id` each add answered, so the count is this command's jobs and not
 * every job of the account (other commands and clients may be adding at the same time). A task the
 * server no longer knows is `unknown`.
 */
async function batchTaskStatus(
  client: Awaited<ReturnType<Context['client']>>,
  outcomes: readonly BulkOutcome[],
): Promise<Map<BulkOutcome, string>> {
  const queued = outcomes.filter((o) => o.write?.task_id !== undefined);
  const statuses = await pMap(
    queued,
    async (o) => {
      try {
        return (await client.getTask(o.write?.task_id as string)).status;
      } catch (error) {
        if (isApiError(error) && error.code === 'NOT_FOUND') return 'unknown';
        throw error;
      }
    },
    { concurrency: TASK_READ_CONCURRENCY },
  );
  return new Map(queued.map((o, i) => [o, statuses[i] as string]));
}

/** `3 completed, 0 failed, 1 left` (plus cancelled and unknown ones when any) for a bulk add's tasks. */
function describeTaskStatus(processed: ReadonlyMap<BulkOutcome, string>): string {
  const count = (...statuses: string[]) => [...processed.values()].filter((s) => statuses.includes(s)).length;
  const cancelled = count('cancelled');
  const unknown = count('unknown');
  return (
    `${count('completed')} completed, ${count('failed')} failed, ${count('pending', 'running')} left` +
    (cancelled > 0 ? `, ${cancelled} cancelled` : '') +
    (unknown > 0 ? `, ${unknown} unknown` : '')
  );
}

/** Skills added at once by a bulk add. */
const ADD_CONCURRENCY = 4;

/** One row of a bulk add. */
interface BulkOutcome {
  input: string;
  tool?: string;
  /** `added`, `replaced`, or `refused` (by the server, or as a collision before sending). */
  result: 'added' | 'replaced' | 'refused';
  name: string | null;
  write?: WriteResultLike & { replaced?: boolean };
  error?: { code: string; message: string; status?: number };
  /** Entries of a local folder left out of the upload. */
  skipped: SkippedFile[];
}

/**
 * Adds many skills (bounded concurrency, a progress bar on a TTY) and prints one table: added,
 * replaced, or refused with the reason. An input that would write the same skill name as an earlier
 * input is refused (`CONFLICT`) before anything is sent, so neither replaces the other unnoticed.
 * With `--wait`, waits once for the processing of all of them.
 */
async function addMany(
  ctx: Context,
  items: BulkItem[],
  fields: ReturnType<typeof writeFields>,
): Promise<void> {
  const client = await ctx.client();
  const { wait, timeout, ...perSkill } = fields as typeof fields & { wait?: boolean; timeout?: number };
  // Local files and folders are checked against the server's limits (read once) before each upload;
  // the limits also give the name policy, under which names outside the name rule are compared.
  const limits = items.some((i) => i.local !== undefined || i.slug !== undefined)
    ? await fetchUploadLimits(client)
    : undefined;
  const namePolicy = limits?.name_policy === 'slug' ? 'slug' : 'strict';
  const collisions = findCollisions(items, namePolicy);
  const outcomes = await withProgress(
    ctx.io,
    ctx.format,
    { total: items.length, label: `Adding ${items.length} skills` },
    (bar) =>
      pMap(
        items,
        async (item): Promise<BulkOutcome> => {
          const base = { input: item.label, ...(item.tool !== undefined ? { tool: item.tool } : {}) };
          const earlier = collisions.get(item);
          if (earlier !== undefined) {
            bar.advance(1, item.label);
            return {
              ...base,
              result: 'refused',
              name: storedName(item, namePolicy),
              error: collisionError(item, earlier, storedName(item, namePolicy)),
              skipped: [],
            };
          }
          bar.update(item.label);
          let upload: CheckedUpload = { source: item.source, skipped: [] };
          if (item.local !== undefined) {
            try {
              upload = await readCheckedUpload(item.local, item.label, limits);
            } catch (error) {
              bar.advance();
              if (!(error instanceof CliError)) throw error;
              const message = error.message.startsWith(`${item.label}: `)
                ? error.message.slice(item.label.length + 2)
                : error.message;
              return {
                ...base,
                result: 'refused',
                name: item.name,
                error: /nothing was uploaded/.test(message)
                  ? { code: 'PAYLOAD_TOO_LARGE', message, status: 413 }
                  : { code: 'INVALID_ARGUMENT', message, status: 400 },
                skipped: [],
              };
            }
          }
          try {
            const write = (await client.addSkill(upload.source, {
              ...perSkill,
              ...(upload.filename ? { filename: upload.filename } : {}),
            })) as WriteResultLike & { replaced?: boolean };
            bar.advance();
            return {
              ...base,
              result: write.replaced ? 'replaced' : 'added',
              name: write.name,
              write,
              skipped: upload.skipped,
            };
          } catch (error) {
            bar.advance();
            if (!isApiError(error)) throw error;
            return {
              ...base,
              result: 'refused',
              name: item.name,
              error: { code: error.code, message: error.message, status: error.status },
              skipped: upload.skipped,
            };
          }
        },
        { concurrency: ADD_CONCURRENCY },
      ),
  );
  let processed: Map<BulkOutcome, string> | undefined;
  if (wait && outcomes.some((o) => o.result !== 'refused')) {
    processed = await withSpinner(
      ctx.io,
      ctx.format,
      'Waiting for processing…',
      async () => {
        await client.waitProcessed(timeout !== undefined ? { timeout } : {});
        return batchTaskStatus(client, outcomes);
      },
      { plain: true },
    );
  }
  const refused = outcomes.filter((o) => o.result === 'refused');
  if (ctx.format === 'json') {
    printJson(
      ctx.io,
      outcomes.map((o) =>
        o.write
          ? {
              input: o.input,
              ...(o.tool !== undefined ? { tool: o.tool } : {}),
              result: o.result,
              ...o.write,
              ...(processed?.has(o) ? { task_status: processed.get(o) } : {}),
              skipped: o.skipped,
            }
          : {
              input: o.input,
              ...(o.tool !== undefined ? { tool: o.tool } : {}),
              result: o.result,
              name: o.name,
              error: o.error,
              skipped: o.skipped,
            },
      ),
    );
  } else {
    ctx.print(
      renderTable(
        outcomes,
        [
          { header: 'input', value: (o) => o.input },
          { header: 'skill', value: (o) => o.name ?? '', flexible: false },
          { header: 'result', value: (o) => o.result, flexible: false },
          {
            header: 'detail',
            value: (o) =>
              [
                o.error ? `${o.error.code}: ${o.error.message}` : '',
                o.write && o.write.warnings.length > 0
                  ? `${o.write.warnings.length} warning${o.write.warnings.length === 1 ? '' : 's'}`
                  : '',
                o.skipped.length > 0 ? notUploaded(o.skipped.length) : '',
              ]
                .filter((part) => part !== '')
                .join('; '),
          },
        ],
        ctx.width,
      ),
    );
    for (const o of outcomes) {
      for (const file of o.skipped)
        ctx.print(`${escapeInlineControls(`${o.input}: ${describeSkipped(file)}`)}\n`);
    }
    // The table cuts the DETAIL column to fit; each refusal's whole reason (what is wrong, where, and
    // how to fix it) goes to stderr, one line per refused input.
    for (const o of refused) {
      if (o.error)
        ctx.io.stderr.write(
          `${escapeInlineControls(`refused ${o.input}: ${o.error.code}: ${o.error.message}`)}\n`,
        );
    }
    const count = (r: BulkOutcome['result']) => outcomes.filter((o) => o.result === r).length;
    const skippedTotal = outcomes.reduce((sum, o) => sum + o.skipped.length, 0);
    ctx.print(
      `${count('added')} added, ${count('replaced')} replaced, ${refused.length} refused (${outcomes.length} inputs)` +
        (skippedTotal > 0 ? `; ${notUploaded(skippedTotal)}` : '') +
        (processed ? `; processing: ${describeTaskStatus(processed)}` : '') +
        '\n',
    );
  }
  if (refused.length > 0) {
    const worst = refused.some((o) => (o.error?.status ?? 0) >= 500) ? EXIT.server : EXIT.user;
    throw new CliError(
      ctx.format === 'json' ? '' : `${refused.length} of ${outcomes.length} inputs were refused`,
      worst,
    );
  }
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
        'add skills: skill folders, folders of skill folders (a git checkout of a collection), SKILL.md or ' +
          'zip files, MCP tool .json files (a tools/list answer adds every tool), "-" (stdin) or SKILL.md text',
      )
      .argument('<path|content...>', 'skill folders, files, "-" or content'),
  ).action((raws: string[], options: WriteOptions, command: Command) =>
    addAction(io, raws, options, command),
  );
}
