import Database from 'better-sqlite3';
import type { Connection } from '../store/sqlite/connection.js';
import { indexedSearchDocument } from './cjk-segment.js';
import { FIELD_WEIGHTS, type SearchField } from './score.js';

/**
 * Per-term match lists of the SQLite search index (table `search_term_lists`, schema version 15),
 * so that a cold query word is scored in JavaScript (~50–70 ns a match) instead of by FTS5's
 * `bm25()` (~0.5–1 µs a match), with the same arithmetic, so the same bits (see `PhraseScores` in
 * `sqlite-search.ts`).
 *
 * A term's list is stored in parts, one per chunk of {@link TERM_LIST_CHUNK} skill seqs: a part
 * holds the seqs of its chunk whose search row holds the term (ascending, int32 little-endian), the
 * term's weighted instance count in each (float32 little-endian: the sum of `FIELD_WEIGHTS` over
 * its instances, what `bm25()` multiplies in) and the FTS5 row origin up to which it is exact.
 *
 * Rules (origins: FTS5 gives each search row written a higher one, kept in `skills_fts_docsize`):
 * - an entry of a part counts only while its row is live and the row's origin is at most the
 *   part's origin (a row written later holds other text: its old entries are stale);
 * - `covered` (in `search_term_build`): every live row with an origin at most `covered` has an
 *   entry, in the part of each term its text holds, written at or after its origin. Rows written
 *   after `covered` are scored through FTS5 by the reader; null: the lists are not usable yet.
 *
 * Delta segments (table `search_term_deltas`, schema version 17): the entries of the rows a short
 * pass listed, one segment per pass keyed by the pass's origin (its rows are appended: a pass over
 * a few rows writes a few pages, where rewriting the part of each of their terms wrote a page per
 * term). `merged` (in `search_term_build`) is the origin up to which the parts alone are complete.
 * - an entry of a segment counts only while its row is live, the row's origin is at most the
 *   segment's origin and `covered`, and the row's origin is above the origin of the part of the
 *   same term and chunk (if any): a part rewritten after the row already holds it;
 * - segments at or below `merged` are left over from a merge and are not read.
 *
 * Upkeep runs in passes, a bounded step at a time (see {@link TermListBuilder}), up to the highest
 * origin at the pass's start (`target`):
 * - a delta pass (at most {@link DELTA_MAX_ROWS} rows written after `covered`, fewer than
 *   {@link MAX_SEGMENTS} segments) tokenizes the rows and writes their entries as one segment at
 *   `target`; then `covered` becomes `target`;
 * - otherwise a merge pass takes the rows written after `merged` (all rows on the first pass, or
 *   after the index was rebuilt), chunk by chunk in seq order, tokenizes their text as the index did
 *   (the same document, the same tokenizer, in a private in-memory FTS5 table) and rewrites only
 *   the parts of the terms they hold in their chunk; then `covered` and `merged` become `target`,
 *   and the segments it folded in are deleted by later steps.
 * A trickle of writes costs a segment per pass and, once per {@link MAX_SEGMENTS} passes, the parts
 * of the written rows' terms for all of them at once; never a sweep of the vocabulary.
 */

/** Skill seqs per part of a term's list: bounds a part's rewrite (≤ 8 KB a part). */
export const TERM_LIST_CHUNK = 1024;

/** Rows written after `covered` that a delta pass takes at most (more: a merge pass). */
export const DELTA_MAX_ROWS = 256;

/**
 * Delta segments above `merged` at which the next pass merges them into the parts (each costs a
 * reader one more look per term).
 */
export const MAX_SEGMENTS = 16;

/** The build's state. */
const STATE = `SELECT covered, target, next_seq AS nextSeq, merged, delta = 1 AS delta FROM search_term_build
  WHERE id = 1`;
/**
 * The highest origin of the search rows, and the rows written after an origin (through the index
 * `skills_fts_docsize_origin`, schema version 17).
 */
const MAX_ORIGIN = 'SELECT coalesce(max(origin), -1) FROM skills_fts_docsize';
const WRITTEN_AFTER = 'SELECT id FROM skills_fts_docsize WHERE origin > ? ORDER BY origin LIMIT ?';
/** The first row after a seq, below a bound, written in a pass's origin range. */
const NEXT_WRITTEN = `SELECT id FROM skills_fts_docsize WHERE id >= ? AND id < ? AND origin > ? AND origin <= ?
  ORDER BY id LIMIT 1`;
const MAX_ID = 'SELECT coalesce(max(id), -1) FROM skills_fts_docsize';
/** The search rows of a chunk with their origins. */
const CHUNK_ROWS = 'SELECT id, origin FROM skills_fts_docsize WHERE id >= ? AND id < ?';
/** A row's indexed text, with its current origin. */
const ROW_TEXT = `SELECT s.name, s.tags, s.description, s.overview, s.body, d.origin FROM skills s
  JOIN skills_fts_docsize d ON d.id = s.seq WHERE s.seq = ?`;
const PART = 'SELECT origin, seqs, freqs FROM search_term_lists WHERE term = ? AND chunk = ?';
const PUT_PART =
  'INSERT OR REPLACE INTO search_term_lists (term, chunk, origin, seqs, freqs) VALUES (?, ?, ?, ?, ?)';
const START_PASS = 'UPDATE search_term_build SET target = ?, next_seq = 0, delta = ? WHERE id = 1';
const SAVE_PROGRESS = 'UPDATE search_term_build SET next_seq = ? WHERE id = 1';
const END_PASS = `UPDATE search_term_build SET covered = target, merged = target, target = NULL, next_seq = NULL
  WHERE id = 1`;
const END_DELTA_PASS = `UPDATE search_term_build SET covered = target, target = NULL, next_seq = NULL, delta = 0
  WHERE id = 1`;
const ABANDON_PASS = 'UPDATE search_term_build SET target = NULL, next_seq = NULL, delta = 0 WHERE id = 1';
/**
 * The parts of a term (or of every term in a range), in (term, chunk) order, as one row: each
 * part's origin and byte lengths as text (`origin seqBytes freqBytes origin …`), then the parts'
 * seqs and the parts' counts, each concatenated into one blob. A row per part cost a buffer per
 * blob (~4 µs a part, most of a find's CPU); one row costs ~1 µs a part. The blobs go through
 * `group_concat` as text, which keeps their bytes only in a UTF-8 database ({@link partsSql}).
 */
