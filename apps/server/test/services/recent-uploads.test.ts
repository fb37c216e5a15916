import { describe, expect, test } from 'vitest';
import { createRecentUploads, RECENT_UPLOAD_MAX_BYTES } from '../../src/services/recent-uploads.js';

const upload = (id: string, size: number, extra: { accountId?: string; expiresAt?: number } = {}) => ({
  id,
  accountId: extra.accountId ?? 'acme',
  filename: `${id}.zip`,
  content: new Uint8Array(size),
  expiresAt: extra.expiresAt ?? 1_000,
});

describe('recent uploads', () => {
  test('gives a kept upload once, to its account, before it expires', () => {
    const keep = createRecentUploads();
    keep.remember(upload('a', 10));
    expect(keep.take('acme', 'a', 500)?.id).toBe('a');
    expect(keep.take('acme', 'a', 500)).toBeNull();
    keep.remember(upload('b', 10));
    expect(keep.take('other', 'b', 500)).toBeNull();
    // Asked by the wrong account, it is dropped: the store answers from then on.
    expect(keep.take('acme', 'b', 500)).toBeNull();
    keep.remember(upload('c', 10, { expiresAt: 500 }));
    expect(keep.take('acme', 'c', 500)).toBeNull();
  });

  test('keeps no large upload and at most its byte budget, dropping the oldest first', () => {
    const keep = createRecentUploads(100);
    keep.remember(upload('big', RECENT_UPLOAD_MAX_BYTES + 1));
    expect(keep.take('acme', 'big', 0)).toBeNull();
    keep.remember(upload('one', 40));
    keep.remember(upload('two', 40));
    keep.remember(upload('three', 40));
    expect(keep.take('acme', 'one', 0)).toBeNull();
    expect(keep.take('acme', 'two', 0)?.id).toBe('two');
    expect(keep.take('acme', 'three', 0)?.id).toBe('three');
    keep.remember(upload('too-big-for-budget', 101));
    expect(keep.take('acme', 'too-big-for-budget', 0)).toBeNull();
  });
});
