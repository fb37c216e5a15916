import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { flushWhenWaiting } from '../../src/logging/flush-when-waiting.js';

/** A buffered stream recording what reaches it and each flush (with how much was waiting). */
function recordingStream() {
  const waiting: string[] = [];
  const flushes: number[] = [];
  const stream = {
    destroyed: false,
    write(line: string) {
      waiting.push(line);
      return true;
    },
    flush() {
      flushes.push(waiting.length);
      waiting.length = 0;
    },
  };
  return { stream, waiting, flushes };
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
    expect(waiting).toEqual(['a\n']);
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

  test('a destroyed stream is not flushed', () => {
    const { stream, flushes } = recordingStream();
    flushWhenWaiting(stream, 100);
    stream.write('a\n');
    stream.destroyed = true;
    vi.advanceTimersByTime(1_000);
    expect(flushes).toEqual([]);
  });
});