function partsQuery(where: string, order: string, blobs: (column: string) => string): string {
  return `SELECT group_concat(origin || ' ' || length(seqs) || ' ' || length(freqs), ' '), ${blobs('seqs')},
  ${blobs('freqs')} FROM (SELECT origin, seqs, freqs FROM search_term_lists WHERE ${where} ORDER BY ${order})`;
}
const asText = (column: string) => `CAST(group_concat(${column}, '') AS BLOB)`;
const asHex = (column: string) => `unhex(group_concat(hex(${column}), ''))`;
const PARTS = {
  text: {
    one: partsQuery('term = ?', 'chunk', asText),
    range: partsQuery('term >= ? AND term < ?', 'term, chunk', asText),
  },
  hex: {
    one: partsQuery('term = ?', 'chunk', asHex),
    range: partsQuery('term >= ? AND term < ?', 'term, chunk', asHex),
  },
};
/** The term, chunk and origin of each part (to place the delta segments' entries). */
const PART_ORIGINS_OF = 'SELECT term, chunk, origin FROM search_term_lists WHERE term = ?';
const PART_ORIGINS_FROM = 'SELECT term, chunk, origin FROM search_term_lists WHERE term >= ? AND term < ?';
/** The first delta segment above an origin. */
const NEXT_SEGMENT = 'SELECT origin FROM search_term_deltas WHERE origin > ? ORDER BY origin LIMIT 1';
const FIRST_SEGMENT = 'SELECT origin FROM search_term_deltas ORDER BY origin LIMIT 1';
const PUT_DELTA = 'INSERT OR REPLACE INTO search_term_deltas (origin, term, seqs, freqs) VALUES (?, ?, ?, ?)';
const DROP_SEGMENT = 'DELETE FROM search_term_deltas WHERE origin = ?';
/** A bounded batch of the rows of segments at or below `merged` (folded into the parts). */
const DROP_MERGED = `DELETE FROM search_term_deltas WHERE (origin, term) IN
  (SELECT origin, term FROM search_term_deltas WHERE origin <= ? ORDER BY origin, term LIMIT ?)`;
/** A term's rows in the segments whose origins are given (a JSON array): one look per segment. */
const DELTA_OF = `SELECT origin, term, seqs, freqs FROM search_term_deltas
  WHERE origin IN (SELECT value FROM json_each(?)) AND term = ?`;
const DELTAS_FROM = `SELECT origin, term, seqs, freqs FROM search_term_deltas
  WHERE origin IN (SELECT value FROM json_each(?)) AND term >= ? AND term < ?`;
/** Rows of merged segments deleted per unit of work. */
const DROP_BATCH = 256;

/** Ids scanned per look for the next written row (a bounded read of `skills_fts_docsize`). */
const SCAN_SPAN = 8192;

/**
 * Estimated work of rewriting one part of a term's list, µs, before its entries (see `COST.part`):
 * a step of budget b rewrites at most ⌈b / TERM_LIST_PART_COST⌉ parts.
 */
export const TERM_LIST_PART_COST = 50;

/**
 * Work estimates of a step, in µs of CPU of this machine class: a step stops once their sum reaches
 * its budget (and after its time budget), between units. (They were ~3× the CPU they stand for, so
 * a step of the store's 4,096 µs took ~1.3 ms: a first build at 10,000 skills committed ~10,800
 * times instead of ~4,000, ~10% more CPU per skill.)
 */
const COST = {
  /** Looking through {@link SCAN_SPAN} ids for a written row. */
  scan: 130,
  /** Reading a chunk's rows and origins. */
  chunk: 50,
  /** Reading a row's text. */
  row: 33,
  /** Tokenizing a piece of a row: fixed part, and per character. */
  piece: 17,
  perChar: 0.033,
  /** Reading {@link TERMS_PER_UNIT} terms of a row. */
  terms: 270,
  /**
   * Rewriting one part: fixed part (~20 µs in the step, and ~30 µs of the commit, which writes the
   * B-tree page the part dirtied: a first build's parts of one chunk lie on as many pages as
   * terms), and per entry. (At 20 a step of ~200 parts took ~3 ms, then ~6 ms to commit.)
   */
  part: TERM_LIST_PART_COST,
  perEntry: 0.033,
  /** Writing one term's entries of a delta segment (appended). */
  delta: 3,
  /** Deleting {@link DROP_BATCH} rows of merged segments. */
  drop: 200,
} as const;

/** The state of the list build, as stored. */
export interface TermListState {
  /** Origin up to which every live row is in the lists; null: not usable yet. */
  covered: number | null;
  /** Origin the running pass brings `covered` to; null: no pass running. */
  target: number | null;
  /** Seq from which the running pass goes on (rows below it are done); null: no pass running. */
  nextSeq: number | null;
  /**
   * Origin up to which the parts alone hold every live row (rows above it, up to `covered`, are in
   * delta segments); null: not built yet.
   */
  merged: number | null;
  /** Whether the running pass is a delta pass (it writes a segment at `target`). */
  delta: boolean;
}

/** The build state; null when the schema has no lists (an older file opened read-only). */
export function readTermListState(conn: Connection): TermListState | null {
  let row: (Omit<TermListState, 'delta'> & { delta: number }) | undefined;
  try {
    row = conn.stmt(STATE).get() as typeof row;
  } catch {
    return null;
  }
  return row === undefined ? null : { ...row, delta: row.delta === 1 };
}

/**
 * The origins of the delta segments above `merged` up to `covered` (ascending, at most
 * `MAX_SEGMENTS + 1`: a merge pass starts before more are written), one index look each.
 */
export function segmentsOf(conn: Connection, merged: number, covered: number): number[] {
  const origins: number[] = [];
  const next = conn.stmt(NEXT_SEGMENT).pluck(true);
  for (let after = merged; ; ) {
    const origin = next.get(after) as number | undefined;
    if (origin === undefined || origin > covered) return origins;
    origins.push(origin);
    after = origin;
  }
}

