/**
 * A buffered log stream fed in chunks, with a timer that flushes it only while lines are waiting:
 * armed by a write, it flushes every `intervalMs` while lines keep coming and stops after the first
 * interval with none, so an idle server makes no write calls and wakes up for nothing.
 */

/** The part of a buffered stream (`pino.destination` / sonic-boom) the wrapper uses. */
export interface FlushableStream {
  write(line: string): unknown;
  /** Writes what is buffered (sonic-boom: asynchronously; an optional callback is passed through). */
  flush(...args: never[]): void;
  /** Writes everything buffered before returning (sonic-boom: at process exit). */
  flushSync?(): void;
  /** Writes everything buffered, then closes. */
  end?(): void;
  readonly destroyed?: boolean;
}

/** Characters of lines gathered before they are handed to the stream as one string. */
const DEFAULT_CHUNK_CHARS = 16_000;

/**
 * Wraps a buffered stream so that lines reach it in chunks of about `chunkChars` characters and a
 * waiting line is flushed within `intervalMs` (the stream itself writes as soon as its own buffer is
 * full). Handing sonic-boom one chunk instead of each line saves it measuring (and so flattening) its
 * growing buffer once per line: ~2–3 µs of CPU per request line. `flush`, `flushSync` and `end`
 * hand over the lines still gathered first, so a flush — the one pino makes when the process exits
 * included — writes every line written before it. The timer does not keep the process alive.
 *
 * @param stream - the buffered stream; its `write` (and `flush`, `flushSync`, `end`) are replaced on
 *   the object itself, so whatever holds the stream — e.g. `pino.multistream`, pino's exit hook —
 *   goes through the wrapper
 * @param intervalMs - longest wait of a line before a flush, ms
 * @param chunkChars - characters gathered before they go to the stream (default 16,000)
 * @returns the same stream
 * @example flushWhenWaiting(pino.destination({ fd: 1, sync: false, minLength: 4096 }), 100);
 */
export function flushWhenWaiting<T extends FlushableStream>(
  stream: T,
  intervalMs: number,
  chunkChars = DEFAULT_CHUNK_CHARS,
): T {
  const write = stream.write.bind(stream);
  const flush = stream.flush.bind(stream);
  const flushSync = stream.flushSync?.bind(stream);
  const end = stream.end?.bind(stream);
  let gathered = '';
  let timer: ReturnType<typeof setInterval> | undefined;
  let written = false;
  const handOver = () => {
    if (gathered === '') return;
    const chunk = gathered;
    gathered = '';
    // pino replaces `write` with a no-op once stdout is gone (EPIPE): the lines are dropped then.
    if (stream.write === gatheringWrite && stream.destroyed !== true) write(chunk);
  };
  const tick = () => {
    handOver();
    if (stream.destroyed !== true) flush();
    // One more interval after the last line: a flush that met a write still in progress is retried.
    if (!written) {
      clearInterval(timer);
      timer = undefined;
    }
    written = false;
  };
  const gatheringWrite = (line: string) => {
    written = true;
    if (timer === undefined) {
      timer = setInterval(tick, intervalMs);
      timer.unref();
    }
    gathered += line;
    if (gathered.length >= chunkChars) handOver();
    return true;
  };
  stream.write = gatheringWrite;
  stream.flush = (...args: never[]) => {
    handOver();
    flush(...args);
  };
  if (flushSync !== undefined) {
    stream.flushSync = () => {
      handOver();
      flushSync();
    };
  }
  if (end !== undefined) {
    stream.end = () => {
      handOver();
      end();
    };
  }
  return stream;
}
