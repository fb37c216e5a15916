import type { Connection } from '../store/sqlite/connection.js';

/**
 * One incremental merge step of the FTS5 index (`'merge'` command with a negative budget: segments
 * of every level are merged, as `'optimize'` would, but at most about `maxPages` pages at a time so
 * the event loop is never held for long). Each write leaves a small segment and FTS5 only merges
 * them four at a time, so a registry filled one skill at a time keeps many segments; every query
 * term is looked up in each, which made `find` ~1.6× slower at 10 000 skills than on a merged index.
 *
 * @param conn - the connection (call inside a write transaction)
 * @param maxPages - work budget in pages (≥ 1)
 * @returns true when the step merged something (more may remain), false when nothing was left to merge
 * @see https://sqlite.org/fts5.html#the_merge_command (a no-op changes `total_changes()` by < 2)
 */
export function mergeSearchIndex(conn: Connection, maxPages: number): boolean {
  const before = totalChanges(conn);
  conn
    .stmt("INSERT INTO skills_fts (skills_fts, rank) VALUES ('merge', ?)")
    .run(-Math.max(1, Math.floor(maxPages)));
  return totalChanges(conn) - before >= 2;
}

function totalChanges(conn: Connection): number {
  return (conn.stmt('SELECT total_changes() AS n').get() as { n: number }).n;
}
