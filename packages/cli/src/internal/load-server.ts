/**
 * Loading `@skillport/server` on demand. The server (and its native SQLite binding, which needs a
 * compiler where no prebuilt binary fits) is an optional peer of the CLI: `validate`, `add-skill`,
 * `find` and the other client commands work without it, and only the commands that run the server
 * in-process (`serve`, and the database commands) load it, through {@link loadServer}.
 */

import { CliError } from './io.js';
import { CLI_VERSION } from './version.js';

/** The server module, as `serve` and the database commands use it. */
export type ServerModule = typeof import('@skillport/server');

/** The commands that install the server next to a global or a project install of the CLI. */
export function serverInstallHint(): string {
  return (
    `install it next to the CLI: \`npm install -g @skillport/server@${CLI_VERSION}\` for a global CLI, ` +
    `or \`npm install @skillport/server@${CLI_VERSION}\` in the project that has @skillport/cli`
  );
}

/** Whether `error` says that the package itself (not one of its own imports) is missing. */
function isMissingServer(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    /['"]@skillport\/server['"]/.test(message)
  );
}

/**
 * Imports `@skillport/server`.
 * @param command - the command that needs it, for the message (e.g. `skillport serve`).
 * @throws CliError (exit 1) naming the install command when the package is not installed, or the
 *   reason it failed to load (a native binding built for another Node version, say).
 */
export async function loadServer(command: string): Promise<ServerModule> {
  try {
    return await import('@skillport/server');
  } catch (error) {
    if (isMissingServer(error)) {
      throw new CliError(
        `\`${command}\` needs the Skillport server, which is not installed: ${serverInstallHint()}`,
      );
    }
    throw new CliError(
      `\`${command}\` cannot load @skillport/server: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * The message for an error of opening the store (`serve`, `db`): the error's own message, and — when
 * SQLite's native binding cannot be loaded (never built, as when a package manager skipped its
 * install script, or built for another Node.js) — what to run to build it. `better-sqlite3` lists
 * every path it tried, which is left out.
 * @param error - what `startServer` / `openStore` threw.
 * @returns one or more lines, without a trailing newline.
 */
export function describeStoreError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const missing = /^Could not locate the bindings file\b/.test(message);
  const mismatch = /better_sqlite3\.node[\s\S]*NODE_MODULE_VERSION/.test(message);
  if (!missing && !mismatch) return message;
  const first = missing ? 'Could not locate the bindings file (better-sqlite3).' : message;
  return (
    `${first}\n` +
    `SQLite's native binding (better-sqlite3) is not built for this Node.js (${process.version}): ` +
    'build it where @skillport/server is installed with `npm rebuild better-sqlite3` ' +
    '(pnpm 10 builds only the packages it was allowed to: `pnpm approve-builds`, or add better-sqlite3 to `pnpm.onlyBuiltDependencies` in package.json, then `pnpm rebuild better-sqlite3`), ' +
    'or use PostgreSQL (--database-url postgres://…), which needs no native binding.'
  );
}
