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
