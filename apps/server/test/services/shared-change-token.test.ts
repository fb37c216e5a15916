/**
 * The change-token read shared by the requests of one event-loop turn: one read per turn, always made
 * after every caller sharing it asked (a commit before a caller asked is never missed).
 */
import { describe, expect, it } from 'vitest';
import { sharedChangeToken } from '../../src/services/shared-change-token.js';

/** A fake store token: the number of commits, counting the reads made. */
function counter() {
  const state = { commits: 0, reads: 0 };
  const read = async () => {
    state.reads += 1;
    return `t${state.commits}`;
  };
  return { state, read };
}

describe('shared change token', () => {
  it('makes one read for the callers of one turn, and reads again for a later turn', async () => {
    const { state, read } = counter();
    const token = sharedChangeToken(read);
    const first = await Promise.all([token(), token(), token()]);
    expect(first).toEqual(['t0', 't0', 't0']);
    expect(state.reads).toBe(1);
    state.commits += 1;
    expect(await token()).toBe('t1');
    expect(state.reads).toBe(2);
  });

  it('reads after the callers asked: a commit between the call and the read is seen', async () => {
    const { state, read } = counter();
    const token = sharedChangeToken(read);
    const pending = token();
    // Committed after the caller asked, in the same turn: its token may (and does) include it.
    state.commits += 1;
    expect(await pending).toBe('t1');
  });

  it('never hands a caller a read that started before it asked', async () => {
    const state = { commits: 0 };
    let release: (() => void) | null = null;
    // A slow read (as a PostgreSQL round trip): the token is taken when it starts.
    const read = () => {
      const seen = `t${state.commits}`;
      return new Promise<string>((resolve) => {
        release = () => resolve(seen);
      });
    };
    const token = sharedChangeToken(read);
    const early = token();
    await new Promise((resolve) => setImmediate(resolve));
    expect(release).not.toBeNull();
    // The first read is in flight; a commit lands, then a second caller asks.
    state.commits += 1;
    const late = token();
    (release as unknown as () => void)();
    expect(await early).toBe('t0');
    await new Promise((resolve) => setImmediate(resolve));
    (release as unknown as () => void)();
    expect(await late).toBe('t1');
  });

  it('passes a failed read on to every caller of its turn, and reads afresh next turn', async () => {
    let fail = true;
    const token = sharedChangeToken(async () => {
      if (fail) throw new Error('database closed');
      return 't';
    });
    const results = await Promise.allSettled([token(), token()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await token()).toBe('t');
  });
});
