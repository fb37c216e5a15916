/**
 * PostgreSQL-only behaviour of the store: several stores (as several server replicas would open) on
 * one database. Runs in the `postgres` vitest project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isSkillportError } from '@skillport/core';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresStore } from '../../src/store/postgres/create-postgres-store.js';
import { POSTGRES_SCHEMA_VERSION } from '../../src/store/postgres/migrations.js';
import type { Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore, postgresUrl, schemaFor } from '../helpers/engine.js';
import { makeWrite, TEST_CLAIM, USER_ROOT } from '../store/helpers.js';

let dataDir: string;
const opened: Store[] = [];

/** `n` stores on one fresh schema, as `n` replicas would open them. */
function replicas(n: number): Store[] {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-replicas-'));
  const stores = Array.from({ length: n }, () => openEngineStore(dataDir));
  opened.push(...stores);
  return stores;
}

async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: postgresUrl() });
  await client.connect();
  try {
    await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  if (dataDir) {
    await dropEngineData(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('postgres store: several replicas on one database', () => {
  it('applies each migration once when replicas start together', async () => {
    const stores = replicas(6);
    await Promise.all(stores.map((store) => store.migrate()));
    const rows = await sql<{ version: number }>('SELECT version FROM skillport_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, i) => i + 1),
    );
    await stores[0]!.putSkill(makeWrite({ name: 'after-migrate' }));
    expect((await stores[5]!.getSkill('acme', USER_ROOT, 'after-migrate'))?.name).toBe('after-migrate');
  });

  it('refuses a schema written by a newer build, naming both versions', async () => {
    const [first] = replicas(1);
    await first!.migrate();
    await sql('INSERT INTO skillport_migrations (version, name, applied_at) VALUES ($1, $2, 0)', [
      POSTGRES_SCHEMA_VERSION + 1,
      'from the future',
    ]);
    const later = openEngineStore(dataDir);
    opened.push(later);
    await expect(later.migrate()).rejects.toThrow(
      new RegExp(
        `version ${POSTGRES_SCHEMA_VERSION + 1}, newer than this server understands \\(${POSTGRES_SCHEMA_VERSION}\\)`,
      ),
    );
  });

  it('a temp upload made through one replica is taken through another, once', async () => {
    const [a, b, c] = replicas(3);
    const content = new Uint8Array([0, 1, 2, 255, 0, 128]);
    const id = await a!.putTempUpload({
      accountId: 'acme',
      filename: 'x.zip',
      content,
      expiresAt: Date.now() + 60_000,
    });
    const [first, second] = await Promise.all([
      b!.takeTempUpload('acme', id, Date.now()),
      c!.takeTempUpload('acme', id, Date.now()),
    ]);
    const taken = [first, second].filter((upload) => upload !== null);
    expect(taken).toHaveLength(1);
    expect([...(taken[0]?.content ?? [])]).toEqual([...content]);
  });

  it('the first add of one name through two replicas at once: one creates, the other replaces', async () => {
    const [a, b] = replicas(2);
    await a!.migrate();
    const results = await Promise.all([
      a!.putSkill(makeWrite({ name: 'same', description: 'from a' })),
      b!.putSkill(makeWrite({ name: 'same', description: 'from b' })),
    ]);
    expect(results.map((r) => r.created).sort()).toEqual([false, true]);
    expect((await a!.listSkills('acme', USER_ROOT, { limit: 10 })).total).toBe(1);
    expect(await a!.listRevisions('acme', USER_ROOT, 'same')).toHaveLength(2);
  });

  it('If-Match across replicas: of concurrent updates of one revision, exactly one wins', async () => {
    const stores = replicas(4);
    const { skill } = await stores[0]!.putSkill(makeWrite({ name: 'contended' }));
    const outcomes = await Promise.allSettled(
      stores.map((store, i) =>
        store.putSkill(makeWrite({ name: 'contended', body: `# v${i}\n`, ifMatch: [skill.revision] })),
      ),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(3);
    for (const o of lost) {
      const reason = (o as PromiseRejectedResult).reason;
      expect(isSkillportError(reason) && reason.code).toBe('CONFLICT');
    }
    const current = await stores[1]!.getSkill('acme', USER_ROOT, 'contended');
    expect(current?.revision).toBe(
      (won[0] as PromiseFulfilledResult<{ skill: { revision: string } }>).value.skill.revision,
    );
  });

  it('two replicas storing the same new large content at once both succeed, and it is stored once', async () => {
    const [a, b] = replicas(2);
    await a!.migrate();
    const big = new Uint8Array(2 * 1024 * 1024).fill(7);
    const [x, y] = await Promise.all([
      a!.putSkill(makeWrite({ name: 'big-x' }, { 'big.bin': big })),
      b!.putSkill(makeWrite({ name: 'big-y' }, { 'big.bin': big })),
    ]);
    expect(x.created && y.created).toBe(true);
    const rows = await sql<{ n: number }>('SELECT count(*)::int AS n FROM blobs WHERE size = $1', [
      big.length,
    ]);
    expect(rows[0]?.n).toBe(1);
  });

  it('replicas claiming tasks together never get the same task', async () => {
    const stores = replicas(3);
    for (let i = 0; i < 12; i++) await stores[0]!.putSkill(makeWrite({ name: `job-${i}` }));
    const claimed: string[] = [];
    await Promise.all(
      stores.map(async (store) => {
        for (;;) {
          const task = await store.claimTask(Date.now(), TEST_CLAIM);
          if (task === null) return;
          claimed.push(task.id);
        }
      }),
    );
    expect(claimed).toHaveLength(12);
    expect(new Set(claimed).size).toBe(12);
  });

  it('keeps tables in their own schema; another schema of the database sees nothing', async () => {
    const [a] = replicas(1);
    await a!.putSkill(makeWrite({ name: 'mine' }));
    const other = createPostgresStore({
      url: postgresUrl(),
      schema: `${schemaFor(dataDir)}_other`,
      poolSize: 2,
    });
    opened.push(other);
    try {
      expect((await other.listSkills('acme', USER_ROOT, { limit: 10 })).total).toBe(0);
      expect(other.description).toMatch(/\(schema t_\w+_other\)$/);
    } finally {
      const client = new pg.Client({ connectionString: postgresUrl() });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schemaFor(dataDir)}_other" CASCADE`);
      await client.end();
    }
  });
});
