/** The `skillport` command tree and the function that runs it. */
import { Command, CommanderError } from 'commander';
import { registerConfig } from './commands/config.js';
import { registerDb } from './commands/db.js';
import { registerDiscover } from './commands/discover.js';
import { registerInstall } from './commands/install.js';
import { registerKeys } from './commands/keys.js';
import { registerMcp } from './commands/mcp.js';
import { registerServe } from './commands/serve.js';
import { registerAddSkill } from './commands/skill-write.js';
import { registerSkills } from './commands/skills.js';
import { registerTasks } from './commands/tasks.js';
import { registerValidate } from './commands/validate.js';
import { parseFormat } from './internal/context.js';
import { CliError, type CliIo, EXIT } from './internal/io.js';
import { reportError } from './internal/report-error.js';
import { CLI_VERSION as VERSION } from './internal/version.js';

/** Version printed by `skillport --version` (the `version` of the package's package.json). */
export const CLI_VERSION: string = VERSION;

/**
 * Builds the `skillport` command tree, writing to `io`. Commander's own exits (help, usage errors)
 * are turned into thrown `CommanderError`s so the process is never exited from inside.
 * @param io - streams, environment and working folder the commands use.
 * @returns the commander program; {@link runCli} parses and reports errors.
 * @example
 * ```ts
 * createProgram(io).commands.map((c) => c.name()); // ['serve', 'add-skill', 'skills', …]
 * ```
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('skillport')
    .description('Skillport: store, find and validate agent skills (SKILL.md) and MCP tools')
    .version(CLI_VERSION)
    .option('-o, --output <format>', 'output format: table or json', 'table')
    .option('--url <url>', 'server URL (env SKILLPORT_URL, config file, default http://127.0.0.1:1933)')
    .option('--api-key <key>', 'API key (env SKILLPORT_API_KEY, config file)')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();
  registerServe(program, io);
  registerAddSkill(program, io);
  const skills = registerSkills(program, io);
  registerValidate(skills, io);
  registerInstall(program, io);
  registerTasks(program, io);
  registerKeys(program, io);
  registerConfig(program, io);
  registerDiscover(program, io);
  registerDb(program, io);
  registerMcp(program, io, CLI_VERSION);
  for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
    // Subcommand help lists -o, --url and --api-key too: they work after any command.
    command.configureHelp({ showGlobalOptions: true });
    command.exitOverride();
    command.configureOutput({ writeOut: (t) => io.stdout.write(t), writeErr: (t) => io.stderr.write(t) });
  }
  return program;
}

/**
 * The full paths (`skills validate`) of the commands below the top level called `name` (or aliased
 * so), for the hint after an unknown top-level command.
 */
function nestedCommands(program: Command, name: string): string[] {
  const found: string[] = [];
  const visit = (command: Command, prefix: string[]) => {
    for (const sub of command.commands) {
      const here = [...prefix, sub.name()];
      if (prefix.length > 0 && (sub.name() === name || sub.aliases().includes(name)))
        found.push(here.join(' '));
      visit(sub, here);
    }
  };
  visit(program, []);
  return found;
}

/**
 * Whether `argv` asks for `-o json` (`-o json`, `-ojson`, `--output json`, `--output=json`; the last
 * one given wins, as for the option itself), read before parsing so that a usage error, which stops
 * the parse before options are read, is reported in the asked format.
 */
function requestsJson(argv: readonly string[]): boolean {
  let format: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') break;
    if (arg === '-o' || arg === '--output') format = argv[++i];
    else if (arg.startsWith('--output=')) format = arg.slice('--output='.length);
    else if (/^-o[^-]/.test(arg)) format = arg.slice(2);
  }
  return format === 'json';
}

/**
 * SKILL.md text given inline starts with `---`, which the option parser would take for an option:
 * a multi-line argument is moved behind `--` (it is always the last positional: `add-skill <content>`,
 * `skills update <name> <content>`).
 */
