/**
 * A pooled connection that PostgreSQL ends while the store holds it (a `pg_ctl restart`, a failover,
 * an administrator's `pg_terminate_backend`, a proxy cutting the socket) fails the work it was doing,
 * never the process. `pg` emits an `error` event on a client whose connection ends; the pool listens
 * only while the client is idle in the pool, so a client checked out for a transaction had no
 * listener and the replica crashed with "Unhandled 'error' event" (seen under load during
 * `pg_ctl restart -m fast`). Runs in the `postgres` project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTransientStoreError, unreachableDatabase } from '../../src/http/errors.js';
import { createPool, withTransaction } from '../../src/store/postgres/connection.js';
import { dropEngineData, postgresUrl, schemaFor } from '../helpers/engine.js';

let dataDir: string;
let admin: pg.Client;
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-connection-loss-'));
  admin = new pg.Client({ connectionString: postgresUrl() });
  await admin.connect();
  await admin.query(`CREATE SCHEMA IF NOT EXISTS "${schemaFor(dataDir)}"`);
  process.on('uncaughtException', onUncaught);
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await admin.end();
  await dropEngineData(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Ends the backend `pid` as a server shutdown does, and waits until it is gone. */
async function terminate(pid: number): Promise<void> {
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  for (let i = 0; i < 100; i++) {
    const { rows } = await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rows.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`backend ${pid} still running`);
}

describe('a pooled connection ended by the server', () => {
  it('while checked out and idle: no uncaught error, the pool serves on a new connection', async () => {
    const pool = createPool({ url: postgresUrl() }, [schemaFor(dataDir)], 2);
    try {
      const client = await pool.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ended = new Promise((resolve) => client.once('end', resolve));
      await terminate(Number(rows[0]?.pid));
      await ended;
      // Let the socket's close handlers run (where the unhandled `error` event used to throw).
      await new Promise((resolve) => setTimeout(resolve, 50));
      // What a request's next statement on that client meets: a retryable "database unreachable"
      // (503 with Retry-After), not an internal error (500).
      const next = await client.query('SELECT 1').then(
        () => null,
        (error: unknown) => error,
      );
      expect(next).toBeInstanceOf(Error);
      expect(isTransientStoreError(next)).toBe(true);
      expect(unreachableDatabase(next)).not.toBeNull();
      client.release(true);
      expect(uncaught).toEqual([]);
      const after = await pool.query<{ one: number }>('SELECT 1 AS one');
      expect(after.rows[0]?.one).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('inside a transaction: the transaction fails with the error, the next one succeeds', async () => {
    const pool = createPool({ url: postgresUrl() }, [schemaFor(dataDir)], 2);
    try {
      const failed = withTransaction(pool, async (client) => {
        const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        await terminate(Number(rows[0]?.pid));
        await new Promise((resolve) => setTimeout(resolve, 50));
        await client.query('SELECT 1');
      });
      await expect(failed).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
      const ok = await withTransaction(
        pool,
        async (client) => (await client.query('SELECT 2 AS two')).rows[0],
      );
      expect(ok).toEqual({ two: 2 });
    } finally {
      await pool.end();
    }
  });
});
