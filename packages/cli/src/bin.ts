#!/usr/bin/env node
// The `skillport` executable.
import { relaunchPlan, runServeChild, serveInvocation, usesGlibc } from './internal/serve-process.js';

// `skillport … | head` closes the pipe before the output is written: drop the rest quietly, as Unix
// tools do, and still end with the command's own exit status (not an "Unhandled 'error' event" crash).
const ignoreClosedPipe = (error: NodeJS.ErrnoException): void => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
};
process.stdout.on('error', ignoreClosedPipe);
process.stderr.on('error', ignoreClosedPipe);

// `serve` with the memory settings that apply only at process start (see serve-process.ts): a child
// process runs the server and this one stays as its thin parent, without loading the rest of the CLI.
const serve = serveInvocation(process.argv.slice(2));
const plan =
  serve === null ? null : relaunchPlan(process.env, process.execArgv, serve.databaseUrl, usesGlibc());
if (plan !== null) {
  const self = { execPath: process.execPath, execArgv: process.execArgv, argv: process.argv.slice(1) };
  process.exitCode = await runServeChild(self, plan, process.env);
} else {
  const { runCli } = await import('./program.js');
  const code = await runCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  });
  process.exitCode = code;
}
