/**
 * A timer that flushes a buffered log stream only while lines are waiting: armed by a write, it
 * flushes every `intervalMs` while lines keep coming and stops after the first interval with none,
 * so an idle server makes no write calls and wakes up for nothing.
 */

/** The part of a buffered stream (`pino.destination` / sonic-boom) the timer uses. */
export interface FlushableStream {
  write(line: string): unknown;
  flush(): void;
  readonly destroyed?: boolean;
}

/**
 * Wraps `stream.write` so that a waiting line is flushed within `intervalMs` (the stream itself
 * writes as soon as its own buffer is full). The timer does not keep the process alive; what is still
 * buffered at exit is the stream's own exit flush to write.
 *
 * @param stream - the buffered stream; its `write` is replaced on the object itself (so whatever holds
 *   the stream — e.g. `pino.multistream` — goes through the wrapper)
 * @param intervalMs - longest wait of a line before a flush, ms
 * @returns the same stream
 * @example flushWhenWaiting(pino.destination({ fd: 1, sync: false, minLength: 4096 }), 100);
 */
export function flushWhenWaiting<T extends FlushableStream>(stream: T, intervalMs: number): T {
  const write = stream.write.bind(stream);
  let timer: ReturnType<typeof setInterval> | undefined;
  let written = false;
  const tick = () => {
    if (stream.destroyed !== true) stream.flush();
    // One more interval after the last line: a flush that met a write still in progress is retried.
    if (!written) {
      clearInterval(timer);
      timer = undefined;
    }
    written = false;
  };
  stream.write = (line: string) => {
    written = true;
    if (timer === undefined) {
      timer = setInterval(tick, intervalMs);
      timer.unref();
    }
    return write(line);
  };
  return stream;
}