/** Per connection: the segments last read, as a JSON array, with the origins they were read at. */
const segmentsRead = new WeakMap<Connection, { merged: number; covered: number; json: string }>();

/**
 * {@link segmentsOf} as a JSON array, kept per connection while `merged` and `covered` stay (the
 * segments in between change only with them: a delta pass writes above `covered` and then moves
 * it, a merge moves `merged`, an index rebuild empties `covered`).
 */
function segmentsJson(conn: Connection, merged: number, covered: number): string {
  const kept = segmentsRead.get(conn);
  if (kept !== undefined && kept.merged === merged && kept.covered === covered) return kept.json;
  const json = JSON.stringify(segmentsOf(conn, merged, covered));
  segmentsRead.set(conn, { merged, covered, json });
  return json;
}

function weightOf(column: string): number {
  const weight = (FIELD_WEIGHTS as Record<string, number>)[column as SearchField];
  if (weight === undefined) throw new Error(`search index column ${column} has no field weight`);
  return weight;
}

/** Characters of a body tokenized per unit of work (a body is cut at spaces, which no token spans). */
const PIECE_CHARS = 8192;
/** Term and column rows of the tokenizer's vocabulary read per unit of work. */
const TERMS_PER_UNIT = 400;

/** A row's indexed text in pieces: the first with every column, the others more of the body. */
type Piece = [name: string, tags: string, description: string, overview: string, body: string];

function piecesOf(doc: {
  name: string;
  tags: string;
  description: string;
  overview: string;
  body: string;
}): Piece[] {
  const { body } = doc;
  const bodies: string[] = [];
  let start = 0;
  while (body.length - start > PIECE_CHARS) {
    const cut = body.indexOf(' ', start + PIECE_CHARS);
    if (cut < 0) break;
    bodies.push(body.slice(start, cut));
    start = cut;
  }
  bodies.push(body.slice(start));
  return bodies.map(
    (piece, i): Piece =>
      i === 0 ? [doc.name, doc.tags, doc.description, doc.overview, piece] : ['', '', '', '', piece],
  );
}

/**
 * The entries of the rows a pass tokenized (term, seq, weighted instance count), in typed arrays
 * (16 bytes an entry, no object or array per term: a chunk of 1,024 skills holds ~300,000 entries),
 * each term's chained in the order added (seqs ascending): reading a term's entries costs its own
 * entries, never a pass over the whole table (grouping ~300,000 entries at once took ~3–9 ms, one
 * unit of work longer than a step's budget).
 */
class EntryTable {
  /** Each term's id (ids in first-seen order) and each id's term. */
  private readonly ids = new Map<string, number>();
  readonly terms: string[] = [];
  /** Each term's first and last entry (index by term id). */
  private heads = new Int32Array(1024);
  private tails = new Int32Array(1024);
  /** Each entry's next entry of the same term (-1: its last), seq and weighted count. */
  private nexts = new Int32Array(4096);
  private seqs = new Int32Array(4096);
  private freqs = new Float64Array(4096);
  private n = 0;

  /** Adds `weight` to the entry of `term` in row `seq` (a row's terms are added row after row). */
  add(term: string, seq: number, weight: number): void {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.ids.set(term, id);
      this.terms.push(term);
      if (id === this.heads.length) {
        const heads = new Int32Array(id * 2);
        heads.set(this.heads);
        this.heads = heads;
        const tails = new Int32Array(id * 2);
        tails.set(this.tails);
        this.tails = tails;
      }
      this.heads[id] = -1;
    } else {
      const last = this.tails[id] as number;
      if (this.seqs[last] === seq) {
        this.freqs[last] = (this.freqs[last] as number) + weight;
        return;
      }
    }
    if (this.n === this.seqs.length) {
      const size = this.n * 2;
      const nexts = new Int32Array(size);
      nexts.set(this.nexts);
      this.nexts = nexts;
      const seqs = new Int32Array(size);
      seqs.set(this.seqs);
      this.seqs = seqs;
      const freqs = new Float64Array(size);
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    const at = this.n++;
    this.nexts[at] = -1;
    this.seqs[at] = seq;
    this.freqs[at] = weight;
    if (this.heads[id] === -1) this.heads[id] = at;
    else this.nexts[this.tails[id] as number] = at;
    this.tails[id] = at;
  }

  /**
   * The entries of the term of id `id`, seqs ascending (rows are added in seq order), as the bytes
   * a part stores (int32 and float32 little-endian).
   */
  entriesOf(id: number): { seqs: Int32Array; freqs: Float32Array } {
    let count = 0;
    for (let i = this.heads[id] as number; i !== -1; i = this.nexts[i] as number) count++;
    const seqs = new Int32Array(count);
    const freqs = new Float32Array(count);
    let k = 0;
    for (let i = this.heads[id] as number; i !== -1; i = this.nexts[i] as number, k++) {
      seqs[k] = this.seqs[i] as number;
      freqs[k] = this.freqs[i] as number;
    }
    return { seqs, freqs };
  }
}

/**
 * A private in-memory FTS5 table with the search index's columns and tokenizer (its own database:
 * the write connection's `total_changes()` does not move) holding the pieces of one row at a time:
 * its `col` vocabulary then gives each term's instance count per column in that row (read in
 * slices of terms, ~10× faster than reading each instance).
 */
class Tokenizer {
  private readonly db = new Database(':memory:');
  private readonly insert: Database.Statement;
  private readonly columns: Database.Statement;
  private readonly clear: Database.Statement;
  private pieces = 0;

