/** `discover`: the skills a project would load, where each comes from, and what was skipped and why. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { createContext } from '../internal/context.js';
import { CliError, type CliIo, EXIT, printJson } from '../internal/io.js';
import { byPlace, formatIssue } from '../internal/issue-line.js';
import { renderTable } from '../internal/table.js';
import { escapeInlineControls } from '../internal/terminal-text.js';

/** Registers `discover`. */
export function registerDiscover(program: Command, io: CliIo): void {
  program
    .command('discover')
    .description(
      'list the skills this project would load (package.json "skills", installed packages, --path) and why',
    )
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .option(
      '--path <path...>',
      'extra skill files or folders (searched like skills validate: nested skills, dot folders, links inside followed)',
    )
    .option('--trust <package...>', 'only these packages may contribute skills (`@scope/*` allowed)')
    .option('--no-declared', 'skip package.json "skills" declarations')
    .option('--no-shipped', 'skip the scan of installed packages for SKILL.md')
    .option('--json', 'same as -o json')
    .action(
      async (
        options: {
          cwd?: string;
          path?: string[];
          trust?: string[];
          declared?: boolean;
          shipped?: boolean;
          json?: boolean;
        },
        command: Command,
      ) => {
        const ctx = createContext(io, command);
        const cwd = path.resolve(io.cwd, options.cwd ?? '.');
        const info = await stat(cwd).catch(() => undefined);
        if (!info?.isDirectory()) {
          throw new CliError(
            `--cwd ${options.cwd ?? '.'}: ${info ? 'not a folder' : 'no such folder'} (${cwd})`,
          );
        }
        // A --path the user named that is not there is a mistake in the command, as a wrong --cwd is.
        for (const extra of options.path ?? []) {
          if ((await stat(path.resolve(cwd, extra)).catch(() => undefined)) === undefined) {
            throw new CliError(`--path ${extra}: no such file or folder (${path.resolve(cwd, extra)})`);
          }
        }
        const { discoverSkills } = await import('@skillport/core/node');
        const result = await discoverSkills({
          cwd,
          declared: options.declared !== false,
          shipped: options.shipped !== false,
          ...(options.path ? { paths: options.path } : {}),
          ...(options.trust ? { trust: options.trust } : {}),
        });
        // A skill lost (an error diagnostic) or one a registry refuses (an error among its issues)
        // fails the command, as `skills validate` fails on an invalid file — when it is one the
        // project asked for: declared in a package.json or given with --path. A SKILL.md found by
        // scanning an installed package (`shipped`: a dependency's test fixture, say) is reported but
        // fails nothing: the project cannot fix it.
        const asked = (source: { strategy: string }) => source.strategy !== 'shipped';
        const failed =
          result.diagnostics.some((d) => d.severity === 'error' && asked(d.source)) ||
          result.skills.some((s) => asked(s.source) && s.issues.some((issue) => issue.severity === 'error'));
        if (ctx.format === 'json' || options.json) {
          const skills = result.skills.map(({ body: _body, ...skill }) => skill);
          printJson(io, { skills, diagnostics: result.diagnostics, stats: result.stats });
          if (failed) throw new CliError('', EXIT.user);
          return;
        }
        // Relative to the project when inside it, else absolute (never `../../elsewhere`), as `skills
        // validate` prints a file: so an issue line names the file as validate's does.
        const rel = (p: string | null) => {
          if (!p) return '';
          const relative = path.relative(cwd, p);
          const outside =
            relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
          return relative === '' || outside ? p : relative;
        };
        if (result.skills.length === 0) ctx.print('no skills found\n');
        else {
          ctx.print(
            renderTable(
              result.skills,
              [
                { header: 'name', value: (s) => s.name, flexible: false },
                { header: 'from', value: (s) => s.source.strategy, flexible: false },
                {
                  header: 'package',
                  value: (s) => (s.source.package ? `${s.source.package}@${s.source.version ?? ''}` : ''),
                },
                { header: 'path', value: (s) => rel(s.path) },
                { header: 'description', value: (s) => s.description },
              ],
              ctx.width,
            ),
          );
        }
        // Each skill's issues: validate's verdict on its file, in the same lines `skills validate` prints.
        for (const skill of result.skills) {
          for (const issue of byPlace(skill.issues))
            ctx.print(`${escapeInlineControls(formatIssue(rel(skill.path), issue))}\n`);
        }
        for (const diagnostic of result.diagnostics) {
          ctx.print(
            `${escapeInlineControls(`${diagnostic.severity} ${diagnostic.kind}: ${diagnostic.message}`)}\n`,
          );
        }
        const issues = result.skills.reduce((sum, s) => sum + s.issues.length, 0);
        io.stderr.write(
          `${result.skills.length} skill${result.skills.length === 1 ? '' : 's'} from ${result.stats.packagesScanned} package${result.stats.packagesScanned === 1 ? '' : 's'}, ${issues} issue${issues === 1 ? '' : 's'}, ${result.diagnostics.length} diagnostic${result.diagnostics.length === 1 ? '' : 's'}\n`,
        );
        if (failed) throw new CliError('', EXIT.user);
      },
    );
}
