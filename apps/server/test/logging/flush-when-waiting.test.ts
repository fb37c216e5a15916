import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { flushWhenWaiting } from '../../src/logging/flush-when-waiting.js';

/** A buffered stream recording what reaches it (chunk by chunk) and each flush (with how much was waiting). */
function recordingStream() {
  const waiting: string[] = [];
  const flushes: number[] = [];
  const synced: string[] = [];
  const stream = {
    destroyed: false,
    write(chunk: string) {
      waiting.push(chunk);
      return true;
    },
    flush() {
      flushes.push(waiting.join('').split('\n').length - 1);
      waiting.length = 0;
    },
    flushSync() {
      synced.push(waiting.join(''));
      waiting.length = 0;
    },
  };
  return { stream, waiting, flushes, synced };
}

describe('flushWhenWaiting', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('an idle stream is never flushed', () => {
    const { stream, flushes } = recordingStream();
    flushWhenWaiting(stream, 100);
    vi.advanceTimersByTime(10_000);
    expect(flushes).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a waiting line is flushed within the interval, then the timer stops', () => {
    const { stream, waiting, flushes } = recordingStream();
    flushWhenWaiting(stream, 100);
    stream.write('a\n');
    // Gathered until a chunk is full or the interval ends.
    expect(waiting).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(flushes).toEqual([1]);
    // One more interval (retries a flush that met a write in progress), then nothing at idle.
    vi.advanceTimersByTime(10_000);
    expect(flushes.length).toBeLessThanOrEqual(2);
    expect(flushes.slice(1).every((n) => n === 0)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('lines keep being flushed while they keep coming, and again after a pause', () => {
    const { stream, flushes } = recordingStream();
    flushWhenWaiting(stream, 100);
    for (let i = 0; i < 10; i++) {
      stream.write(`${i}\n`);
      vi.advanceTimersByTime(50);
    }
    vi.advanceTimersByTime(1_000);
    expect(flushes.reduce((a, b) => a + b, 0)).toBe(10);
    expect(vi.getTimerCount()).toBe(0);
    stream.write('later\n');
    vi.advanceTimersByTime(100);
    expect(flushes.at(-1)).toBe(1);
  });

  test('lines reach the stream in order, as one chunk once enough are gathered', () => {
    const { stream, waiting } = recordingStream();
    flushWhenWaiting(stream, 100, 20);
    const lines = Array.from({ length: 7 }, (_, i) => `line ${i}\n`);
    for (const line of lines) stream.write(line);
    // 7 characters a line: a chunk goes out at the third line and at the sixth; the seventh waits.
    expect(waiting).toEqual([lines.slice(0, 3).join(''), lines.slice(3, 6).join('')]);
    vi.advanceTimersByTime(100);
    expect(waiting).toEqual([]);
  });

  test('flush and flushSync (the exit flush) write the lines still gathered', () => {
    const { stream, flushes, synced } = recordingStream();
    flushWhenWaiting(stream, 100);
    stream.write('a\n');
    stream.write('b\n');
    stream.flush();
    expect(flushes).toEqual([2]);
    stream.write('c\n');
    stream.flushSync();
    expect(synced).toEqual(['c\n']);
  });

  test('a destroyed stream is neither written nor flushed', () => {
    const { stream, waiting, flushes } = recordingStream();
    flushWhenWaiting(stream, 100);
    stream.write('a\n');
    stream.destroyed = true;
    vi.advanceTimersByTime(1_000);
    expect(waiting).toEqual([]);
    expect(flushes).toEqual([]);
  });

  test('lines are dropped once the write was replaced (pino on EPIPE)', () => {
    const { stream, waiting } = recordingStream();
    flushWhenWaiting(stream, 100);
    stream.write('a\n');
    stream.write = () => true;
    vi.advanceTimersByTime(100);
    expect(waiting).toEqual([]);
  });
});
