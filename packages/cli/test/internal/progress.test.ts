import { stripVTControlCharacters } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startProgress, withProgress } from '../../src/internal/progress.js';
import { startSpinner, withSpinner } from '../../src/internal/spinner.js';
import { memoryIo } from '../support/memory-io.js';

// The libraries read `CI` from the process environment too: the terminal cases run as on a desktop.
beforeEach(() => {
  vi.stubEnv('CI', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const plain = (text: string) => stripVTControlCharacters(text);

describe('spinner', () => {
  it('draws its text on a terminal and clears the line when stopped', async () => {
    const io = memoryIo({ ttyErr: true });
    const result = await withSpinner(io, 'table', 'Adding pdf…', async () => {
      return 42;
    });
    expect(result).toBe(42);
    expect(plain(io.err())).toContain('Adding pdf…');
    // The last thing written leaves the line empty and the cursor visible.
    expect(io.err()).toMatch(/\x1b\[\?25h[\s\S]*$/);
    expect(io.out()).toBe('');
  });

  it('shows updated text', () => {
    const io = memoryIo({ ttyErr: true });
    const spinner = startSpinner(io, 'table', 'one');
    spinner.update('two of three');
    spinner.stop();
    spinner.stop();
    expect(plain(io.err())).toContain('two of three');
  });

  it.each([
    ['-o json', memoryIo({ ttyErr: true }), 'json'],
    ['stderr not a terminal', memoryIo(), 'table'],
    ['CI set', memoryIo({ ttyErr: true, env: { CI: 'true' } }), 'table'],
    ['TERM=dumb', memoryIo({ ttyErr: true, env: { TERM: 'dumb' } }), 'table'],
  ] as const)('prints nothing with %s', async (_case, io, format) => {
    await withSpinner(io, format, 'Adding pdf…', async () => undefined);
    expect(io.err()).toBe('');
  });

  it('stops when the work fails', async () => {
    const io = memoryIo({ ttyErr: true });
    await expect(
      withSpinner(io, 'table', 'Working', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(io.err()).toMatch(/\x1b\[\?25h[\s\S]*$/);
  });
});

describe('progress bar', () => {
  it('counts items and names the current one, then clears itself', async () => {
    const io = memoryIo({ ttyErr: true });
    await withProgress(io, 'table', { total: 3, label: 'Adding tools' }, async (bar) => {
      for (const name of ['alpha', 'beta', 'gamma']) {
        bar.update(name);
        bar.advance();
      }
    });
    const text = plain(io.err());
    expect(text).toContain('Adding tools');
    expect(text).toContain('0/3');
    expect(text).toMatch(/3\/3/);
    expect(text).toMatch(/3\/3 gamma/);
  });

  it('is silent with -o json, off a terminal and for no items', () => {
    for (const [io, format, total] of [
      [memoryIo({ ttyErr: true }), 'json', 3],
      [memoryIo(), 'table', 3],
      [memoryIo({ ttyErr: true }), 'table', 0],
    ] as const) {
      const bar = startProgress(io, format, { total, label: 'Installing' });
      bar.update('x');
      bar.advance();
      bar.stop();
      expect(io.err()).toBe('');
    }
  });
});
