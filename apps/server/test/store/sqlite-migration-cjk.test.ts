import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { buildSearchDocument } from '../../src/search/search-document.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import { downgradeSchema, makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

const SKILLS = [
  { name: 'check-login-status', description: '检查小红书登录状态', tags: ['xiaohongshu'] },
  { name: 'db-query-tw', description: '多資料庫查詢工具箱' },
  { name: 'command-creator-ja', description: 'スラッシュコマンドを新規作成する' },
  { name: 'login-ko', description: '로그인 상태를 확인합니다' },
  { name: 'search-web', description: 'Search the web for current information', tags: ['web'] },
];

/**
 * Turns the store's file into what a version 2 server left: the same tables, the search index holding
 * the text as written (no CJK segmentation), `user_version` 2.
 */
function downgradeToV2(file: string, version = 2): void {
  const db = new Database(file);
  try {
    db.transaction(() => {
      db.exec("INSERT INTO skills_fts (skills_fts) VALUES ('delete-all')");
      const rows = db
        .prepare('SELECT seq, name, tags, description, overview, body FROM skills')
        .all() as Array<{
        seq: number;
        name: string;
        tags: string;
        description: string;
        overview: string | null;
        body: string;
      }>;
      const insert = db.prepare(
        'INSERT INTO skills_fts (rowid, name, tags, description, overview, body) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const row of rows) {
        const doc = buildSearchDocument({ ...row, tags: JSON.parse(row.tags) as string[] });
        insert.run(row.seq, doc.name, doc.tags, doc.description, doc.overview, doc.body);
      }
      downgradeSchema(db, version);
    })();
  } finally {
    db.close();
  }
}

function ftsCount(file: string, match: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare('SELECT count(*) AS n FROM skills_fts WHERE skills_fts MATCH ?').get(match) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

describe('sqlite store: schema version 3 re-indexes CJK text of a version 2 database', () => {
  it('is part of the current schema', () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(3);
  });

  it('finds skills stored before the upgrade by a CJK sub-phrase, Latin results unchanged', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    for (const skill of SKILLS) await temp.store.putSkill(makeWrite(skill));
    const latinBefore = await temp.store.search('acme', [USER_ROOT], 'search web', { limit: 10 });
    await temp.store.close();

    const file = path.join(temp.dataDir, 'skillport.db');
    downgradeToV2(file);
    // The version 2 index: whole runs are single tokens, bigrams are not there.
    expect(ftsCount(file, '"检查小红书登录状态"')).toBe(1);
    expect(ftsCount(file, '"小红 红书"')).toBe(0);

    const store = temp.reopen();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();

    const table = [
      { query: '小红书', name: 'check-login-status' },
      { query: '登录状态', name: 'check-login-status' },
      { query: '資料庫', name: 'db-query-tw' },
      { query: '新規作成', name: 'command-creator-ja' },
      { query: '로그인', name: 'login-ko' },
    ];
    for (const { query, name } of table) {
      const hits = await store.search('acme', [USER_ROOT], query, { limit: 10 });
      expect(
        hits.map((hit) => hit.skill.name),
        query,
      ).toEqual([name]);
      expect(hits[0]?.matchedFields, query).toEqual(['description']);
    }
    const latinAfter = await store.search('acme', [USER_ROOT], 'search web', { limit: 10 });
    expect(latinAfter.map((hit) => [hit.skill.name, hit.score, hit.matchedFields])).toEqual(
      latinBefore.map((hit) => [hit.skill.name, hit.score, hit.matchedFields]),
    );
    // Every skill is in the index once: a Latin word common to all default bodies finds all of them.
    const all = await store.search('acme', [USER_ROOT], 'does things', { limit: 50 });
    expect(all).toHaveLength(SKILLS.length);
  });

  // Version 20 indexes every skill again too (the index without its prefix index).
  it.each([
    { version: 2, rebuilt: true },
    { version: 19, rebuilt: true },
    { version: 20, rebuilt: false },
  ])('an open at version $version rebuilds the index: $rebuilt', async ({ version, rebuilt }) => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.putSkill(makeWrite(SKILLS[0] ?? { name: 'x' }));
    await temp.store.close();
    const file = path.join(temp.dataDir, 'skillport.db');
    downgradeToV2(file, version);
    await temp.reopen().close();
    expect(ftsCount(file, '"小红 红书"')).toBe(rebuilt ? 1 : 0);
    expect(ftsCount(file, '"检查小红书登录状态"')).toBe(rebuilt ? 0 : 1);
  });
});
