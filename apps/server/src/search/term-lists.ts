import Database from 'better-sqlite3';
import type { Connection } from '../store/sqlite/connection.js';
import { FIELD_WEIGHTS, type SearchField } from './score.js';

/**
 * Per-term match lists of the SQLite search index (table `search_term_lists`, schema version 13):
 * for each index term (a stem), the skills holding it (seqs ascending, int32 little-endian) and the
 * term's weighted instance count in each (float32 little-endian: the sum of `FIELD_WEIGHTS` over its
 * instances, what FTS5's `bm25()` multiplies in). A cold query phrase is then scored in JavaScript
 * from its terms' lists (~50–70 ns a match) instead of by FTS5's `bm25()` (~0.5–1 µs a match), with
 * the same arithmetic, so the same bits (see `PhraseScores` in `sqlite-search.ts`).
 *
 * The lists are built off the write path, a slice of terms per transaction while the server is idle
 * (after the index is merged), in sweeps over the whole vocabulary read from FTS5's `instance`
 * vocabulary (which leaves deleted rows out). A sweep records the highest FTS5 row origin at its
 * start (`sweep_origin`); once complete that origin becomes the `covered` watermark. Every list
 * built in that sweep holds each search row with an origin at or below the watermark exactly as the
 * index does; rows written after it (a higher origin: added or replaced skills) are scored through
 * FTS5 by the reader, and rows deleted since are left out through the index's row lengths. A new
 * sweep starts when rows were written after the watermark. Before the first sweep completes, only
 * terms the running sweep already passed are read from lists; others are ranked as before.
 */

/** The build's state: `covered` (watermark of the last complete sweep), the running sweep's origin and last term. */
const STATE = 'SELECT covered, sweep_origin AS sweepOrigin, after FROM search_term_build WHERE id = 1';
/** The highest origin FTS5 gave a search row still in the index. */
const MAX_ORIGIN = 'SELECT coalesce(max(origin), 0) FROM skills_fts_docsize';
const INSTANCES_AFTER = 'SELECT term, doc, col FROM temp.skills_fts_instances WHERE term > ?';
const DELETE_RANGE = 'DELETE FROM search_term_lists WHERE term > ? AND term <= ?';
const DELETE_AFTER = 'DELETE FROM search_term_lists WHERE term > ?';
const INSERT_LIST = 'INSERT INTO search_term_lists (term, seqs, freqs) VALUES (?, ?, ?)';
const SAVE_PROGRESS = 'UPDATE search_term_build SET sweep_origin = ?, after = ? WHERE id = 1';
const SAVE_COVERED =
  'UPDATE search_term_build SET covered = ?, sweep_origin = NULL, after = NULL WHERE id = 1';
const LIST_OF = 'SELECT seqs, freqs FROM search_term_lists WHERE term = ?';
const LISTS_FROM = 'SELECT seqs, freqs FROM search_term_lists WHERE term >= ? AND term < ?';

/** Rowids above this are left out of the lists (the reader does not use lists for such an index). */
const MAX_LISTED_ROWID = 1 << 22;

/** The state of the list build, as stored. */
export interface TermListState {
  /** Origin watermark of the last complete sweep; null: no sweep completed yet. */
  covered: number | null;
  /** Origin watermark of the running sweep; null: none running. */
  sweepOrigin: number | null;
  /** Last term the running sweep built ('' at its start); null: none running. */
  after: string | null;
}

/** The build state; null when the schema has no lists (an older file opened read-only). */
export function readTermListState(conn: Connection): TermListState | null {
  try {
    return (conn.stmt(STATE).get() as TermListState | undefined) ?? null;
  } catch {
    return null;
  }
}

/**
 * The origin watermark under which the lists of the terms `from` (inclusive) up to `upper`
 * (exclusive; `undefined`: the term `from` alone) are exact for every row at or below it; null when
 * some of those terms are not built yet.
 */
export function watermarkFor(state: TermListState, from: string, upper: string | undefined): number | null {
  // Terms up to `after` are built in the running sweep (every term below `upper` when it is at most `after`).
  const last = upper ?? from;
  if (state.after !== null && state.sweepOrigin !== null && last <= state.after) return state.sweepOrigin;
  return state.covered;
}

function instancesTable(conn: Connection): void {
  conn.db.exec(
    "CREATE VIRTUAL TABLE IF NOT EXISTS temp.skills_fts_instances USING fts5vocab(main, 'skills_fts', 'instance')",
  );
}

function weightOf(column: string): number {
  const weight = (FIELD_WEIGHTS as Record<string, number>)[column as SearchField];
  if (weight === undefined) throw new Error(`search index column ${column} has no field weight`);
  return weight;
}

/**
 * One step of the list build (call inside a write transaction): the lists of the next terms, about
 * `maxInstances` index instances' worth (whole terms), replacing those stored for the same range.
 *
 * @param conn - the write connection
 * @param maxInstances - work budget (≥ 1): instances read from FTS5's vocabulary (~1 µs each)
 * @returns true when it built something (call again), false when the lists cover the index
 */
