// Public API of @skillport/cli: everything exported here is supported; nothing else is.
// The `skillport` command, runnable in-process (tests, embedding) as well as through its binary.

export type { CliIo, OutputFormat } from './internal/io.js';
export { EXIT } from './internal/io.js';
export { CLI_VERSION, createProgram, runCli } from './program.js';