  constructor() {
    this.db.exec(`CREATE VIRTUAL TABLE doc USING fts5(name, tags, description, overview, body,
        content = '', tokenize = 'porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE doc_columns USING fts5vocab(doc, 'col');`);
    this.insert = this.db.prepare(
      'INSERT INTO doc (rowid, name, tags, description, overview, body) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.columns = this.db.prepare('SELECT term, col, cnt FROM doc_columns WHERE term > ?').raw(true);
    this.clear = this.db.prepare("INSERT INTO doc (doc) VALUES ('delete-all')");
  }

  /** Adds a piece of the row being read. */
  add(piece: Piece): void {
    this.insert.run(++this.pieces, ...piece);
  }

  /**
   * Adds the terms after `after` of the row added (its seq: `seq`) to `into` with their weighted
   * instance counts, about `max` term and column rows' worth (whole terms); returns the last term
   * read, or null when every term was read (the row is then forgotten).
   */
  drain(seq: number, into: EntryTable, after: string, max: number): string | null {
    let read = 0;
    let last: string | null = null;
    const rows = this.columns.iterate(after) as IterableIterator<[string, string, number]>;
    for (const [term, column, count] of rows) {
      if (term !== last && read >= max) {
        rows.return?.();
        return last;
      }
      last = term;
      read++;
      into.add(term, seq, weightOf(column) * count);
    }
    this.forget();
    return null;
  }

  /** Forgets the row added. */
  forget(): void {
    if (this.pieces === 0) return;
    this.clear.run();
    this.pieces = 0;
  }

  close(): void {
    this.db.close();
  }
}

/** The running pass's work on one chunk (kept in memory between steps; a restart redoes the chunk). */
interface ChunkWork {
  /** A merge pass's chunk, or the rows of a delta pass (`chunk` -1). */
  delta: boolean;
  target: number;
  /** `covered` at the pass's start (-1: none). */
  after: number;
  chunk: number;
  /** Origin of each seq of the chunk when its work began (index: seq - first seq); -1: no row. */
  origins: Float64Array;
  /** Rows of the chunk written in the pass's range, ascending, and how many were tokenized. */
  rows: number[];
  tokenized: number;
  /** The row being tokenized: its seq, pieces, how many were added, the last term read. */
  row: { seq: number; pieces: Piece[]; added: number; after: string } | null;
  /** Seqs of the chunk whose entries the pass replaces (every row of `rows`). */
  replaced: Uint8Array;
  /** New entries (seqs ascending per term). */
  entries: EntryTable;
  /**
   * Ids in `entries` of the terms whose part (or segment row) is written, in writing order, once
   * every row was tokenized.
   */
  terms: Int32Array | null;
  written: number;
}

/** What a step did, for budgets and tests. */
export interface TermListStepReport {
  /** Estimated work, µs (see {@link COST}). */
  work: number;
  /** Rows tokenized, parts rewritten and terms written to a delta segment. */
  rows: number;
  parts: number;
  deltas: number;
  /** When the step began (`performance.now()` ms, inside its transaction: a lock wait before it is not counted). */
  startedAt: number;
}

/**
 * The upkeep of the per-term lists, in steps (call each inside a write transaction on the write
 * connection). Each step stops once its work estimate reaches its budget or its time budget runs
 * out, between units of work (a row tokenized, a part rewritten, a bounded scan): no unit holds
 * more than one row's text or one part, so a step of a large term or a large chunk is split across
 * steps like any other. The unfinished chunk is kept in memory; a restart redoes it from its first
 * row (the pass's progress is stored per chunk).
 */
export class TermListBuilder {
  private tokenizer: Tokenizer | null = null;
  private work: ChunkWork | null = null;
  /** The last step's figures. */
  last: TermListStepReport = { work: 0, rows: 0, parts: 0, deltas: 0, startedAt: 0 };

  /**
   * @param chunk - seqs per part (default {@link TERM_LIST_CHUNK}); a database's lists must always
   *   be built with the same (parts of other sizes would overlap), so only tests pass another
   */
  constructor(private readonly chunk = TERM_LIST_CHUNK) {}

