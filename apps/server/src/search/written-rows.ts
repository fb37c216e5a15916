import Database from 'better-sqlite3';
import type { Connection } from '../store/sqlite/connection.js';
import { FIELD_WEIGHTS, type SearchField } from './score.js';
import { readRowDocument } from './term-lists.js';

/**
 * Rows whose terms {@link WrittenRows} keeps, the oldest making room (~10–20 KB each, so ~4 MB per
 * reader under a steady trickle of writes): as many as a reader brings kept phrases up to date
 * across (`MAX_CARRIED_CHANGES` in `sqlite-search.ts`) or scores after the lists' coverage
 * (`LISTED_CHANGES_MAX`), both the most recent writes.
 */
const KEPT_ROWS = 256;

/** The terms of one search row: sorted (UTF-16 order) with each one's weighted instance count. */
interface RowTerms {
  /** The FTS5 origin of the row's text these terms are of. */
  origin: number;
  terms: string[];
  /** Sum of `FIELD_WEIGHTS` over the term's instances in the row (what `bm25()` multiplies in). */
  freqs: Float64Array;
}

/** An in-memory FTS5 table with the search index's columns and tokenizer, one per thread. */
let tokenizer: { insert: Database.Statement; read: Database.Statement; clear: Database.Statement } | null =
  null;

function weightOf(column: string): number {
  const weight = (FIELD_WEIGHTS as Record<string, number>)[column as SearchField];
  if (weight === undefined) throw new Error(`search index column ${column} has no field weight`);
  return weight;
}

/**
 * The terms of the search rows written after the lists or the kept phrase relevance were last
 * exact (see `PhraseScores` in `sqlite-search.ts`), each row tokenized once (as the index tokenized
 * it: the same document, the same tokenizer, in a private in-memory FTS5 table whose `col`
 * vocabulary gives each term's instance count per column), so that the weighted instance count of
 * any one-term phrase in those rows is a lookup: a commit of N rows costs N tokenizations for every
 * phrase asked after it, where scoring them through FTS5 cost one scan of the phrase's doclist per
 * row and phrase.
 *
 * Kept per reader connection, at most {@link KEPT_ROWS} rows; a row is known by its seq and FTS5
 * origin (written again: a new origin, tokenized again). Emptied when the reader drops what it
 * keeps (a delete, an index rebuild).
 */
export class WrittenRows {
  private readonly rows = new Map<number, RowTerms>();
  /** Rows tokenized so far (tests and probes: the work a commit costs). */
  tokenized = 0;

  /**
   * The weighted instance count of `term` (with `prefix`: of every term starting with it) in the
   * search row `seq`, whose current origin is `origin`; 0 when the row lacks it; null when the row
   * is gone or its stored origin is not `origin` (the caller's view of the index is not this state).
   */
  freqOf(conn: Connection, seq: number, origin: number, term: string, prefix: boolean): number | null {
    const row = this.termsOf(conn, seq, origin);
    if (row === null) return null;
    const { terms, freqs } = row;
    let lo = 0;
    let hi = terms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((terms[mid] as string) < term) lo = mid + 1;
      else hi = mid;
    }
    if (!prefix) return terms[lo] === term ? (freqs[lo] as number) : 0;
    // Counts of quarters: exact in any order.
    let freq = 0;
    for (let i = lo; i < terms.length && (terms[i] as string).startsWith(term); i++)
      freq += freqs[i] as number;
    return freq;
  }

  /** Forgets every row (the index may have been rebuilt: origins numbered afresh). */
  clear(): void {
    this.rows.clear();
  }

  private termsOf(conn: Connection, seq: number, origin: number): RowTerms | null {
    const kept = this.rows.get(seq);
    if (kept !== undefined && kept.origin === origin) return kept;
    const stored = readRowDocument(conn, seq);
    if (stored === undefined || stored.origin !== origin) return null;
    const doc = stored.doc;
    if (tokenizer === null) {
      const db = new Database(':memory:');
      db.exec(`CREATE VIRTUAL TABLE doc USING fts5(name, tags, description, overview, body,
          content = '', tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE VIRTUAL TABLE doc_columns USING fts5vocab(doc, 'col');`);
      tokenizer = {
        insert: db.prepare(
          'INSERT INTO doc (rowid, name, tags, description, overview, body) VALUES (1, ?, ?, ?, ?, ?)',
        ),
        read: db.prepare('SELECT term, col, cnt FROM doc_columns').raw(true),
        clear: db.prepare("INSERT INTO doc (doc) VALUES ('delete-all')"),
      };
    }
    let read: Array<[string, string, number]>;
    tokenizer.insert.run(doc.name, doc.tags, doc.description, doc.overview, doc.body);
    try {
      read = tokenizer.read.all() as Array<[string, string, number]>;
    } finally {
      tokenizer.clear.run();
    }
    // One entry per term (the vocabulary gives a row per term and column), then in UTF-16 order
    // (the vocabulary's is UTF-8 byte order: the same unless a term holds a character past U+D7FF).
    const terms: string[] = [];
    const weights: number[] = [];
    for (const [term, column, count] of read) {
      const weight = weightOf(column) * count;
      if (terms[terms.length - 1] === term)
        weights[weights.length - 1] = (weights[weights.length - 1] as number) + weight;
      else {
        terms.push(term);
        weights.push(weight);
      }
    }
    let sorted = true;
    for (let i = 1; i < terms.length && sorted; i++) sorted = (terms[i - 1] as string) < (terms[i] as string);
    let row: RowTerms;
    if (sorted) row = { origin, terms, freqs: Float64Array.from(weights) };
    else {
      const order = terms
        .map((_, i) => i)
        .sort((a, b) => ((terms[a] as string) < (terms[b] as string) ? -1 : 1));
      row = {
        origin,
        terms: order.map((i) => terms[i] as string),
        freqs: Float64Array.from(order, (i) => weights[i] as number),
      };
    }
    this.tokenized++;
    this.rows.delete(seq);
    if (this.rows.size >= KEPT_ROWS) this.rows.delete(this.rows.keys().next().value as number);
    this.rows.set(seq, row);
    return row;
  }
}
