/** `skills add|list|find|show|update|remove`: the skill routes of the server. */

import { type AsyncHTTPClient, isApiError } from '@skillport/sdk-node';
import type { Command } from 'commander';
import { createContext, parsePositive } from '../internal/context.js';
import { completeIfMatch } from '../internal/if-match.js';
import { withInterruptReport } from '../internal/interrupt.js';
import { CliError, type CliIo, printJson } from '../internal/io.js';
import { nameArgs } from '../internal/name-arg.js';
import { resolveSource } from '../internal/source.js';
import { withSpinner } from '../internal/spinner.js';
import { renderTable } from '../internal/table.js';
import { escapeTerminalControls } from '../internal/terminal-text.js';
import { checkedSource } from '../internal/upload-limits.js';
import { registerSkillArchive } from './skill-archive.js';
import { describeFileCount, NOT_COUNTED, registerSkillHistory } from './skill-history.js';
import {
  addAction,
  addWriteOptions,
  noteLeftBehind,
  printWriteResult,
  type WriteOptions,
  writeFields,
} from './skill-write.js';

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

/** Skills `skills list` shows without `--limit`. */
const DEFAULT_LIST_LIMIT = 1000;
/** Most skills the server returns per page. */
const SERVER_PAGE = 1000;

type ListResult = Awaited<ReturnType<AsyncHTTPClient['listSkills']>>;

/**
 * The first `limit` skills, following the listing's `next_cursor` page by page; the result is one
 * listing (`has_more` and `next_cursor` of the last page read, when the limit cut the listing).
 */
async function listPages(client: AsyncHTTPClient, limit: number, target?: string): Promise<ListResult> {
  const root = target ? { target_uri: target } : {};
  let page = await client.listSkills({ node_limit: Math.min(limit, SERVER_PAGE), ...root });
  const merged: ListResult = { ...page, skills: [...page.skills] };
  while (merged.skills.length < limit && page.has_more === true && page.next_cursor) {
    const want = Math.min(limit - merged.skills.length, SERVER_PAGE);
    page = await client.listSkills({ node_limit: want, cursor: page.next_cursor, ...root });
    merged.skills.push(...page.skills);
    merged.total = page.total;
  }
  if (page.has_more !== undefined) merged.has_more = page.has_more;
  if (page.next_cursor !== undefined) merged.next_cursor = page.next_cursor;
  else delete merged.next_cursor;
  return merged;
}