  /**
   * One step.
   *
   * @param conn - the write connection, inside a write transaction
   * @param budget - work budget, estimated µs (≥ 1); the step also stops after `maxMs`
   * @param maxMs - time budget, ms (default: `budget` µs)
   * @returns true when it did something (call again), false when the lists cover the index
   */
  step(conn: Connection, budget: number, maxMs = budget / 1000): boolean {
    const started = performance.now();
    const report: TermListStepReport = { work: 0, rows: 0, parts: 0, deltas: 0, startedAt: started };
    this.last = report;
    const state = readTermListState(conn);
    if (state === null) return false;
    let { target, nextSeq } = state;
    const spent = () => report.work >= budget || performance.now() - started >= maxMs;
    // Segments a merge folded into the parts: deleted a bounded batch at a time (not read meanwhile).
    if (state.merged !== null && target === null) {
      const first = conn.stmt(FIRST_SEGMENT).pluck(true).get() as number | undefined;
      if (first !== undefined && first <= state.merged) {
        while (!spent()) {
          const dropped = conn.stmt(DROP_MERGED).run(state.merged, DROP_BATCH).changes;
          report.work += COST.drop;
          if (dropped < DROP_BATCH) break;
        }
        return true;
      }
    }
    if (target !== null && state.delta) {
      // A delta pass: its rows are in memory, or it is abandoned (a restart, a failed step) with the
      // segment rows it wrote, and found again.
      const work = this.work;
      if (work === null || !work.delta || work.target !== target || work.after !== (state.covered ?? -1)) {
        this.work = null;
        conn.stmt(DROP_SEGMENT).run(target);
        conn.stmt(ABANDON_PASS).run();
        report.work += COST.drop;
        return true;
      }
    }
    if (target === null || nextSeq === null) {
      // The pass's target: the highest origin now, and the rows written after `covered` (both read
      // through the index on origins, in this step's transaction: exact together).
      this.work = null;
      const max = conn.stmt(MAX_ORIGIN).pluck(true).get() as number;
      report.work += COST.chunk;
      const covered = state.covered;
      if (covered !== null && state.merged !== null) {
        const written = conn
          .stmt(WRITTEN_AFTER)
          .pluck(true)
          .all(covered, DELTA_MAX_ROWS + 1) as number[];
        report.work += COST.chunk;
        if (written.length === 0) return false;
        if (
          written.length <= DELTA_MAX_ROWS &&
          segmentsOf(conn, state.merged, covered).length < MAX_SEGMENTS
        ) {
          target = Math.max(max, covered);
          conn.stmt(START_PASS).run(target, 1);
          this.work = {
            delta: true,
            target,
            after: covered,
            chunk: -1,
            origins: new Float64Array(0),
            rows: written.sort((a, b) => a - b),
            tokenized: 0,
            row: null,
            replaced: new Uint8Array(0),
            entries: new EntryTable(),
            terms: null,
            written: 0,
          };
          return true;
        }
      }
      target = Math.max(max, covered ?? -1);
      nextSeq = 0;
      conn.stmt(START_PASS).run(target, 0);
      state.delta = false;
    }
    if (state.delta) return this.deltaStep(conn, report, spent);
    const after = state.merged ?? -1;
    // A chunk worked on for another pass or place (the index rebuilt, a restart): done again.
    const work = this.work;
    if (
      work !== null &&
      (work.delta || work.target !== target || work.after !== after || work.chunk * this.chunk !== nextSeq)
    )
      this.work = null;
    while (!spent()) {
      if (this.work === null) {
        // The next chunk with rows written in the pass's range, a bounded scan at a time.
        const maxId = conn.stmt(MAX_ID).pluck(true).get() as number;
        if (nextSeq > maxId) {
          conn.stmt(END_PASS).run();
          return true;
        }
        const found = conn
          .stmt(NEXT_WRITTEN)
          .pluck(true)
          .get(nextSeq, nextSeq + SCAN_SPAN, after, target) as number | undefined;
        report.work += COST.scan;
        if (found === undefined) {
          nextSeq += SCAN_SPAN;
          conn.stmt(SAVE_PROGRESS).run(nextSeq);
          continue;
        }
        const chunk = Math.floor(found / this.chunk);
        nextSeq = chunk * this.chunk;
        conn.stmt(SAVE_PROGRESS).run(nextSeq);
        this.work = this.startChunk(conn, target, after, chunk);
        report.work += COST.chunk;
        continue;
      }
      const current = this.work;
      if (current.terms === null) {
        if (current.row !== null || current.tokenized < current.rows.length) {
          this.tokenize(conn, current, report);
          continue;
        }
        current.terms = Int32Array.from(current.entries.terms.keys());
      }
      if (current.written < current.terms.length) {
        this.writePart(conn, current, current.terms[current.written] as number, report);
        current.written++;
        continue;
      }
      // The chunk is done: the pass goes on after it.
      this.work = null;
      nextSeq = (current.chunk + 1) * this.chunk;
      conn.stmt(SAVE_PROGRESS).run(nextSeq);
    }
    return true;
  }

  /** Forgets the chunk in progress and the tokenizer (the next step starts the chunk again). */
  close(): void {
    this.work = null;
    this.tokenizer?.close();
    this.tokenizer = null;
  }

  /** Units of a delta pass until the step is spent: its rows tokenized, then its segment written. */
  private deltaStep(conn: Connection, report: TermListStepReport, spent: () => boolean): boolean {
    const work = this.work as ChunkWork;
    while (!spent()) {
      if (work.terms === null) {
        if (work.row !== null || work.tokenized < work.rows.length) {
          this.tokenize(conn, work, report);
          continue;
        }
        // Appended in about the index's order (UTF-16 order; SQLite's differs only past U+D7FF).
        const names = work.entries.terms;
        work.terms = Int32Array.from(
          [...names.keys()].sort((a, b) => ((names[a] as string) < (names[b] as string) ? -1 : 1)),
        );
      }
      if (work.written < work.terms.length) {
        const id = work.terms[work.written++] as number;
        const { seqs, freqs } = work.entries.entriesOf(id);
        conn
          .stmt(PUT_DELTA)
          .run(
            work.target,
            work.entries.terms[id],
            Buffer.from(seqs.buffer, seqs.byteOffset, seqs.byteLength),
            Buffer.from(freqs.buffer, freqs.byteOffset, freqs.byteLength),
          );
        report.deltas++;
        report.work += COST.delta + COST.perEntry * seqs.length;
        continue;
      }
      conn.stmt(END_DELTA_PASS).run();
      this.work = null;
      return true;
    }
    return true;
  }

  private startChunk(conn: Connection, target: number, after: number, chunk: number): ChunkWork {
    const first = chunk * this.chunk;
    const origins = new Float64Array(this.chunk).fill(-1);
    const rows: number[] = [];
    for (const [id, origin] of conn
      .stmt(CHUNK_ROWS)
      .raw(true)
      .iterate(first, first + this.chunk) as IterableIterator<[number, number]>) {
      origins[id - first] = origin;
      if (origin > after && origin <= target) rows.push(id);
    }
    return {
      delta: false,
      target,
      after,
      chunk,
      origins,
      rows,
      tokenized: 0,
      row: null,
      replaced: new Uint8Array(this.chunk),
      entries: new EntryTable(),
      terms: null,
      written: 0,
    };
  }

  /** One unit of tokenizing: a row's text read and cut, a piece added, or a slice of its terms read. */
  private tokenize(conn: Connection, work: ChunkWork, report: TermListStepReport): void {
    this.tokenizer ??= new Tokenizer();
    const tokenizer = this.tokenizer;
    const row = work.row;
    if (row === null) {
      const seq = work.rows[work.tokenized++] as number;
      if (!work.delta) work.replaced[seq - work.chunk * this.chunk] = 1;
      tokenizer.forget();
      const stored = readRowDocument(conn, seq);
      report.work += COST.row;
      // Deleted, or written again after the pass's target (the next pass takes it): no entries now.
      if (stored === undefined || stored.origin > work.target) return;
      const doc = stored.doc;
      work.row = { seq, pieces: piecesOf(doc), added: 0, after: '' };
      report.rows++;
      return;
    }
    if (row.added < row.pieces.length) {
      const piece = row.pieces[row.added++] as Piece;
      tokenizer.add(piece);
      let chars = 0;
      for (const text of piece) chars += text.length;
      report.work += COST.piece + COST.perChar * chars;
      return;
    }
    const last = tokenizer.drain(row.seq, work.entries, row.after, TERMS_PER_UNIT);
    report.work += COST.terms;
    if (last === null) work.row = null;
    else row.after = last;
  }

