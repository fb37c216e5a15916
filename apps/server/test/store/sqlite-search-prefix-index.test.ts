/**
 * The search index without FTS5's 3-character prefix index (schema version 20): a type-ahead query
 * (its last word matched as a prefix, `"cal"*`) finds and ranks the same skills, through FTS5 and
 * through the per-term lists, and a version 19 database is indexed again without it on open.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuildSearchIndex } from '../../src/search/rebuild-index.js';
import {
  SCHEMA_VERSION,
  SEARCH_INDEX_AUTOMERGE,
  SEARCH_INDEX_CRISISMERGE,
} from '../../src/store/sqlite/migrations.js';
import type { Store } from '../../src/store/types.js';
import { downgradeSchema, makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const WORDS = ['calendar', 'calculator', 'docker', 'documents', 'invoice', 'summary', 'deploy', 'review'];
/** Words, several words, and prefixes of exactly 3 characters (what the prefix index served). */
const QUERIES = ['calendar', 'cal', 'doc', 'docker doc', 'inv', 'sum', 'deploy rev', 'revi', 'calc', 'zzz'];

async function fill(store: Store): Promise<void> {
  for (let i = 0; i < 24; i++) {
    const words = [WORDS[i % WORDS.length], WORDS[(i * 3 + 1) % WORDS.length], WORDS[(i * 5 + 2) % 8]];
    await store.putSkill(
      makeWrite({
        name: `skill-${i}`,
        description: `Works with ${words[0]} and ${words[1]}`,
        tags: [words[2] as string],
        body: `# ${words[2]}\n\n${words.join(' ')} ${'notes '.repeat(i % 4)}\n`,
      }),
    );
  }
}

async function answers(store: Store) {
  return Promise.all(
    QUERIES.map(async (q) =>
      (await store.search('acme', [USER_ROOT], q, { limit: 30 })).map((h) => [
        h.skill.name,
        h.score,
        h.matchedFields,
      ]),
    ),
  );
}

function indexSql(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("SELECT sql FROM sqlite_master WHERE name = 'skills_fts'").pluck().get() as string;
  } finally {
    db.close();
  }
}

/** Turns the store's file into what a version 19 server left: the index with `prefix = '3'`. */
function downgradeToV19(file: string): void {
  const db = new Database(file);
  try {
    db.transaction(() => {
      db.exec(`DROP TABLE skills_fts;
        CREATE VIRTUAL TABLE skills_fts USING fts5 (
          name, tags, description, overview, body,
          content = '', contentless_delete = 1, prefix = '3',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        INSERT INTO skills_fts (skills_fts, rank) VALUES ('automerge', ${SEARCH_INDEX_AUTOMERGE});
        INSERT INTO skills_fts (skills_fts, rank) VALUES ('crisismerge', ${SEARCH_INDEX_CRISISMERGE});
        CREATE INDEX skills_fts_docsize_origin ON skills_fts_docsize (origin);`);
      rebuildSearchIndex(db);
      downgradeSchema(db, 19);
    })();
  } finally {
    db.close();
  }
}

describe('sqlite store: search index without a prefix index (schema version 20)', () => {
  it('creates the index without prefix = 3', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.close();
    const sql = indexSql(path.join(temp.dataDir, 'skillport.db'));
    expect(sql).toContain('contentless_delete = 1');
    expect(sql).not.toContain('prefix');
  });

  it('indexes a version 19 database again without it; type-ahead answers unchanged', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await fill(temp.store);
    const before = await answers(temp.store);
    // The 3-character prefixes match: `cal` finds calendar and calculator skills.
    expect(before[1]?.length).toBeGreaterThan(before[0]?.length ?? 0);
    await temp.store.close();

    const file = path.join(temp.dataDir, 'skillport.db');
    downgradeToV19(file);
    expect(indexSql(file)).toContain("prefix = '3'");

    const store = temp.reopen();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    expect(indexSql(file)).not.toContain('prefix');
    // Through FTS5 (the per-term lists start again from scratch after the rebuild).
    expect(await answers(store)).toEqual(before);
    // Through the per-term lists, once built.
    while (await store.compactSearchIndex(64)) {}
    expect(await answers(store)).toEqual(before);
    await store.close();
  });
});
