/**
 * A progress spinner on stderr (`yocto-spinner`), shown only on an interactive terminal and never with
 * `-o json`: off a TTY, under `CI` or with `TERM=dumb` every call is a no-op, so pipes and logs get
 * only the command's output — except a long wait (`--wait`), which says there in two plain lines what
 * it waited for and how long (see {@link SpinnerOptions.plain}).
 */
import yoctoSpinner from 'yocto-spinner';
import type { CliIo, OutputFormat } from './io.js';

export interface Spinner {
  /** Replaces the text shown beside the spinner. */
  update(text: string): void;
  /** Removes the spinner line. Safe to call twice. */
  stop(): void;
}

const SILENT: Spinner = { update() {}, stop() {} };

/**
 * Whether live progress (spinner, progress bar) may be drawn on stderr: a TTY, not JSON output, not
 * under `CI`, and a terminal that understands cursor movement.
 */
export function showsProgress(io: CliIo, format: OutputFormat): boolean {
  return (
    format !== 'json' &&
    io.stderr.isTTY === true &&
    !io.env.CI &&
    io.env.TERM !== 'dumb' &&
    typeof (io.stderr as { cursorTo?: unknown }).cursorTo === 'function'
  );
}

/** Starts a spinner with `text`, or a silent one where {@link showsProgress} says no. */
export function startSpinner(io: CliIo, format: OutputFormat, text: string): Spinner {
  if (!showsProgress(io, format)) return SILENT;
  const spinner = yoctoSpinner({
    text,
    stream: io.stderr as NodeJS.WriteStream,
    // The CLI reports an interrupted wait itself (see `onInterrupt`); the spinner only draws.
    handleSignals: false,
  }).start();
  return {
    update(next: string) {
      spinner.text = next;
    },
    stop() {
      spinner.stop();
    },
  };
}

/** Options of {@link withSpinner}. */
export interface SpinnerOptions {
  /**
   * Where no spinner is drawn (off a TTY, under `CI`, `TERM=dumb`) but the output is not JSON, say
   * it in plain lines on stderr instead: `text` when the work starts, and `text: done in 2.4 s` when
   * it ends well (a failure is reported by the command). For long waits (`--wait`), so a pipe or a CI
   * log shows what the command is waiting for. Default false: silent there.
   */
  plain?: boolean | undefined;
}

/** Runs `work` with a spinner, stopping it however `work` ends. */
export async function withSpinner<T>(
  io: CliIo,
  format: OutputFormat,
  text: string,
  work: () => Promise<T>,
  options: SpinnerOptions = {},
): Promise<T> {
  if (options.plain === true && format !== 'json' && !showsProgress(io, format)) {
    const started = performance.now();
    io.stderr.write(`${text}\n`);
    const result = await work();
    const seconds = (performance.now() - started) / 1000;
    io.stderr.write(`${text.replace(/…$/, '')}: done in ${seconds.toFixed(1)} s\n`);
    return result;
  }
  const spinner = startSpinner(io, format, text);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
