/** Streams that collect what an in-process CLI run prints. */
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { type CliIo, runCli } from '../../src/index.js';

export interface MemoryIo extends CliIo {
  out(): string;
  err(): string;
}

export function memoryIo(
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    /** What stdin gives: text, or bytes as they are (e.g. a file not in UTF-8). */
    input?: string | Uint8Array;
    tty?: boolean;
    /** stderr is a terminal: `isTTY`, `columns` and the cursor methods of `tty.WriteStream`. */
    ttyErr?: boolean;
  } = {},
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
    stderr: options.ttyErr
      ? terminal(err, text)
      : { write: (c: string | Uint8Array) => err.push(text(c)), isTTY: false },
    stdin: Readable.from([
      typeof options.input === 'string' || options.input === undefined
        ? (options.input ?? '')
        : Buffer.from(options.input),
    ]),
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** A stand-in for `tty.WriteStream` that records what is written, cursor moves included (as escapes). */
function terminal(err: string[], text: (chunk: string | Uint8Array) => string) {
  const stream = {
    isTTY: true,
    columns: 100,
    rows: 30,
    write(chunk: string | Uint8Array, ...rest: unknown[]) {
      err.push(text(chunk));
      const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      callback?.();
      return true;
    },
    cursorTo(x: number, y?: number | (() => void)) {
      return readline.cursorTo(
        stream as unknown as NodeJS.WritableStream,
        x,
        typeof y === 'number' ? y : undefined,
      );
    },
    moveCursor(dx: number, dy: number) {
      return readline.moveCursor(stream as unknown as NodeJS.WritableStream, dx, dy);
    },
    clearLine(dir: -1 | 0 | 1) {
      return readline.clearLine(stream as unknown as NodeJS.WritableStream, dir);
    },
    getWindowSize: () => [100, 30],
    on: () => stream,
    once: () => stream,
    off: () => stream,
    removeListener: () => stream,
  };
  return stream;
}

/** What an in-process CLI run returned and printed. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Runs the CLI in this process against the registry at `url` (`SKILLPORT_URL`), with its config
 * under `configHome` (`XDG_CONFIG_HOME`) and `cwd` as the working folder (default: this process's).
 */
export async function runCliAgainst(
  argv: string[],
  options: { url: string; configHome: string; cwd?: string },
): Promise<CliRun> {
  const io = memoryIo({
    env: { SKILLPORT_URL: options.url, XDG_CONFIG_HOME: options.configHome },
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const code = await runCli(argv, io);
  return { code, out: io.out(), err: io.err() };
}
