/** Creating the folders the CLI writes into (config, lock file, an agent's skills folder). */
import { makeFolderSync } from '@skillport/core/node/make-folder';
import { CliError } from './io.js';

/**
 * Creates `dir` and its missing parents (see `makeFolderSync` of `@skillport/core/node`): a failure
 * is final and immediate, also where Node's recursive mkdir would never return (`/proc`).
 *
 * @param dir - the folder
 * @param mode - permission bits of the folders it creates (default `0o777` before the umask)
 * @throws CliError (exit 1) naming the folder and why it cannot be created
 */
export function makeFolder(dir: string, mode?: number): void {
  try {
    makeFolderSync(dir, mode === undefined ? {} : { mode });
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}
