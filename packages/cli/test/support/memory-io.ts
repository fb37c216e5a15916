/** Streams that collect what an in-process CLI run prints. */
import { Readable } from 'node:stream';
import type { CliIo } from '../../src/index.js';

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
}

export function memoryIo(
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; tty?: boolean } = {},
): MemoryIo {
  const out: string[] = [];
  const err: string[] = [];
  const text = (chunk: string | Uint8Array) =>
    typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return {
    stdout: {
      write: (c: string | Uint8Array) => out.push(text(c)),
      isTTY: options.tty ?? false,
      columns: 80,
    },
    stderr: { write: (c: string | Uint8Array) => err.push(text(c)), isTTY: false },
    stdin: Readable.from([options.input ?? '']),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    out: () => out.join(''),
    err: () => err.join(''),
  };
}
