#!/usr/bin/env node
// The `skillport` executable.
import { runCli } from './program.js';

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
});
process.exitCode = code;
