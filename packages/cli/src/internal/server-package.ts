/** Loading `@skillport/server` for the commands that run it in this process (`serve`, `db`). */
import { CliError } from './io.js';

/** The server package's API, as the CLI uses it. */
export type ServerPackage = typeof import('@skillport/server');

/**
 * Imports `@skillport/server`, or explains how to get it: the HTTP client commands work without it,
 * the commands that open a database need it installed next to the CLI.
 *
 * @param command - the command that needs it, for the message (e.g. `db export`)
 * @throws CliError naming the install command when the package cannot be loaded
 */
export async function loadServerPackage(command: string): Promise<ServerPackage> {
  try {
    return await import('@skillport/server');
  } catch (error) {
    throw new CliError(
      `\`skillport ${command}\` needs the server package, which could not be loaded ` +
        `(${(error as Error).message}). Install it next to the CLI: npm install -g @skillport/server ` +
        '(or, in a project, npm install @skillport/server)',
    );
  }
}
