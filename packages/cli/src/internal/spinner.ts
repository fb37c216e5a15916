/** A progress spinner on stderr, shown only on a TTY and never with `-o json`. */
import type { CliIo, OutputFormat } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

const SILENT: Spinner = { update() {}, stop() {} };

/** Starts a spinner with `text`, or a silent one off a TTY or with JSON output. */
export function startSpinner(io: CliIo, format: OutputFormat, text: string): Spinner {
  if (format === 'json' || !io.stderr.isTTY || io.env.CI) return SILENT;
  let frame = 0;
  let label = text;
  const draw = () => {
    io.stderr.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} ${label}`);
    frame += 1;
  };
  draw();
  const timer = setInterval(draw, 80);
  timer.unref?.();
  return {
    update(next: string) {
      label = next;
    },
    stop() {
      clearInterval(timer);
      io.stderr.write('\r\x1b[2K');
    },
  };
}

/** Runs `work` with a spinner, stopping it however `work` ends. */
export async function withSpinner<T>(
  io: CliIo,
  format: OutputFormat,
  text: string,
  work: () => Promise<T>,
): Promise<T> {
  const spinner = startSpinner(io, format, text);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
