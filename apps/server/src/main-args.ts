/**
 * The command line of `node dist/main.js`, which takes its settings from the environment only. An
 * argument used to be ignored: `node dist/main.js --port 8080` started a server on the default port
 * (or failed because that port was taken), and `--help` started one too.
 */

/** `skillport serve` options and the environment variable `dist/main.js` reads instead. */
const FLAG_SETTINGS: Readonly<Record<string, string>> = {
  '--host': 'SKILLPORT_HOST',
  '--port': 'SKILLPORT_PORT',
  '--data-dir': 'SKILLPORT_DATA_DIR',
  '--database-url': 'SKILLPORT_DATABASE_URL',
};

/** What `--help` prints. */
export const MAIN_USAGE = `Usage: node dist/main.js

Starts the Skillport server. It takes no arguments: every setting is an environment variable, e.g.
  SKILLPORT_PORT=8080 SKILLPORT_DATA_DIR=./data node dist/main.js
The main ones: SKILLPORT_HOST (default 127.0.0.1), SKILLPORT_PORT (default 1933, 0 = any free port),
SKILLPORT_DATA_DIR (default ./.skillport, SQLite), SKILLPORT_DATABASE_URL (postgres://… for
PostgreSQL), SKILLPORT_ROOT_API_KEY (none: dev mode, loopback only), LOG_LEVEL (default info).
All of them: the Configuration section of the server's README (@skillport/server).
\`skillport serve\` (@skillport/cli) starts the same server and takes --host, --port, --data-dir and
--database-url as options.
`;

/** What `dist/main.js` does with its arguments before starting. */
export type MainArgsVerdict =
  | { action: 'start' }
  | { action: 'exit'; code: 0 | 2; stdout?: string; stderr?: string };

/**
 * Reads the arguments of `node dist/main.js`.
 *
 * @param args - `process.argv.slice(2)`
 * @returns `start` for no arguments; `exit` 0 with {@link MAIN_USAGE} on stdout for `--help` or `-h`
 *   anywhere; else `exit` 2 with a message on stderr naming the first argument and, for an option of
 *   `skillport serve` (`--port 8080`, `--port=8080`), the environment variable to set instead
 */
export function readMainArgs(args: readonly string[]): MainArgsVerdict {
  if (args.length === 0) return { action: 'start' };
  if (args.includes('--help') || args.includes('-h')) return { action: 'exit', code: 0, stdout: MAIN_USAGE };
  const first = args[0] as string;
  const eq = first.indexOf('=');
  const flag = eq > 0 ? first.slice(0, eq) : first;
  const setting = Object.hasOwn(FLAG_SETTINGS, flag) ? FLAG_SETTINGS[flag] : undefined;
  let fix: string;
  if (setting !== undefined) {
    const value = eq > 0 ? first.slice(eq + 1) : args[1];
    const example = value === undefined || value.startsWith('-') ? '…' : value;
    fix = `set ${setting} instead (${setting}=${shellWord(example)} node dist/main.js), or run \`skillport serve ${flag} ${shellWord(example)}\``;
  } else {
    fix =
      'settings are environment variables (SKILLPORT_PORT, SKILLPORT_DATA_DIR, …; --help lists the main ones)';
  }
  return {
    action: 'exit',
    code: 2,
    stderr: `dist/main.js takes no arguments (got ${JSON.stringify(first)}): ${fix}\n`,
  };
}

/** `text` as one shell word: as it is when plain, else in single quotes. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) || text === '…' ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
