/** The streams and environment a CLI run uses — real ones from `bin.ts`, others in-process. */
export interface CliIo {
  stdout: { write(chunk: string | Uint8Array): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(chunk: string | Uint8Array): unknown; isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Output formats of `-o`. */
export type OutputFormat = 'table' | 'json';

/** Exit statuses: 0 ok, 1 the user's input or request was refused, 2 the server or network failed. */
export const EXIT = { ok: 0, user: 1, server: 2 } as const;

/** An error to report to the user with a chosen exit status (no stack trace). */
export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT.user) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

/** Writes a JSON document on stdout (two-space indent, trailing newline). */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
