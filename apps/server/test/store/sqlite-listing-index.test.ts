/**
 * The listing by name on SQLite reads only the `skills_listing` index (schema 11): skill rows are
 * large (body, overview) and mostly overflow their page, so reading them cost a page chain per row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Connection, openConnection } from '../../src/store/sqlite/connection.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { applyMigrations, SCHEMA_VERSION, SCHEMA_VERSIONS } from '../../src/store/sqlite/migrations.js';
import { listSkills } from '../../src/store/sqlite/skill-reads.js';
import { downgradeSchema, makeWrite, USER_ROOT } from './helpers.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A connection that records the SQL of every statement it prepares. */
function recording(conn: Connection): { conn: Connection; sql: string[] } {
  const sql: string[] = [];
  return {
    sql,
    conn: {
      db: conn.db,
      stmt(text) {
        sql.push(text);
        return conn.stmt(text);
      },
    },
  };
}

describe('sqlite store: the listing by name', () => {
  it('reads a page from the covering index only, with or without a cursor, and lists the same rows', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-listing-'));
    const store = createSqliteStore({ dataDir: dir });
    const body = `# Large\n\n${'A long body line of the skill. '.repeat(400)}\n`;
    for (const name of ['gamma', 'alpha', 'delta', 'beta']) {
      await store.putSkill(makeWrite({ accountId: 'acme', rootUri: USER_ROOT, name, body }));
    }
    const viaStore = await store.listSkills('acme', USER_ROOT, { limit: 10, summary: true });
    await store.close();

    const conn = openConnection(path.join(dir, 'skillport.db'));
    try {
      const { conn: rec, sql } = recording(conn);
      const first = listSkills(rec, 'acme', USER_ROOT, 2, 'summary');
      const next = listSkills(rec, 'acme', USER_ROOT, 10, 'summary', 'beta');
      expect(first.skills.map((s) => s.name)).toEqual(['alpha', 'beta']);
      expect(next.skills.map((s) => s.name)).toEqual(['delta', 'gamma']);
      expect(first.total).toBe(4);
      expect([...first.skills, ...next.skills]).toEqual(viaStore.skills);
      const pages = sql.filter((text) => /FROM skills\b/.test(text));
      expect(pages).toHaveLength(2);
      for (const text of pages) {
        const plan = conn.db
          .prepare(`EXPLAIN QUERY PLAN ${text}`)
          .all('acme', USER_ROOT, ...(text.includes('name >') ? ['beta'] : []), 10) as Array<{
          detail: string;
        }>;
        expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING COVERING INDEX skills_listing\b/);
      }
    } finally {
      conn.db.close();
    }
  });

  it('a database of schema 11 gets the index of deletions when migrated, and deletes use it', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-deletions-'));
    const conn = openConnection(path.join(dir, 'skillport.db'));
    try {
      applyMigrations(conn.db);
      downgradeSchema(conn.db, 11);
      const index = () =>
        conn.db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'skill_changes_deleted'")
          .all();
      expect(index()).toEqual([]);
      expect(applyMigrations(conn.db)).toContain(12);
      expect(index()).toHaveLength(1);
      const plan = conn.db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT root_uri, name FROM skill_changes WHERE account_id = ? AND deleted = 1
           ORDER BY seq DESC LIMIT 16 OFFSET 1000`,
        )
        .all('acme') as Array<{ detail: string }>;
      expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX skill_changes_deleted/);
    } finally {
      conn.db.close();
    }
  });

  it('a database of schema 10 gets the index when migrated', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-listing-'));
    const conn = openConnection(path.join(dir, 'skillport.db'));
    try {
      applyMigrations(conn.db);
      downgradeSchema(conn.db, 10);
      const index = () =>
        conn.db
          .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'skills_listing'")
          .all();
      expect(index()).toEqual([]);
      expect(applyMigrations(conn.db)).toEqual(SCHEMA_VERSIONS.filter((v) => v > 10));
      expect(conn.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(index()).toHaveLength(1);
    } finally {
      conn.db.close();
    }
  });
});
