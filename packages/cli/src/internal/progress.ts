/**
 * A progress bar on stderr (`cli-progress`) for work over a known number of items — bulk adds,
 * installs — drawn only where a spinner would be (see {@link showsProgress}): a TTY, not `-o json`,
 * not under `CI`. Elsewhere it is silent and the command prints its results as usual.
 *
 * @example
 * ```ts
 * await withProgress(io, ctx.format, { total: tools.length, label: 'Adding tools' }, async (bar) => {
 *   for (const tool of tools) {
 *     bar.update(tool.name);
 *     await add(tool);
 *     bar.advance();
 *   }
 * });
 * ```
 */
import cliProgress from 'cli-progress';
import type { CliIo, OutputFormat } from './io.js';
import { showsProgress } from './spinner.js';

export interface ProgressBar {
  /** Marks `count` more items done (default 1); `item` names the next one, if given. */
  advance(count?: number, item?: string): void;
  /** Names the item being worked on without advancing. */
  update(item: string): void;
  /** Removes the bar from the terminal. Safe to call twice. */
  stop(): void;
}

/** What {@link startProgress} shows. */
export interface ProgressOptions {
  /** Number of items (a bar of 0 items is never drawn). */
  total: number;
  /** Words before the bar, e.g. `Adding 12 tools`. */
  label: string;
}

const SILENT: ProgressBar = { advance() {}, update() {}, stop() {} };

/** Starts a progress bar at 0 of `total`, or a silent one where no live progress may be drawn. */
export function startProgress(io: CliIo, format: OutputFormat, options: ProgressOptions): ProgressBar {
  if (options.total <= 0 || !showsProgress(io, format)) return SILENT;
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WriteStream,
      format: `${options.label} {bar} {value}/{total} {item}`,
      barsize: 24,
      clearOnComplete: true,
      hideCursor: true,
      linewrap: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(options.total, 0, { item: '' });
  let stopped = false;
  return {
    advance(count = 1, item) {
      if (!stopped) bar.increment(count, item === undefined ? {} : { item });
    },
    update(item) {
      if (!stopped) bar.update({ item });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

/** Runs `work` with a progress bar, removing the bar however `work` ends. */
export async function withProgress<T>(
  io: CliIo,
  format: OutputFormat,
  options: ProgressOptions,
  work: (bar: ProgressBar) => Promise<T>,
): Promise<T> {
  const bar = startProgress(io, format, options);
  try {
    return await work(bar);
  } finally {
    bar.stop();
  }
}
