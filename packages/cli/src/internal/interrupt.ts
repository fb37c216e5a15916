/**
 * Ctrl-C while the CLI waits on the server (`add-skill --wait`, `skills update --wait`, `wait`): the
 * server keeps working on what it received, so the CLI says what is still pending or running for the
 * caller (task ids and skills) and how to follow it, instead of vanishing silently.
 */
import type { AsyncHTTPClient } from '@skillport/sdk-node';
import type { CliIo } from './io.js';

/** Exit status of a command ended by Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 130;

/** How long the CLI asks the server what is still running before it gives up and exits, ms. */
const REPORT_TIMEOUT_MS = 3000;

async function report(io: CliIo, client: AsyncHTTPClient, what: string): Promise<void> {
  io.stderr.write(`\nInterrupted while ${what}; the server keeps working on what it received.\n`);
  try {
    const signal = AbortSignal.timeout(REPORT_TIMEOUT_MS);
    const [running, pending] = await Promise.all([
      client.listTasks({ status: 'running', limit: '20' }, { signal }),
      client.listTasks({ status: 'pending', limit: '20' }, { signal }),
    ]);
    const tasks = [...running, ...pending];
    if (tasks.length === 0) {
      io.stderr.write(
        'Nothing of yours is pending or running on the server now (`skillport tasks list` shows what finished).\n',
      );
      return;
    }
    io.stderr.write('Still on the server:\n');
    for (const task of tasks) {
      io.stderr.write(`  ${task.task_id}  ${task.status}  ${task.task_type}  ${task.resource_id ?? ''}\n`);
    }
    io.stderr.write('Follow one with `skillport task <id>`; wait for all of them with `skillport wait`.\n');
  } catch (error) {
    io.stderr.write(
      `Could not ask the server what is still running (${error instanceof Error ? error.message : String(error)}); ` +
        '`skillport tasks list --status pending` shows it later, `skillport wait` waits for it.\n',
    );
  }
}

/**
 * Runs `work` (a request that waits on the server). On Ctrl-C during it, reports the caller's pending
 * and running tasks on stderr (at most a few seconds) and exits with status 130; a second Ctrl-C exits
 * at once. Outside `work` the default Ctrl-C behaviour is back.
 * @param what - what was being waited for, for the message ("adding pdf-tools")
 */
export async function withInterruptReport<T>(
  io: CliIo,
  client: AsyncHTTPClient,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  let interrupted = false;
  const onInterrupt = () => {
    if (interrupted) process.exit(EXIT_INTERRUPTED);
    interrupted = true;
    void report(io, client, what).finally(() => process.exit(EXIT_INTERRUPTED));
  };
  process.on('SIGINT', onInterrupt);
  try {
    return await work();
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

/** Set once Ctrl-C (or SIGTERM) asked a command to stop; see {@link withGracefulStop}. */
export interface StopRequest {
  requested: boolean;
}

/**
 * Runs `work` (a command that writes skill folders and then saves the lock file) so that Ctrl-C or
 * SIGTERM does not end the process in the middle: the first one sets `stop.requested` and says so on
 * stderr; `work` starts nothing new, lets the folders being written finish, saves the lock and ends
 * (the caller exits 130). So the lock lists every folder written, and no temporary folder is left. A
 * second Ctrl-C exits at once. Outside `work` the default behaviour is back.
 * @param what - what is being done, for the message ("installing")
 */
export async function withGracefulStop<T>(
  io: CliIo,
  what: string,
  work: (stop: StopRequest) => Promise<T>,
): Promise<T> {
  const stop: StopRequest = { requested: false };
  const onSignal = () => {
    if (stop.requested) process.exit(EXIT_INTERRUPTED);
    stop.requested = true;
    io.stderr.write(
      `\nInterrupted while ${what}: finishing the skills being written and saving the lock file ` +
        '(Ctrl-C again stops at once: the lock file then lists none of the skills this command wrote).\n',
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(stop);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
