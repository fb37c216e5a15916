import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openConnection, WAL_AUTOCHECKPOINT_PAGES } from '../../src/store/sqlite/connection.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-conn-'));
  dirs.push(dir);
  return dir;
}

describe('sqlite connection and migrations', () => {
  it.each([
    { synchronous: undefined, expected: 1 },
    { synchronous: 'NORMAL' as const, expected: 1 },
    { synchronous: 'FULL' as const, expected: 2 },
  ])(
    'opens with WAL, foreign keys, busy timeout and synchronous=$synchronous',
    ({ synchronous, expected }) => {
      const conn = openConnection(path.join(tempDir(), 'x.db'), synchronous ? { synchronous } : {});
      try {
        expect(conn.db.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(conn.db.pragma('foreign_keys', { simple: true })).toBe(1);
        expect(conn.db.pragma('busy_timeout', { simple: true })).toBe(5000);
        expect(conn.db.pragma('synchronous', { simple: true })).toBe(expected);
        expect(conn.db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_AUTOCHECKPOINT_PAGES);
        expect(conn.stmt('SELECT 1 AS one')).toBe(conn.stmt('SELECT 1 AS one'));
      } finally {
        conn.db.close();
      }
    },
  );

  it('lets the WAL grow past SQLite default of 1,000 frames before a commit checkpoints it', () => {
    const file = path.join(tempDir(), 'x.db');
    const conn = openConnection(file);
    try {
      conn.db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB NOT NULL)');
      const insert = conn.stmt('INSERT INTO t (v) VALUES (?)');
      // One commit per row: each appends at least one 4 KiB page (plus a 24-byte frame header).
      for (let i = 0; i < 2500; i++) insert.run(Buffer.alloc(3000, i % 251));
      const frame = 4096 + 24;
      // With SQLite's default a commit would have checkpointed and restarted the WAL near 1,000 frames.
      expect(statSync(`${file}-wal`).size).toBeGreaterThan(2000 * frame);
      expect(WAL_AUTOCHECKPOINT_PAGES).toBeGreaterThan(2500);
    } finally {
      conn.db.close();
    }
    const reopened = openConnection(file, { readonly: true });
    try {
      expect(reopened.db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2500 });
    } finally {
      reopened.db.close();
    }
  });

  it('migrates a new file to the current schema version, idempotently', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: path.join(dir, 'nested', 'data') });
    await store.migrate();
    await store.close();
    const conn = openConnection(path.join(dir, 'nested', 'data', 'skillport.db'));
    expect(conn.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const tables = (
      conn.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>
    )
      .map((t) => t.name)
      .filter((name) => !name.startsWith('skills_fts_'));
    expect(tables.sort()).toEqual(
      [
        'account_usage',
        'accounts',
        'api_keys',
        'blobs',
        'change_counter',
        'idempotency_keys',
        'search_term_build',
        'search_term_deltas',
        'search_term_lists',
        'skill_changes',
        'skill_counts',
        'skill_files',
        'skill_revision_blobs',
        'skill_revisions',
        'skill_vectors',
        'sqlite_sequence',
        'skills',
        'skills_fts',
        'tasks',
        'temp_uploads',
        'users',
      ].sort(),
    );
    conn.db.close();
  });

  it('replaces the per-term list tables of the layout a file at version 13 may hold', async () => {
    const dir = tempDir();
    const first = createSqliteStore({ dataDir: dir });
    await first.migrate();
    await first.close();
    const conn = openConnection(path.join(dir, 'skillport.db'));
    conn.db.exec(`DROP TABLE search_term_lists; DROP TABLE search_term_build;
      CREATE TABLE search_term_lists (term TEXT PRIMARY KEY, seqs BLOB NOT NULL, freqs BLOB NOT NULL) WITHOUT ROWID;
      CREATE TABLE search_term_build (id INTEGER PRIMARY KEY, covered INTEGER, sweep_origin INTEGER, after TEXT);
      INSERT INTO search_term_build (id, covered) VALUES (1, 5);
      ALTER TABLE skill_files DROP COLUMN executable;
      PRAGMA user_version = 13;`);
    conn.db.close();
    const store = createSqliteStore({ dataDir: dir });
    await store.migrate();
    await store.close();
    const reopened = openConnection(path.join(dir, 'skillport.db'), { readonly: true });
    try {
      const columns = (table: string) =>
        (reopened.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map(
          (c) => c.name,
        );
      expect(columns('search_term_lists')).toEqual(['term', 'chunk', 'origin', 'seqs', 'freqs']);
      expect(reopened.db.prepare('SELECT * FROM search_term_build').all()).toEqual([
        { id: 1, covered: null, target: null, next_seq: null, merged: null, delta: 0 },
      ]);
      expect(reopened.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      reopened.db.close();
    }
  });

  it('refuses a file written by a newer schema, with a clear message', () => {
    const dir = tempDir();
    const conn = openConnection(path.join(dir, 'skillport.db'));
    conn.db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    conn.db.close();
    expect(() => createSqliteStore({ dataDir: dir })).toThrow(/newer than this server understands/);
  });

  it('honours a custom file name', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir, filename: 'other.sqlite' });
    expect(store.description).toBe(`sqlite:${path.join(dir, 'other.sqlite')}`);
    await store.close();
    await store.close(); // idempotent
  });
});