/** Registers `skills …` on the program. */
export function registerSkills(program: Command, io: CliIo): Command {
  const skills = program.command('skills').description('manage the skills stored on the server');

  addWriteOptions(
    skills
      .command('add')
      .description('add skills (same as add-skill)')
      .argument('<path|content...>', 'skill folders, files, "-" or content'),
  ).action((raws: string[], options: WriteOptions, command: Command) =>
    addAction(io, raws, options, command),
  );

  skills
    .command('list')
    .description('list the skills of your roots (or of --target)')
    .option('--target <uri>', 'only this skill root')
    .option('--limit <n>', `most skills listed (default ${DEFAULT_LIST_LIMIT})`)
    .action(async (options: { target?: string; limit?: string }, command: Command) => {
      const ctx = createContext(io, command);
      const limit = parsePositive('--limit', options.limit, true) ?? DEFAULT_LIST_LIMIT;
      const client = await ctx.client();
      const result = await listPages(client, limit, options.target);
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
      const shown = result.skills.length;
      const plural = result.total === 1 ? '' : 's';
      ctx.print(
        shown < result.total
          ? `${shown} of ${result.total} skill${plural} (--limit to see more)\n`
          : `${result.total} skill${plural}\n`,
      );
    });

  skills
    .command('find')
    .alias('search')
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
    .alias('get')
    .description(
      'print a skill: its SKILL.md (default), --level 0 abstract, 1 overview; --files lists its files',
    )
    .argument('<name>', 'skill name')
    .option('--level <level>', '0 abstract, 1 overview, 2 SKILL.md (default 2)')
    .option('--files', 'list the files of the skill (path, kind, size, sha-256) instead')
    .option('--target <uri>', 'look only in this skill root')
    .option('--revision <rev>', 'show it as it was at this revision of its history (see skills history)')
    .action(
      async (
        name: string,
        options: { level?: string; files?: boolean; target?: string; revision?: string },
        command,
      ) => {
        const ctx = createContext(io, command);
        const level = options.level ?? '2';
        if (!['0', '1', '2'].includes(level))
          throw new CliError(`--level must be 0, 1 or 2, got "${options.level}"`);
        if (options.files && options.level !== undefined) {
          throw new CliError(
            '--files lists the files of the skill and --level prints one level of it: use one of them',
          );
        }
        const client = await ctx.client();
        const target = {
          ...(options.target ? { target_uri: options.target } : {}),
          ...(options.revision ? { revision: options.revision } : {}),
        };
        if (ctx.format === 'json') {
          // With --level, only that level (as the API's `level` returns it); without, every level.
          const result =
            options.level === undefined
              ? await client.getSkill(name, { include_content: true, ...target })
              : await client.getSkill(name, { level, ...target });
          return printJson(io, result);
        }
        const result = await client.getSkill(name, { level, ...target });
        if (options.files) {
          const files = result.files ?? [];
          const auxiliary = files.filter((f) => f.kind === 'auxiliary').length;
          ctx.print(
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
          return ctx.print(`${describeFileCount(auxiliary)} (${NOT_COUNTED}, nor folders)\n`);
        }
        const text = level === '0' ? result.abstract : level === '1' ? result.overview : result.content;
        if (text === undefined)
          throw new CliError(`the server returned no level ${level} text for ${name}`, 2);
        // Byte for byte when redirected (`> SKILL.md`); on a terminal, control characters as escapes.
        io.stdout.write(io.stdout.isTTY ? escapeTerminalControls(text) : text);
      },
    );

  addWriteOptions(
    skills
      .command('update')
      .description('replace a skill completely with new content (its name must stay the same)')
      .argument('<name>', 'skill name')
      .argument('<path|content>', 'skill folder, file, "-" or content'),
  )
    .option(
      '--if-match <revision>',
      'only if the current revision is this one (its first characters are enough, as skills history shows it)',
    )
    .action(async (name: string, raw: string, options: WriteOptions, command: Command) => {
      const ctx = createContext(io, command);
      const fields = writeFields(options);
      const resolved = await resolveSource(io, raw);
      const client = await ctx.client();
      const update = () =>
        withSpinner(
          io,
          ctx.format,
          `Updating ${name} from ${resolved.label}…`,
          async () => {
            const { source, filename, skipped } = await checkedSource(client, resolved);
            const ifMatch = options.ifMatch
              ? await completeIfMatch(client, name, options.ifMatch, options.target)
              : undefined;
            const write = await client.updateSkill(name, source, {
              ...fields,
              ...(ifMatch ? { ifMatch } : {}),
              ...(filename ? { filename } : {}),
            });
            return { write, skipped };
          },
          { plain: options.wait },
        );
      // With --wait, Ctrl-C says what the server is still processing and how to follow it.
      const result = options.wait
        ? await withInterruptReport(io, client, `updating ${name}`, update)
        : await update();
      printWriteResult(ctx, result.write, result.skipped);
      if (resolved.local !== undefined) {
        await noteLeftBehind(
          io,
          resolved.local,
          (folder) => `skillport skills update ${nameArgs(name, folder)}`,
        );
      }
    });

  skills
    .command('remove')
    .aliases(['rm', 'delete'])
    .description('delete a skill')
    .argument('<name>', 'skill name')
    .option('--target <uri>', 'skill root (default: your user root, then the agent root)')
    .option('--purge', "also erase the skill's history at once (no restore possible afterwards)")
    .action(async (name: string, options: { target?: string; purge?: boolean }, command: Command) => {
      const ctx = createContext(io, command);
      const client = await ctx.client();
      const params = {
        ...(options.target ? { target_uri: options.target } : {}),
        ...(options.purge ? { purge: 'true' } : {}),
      };
      if (ctx.format === 'json') return printJson(io, await client.deleteSkill(name, params));
      // Counted as everywhere in the CLI (SKILL.md and auxiliary files): read the skill, then delete
      // that very revision (If-Match), so the count is of what was deleted.
      let removed:
        | { result: Awaited<ReturnType<AsyncHTTPClient['deleteSkill']>>; auxiliary: number | undefined }
        | undefined;
      for (let attempt = 0; removed === undefined; attempt++) {
        const current = await client
          .getSkill(name, { level: 0, ...(options.target ? { target_uri: options.target } : {}) })
          .catch((error: unknown) => {
            if (isApiError(error) && error.status === 404) return undefined; // purge of a deleted skill, or 404
            throw error;
          });
        try {
          const result = await client.deleteSkill(
            name,
            params,
            current && attempt < 3 ? { ifMatch: `"${current.revision}"` } : {},
          );
          const auxiliary = current?.files?.filter((f) => f.kind === 'auxiliary').length;
          removed = { result, auxiliary: attempt < 3 ? auxiliary : undefined };
        } catch (error) {
          // Changed between the read and the delete: read it again.
          if (!(isApiError(error) && error.status === 412)) throw error;
        }
      }
      const { result, auxiliary } = removed;
      const count = auxiliary === undefined ? '' : ` (${describeFileCount(auxiliary)})`;
      // Whether the history outlived the delete depends on the server's retention
      // (SKILLPORT_KEEP_REVISIONS_DAYS=0 keeps none): ask rather than promise a restore.
      const historyKept =
        !result.privacy_deleted &&
        (await client.listRevisions(result.name, { target_uri: result.root_uri }).then(
          (history) => history.revisions.length > 0,
          (error: unknown) => {
            if (isApiError(error) && error.status === 404) return false;
            return undefined; // cannot tell (e.g. an older server): say nothing about it
          },
        ));
      ctx.print(
        `removed ${result.uri}${count}` +
          (result.privacy_deleted
            ? '; its history was erased too\n'
            : historyKept === true
              ? `; its history is kept, restore with: skillport skills restore ${nameArgs(result.name, '<revision>')}\n`
              : historyKept === false
                ? '; the server keeps no history of deleted skills, so it cannot be restored\n'
                : '\n'),
      );
    });

  registerSkillHistory(skills, io);
  registerSkillArchive(skills, io);
  return skills;
}
