/** `skills history` and `skills restore`: a skill's kept revisions on the server. */
import type { Command } from 'commander';
import { createContext, parsePositive } from '../internal/context.js';
import { completeIfMatch } from '../internal/if-match.js';
import { type CliIo, printJson } from '../internal/io.js';
import { nameArgs } from '../internal/name-arg.js';
import { withSpinner } from '../internal/spinner.js';
import { renderTable } from '../internal/table.js';
import { printWriteResult, type WriteOptions, writeFields } from './skill-write.js';

/** `2026-11-30T09:29:30.554Z` → `2026-11-30 09:29` (UTC). */
function shortTime(iso: string | null): string {
  if (iso === null) return '';
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso;
}

/**
 * What every file count of the CLI counts (`skills history`, `skills show --files`, `skills remove`,
 * `add-skill`'s auxiliary files): the files a skill is made of and `install` writes.
 */
export const NOT_COUNTED = 'the generated .abstract.md and .overview.md are not counted';
const FILES_COUNTED = `files: SKILL.md and its auxiliary files (${NOT_COUNTED})`;

/** `N files (SKILL.md and M auxiliary files)` for a skill with `auxiliary` auxiliary files. */
export function describeFileCount(auxiliary: number): string {
  const total = auxiliary + 1;
  return `${total} file${total === 1 ? '' : 's'}: SKILL.md${
    auxiliary === 0 ? '' : ` and ${auxiliary} auxiliary file${auxiliary === 1 ? '' : 's'}`
  }`;
}

/** Bytes as `812 B`, `4.1 KiB`, `2.3 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Registers `skills history` and `skills restore` under `skills`. */
export function registerSkillHistory(skills: Command, io: CliIo): void {
  skills
    .command('history')
    .description("list a skill's kept revisions, newest first (also of a deleted skill)")
    .argument('<name>', 'skill name')
    .option('--target <uri>', 'look only in this skill root')
    .option('--limit <n>', 'most revisions listed (server default 100)')
    .action(async (name: string, options: { target?: string; limit?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const limit = parsePositive('--limit', options.limit, true);
      const client = await ctx.client();
      const result = await client.listRevisions(name, {
        ...(options.target ? { target_uri: options.target } : {}),
        ...(limit !== undefined ? { limit } : {}),
      });
      if (ctx.format === 'json') return printJson(io, result);
      ctx.print(
        renderTable(
          result.revisions,
          [
            { header: 'revision', value: (r) => r.revision.slice(0, 12), flexible: false },
            { header: 'written', value: (r) => shortTime(r.created_at), flexible: false },
            { header: 'by', value: (r) => r.created_by ?? '' },
            { header: 'files', value: (r) => String(1 + r.auxiliary_files), flexible: false, align: 'right' },
            { header: 'size', value: (r) => formatBytes(r.size), flexible: false, align: 'right' },
            {
              header: 'state',
              value: (r) =>
                r.current
                  ? 'current'
                  : `${r.superseded_by === 'delete' ? 'deleted' : 'replaced'} ${shortTime(r.superseded_at)}`,
              flexible: false,
            },
          ],
          ctx.width,
        ),
      );
      const shown = result.revisions.length;
      const note = result.deleted
        ? ` (the skill was deleted; restore one with: skillport skills restore ${nameArgs(name, '<revision>')})`
        : '';
      ctx.print(
        shown < result.total
          ? `${shown} of ${result.total} revisions of ${result.uri}${note}\n`
          : `${result.total} revision${result.total === 1 ? '' : 's'} of ${result.uri}${note}\n`,
      );
      // The server's revision size also counts the generated .abstract.md (it is part of the revision's
      // manifest), so the note says what the SIZE column adds to the files counted.
      ctx.print(`${FILES_COUNTED}; size: their bytes and the generated .abstract.md's\n`);
    });

  skills
    .command('restore')
    .description('make an earlier revision of a skill current again (also brings back a deleted skill)')
    .argument('<name>', 'skill name')
    .argument('<revision>', 'a revision from skills history (its first characters are enough)')
    .option(
      '--if-match <revision>',
      'only if the current revision is this one (its first characters are enough, as skills history shows it)',
    )
    .option('--wait', 'wait until the server has processed the skill (overview, search index)')
    .option('--timeout <seconds>', 'longest wait with --wait, in seconds')
    .option('--target <uri>', 'skill root (default: your user root, then the agent root)')
    .action(async (name: string, revision: string, options: WriteOptions, command: Command) => {
      const ctx = createContext(io, command);
      const fields = writeFields(options);
      const client = await ctx.client();
      const result = await withSpinner(io, ctx.format, `Restoring ${name} at ${revision}…`, async () => {
        const ifMatch = options.ifMatch
          ? await completeIfMatch(client, name, options.ifMatch, options.target)
          : undefined;
        return client.restoreSkill(name, revision, { ...fields, ...(ifMatch ? { ifMatch } : {}) });
      });
      printWriteResult(ctx, result);
    });
}
