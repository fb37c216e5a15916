/**
 * The search index's merge settings during writes (schema version 18): FTS5 merges 32 segments of a
 * level at a time instead of its default 4, so each indexed entry is rewritten about half as often
 * while skills are added; the answers do not depend on how the index is split into segments.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { SEARCH_INDEX_AUTOMERGE, SEARCH_INDEX_CRISISMERGE } from '../../src/store/sqlite/migrations.js';
import type { Store } from '../../src/store/types.js';
import { downgradeSchema, makeWrite, setFtsDefaultMerges, USER_ROOT } from './helpers.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-merge-settings-'));
  dirs.push(dir);
  return dir;
}

/** The index's stored merge settings (none stored: FTS5's defaults, automerge 4 and crisismerge 16). */
function mergeSettings(file: string): Record<string, unknown> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT k, v FROM skills_fts_config WHERE k IN ('automerge', 'crisismerge') ORDER BY k")
      .all() as Array<{ k: string; v: unknown }>;
    return Object.fromEntries(rows.map((r) => [r.k, r.v]));
  } finally {
    db.close();
  }
}

const WORDS = ['pdf', 'docker', 'search', 'summarize', 'invoice', 'deploy', 'review', 'calendar', 'slides'];
const QUERIES = ['pdf', 'docker search', 'summ', 'invoice deploy review', 'skill-7', 'calendar slides'];

/** One skill per commit, so each leaves a segment of its own. */
async function fill(store: Store, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const words = [WORDS[i % WORDS.length], WORDS[(i * 5 + 2) % WORDS.length], WORDS[(i * 7 + 3) % 9]];
    await store.putSkill(
      makeWrite({
        name: `skill-${i}`,
        description: `Works with ${words.slice(0, 2).join(' and ')}`,
        body: `# ${words[2]}\n\n${words.join(' ')} ${'notes '.repeat(i % 5)}\n`,
      }),
    );
  }
}

async function answers(store: Store) {
  return Promise.all(
    QUERIES.map(async (q) =>
      (await store.search('acme', [USER_ROOT], q, { limit: 20 })).map((h) => [h.skill.name, h.score]),
    ),
  );
}

describe('sqlite store: search index merge settings', () => {
  it('merges 32 segments of a level at a time during writes, forced at 64', async () => {
    const dir = tempDir();
    const store = createSqliteStore({ dataDir: dir });
    await store.close();
    expect(SEARCH_INDEX_AUTOMERGE).toBe(32);
    expect(SEARCH_INDEX_CRISISMERGE).toBe(64);
    expect(mergeSettings(path.join(dir, 'skillport.db'))).toEqual({ automerge: 32, crisismerge: 64 });
  });

  it('sets them on a database of the schema before (version 17), keeping its skills findable', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'skillport.db');
    let store = createSqliteStore({ dataDir: dir });
    await fill(store, 12);
    const before = await answers(store);
    await store.close();
    const db = new Database(file);
    downgradeSchema(db, 17);
    db.close();
    expect(mergeSettings(file)).toEqual({ automerge: 4, crisismerge: 16 });

    store = createSqliteStore({ dataDir: dir });
    try {
      expect(mergeSettings(file)).toEqual({ automerge: 32, crisismerge: 64 });
      expect(await answers(store)).toEqual(before);
    } finally {
      await store.close();
    }
  });

  it('answers as an index merged with FTS5 defaults, before and after the idle merge', async () => {
    const wide = createSqliteStore({ dataDir: tempDir() });
    const defaultsDir = tempDir();
    const narrow = createSqliteStore({ dataDir: defaultsDir });
    try {
      // The second store's index back on FTS5's defaults (4 and 16).
      const db = new Database(path.join(defaultsDir, 'skillport.db'));
      setFtsDefaultMerges(db);
      db.close();
      await narrow.close();
      const reopened = createSqliteStore({ dataDir: defaultsDir });
      // Reopening migrates nothing (the version is current): the defaults stay.
      expect(mergeSettings(path.join(defaultsDir, 'skillport.db'))).toEqual({
        automerge: 4,
        crisismerge: 16,
      });
      try {
        await fill(wide, 80);
        await fill(reopened, 80);
        const expected = await answers(reopened);
        expect(expected.every((hits) => hits.length > 0)).toBe(true);
        expect(await answers(wide)).toEqual(expected);
        while (await wide.compactSearchIndex(8));
        expect(await answers(wide)).toEqual(expected);
      } finally {
        await reopened.close();
      }
    } finally {
      await wide.close();
    }
  });
});
