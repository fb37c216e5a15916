/**
 * The default log sink: JSON lines on stdout (info) and stderr (error). Info lines are buffered
 * and written once per event-loop turn, so a busy server makes one write per batch instead of one
 * per request; errors are written at once; anything buffered is flushed on process exit.
 */
import { writeSync } from 'node:fs';

/** A structured log sink: one JSON object per call. */
export interface Logger {
  info(record: Record<string, unknown>): void;
  error(record: Record<string, unknown>): void;
}

const MAX_BUFFER_CHARS = 64 * 1024;
let buffer = '';
let scheduled = false;
let exitHookInstalled = false;

function flush(): void {
  scheduled = false;
  if (buffer === '') return;
  const text = buffer;
  buffer = '';
  try {
    writeSync(1, text);
  } catch {
    process.stdout.write(text);
  }
}

function enqueue(line: string): void {
  buffer += line;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', flush);
  }
  if (buffer.length >= MAX_BUFFER_CHARS) flush();
  else if (!scheduled) {
    scheduled = true;
    setImmediate(flush);
  }
}

/** JSON-lines logger on stdout (info, batched per event-loop turn) and stderr (error, immediate). */
export const consoleLogger: Logger = {
  info: (record) => enqueue(`${JSON.stringify({ level: 'info', ...record })}\n`),
  error: (record) => {
    flush();
    process.stderr.write(`${JSON.stringify({ level: 'error', ...record })}\n`);
  },
};

/** A logger that drops everything. */
export const silentLogger: Logger = { info: () => {}, error: () => {} };