function protectContent(argv: readonly string[]): string[] {
  if (argv.includes('--')) return [...argv];
  const content = argv.filter((arg) => arg.startsWith('-') && arg.includes('\n'));
  if (content.length === 0) return [...argv];
  return [...argv.filter((arg) => !content.includes(arg)), '--', ...content];
}

/**
 * Runs the CLI with `argv` (without the node and script entries) and returns the exit status:
 * 0 ok, 1 user error (bad arguments, refused input, invalid skills), 2 server or network error.
 *
 * @param argv - arguments, e.g. `['skills', 'list', '-o', 'json']`.
 * @param io - streams, environment and working folder.
 * @returns the exit status; never throws.
 * @example
 * ```ts
 * process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr,
 *   stdin: process.stdin, env: process.env, cwd: process.cwd() });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = createProgram(io);
  const json = requestsJson(argv);
  if (json) {
    // With -o json stderr carries only JSON: the parser's refusal is reported below, in the envelope
    // of every other error, instead of as text (help output is left as it is).
    for (const command of [program, ...program.commands, ...program.commands.flatMap((c) => c.commands)]) {
      command.showHelpAfterError(false);
      command.configureOutput({ outputError: () => {} });
    }
  }
  try {
    await program.parseAsync(protectContent(argv), { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      if (error.code === 'commander.help') return EXIT.ok;
      const hints: string[] = [];
      const dashed = argv.find((arg) => /^-[^-]/.test(arg) && arg.length > 2 && !arg.includes('\n'));
      if (error.code === 'commander.unknownOption' && dashed !== undefined) {
        hints.push(
          `hint: a name starting with "-" goes after "--", options before it: skillport skills show --level 0 -- ${dashed}`,
        );
      }
      // `skills show -- -x --level 0`: after "--" the parser takes options for arguments too, so it
      // refuses "too many arguments" without saying why.
      const afterDashes = argv.includes('--') ? argv.slice(argv.indexOf('--') + 1) : [];
      const optionsAfter = afterDashes.filter((arg) => /^--?[A-Za-z]/.test(arg) && !arg.includes('\n'));
      if (error.code === 'commander.excessArguments' && optionsAfter.some((arg) => arg.startsWith('--'))) {
        hints.push(
          `hint: everything after "--" is read as a name or path, options too (${optionsAfter.map((arg) => `"${arg}"`).join(', ')}); ` +
            'put options before "--": skillport skills show --level 0 -- -21risk-automation',
        );
      }
      const unknown =
        error.code === 'commander.unknownCommand' ? /'([^']*)'/.exec(error.message)?.[1] : undefined;
      const nested = unknown === undefined ? [] : nestedCommands(program, unknown);
      if (nested.length > 0) {
        hints.push(`did you mean ${nested.map((name) => `\`skillport ${name}\``).join(' or ')}?`);
      }
      if ((unknown === 'json' || unknown === 'table') && argv[0] === unknown) {
        // `npm exec skillport -o json …` (no "--") hands -o and --output to npm, which keeps them as
        // its own settings and passes on the value alone; npx passes them on as they are.
        const rest = argv.slice(1, 4).join(' ');
        hints.push(
          `hint: "${unknown}" looks like the value of -o/--output, whose option was taken by the program that started skillport; ` +
            `with npm exec, put skillport's arguments after "--": npm exec -- skillport -o ${unknown} ${rest} (npx passes options on as they are)`,
        );
      }
      if (json) {
        const message = [error.message.replace(/^error: /, ''), ...hints].join('; ');
        return reportError(io, 'json', new CliError(message, EXIT.user));
      }
      for (const hint of hints) io.stderr.write(`${hint}\n`);
      return EXIT.user;
    }
    let format: 'table' | 'json' = 'table';
    try {
      format = parseFormat(program.opts<{ output?: string }>().output);
    } catch {
      // keep table
    }
    if (error instanceof Error && error.name === 'CliError' && error.message === '') {
      return (error as Error & { exitCode: number }).exitCode;
    }
    return reportError(io, format, error);
  }
}
