// A lock held on the database by another process never freezes the server: writes that need it get
// 503 UNAVAILABLE with Retry-After within a bounded time, everything else keeps answering. (In WAL
// mode another connection can hold the write lock, never shut readers out.)
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
const BUSY_TIMEOUT_MS = 1500;

const skill = (name: string) => ({
  data: `---\nname: ${name}\ndescription: A skill written while the database may be locked\n---\nBody of ${name}.\n`,
});

beforeAll(async () => {
  t = await startTestServer({ sqlite: { busyTimeoutMs: BUSY_TIMEOUT_MS } });
  const add = await t.request('POST', '/api/v1/skills', { body: { ...skill('before-lock'), wait: true } });
  expect(add.status, add.text).toBe(200);
});
afterAll(async () => {
  await t.close();
});

/**
 * Another process's connection to the server's database file. It waits for the lock itself (up to
 * 10 s): the server's own background writes (search index merges, per-term list steps, the WAL
 * checkpointer's restart) hold it briefly at any moment, and the test is about the server waiting
 * on this connection, not the other way round.
 */
function otherConnection(): Database.Database {
  const db = new Database(path.join(t.dataDir, 'skillport.db'));
  db.pragma('busy_timeout = 10000');
  return db;
}

async function timed<T>(op: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await op();
  return { value, ms: performance.now() - start };
}

describe('a write lock held by another connection (BEGIN EXCLUSIVE)', () => {
  test('writes get 503 UNAVAILABLE with Retry-After; reads and /health keep answering; nothing is half-done', async () => {
    const other = otherConnection();
    other.exec('BEGIN EXCLUSIVE');
    try {
      const write = timed(() => t.request('POST', '/api/v1/skills', { body: skill('during-lock') }));
      // While the write waits for the lock, other requests are answered at once, not after it.
      const health = await timed(() => t.request('GET', '/health'));
      const read = await timed(() => t.request('GET', '/api/v1/skills/before-lock'));
      expect(health.value.status).toBe(200);
      expect(read.value.status).toBe(200);
      expect(health.ms + read.ms).toBeLessThan(BUSY_TIMEOUT_MS);
      const { value: refused, ms } = await write;
      expect(refused.status, refused.text).toBe(503);
      expect(refused.json.error.code).toBe('UNAVAILABLE');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Bounded: the configured wait, not forever (generous slack for a loaded machine).
      expect(ms).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(BUSY_TIMEOUT_MS + 20_000);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect((await t.request('GET', '/api/v1/skills/during-lock')).status).toBe(404);
    const after = await t.request('POST', '/api/v1/skills', {
      body: { ...skill('during-lock'), wait: true },
    });
    expect(after.status, after.text).toBe(200);
  });

  test('a write that gets the lock within its wait succeeds', async () => {
    const other = otherConnection();
    other.exec('BEGIN EXCLUSIVE');
    const write = t.request('POST', '/api/v1/skills', { body: skill('lock-released') });
    await new Promise((resolve) => setTimeout(resolve, 200));
    other.exec('ROLLBACK');
    other.close();
    const res = await write;
    expect(res.status, res.text).toBe(200);
  });
});
