#!/usr/bin/env node
// The `skillport` executable.
import { runCli } from './program.js';

// `skillport … | head` closes the pipe before the output is written: drop the rest quietly, as Unix
// tools do, and still end with the command's own exit status (not an "Unhandled 'error' event" crash).
const ignoreClosedPipe = (error: NodeJS.ErrnoException): void => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
};
process.stdout.on('error', ignoreClosedPipe);
process.stderr.on('error', ignoreClosedPipe);

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