export function buildTermListsStep(conn: Connection, maxInstances: number): boolean {
  const state = readTermListState(conn);
  if (state === null) return false;
  const origin = conn.stmt(MAX_ORIGIN).pluck(true).get() as number;
  let after = state.after;
  let sweep = state.sweepOrigin;
  if (after === null || sweep === null) {
    if (state.covered !== null && state.covered >= origin) return false;
    after = '';
    sweep = origin;
  }
  instancesTable(conn);
  const budget = Math.max(1, Math.floor(maxInstances));
  const insert = conn.stmt(INSERT_LIST);
  const built: Array<{ term: string; seqs: number[]; freqs: number[] }> = [];
  let term: string | null = null;
  let seqs: number[] = [];
  let freqs: number[] = [];
  let scanned = 0;
  let finished = true;
  const flush = () => {
    if (term !== null && seqs.length > 0) built.push({ term, seqs, freqs });
  };
  const rows = conn.stmt(INSTANCES_AFTER).raw(true).iterate(after) as IterableIterator<
    [string, number, string]
  >;
  for (const [t, doc, column] of rows) {
    if (t !== term) {
      if (scanned >= budget && term !== null) {
        finished = false;
        break;
      }
      flush();
      term = t;
      seqs = [];
      freqs = [];
    }
    scanned++;
    if (doc < 0 || doc > MAX_LISTED_ROWID) continue;
    const weight = weightOf(column);
    if (seqs.length > 0 && seqs[seqs.length - 1] === doc)
      freqs[freqs.length - 1] = (freqs[freqs.length - 1] as number) + weight;
    else {
      seqs.push(doc);
      freqs.push(weight);
    }
  }
  flush();
  if (finished) conn.stmt(DELETE_AFTER).run(after);
  else conn.stmt(DELETE_RANGE).run(after, term);
  for (const list of built) {
    const seqBytes = Buffer.from(Int32Array.from(list.seqs).buffer);
    const freqBytes = Buffer.from(Float32Array.from(list.freqs).buffer);
    insert.run(list.term, seqBytes, freqBytes);
  }
  if (finished) conn.stmt(SAVE_COVERED).run(sweep);
  else conn.stmt(SAVE_PROGRESS).run(sweep, term);
  return true;
}

/** Stems kept by {@link stemsOf} (query words repeat across queries). */
const STEM_CACHE = 8192;
const stems = new Map<string, string[]>();
let stemmer: { insert: Database.Statement; read: Database.Statement; clear: Database.Statement } | null =
  null;

/**
 * The index terms of a query word through the index's own tokenizer (an in-memory FTS5 table with
 * the same `tokenize` option, so the same stems; its own database, so the search connection's
 * `total_changes()` does not move): usually one.
 */
export function stemsOf(word: string): string[] {
  const hit = stems.get(word);
  if (hit !== undefined) return hit;
  if (stemmer === null) {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE stem USING fts5(t, tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE stem_terms USING fts5vocab(stem, 'instance');`);
    stemmer = {
      insert: db.prepare('INSERT INTO stem (rowid, t) VALUES (1, ?)'),
      read: db.prepare('SELECT term FROM stem_terms ORDER BY offset').pluck(true),
      clear: db.prepare('DELETE FROM stem'),
    };
  }
  stemmer.insert.run(word);
  let terms: string[];
  try {
    terms = stemmer.read.all() as string[];
  } finally {
    stemmer.clear.run();
  }
  if (stems.size >= STEM_CACHE) stems.clear();
  stems.set(word, terms);
  return terms;
}

/** The first string after every string starting with `prefix` (its last UTF-16 unit plus one). */
export function prefixUpper(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

function int32s(bytes: Uint8Array): Int32Array {
  // Copied: a blob's bytes need not be aligned for a typed array view.
  return new Int32Array(new Uint8Array(bytes).buffer);
}

function float32s(bytes: Uint8Array): Float32Array {
  return new Float32Array(new Uint8Array(bytes).buffer);
}

/**
 * The stored lists of a term (or of every term in `[term, upper)`), united: seqs ascending and the
 * summed weighted instance count in each, leaving out skills `keep` rejects.
 */
export function unitedLists(
  conn: Connection,
  term: string,
  upper: string | undefined,
  keep: (seq: number) => boolean,
): { seqs: Int32Array; freqs: Float32Array } {
  const rows = (
    upper === undefined
      ? conn.stmt(LIST_OF).raw(true).all(term)
      : conn.stmt(LISTS_FROM).raw(true).all(term, upper)
  ) as Array<[Uint8Array, Uint8Array]>;
  if (rows.length === 1) {
    const [seqBytes, freqBytes] = rows[0] as [Uint8Array, Uint8Array];
    const seqs = int32s(seqBytes);
    const freqs = float32s(freqBytes);
    let n = 0;
    for (let i = 0; i < seqs.length; i++) {
      const seq = seqs[i] as number;
      if (!keep(seq)) continue;
      seqs[n] = seq;
      freqs[n] = freqs[i] as number;
      n++;
    }
    return { seqs: seqs.slice(0, n), freqs: freqs.slice(0, n) };
  }
  const sums = new Map<number, number>();
  for (const [seqBytes, freqBytes] of rows) {
    const seqs = int32s(seqBytes);
    const freqs = float32s(freqBytes);
    for (let i = 0; i < seqs.length; i++) {
      const seq = seqs[i] as number;
      if (keep(seq)) sums.set(seq, (sums.get(seq) ?? 0) + (freqs[i] as number));
    }
  }
  const seqs = Int32Array.from(sums.keys()).sort();
  const freqs = new Float32Array(seqs.length);
  for (let i = 0; i < seqs.length; i++) freqs[i] = sums.get(seqs[i] as number) as number;
  return { seqs, freqs };
}