  /** Rewrites one part: its entries still exact, and the pass's new ones, at the pass's target. */
  private writePart(conn: Connection, work: ChunkWork, id: number, report: TermListStepReport): void {
    const first = work.chunk * this.chunk;
    const term = work.entries.terms[id] as string;
    const fresh = work.entries.entriesOf(id);
    const old = conn.stmt(PART).raw(true).get(term, work.chunk) as
      | [number, Uint8Array, Uint8Array]
      | undefined;
    const oldSeqs = old === undefined ? new Int32Array(0) : int32s(old[1]);
    const oldFreqs = old === undefined ? new Float32Array(0) : float32s(old[2]);
    const seqs = new Int32Array(oldSeqs.length + fresh.seqs.length);
    const freqs = new Float32Array(seqs.length);
    let n = 0;
    let i = 0;
    if (old !== undefined) {
      const partOrigin = old[0];
      for (let k = 0; k < oldSeqs.length; k++) {
        const seq = oldSeqs[k] as number;
        const at = seq - first;
        const origin = work.origins[at] as number;
        // Kept: a live row not replaced by this pass, not written since the part was.
        if (work.replaced[at] === 1 || origin < 0 || origin > partOrigin) continue;
        for (; i < fresh.seqs.length && (fresh.seqs[i] as number) < seq; i++, n++) {
          seqs[n] = fresh.seqs[i] as number;
          freqs[n] = fresh.freqs[i] as number;
        }
        seqs[n] = seq;
        freqs[n] = oldFreqs[k] as number;
        n++;
      }
    }
    for (; i < fresh.seqs.length; i++, n++) {
      seqs[n] = fresh.seqs[i] as number;
      freqs[n] = fresh.freqs[i] as number;
    }
    conn
      .stmt(PUT_PART)
      .run(
        term,
        work.chunk,
        work.target,
        Buffer.from(seqs.buffer, 0, n * 4),
        Buffer.from(freqs.buffer, 0, n * 4),
      );
    report.parts++;
    report.work += COST.part + COST.perEntry * n;
  }
}

/**
 * One step of `builder` in a write transaction of its own on the write connection `conn` (the
 * store's upkeep). A step that fails (its writes rolled back: a full disk, an I/O error, a failed
 * commit) makes the builder forget its chunk in memory, so the next step redoes that chunk from the
 * progress stored in the database (as after a restart) instead of going on past parts whose rewrite
 * was rolled back, which would leave rows the lists' `covered` origin claims out of their terms'
 * lists. A step that could not begin (`SQLITE_BUSY`: another connection, e.g. a RESTART checkpoint,
 * held the write lock past the busy timeout) changed nothing, so the chunk in memory is kept.
 *
 * @param budget - work budget, estimated µs (see {@link TermListBuilder.step})
 * @param maxMs - time budget, ms (default: `budget` µs)
 * @returns true when the step did something (call again), false when the lists cover the index
 * @throws the step's or the commit's error, after the rollback
 */
export function runTermListStep(
  conn: Connection,
  builder: TermListBuilder,
  budget: number,
  maxMs = budget / 1000,
): boolean {
  let began = false;
  try {
    return conn.db
      .transaction(() => {
        began = true;
        return builder.step(conn, budget, maxMs);
      })
      .immediate();
  } catch (error) {
    if (began) builder.close();
    throw error;
  }
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
  // A view when the blob's bytes are aligned for one, else a copy (they need not be).
  if ((bytes.byteOffset & 3) === 0)
    return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  return new Int32Array(new Uint8Array(bytes).buffer);
}

function float32s(bytes: Uint8Array): Float32Array {
  if ((bytes.byteOffset & 3) === 0) {
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  }
  return new Float32Array(new Uint8Array(bytes).buffer);
}

/**
 * Scratch of {@link unitedLists} for several terms, indexed by seq and reused by every call of the
 * thread (grown to the highest seq seen): each seq's summed count, and the call that last touched it.
 */
const unionScratch = { sums: new Float64Array(0), marks: new Uint32Array(0), mark: 0 };

/** Readies {@link unionScratch} for seqs below `size` and returns the current call's mark. */
function nextUnionMark(size: number): number {
  if (size > unionScratch.sums.length) {
    const grownSize = Math.max(size, unionScratch.sums.length * 2, 1024);
    unionScratch.sums = new Float64Array(grownSize);
    unionScratch.marks = new Uint32Array(grownSize);
    unionScratch.mark = 0;
  }
  unionScratch.mark++;
  if (unionScratch.mark === 0xffffffff) {
    unionScratch.marks.fill(0);
    unionScratch.mark = 1;
  }
  return unionScratch.mark;
}

/** The statements of {@link partsQuery} that keep a connection's blobs exact, by its encoding. */
const partsStatements = new WeakMap<Connection, { one: string; range: string }>();

/**
 * The part statements for `conn`: blobs concatenated as text in a UTF-8 database (their bytes are
 * the text's), as hexadecimal in any other (text there would be converted; ~2× the CPU).
 */
function partsSql(conn: Connection): { one: string; range: string } {
  let sql = partsStatements.get(conn);
  if (sql === undefined) {
    sql = conn.db.pragma('encoding', { simple: true }) === 'UTF-8' ? PARTS.text : PARTS.hex;
    partsStatements.set(conn, sql);
  }
  return sql;
}

/** The parts of a term (or a range of terms): each part's origin and entry count, and their entries. */
interface PartsRead {
  /** Each part's origin, in (term, chunk) order. */
  origins: number[];
  /** Each part's number of entries (its entries follow the previous part's in `seqs` and `freqs`). */
  counts: number[];
  seqs: Int32Array;
  freqs: Float32Array;
}

/**
 * Reads the parts of `term` (or of every term in `[term, upper)`) in one row.
 *
 * @throws Error when a part's blobs do not hold the same number of 4-byte entries (a damaged part)
 */
function readParts(conn: Connection, term: string, upper: string | undefined): PartsRead {
  const sql = partsSql(conn);
  const [meta, seqBytes, freqBytes] = (
    upper === undefined
      ? conn.stmt(sql.one).raw(true).get(term)
      : conn.stmt(sql.range).raw(true).get(term, upper)
  ) as [string | null, Uint8Array | null, Uint8Array | null];
  const origins: number[] = [];
  const counts: number[] = [];
  if (meta === null || seqBytes === null || freqBytes === null) {
    return { origins, counts, seqs: new Int32Array(0), freqs: new Float32Array(0) };
  }
  // `origin seqBytes freqBytes` per part, space-separated integers (an origin may be negative).
  const values: number[] = [];
  let value = 0;
  let negative = false;
  for (let i = 0; i <= meta.length; i++) {
    const code = i < meta.length ? meta.charCodeAt(i) : 32;
    if (code === 32) {
      values.push(negative ? -value : value);
      value = 0;
      negative = false;
    } else if (code === 45) negative = true;
    else value = value * 10 + (code - 48);
  }
  let seqTotal = 0;
  let freqTotal = 0;
  for (let k = 0; k + 2 < values.length; k += 3) {
    const seqLength = values[k + 1] as number;
    const freqLength = values[k + 2] as number;
    if (seqLength !== freqLength || (seqLength & 3) !== 0) break;
    origins.push(values[k] as number);
    counts.push(seqLength >> 2);
    seqTotal += seqLength;
    freqTotal += freqLength;
  }
  if (
    origins.length * 3 !== values.length ||
    seqTotal !== seqBytes.byteLength ||
    freqTotal !== freqBytes.byteLength
  ) {
    throw new Error(`per-term list parts of "${term}" do not hold one count per seq`);
  }
  return { origins, counts, seqs: int32s(seqBytes), freqs: float32s(freqBytes) };
}

/**
 * Several terms' entries are put in seq order by reading the marks of every seq in their range when
 * the range holds fewer than this many seqs per distinct seq (else by sorting the distinct seqs).
 */
const UNION_SCAN_RATIO = 16;

/** Which entries of the stored parts and segments count (see the rules in this file's comment). */
export interface ListedRows {
  /** Token count of each search row by seq; -1: no such row. */
  lengths: Int32Array;
  /** FTS5 origin of each search row by seq. */
  origins: Float64Array;
  /** The build's `covered` origin: rows written after it are scored through FTS5 instead. */
  covered: number;
  /** The build's `merged` origin: segments at or below it are not read (default: `covered`). */
  merged?: number | null | undefined;
  /** Seqs per part, as the lists were built with (default {@link TERM_LIST_CHUNK}). */
  chunk?: number;
  /**
   * {@link chunkHighs} of `lengths` and `origins` for `chunk`, when the caller keeps them (else
   * computed for this call): a part whose chunk's high is at most its limit keeps every entry.
   */
  highs?: Float64Array;
}

/**
 * Per chunk of `chunk` seqs: the highest origin of its rows when every seq of the chunk has a live
 * row, else +Infinity (a seq without a row, e.g. deleted, or past the last row). A part of a chunk
 * whose high is at most the part's limit (its origin and `covered`) keeps all its entries: each is a
 * live row written at or before the limit, so the rules of this file's comment need not be checked
 * entry by entry (at 100,000 skills a common word's parts hold tens of thousands of entries).
 *
 * @param lengths - token count of each search row by seq (-1: no row)
 * @param origins - FTS5 origin of each search row by seq
 * @param chunk - seqs per part (≥ 1)
 * @returns one value per chunk that starts below `lengths.length`
 */
export function chunkHighs(lengths: Int32Array, origins: Float64Array, chunk: number): Float64Array {
  const highs = new Float64Array(Math.ceil(lengths.length / chunk));
  for (let c = 0; c < highs.length; c++) {
    const first = c * chunk;
    const end = first + chunk;
    let high = Number.NEGATIVE_INFINITY;
    if (end > lengths.length) high = Number.POSITIVE_INFINITY;
    else {
      for (let seq = first; seq < end; seq++) {
        if ((lengths[seq] as number) < 0) {
          high = Number.POSITIVE_INFINITY;
          break;
        }
        const origin = origins[seq] as number;
        if (origin > high) high = origin;
      }
    }
    highs[c] = high;
  }
  return highs;
}

/**
 * The stored lists of a term (or of every term in `[term, upper)`), united: seqs ascending and the
 * summed weighted instance count in each, with only the entries that count: of the parts, a live
 * row written at or before both the part's origin and `covered`; of the delta segments above
 * `merged`, a live row written at or before the segment's origin and `covered`, after the origin of
 * its part of the same term (at most one entry of a row counts per term).
 */
export function unitedLists(
  conn: Connection,
  term: string,
  upper: string | undefined,
  rows: ListedRows,
): { seqs: Int32Array; freqs: Float32Array } {
  const parts = readParts(conn, term, upper);
  const { lengths, origins, covered } = rows;
  const merged = rows.merged ?? covered;
  const segments = merged < covered ? segmentsJson(conn, merged, covered) : null;
  const deltas = (
    segments === null
      ? []
      : upper === undefined
        ? conn.stmt(DELTA_OF).raw(true).all(segments, term)
        : conn.stmt(DELTAS_FROM).raw(true).all(segments, term, upper)
  ) as Array<[origin: number, term: string, seqs: Uint8Array, freqs: Uint8Array]>;
  let total = parts.seqs.length;
  for (const delta of deltas) total += delta[2].byteLength >> 2;
  const seqs = new Int32Array(total);
  const freqs = new Float32Array(total);
  let n = 0;
  // Whether the entries kept so far ascend (one term's parts do; a second term starts over).
  let ascending = true;
  let last = -1;
  const { seqs: partSeqs, freqs: partFreqs } = parts;
  const lengthsEnd = lengths.length;
  const chunk = rows.chunk ?? TERM_LIST_CHUNK;
  const highs = rows.highs ?? (parts.origins.length > 0 ? chunkHighs(lengths, origins, chunk) : null);
  let at = 0;
  for (let p = 0; p < parts.origins.length; p++) {
    const limit = Math.min(parts.origins[p] as number, covered);
    const end = at + (parts.counts[p] as number);
    if (end > at && highs !== null) {
      const first = partSeqs[at] as number;
      const high = first >= 0 ? highs[Math.floor(first / chunk)] : undefined;
      // The part lies in one chunk whose rows all count: its entries are kept as they are.
      if (
        high !== undefined &&
        high <= limit &&
        Math.floor((partSeqs[end - 1] as number) / chunk) === Math.floor(first / chunk)
      ) {
        if (first <= last) ascending = false;
        last = partSeqs[end - 1] as number;
        seqs.set(partSeqs.subarray(at, end), n);
        freqs.set(partFreqs.subarray(at, end), n);
        n += end - at;
        at = end;
        continue;
      }
    }
    for (let i = at; i < end; i++) {
      const seq = partSeqs[i] as number;
      if (seq >= lengthsEnd || (lengths[seq] as number) < 0 || (origins[seq] as number) > limit) continue;
      if (seq <= last) ascending = false;
      last = seq;
      seqs[n] = seq;
      freqs[n] = partFreqs[i] as number;
      n++;
    }
    at = end;
  }
  const listed = n;
  if (deltas.length > 0) {
    // The origin of each part of the terms, by term and chunk: a row at or below it is in the part.
    const partOrigins = new Map<string, number>();
    const placed = (
      upper === undefined
        ? conn.stmt(PART_ORIGINS_OF).raw(true).all(term)
        : conn.stmt(PART_ORIGINS_FROM).raw(true).all(term, upper)
    ) as Array<[string, number, number]>;
    for (const [partTerm, partChunk, partOrigin] of placed)
      partOrigins.set(`${partChunk} ${partTerm}`, partOrigin);
    for (const [segmentOrigin, deltaTerm, seqBytes, freqBytes] of deltas) {
      const limit = Math.min(segmentOrigin, covered);
      const deltaSeqs = int32s(seqBytes);
      const deltaFreqs = float32s(freqBytes);
      for (let i = 0; i < deltaSeqs.length; i++) {
        const seq = deltaSeqs[i] as number;
        if (seq >= lengths.length || (lengths[seq] as number) < 0) continue;
        const origin = origins[seq] as number;
        if (origin > limit) continue;
        const partOrigin = partOrigins.get(`${Math.floor(seq / chunk)} ${deltaTerm}`);
        if (partOrigin !== undefined && origin <= partOrigin) continue;
        if (seq <= last) ascending = false;
        last = seq;
        seqs[n] = seq;
        freqs[n] = deltaFreqs[i] as number;
        n++;
      }
    }
  }
  if (ascending) {
    // One term (or terms without a skill in common): already united.
    return n === total ? { seqs, freqs } : { seqs: seqs.slice(0, n), freqs: freqs.slice(0, n) };
  }
  if (upper === undefined) {
    // One term: the parts' entries ascend; the segments' (a few written rows, at most one entry
    // each) are put in order and merged in.
    const order = Array.from({ length: n - listed }, (_, i) => listed + i).sort(
      (a, b) => (seqs[a] as number) - (seqs[b] as number),
    );
    const outSeqs = new Int32Array(n);
    const outFreqs = new Float32Array(n);
    let i = 0;
    let k = 0;
    for (let out = 0; out < n; out++) {
      const next = order[k];
      if (i < listed && (next === undefined || (seqs[i] as number) < (seqs[next] as number))) {
        outSeqs[out] = seqs[i] as number;
        outFreqs[out] = freqs[i] as number;
        i++;
      } else {
        outSeqs[out] = seqs[next as number] as number;
        outFreqs[out] = freqs[next as number] as number;
        k++;
      }
    }
    return { seqs: outSeqs, freqs: outFreqs };
  }
  // Several terms: the same seq in several lists, summed (counts of quarters: exact in any order).
  const mark = nextUnionMark(lengths.length);
  const { sums, marks } = unionScratch;
  let distinct = 0;
  for (let i = 0; i < n; i++) {
    const seq = seqs[i] as number;
    if (marks[seq] !== mark) {
      marks[seq] = mark;
      sums[seq] = 0;
      // Each seq once, in the front of `seqs` (never ahead of the entry being read).
      seqs[distinct++] = seq;
    }
    sums[seq] = (sums[seq] as number) + (freqs[i] as number);
  }
  const unitedFreqs = new Float32Array(distinct);
  let united: Int32Array;
  let low = Number.POSITIVE_INFINITY;
  let high = -1;
  for (let i = 0; i < distinct; i++) {
    const seq = seqs[i] as number;
    if (seq < low) low = seq;
    if (seq > high) high = seq;
  }
  if (high - low < distinct * UNION_SCAN_RATIO) {
    // The marks between the lowest and the highest seq, read in order, cost less than sorting the
    // seqs (~1 ms for 30,000 at 100,000 skills): the same seqs, ascending.
    united = new Int32Array(distinct);
    let k = 0;
    for (let seq = low; seq <= high; seq++) {
      if (marks[seq] === mark) {
        united[k] = seq;
        unitedFreqs[k] = sums[seq] as number;
        k++;
      }
    }
  } else {
    united = seqs.slice(0, distinct).sort();
    for (let i = 0; i < distinct; i++) unitedFreqs[i] = sums[united[i] as number] as number;
  }
  return { seqs: united, freqs: unitedFreqs };
}

/**
 * Reads a search row's indexed text and builds its segmented search document (the text FTS5
 * indexed for it), with the row's current FTS5 origin.
 *
 * @returns undefined when the row is gone
 */
export function readRowDocument(
  conn: Connection,
  seq: number,
): { doc: ReturnType<typeof indexedSearchDocument>; origin: number } | undefined {
  const stored = conn.stmt(ROW_TEXT).get(seq) as
    | {
        name: string;
        tags: string;
        description: string;
        overview: string | null;
        body: string;
        origin: number;
      }
    | undefined;
  if (stored === undefined) return undefined;
  const doc = indexedSearchDocument(stored);
  return { doc, origin: stored.origin };
}
