import type Database from 'better-sqlite3';
import { indexedSearchDocument } from './cjk-segment.js';

/** Skills read per step of a rebuild: bounds memory (bodies are up to ~100 KB indexed each). */
const REBUILD_BATCH = 256;

interface IndexSource {
  seq: number;
  name: string;
  tags: string;
  description: string;
  overview: string | null;
  body: string;
}

/**
 * Empties the search index and indexes every stored skill again, as `writeSearchRow` would now
 * (used by schema migrations when the indexed text changes, e.g. CJK segmentation in version 3).
 * Runs inside the caller's transaction; reads the skills in `seq` order, {@link REBUILD_BATCH} at a
 * time, then merges the index into one segment (`'optimize'`), as a rebuild leaves many.
 *
 * @param db - an open connection, inside a write transaction
 * @returns the number of skills indexed
 * @throws SqliteError when the index table is missing or a row cannot be written
 * @example
 * ```ts
 * db.transaction(() => rebuildSearchIndex(db)).immediate(); // 10 000 skills: a few seconds
 * ```
 */
export function rebuildSearchIndex(db: Database.Database): number {
  db.exec("INSERT INTO skills_fts (skills_fts) VALUES ('delete-all')");
  // Per-term lists (schema version 15) describe the old rows and their origins (FTS5 numbers the new
  // rows afresh): built again from scratch.
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_term_lists'").get() !== undefined) {
    db.exec(
      'DELETE FROM search_term_lists; UPDATE search_term_build SET covered = NULL, target = NULL, next_seq = NULL',
    );
  }
  // Their delta segments and merged origin (schema version 17) likewise.
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_term_deltas'").get() !== undefined) {
    db.exec('DELETE FROM search_term_deltas');
  }
  if (
    db.prepare("SELECT 1 FROM pragma_table_info('search_term_build') WHERE name = 'merged'").get() !==
    undefined
  ) {
    db.exec('UPDATE search_term_build SET merged = NULL, delta = 0');
  }
  const page = db.prepare(
    'SELECT seq, name, tags, description, overview, body FROM skills WHERE seq > ? ORDER BY seq LIMIT ?',
  );
  const insert = db.prepare(
    'INSERT INTO skills_fts (rowid, name, tags, description, overview, body) VALUES (?, ?, ?, ?, ?, ?)',
  );
  let after = Number.MIN_SAFE_INTEGER;
  let count = 0;
  for (;;) {
    const rows = page.all(after, REBUILD_BATCH) as IndexSource[];
    for (const row of rows) {
      const doc = indexedSearchDocument(row);
      insert.run(row.seq, doc.name, doc.tags, doc.description, doc.overview, doc.body);
      after = row.seq;
      count++;
    }
    if (rows.length < REBUILD_BATCH) break;
  }
  db.exec("INSERT INTO skills_fts (skills_fts) VALUES ('optimize')");
  return count;
}
