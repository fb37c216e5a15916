import { CHANGE_PROBE, type Connection, readChangeCounter } from '../store/sqlite/connection.js';
import { type SearchHitRow, toSearchSource } from '../store/sqlite/rows.js';
import type { VectorCache } from '../store/sqlite/vector-ops.js';
import type { SearchAnswer, SearchHit, SemanticQuery } from '../store/types.js';
import { isCjkToken } from './cjk-segment.js';
import { buildMatchExpression } from './fts-query.js';
import {
  candidateBudget,
  parseSearchQuery,
  rankCandidates,
  type SearchCandidate,
  SHORT_FIELDS,
  toSearchHit,
} from './ranking.js';
import { FIELD_WEIGHTS, SEARCH_FIELDS } from './score.js';
import { semanticMatches } from './semantic.js';
import {
  chunkHighs,
  prefixUpper,
  readTermListState,
  stemsOf,
  TERM_LIST_CHUNK,
  type TermListState,
  unitedLists,
} from './term-lists.js';
import { corrections, isCorrectable } from './typo.js';
import { WrittenRows } from './written-rows.js';

const WEIGHTS = SEARCH_FIELDS.map((field) => FIELD_WEIGHTS[field]).join(', ');

/** Ranking over the whole index (no join): fast when the caller's roots hold most of the index. */
const RANK_ALL = `SELECT rowid AS seq, -bm25(skills_fts, ${WEIGHTS}) AS raw FROM skills_fts
  WHERE skills_fts MATCH ? ORDER BY raw DESC LIMIT ?`;

/** Ranking restricted to the caller's roots (join per match): exact, used when the fast path falls short. */
const RANK_SCOPED = `SELECT s.seq AS seq, -bm25(skills_fts, ${WEIGHTS}) AS raw
  FROM skills_fts JOIN skills s ON s.seq = skills_fts.rowid
  WHERE skills_fts MATCH ? AND s.account_id = ? AND s.root_uri IN (SELECT value FROM json_each(?))
  ORDER BY raw DESC LIMIT ?`;

/** Light rows (no body) of ranked candidates that lie in the caller's scope. */
const KEYS_IN_SCOPE = `SELECT s.seq, s.name, s.root_uri FROM json_each(?) AS j CROSS JOIN skills AS s ON s.seq = j.value
  WHERE s.account_id = ? AND s.root_uri IN (SELECT value FROM json_each(?))`;
// CROSS JOIN / INDEXED BY: by-rowid and by-name lookups, not a scan of the (account, root) index.

const KEYS_BY_NAME = `SELECT seq, name, root_uri FROM skills INDEXED BY skills_by_lower_name WHERE account_id = ?
  AND lower(name) IN (SELECT value FROM json_each(?)) AND root_uri IN (SELECT value FROM json_each(?))`;

/** A hit's overview, read only when `toSearchHit` needs it for `matchedFields`. */
const OVERVIEW_BY_SEQ = 'SELECT overview FROM skills WHERE seq = ?';

/** Whether any indexed text holds the word (`*`: as a prefix), through the index's own tokenizer. */
const KNOWN_TERM = 'SELECT 1 FROM skills_fts WHERE skills_fts MATCH ? LIMIT 1';
/** Index terms (stems) starting with a prefix, with the number of skills holding each. */
const TERMS_FROM = 'SELECT term, doc AS docs FROM skills_fts_vocab WHERE term >= ? AND term < ?';

/** How long a vocabulary slice is reused, ms (new words reach typo correction within this time). */
const TERM_CACHE_MS = 5 * 60_000;
/** Vocabulary slices kept. */
const TERM_CACHE_SLICES = 512;

/**
 * Slices of the index vocabulary by two-letter prefix, kept for {@link TERM_CACHE_MS}: reading a
 * slice counts the skills of each of its terms (a few ms at 10,000 skills), so repeated typos of
 * the same letters cost nothing.
 */
export class TermCache {
  /** The relevance of recent query phrases in each skill (valid while the database is unchanged). */
  readonly scores = new PhraseScores();
  /** Scratch arrays of the ranking from kept relevance. */
  readonly scratch = new RankScratch();
  /** Skill rows read in the current database state. */
  readonly rows = new StateRows();
  private readonly slices = new Map<string, { at: number; terms: Array<{ term: string; docs: number }> }>();
  /** Slices asked for so far (a query whose answer used a slice is not kept by {@link StateResults}). */
  sliceAsks = 0;

  /** The terms starting with `prefix` (two letters). */
  slice(conn: Connection, prefix: string): Array<{ term: string; docs: number }> {
    this.sliceAsks++;
    const now = performance.now();
    const hit = this.slices.get(prefix);
    if (hit !== undefined && now - hit.at < TERM_CACHE_MS) return hit.terms;
    const upper = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
    const terms = conn.stmt(TERMS_FROM).all(prefix, upper) as Array<{ term: string; docs: number }>;
    this.slices.delete(prefix);
    this.slices.set(prefix, { at: now, terms });
    if (this.slices.size > TERM_CACHE_SLICES) this.slices.delete(this.slices.keys().next().value as string);
    return terms;
  }
}

/**
 * Index terms to search besides the query's words, for each word that no indexed text contains and
 * that looks misspelt (see `search/typo.ts`): the closest terms sharing its first letter and either
 * its second or its third (a typo in the very first letters is not corrected). With `fromLists`,
 * whether the index holds a word is read from its matches scored from the per-term lists, which the
 * ranking then uses (the word's phrase is the same), instead of asked of FTS5 as well.
 */
function typoCorrections(
  conn: Connection,
  terms: TermCache,
  tokens: readonly string[],
  prefixLast: boolean,
  fromLists: boolean,
): string[] {
  const extra: string[] = [];
  tokens.forEach((token, index) => {
    if (!isCorrectable(token)) return;
    const asPrefix = prefixLast && index === tokens.length - 1;
    if (terms.scores.holds(conn, `"${token}"${asPrefix ? '*' : ''}`, fromLists)) return;
    const prefixes = [...new Set([token.slice(0, 2), `${token[0]}${token[2]}`])];
    const vocabulary = prefixes.flatMap((prefix) => terms.slice(conn, prefix));
    for (const term of corrections(token, vocabulary)) {
      if (!tokens.includes(term) && !extra.includes(term)) extra.push(term);
    }
  });
  return extra;
}

/** The FTS5 expression OR-ing `phrases`, under a column filter when `columns` is given. */
function phraseQuery(phrases: readonly string[], columns: readonly string[] | undefined): string {
  const joined = phrases.join(' OR ');
  return columns === undefined ? joined : `{${columns.join(' ')}} : (${joined})`;
}

/** Semantic candidates considered at least (a skill found by meaning and by words counts once). */
const SEMANTIC_CANDIDATES = 50;

/** The fast path reads this many times the needed candidates before filtering by account and root. */
const OVERFETCH = 4;

interface KeyRow {
  seq: number;
  name: string;
  root_uri: string;
}

/** Every match of one phrase with the relevance `bm25()` gives it, by rowid. */
const PHRASE_SCORES = `SELECT rowid, -bm25(skills_fts, ${WEIGHTS}) FROM skills_fts WHERE skills_fts MATCH ?
  ORDER BY rowid`;

/** Matches (skill, relevance) kept per connection by {@link PhraseScores}: ~16 bytes each. */
export const MAX_CACHED_MATCHES = 1_000_000;

/** Phrases whose asks are counted (see {@link PhraseScores.worthReading}). */
const PHRASE_CACHE_SEEN = 4096;

/**
 * The ask of a phrase, since kept matches were last dropped, at which its matches are read, unless
 * the asks before the drop predict enough: reading them costs about two exhaustive rankings (~1.9×
 * measured at 10,000 skills) and a ranking from them ~0.4×, so after three exhaustive asks the read
 * is worth it (the most it can lose, when they are dropped right after, is under one ranking in four
 * asks). Commits that only add or replace a few skills carry kept matches over; a delete drops them.
 */
const READ_AT_ASK = 4;

/**
 * Asks of a phrase before kept matches were last dropped from which its matches are read on its
 * second ask after (≥ 3.5 asks pay for a read on the second): the asks before predict those after.
 */
const PREDICTED_ASKS = 4;

/** More search rows changed than this between two states: the kept matches are dropped, not updated. */
const MAX_CARRIED_CHANGES = 256;

/** Rowids above this are not tracked (the kept matches are then dropped on every change). */
const MAX_TRACKED_ROWID = 1 << 22;

/**
 * The index term of a phrase of one plain word (`"word"` or `"word"*`, no column filter, not CJK,
 * one term through the index's tokenizer), and whether it is a prefix; null for any other phrase.
 */
function wordOf(phrase: string): { term: string; prefix: boolean } | null {
  const word = /^"([^"\s]+)"(\*?)$/u.exec(phrase);
  if (word === null) return null;
  const token = word[1] as string;
  if (isCjkToken(token)) return null;
  const terms = stemsOf(token);
  if (terms.length !== 1) return null;
  return { term: terms[0] as string, prefix: word[2] === '*' };
}

/**
 * The key under which a phrase's matches and asks are kept: for a phrase of one plain word, its
 * index term (`"automate"` and `"automation"` are the same term, so the same skills with the same
 * relevance: kept once for both); any other phrase is its own key.
 */
function phraseKey(phrase: string): string {
  const word = wordOf(phrase);
  return word === null ? phrase : `${word.prefix ? '*' : '='}${word.term}`;
}

/** The rows written since a phrase's matches were exact that hold it: by count, or by `bm25()` score. */
type WrittenMatches = { seqs: number[]; values: number[]; byFreq: boolean };

/** Work a {@link PhraseScores} did (tests and probes count it; it never changes an answer). */
export interface PhraseWork {
  /** Written rows tokenized (each once for all phrases, see {@link WrittenRows}). */
  rowsTokenized: number;
  /** Written rows scored through FTS5 for one phrase (a phrase that is not one word). */
  rowsScored: number;
  /** Kept phrases brought to a newer state. */
  caughtUp: number;
  /** Kept phrases dropped because they could not be brought up to date alone. */
  dropped: number;
}

/** FTS5's `bm25()` parameters (fixed in SQLite's `fts5_aux.c`). */
const BM25_K1 = 1.2;
const BM25_B = 0.75;

/** Skill seqs ascending and a phrase's relevance in each. */
interface ScoredMatches {
  seqs: Int32Array;
  scores: Float64Array;
}

/** The matches of one phrase: skill seqs ascending and the relevance of the phrase in each. */
interface PhraseMatches extends ScoredMatches {
  /**
   * The phrase's weighted instance count in each skill (what `bm25()` computes per row), when every
   * kept relevance was reproduced bit for bit from it: then the matches are carried into the next
   * database state (see {@link PhraseScores.sync}); null: dropped at the next change.
   */
  freqs: Float32Array | null;
  /** The state (see `PhraseScores`) in which these matches are exact. */
  epoch: number;
  /**
   * Arrays this phrase owns, of which `seqs`, `scores` and `freqs` are the first `seqs.length`
   * entries, with room to spare (see {@link PhraseScores.update}); absent when the arrays may be
   * shared (read from the per-term lists) or were sized exactly.
   */
  room?: MatchRoom;
}

/** Arrays of one kept phrase with room for more matches than it holds. */
interface MatchRoom {
  seqs: Int32Array;
  scores: Float64Array;
  freqs: Float32Array;
}

/** Entries of a kept phrase's arrays when a write makes them grow: its matches plus ~1.6% and 16. */
function roomFor(hits: number): number {
  return hits + (hits >> 6) + 16;
}

/** The first matches of one phrase, by rowid (FTS5 yields rowid order: reading stops at the limit). */
const PHRASE_SCORES_FEW = `${PHRASE_SCORES} LIMIT ?`;
/**
 * How many skills hold one phrase, counted up to a limit without `bm25()` (FTS5 then reads no
 * position list and looks up no row length: ~0.1 µs a match against ~1 µs scored).
 */
const PHRASE_COUNT_UPTO = 'SELECT count(*) FROM (SELECT 1 FROM skills_fts WHERE skills_fts MATCH ? LIMIT ?)';

/** The skills holding `phrase` (an FTS5 expression), counted up to `max + 1`. */
function countUpTo(conn: Connection, phrase: string, max: number): number {
  return conn
    .stmt(PHRASE_COUNT_UPTO)
    .pluck(true)
    .get(phrase, max + 1) as number;
}

/**
 * A phrase neither kept nor asked often enough to be read is read for one ranking when it holds at
 * most the kept phrases' matches divided by this (see {@link rankFromPhrases}).
 */
const FEW_READ_SHARE = 4;

/** Every match of one phrase among some rowids (a JSON array) with its relevance, by rowid. */
const PHRASE_SCORES_AMONG = `SELECT rowid, -bm25(skills_fts, ${WEIGHTS}) FROM skills_fts WHERE skills_fts MATCH ?
  AND rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid`;
/**
 * Rowids written since a kept phrase was last brought up to date beyond which it is dropped instead
 * (then read again on its {@link CHURN_READ_AT_ASK}-th ask), for a phrase that is not one word (a
 * column filter, a CJK phrase, a word of several terms): its written rows are scored through FTS5,
 * and SQLite runs `rowid IN (…)` as one FTS5 scan per rowid, each merging the doclists of a prefix
 * and counting the phrase's rows again for `bm25()`, so such a phrase asked rarely between many
 * writes costs less scored from scratch. A one-word phrase is brought up to date across every
 * logged change ({@link MAX_CARRIED_CHANGES}): its written rows' counts come from their terms,
 * each row tokenized once for all phrases ({@link WrittenRows}).
 */
const CATCH_UP_MAX = 4;

/** The ask, after a phrase was dropped for {@link CATCH_UP_MAX}, at which it is read again. */
const CHURN_READ_AT_ASK = 16;
/**
 * Search rows written after the per-term lists' `covered` origin beyond which a phrase is not
 * scored from the lists (each such row is tokenized once per reader, see {@link WrittenRows}: up to
 * a delta pass's worth); the lists' next upkeep pass moves `covered` past them.
 */
export const LISTED_CHANGES_MAX = 256;
/** Search rows written (inserted or replaced) after a given origin, with their column sizes. */
const DOCS_AFTER = 'SELECT id, sz, origin FROM skills_fts_docsize WHERE origin > ?';
const DOCS_COUNT = 'SELECT count(*) FROM skills_fts_docsize';
/** FTS5's averages record: the row count `bm25()` uses, then the token total of each column. */
const TOTALS = 'SELECT block FROM skills_fts_data WHERE id = 1';
/** SQLite's own `log()` (FTS5 computes the IDF with it; JavaScript's `Math.log` may differ in the last bit). */
const LN = 'SELECT ln(?)';

/**
 * Search rows after a rowid, up to {@link LENGTHS_BATCH} in rowid order, as one text of
 * `rowid HEX origin rowid HEX origin …` (HEX: the row's docsize record, its token count per
 * column; origin: the FTS5 row origin), with the
 * batch's highest origin and rowid: SQLite builds the text, so reading 100,000 rows costs one
 * string per batch instead of an array and a buffer per row (~3× less CPU).
 */
const LENGTHS_AFTER = `SELECT group_concat(id || ' ' || coalesce(hex(sz), '') || ' ' || origin, ' '), count(*),
  max(origin), max(id)
  FROM (SELECT id, sz, origin FROM skills_fts_docsize WHERE id > ? ORDER BY id LIMIT ?)`;
const LENGTHS_BATCH = 8192;

/** A hexadecimal digit's value (upper case, as SQLite's `hex()` writes it). */
function hexDigit(code: number): number {
  return code <= 57 ? code - 48 : code - 55;
}

/**
 * The token count (all columns) and origin of every search row, their number and the highest row
 * origin, read from FTS5's docsize table; null when a rowid is negative or above
 * {@link MAX_TRACKED_ROWID}.
 * Each count is the sum of the record's varints, decoded as {@link varints} decodes them.
 */
export function readRowLengths(
  conn: Connection,
): { lengths: Int32Array; origins: Float64Array; count: number; origin: number } | null {
  let lengths: Int32Array = new Int32Array(1024).fill(-1);
  let origins: Float64Array = new Float64Array(1024);
  let count = 0;
  let origin = 0;
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const [text, rows, maxOrigin, maxId] = conn.stmt(LENGTHS_AFTER).raw(true).get(after, LENGTHS_BATCH) as [
      string | null,
      number,
      number | null,
      number | null,
    ];
    if (rows === 0 || text === null || maxId === null) break;
    if (maxOrigin !== null && maxOrigin > origin) origin = maxOrigin;
    after = maxId;
    let i = 0;
    const end = text.length;
    let entries = 0;
    while (i < end) {
      let id = 0;
      if (text.charCodeAt(i) === 45) return null; // '-': a negative rowid
      while (i < end && text.charCodeAt(i) !== 32) {
        id = id * 10 + (text.charCodeAt(i) - 48);
        i++;
      }
      i++;
      let length = 0;
      let value = 0;
      let bytes = 0;
      while (i < end && text.charCodeAt(i) !== 32) {
        const byte = hexDigit(text.charCodeAt(i)) * 16 + hexDigit(text.charCodeAt(i + 1));
        i += 2;
        if (bytes === 8) {
          length += value * 256 + byte;
          value = 0;
          bytes = 0;
        } else {
          value = value * 128 + (byte & 0x7f);
          bytes++;
          if ((byte & 0x80) === 0) {
            length += value;
            value = 0;
            bytes = 0;
          }
        }
      }
      // A record ending inside a varint: the part read counts, as in `varints`.
      if (bytes > 0) length += value;
      i++;
      let rowOrigin = 0;
      let negative = false;
      if (text.charCodeAt(i) === 45) {
        negative = true;
        i++;
      }
      while (i < end && text.charCodeAt(i) !== 32) {
        rowOrigin = rowOrigin * 10 + (text.charCodeAt(i) - 48);
        i++;
      }
      i++;
      if (id > MAX_TRACKED_ROWID) return null;
      if (id >= lengths.length) {
        lengths = grown(lengths, id);
        origins = grownOrigins(origins, lengths.length);
      }
      lengths[id] = length;
      origins[id] = negative ? -rowOrigin : rowOrigin;
      entries++;
    }
    if (entries !== rows) return null;
    count += rows;
  }
  return { lengths, origins, count, origin };
}

/** The varints of an FTS5 record (SQLite's varint: 7 bits a byte, big-endian, the ninth byte whole). */
function varints(record: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < record.length) {
    let value = 0;
    for (let k = 0; ; k++) {
      const byte = record[i++] as number;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0 || i >= record.length) break;
    }
    out.push(value);
  }
  return out;
}

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/**
 * The term FTS5's `bm25()` adds for one phrase in one row, computed as `fts5_aux.c` computes it
 * (same operations, same order): `idf`, the phrase's weighted instance count `freq`, the row's
 * token count `length` and the index's average row length `avgdl`.
 */
function bm25Term(idf: number, freq: number, length: number, avgdl: number): number {
  return idf * ((freq * (BM25_K1 + 1.0)) / (freq + BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgdl)));
}

/**
 * The weighted instance count behind a row's relevance `score`, when {@link bm25Term} gives back
 * exactly `score` from it (field weights are quarters, so the count is one); null otherwise.
 */
function freqOf(score: number, idf: number, length: number, avgdl: number): number | null {
  const k = BM25_K1 * (1 - BM25_B + (BM25_B * length) / avgdl);
  const freq = Math.round(((score * k) / (idf * (BM25_K1 + 1.0) - score)) * 4) / 4;
  return freq > 0 && Number.isFinite(freq) && bm25Term(idf, freq, length, avgdl) === score ? freq : null;
}

/** What `bm25()` reads of the whole index, and the token count of each row, in one database state. */
interface IndexStats {
  /** Token count of each search row by rowid; -1: no such row. */
  lengths: Int32Array;
  /** FTS5 origin of each search row by rowid (as long as `lengths`; meaningless where it is -1). */
  origins: Float64Array;
  /** Rows in the index (docsize rows). */
  count: number;
  /** Highest row origin seen (FTS5 gives each row written a higher one). */
  origin: number;
  /** The row count `bm25()` uses (FTS5's averages record; a replaced row counts again). */
  rows: number;
  /** Tokens of all columns (averages record). */
  tokens: number;
  /**
   * `chunkHighs` of `lengths` and `origins` for the per-term lists' chunk, once the lists were read
   * in this state (undefined: not yet, or rows changed since).
   */
  highs?: Float64Array | undefined;
}

/**
 * The relevance of each query phrase in each skill holding it (and whether the index holds a query
 * word, for typo tolerance), kept across database states (this connection's `total_changes()` and
 * `data_version`, which moves on another connection's commit), at most {@link MAX_CACHED_MATCHES}
 * matches (once full, further phrases are not kept).
 *
 * FTS5's `bm25()` is a sum over the query's phrases, in query order, of a term that depends only on
 * the phrase (its document frequency), the skill (its instances of the phrase, its length) and the
 * index (row count, average length): the term `bm25()` computes for a query of that phrase alone.
 * Adding the kept terms in query order therefore gives exactly the `bm25()` of the whole query, and a
 * query whose words were searched before costs a merge of their matches instead of scoring every
 * skill that holds a common word again.
 *
 * When the database changes, kept matches are brought up to date instead of dropped, each phrase
 * when next asked: the search rows written since (FTS5's per-row origin, logged per state) are
 * scored again for it, and every other term is recomputed from its instance count and row length
 * with the new document frequency and index averages ({@link bm25Term}: the same arithmetic, and
 * SQLite's own `ln()`, so the same bits; a phrase whose terms could not be reproduced exactly when
 * read is dropped instead). A phrase with more than {@link CATCH_UP_MAX} rows written since its last
 * ask is dropped alone; a deleted row, or more than {@link MAX_CARRIED_CHANGES} written rows between
 * two finds, drops everything.
 */
export class PhraseScores {
  private version = '';
  private states = 0;
  /** The change token seen at the last new state (null: unreadable), and the count of its changes. */
  private token: string | null = null;
  private contents = 0;
  private matches = 0;
  private readonly byPhrase = new Map<string, PhraseMatches>();
  /**
   * Asks of each phrase since kept matches were last dropped (see {@link PhraseScores.worthReading}),
   * by {@link phraseKey}, as the kept matches are.
   */
  private asks = new Map<string, number>();
  /** Asks of each phrase before kept matches were last dropped. */
  private previous = new Map<string, number>();
  /** Whether the index holds a word (typo tolerance asks per query word), in this database state. */
  private readonly known = new Map<string, boolean>();
  /** The index statistics of this state, once a phrase was read (null: not read, or not trackable). */
  private stats: IndexStats | null = null;
  /** Number of the current state among those carried over (see {@link PhraseMatches.epoch}). */
  private epoch = 0;
  /** Rowids written at each recent state (at most {@link MAX_CARRIED_CHANGES} in all), oldest first. */
  private log: Array<{ epoch: number; ids: number[] }> = [];
  private logged = 0;
  /** The terms of rows written after the lists' `covered` origin or a kept phrase's state. */
  private readonly writtenTerms = new WrittenRows();
  private rowsScored = 0;
  private caughtUp = 0;
  private droppedPhrases = 0;
  /** Where {@link PhraseScores.update} merges before copying into a phrase's own arrays (grown, reused). */
  private merging: MatchRoom = {
    seqs: new Int32Array(0),
    scores: new Float64Array(0),
    freqs: new Float32Array(0),
  };
  /** Bytes of arrays allocated for carried phrases so far (see {@link PhraseScores.update}). */
  private carriedBytes = 0;
  /** The per-term lists' build state, read once per database state (`state`: {@link states}). */
  private listState: { state: number; value: TermListState | null } | null = null;
  /**
   * The phrases scored from the per-term lists for the query being ranked, in the current state
   * (see {@link PhraseScores.forgetListed}): the typo check and the ranking score each once.
   */
  private readonly queryListed = new Map<string, PhraseMatches | null>();
  private queryListedState = -1;
  /** The rows written after the per-term lists' watermark, in the state of `version`. */
  private written: {
    state: number;
    covered: number;
    rows: { set: Set<number>; ids: number[] } | null;
  } | null = null;

  /** Matches kept now (skill and relevance pairs, all phrases). */
  get size(): number {
    return this.matches;
  }

  /** The work done so far (see {@link PhraseWork}). */
  get work(): PhraseWork {
    return {
      rowsTokenized: this.writtenTerms.tokenized,
      rowsScored: this.rowsScored,
      caughtUp: this.caughtUp,
      dropped: this.droppedPhrases,
    };
  }

  /**
   * Bytes of arrays allocated so far to bring kept phrases up to date when their matches changed
   * (a phrase grows into room it owns without new arrays; see {@link PhraseScores.update}).
   */
  get carriedAllocated(): number {
    return this.carriedBytes;
  }

  /** Brings the kept matches to the current database state when it changed since the last call. */
  sync(conn: Connection): void {
    const { c, v } = conn.stmt(CHANGE_PROBE).get() as { c: number; v: number };
    const version = `${v}.${c}`;
    if (version === this.version) return;
    let token: string | null = null;
    try {
      token = readChangeCounter(conn);
    } catch {
      // A file before schema version 16: every state counts as a change.
    }
    if (token === null || token !== this.token) this.contents++;
    this.token = token;
    this.known.clear();
    try {
      // Nothing kept: nothing to bring up to date (asks keep counting); statistics read when needed.
      if (this.byPhrase.size === 0) {
        this.stats = null;
        this.log = [];
        this.logged = 0;
      } else if (!this.carry(conn)) this.drop();
    } catch (error) {
      // Half brought up to date (a busy database, say): nothing kept is trusted.
      this.drop();
      throw error;
    }
    this.version = version;
    this.states++;
  }

  /** A number that changes whenever {@link PhraseScores.sync} sees a new database state. */
  get state(): number {
    return this.states;
  }

  /**
   * A number that changes whenever {@link PhraseScores.sync} sees the store's change token move
   * (`change_counter`, see `readChangeToken`): commits that only maintain the search index (per-term
   * lists, FTS5 merges) give a new {@link state} but the same contents, and any answer is a
   * function of the contents.
   */
  get contentState(): number {
    return this.contents;
  }

  /** Drops every kept match; asks start counting afresh (the previous ones predict the next). */
  private drop(): void {
    this.byPhrase.clear();
    this.writtenTerms.clear();
    this.matches = 0;
    this.stats = null;
    this.log = [];
    this.logged = 0;
    this.previous = this.asks;
    this.asks = new Map();
  }

  /** The IDF `bm25()` gives a phrase held by `hits` of `rows` rows; null when SQLite gives none. */
  private idf(conn: Connection, rows: number, hits: number): number | null {
    const value = conn
      .stmt(LN)
      .raw(true)
      .get((rows - hits + 0.5) / (hits + 0.5)) as [number | null];
    if (typeof value[0] !== 'number') return null;
    return value[0] <= 0 ? 1e-6 : value[0];
  }

  private readTotals(conn: Connection): { rows: number; tokens: number } | null {
    const row = conn.stmt(TOTALS).raw(true).get() as [Uint8Array] | undefined;
    if (row === undefined || !(row[0] instanceof Uint8Array)) return null;
    const [rows, ...columns] = varints(row[0]);
    return rows === undefined || rows <= 0 ? null : { rows, tokens: sum(columns) };
  }

  /** The statistics of the current state, read in full (every docsize row) on the first need. */
  private currentStats(conn: Connection): IndexStats | null {
    if (this.stats !== null) return this.stats;
    const totals = this.readTotals(conn);
    if (totals === null) return null;
    const lengths = readRowLengths(conn);
    if (lengths === null) return null;
    this.stats = { ...lengths, ...totals };
    return this.stats;
  }

  /**
   * Brings every carried phrase to the current state (see the class comment); false when the kept
   * matches must be dropped instead.
   */
  private carry(conn: Connection): boolean {
    const stats = this.stats;
    if (stats === null || this.byPhrase.size === 0) return false;
    const changed = conn.stmt(DOCS_AFTER).raw(true).all(stats.origin) as Array<[number, Uint8Array, number]>;
    if (changed.length > MAX_CARRIED_CHANGES) return false;
    if (changed.length > 0) stats.highs = undefined;
    let added = 0;
    for (const [id, sz, origin] of changed) {
      if (id < 0 || id > MAX_TRACKED_ROWID) return false;
      if (id >= stats.lengths.length) {
        stats.lengths = grown(stats.lengths, id);
        stats.origins = grownOrigins(stats.origins, stats.lengths.length);
      }
      if ((stats.lengths[id] as number) < 0) added++;
      stats.lengths[id] = sum(varints(sz));
      stats.origins[id] = origin;
      if (origin > stats.origin) stats.origin = origin;
    }
    const [count] = conn.stmt(DOCS_COUNT).raw(true).get() as [number];
    // A row was deleted (which one is not known): drop everything.
    if (count !== stats.count + added) return false;
    stats.count = count;
    const totals = this.readTotals(conn);
    if (totals === null) return false;
    if (changed.length === 0 && totals.rows === stats.rows && totals.tokens === stats.tokens) return true;
    stats.rows = totals.rows;
    stats.tokens = totals.tokens;
    // Each kept phrase is brought up to date when next asked (catchUp): a commit costs the phrases
    // asked after it, not every phrase kept.
    this.epoch++;
    this.log.push({ epoch: this.epoch, ids: changed.map(([id]) => id) });
    this.logged += changed.length;
    while (this.logged > MAX_CARRIED_CHANGES && this.log.length > 1) {
      this.logged -= (this.log.shift() as { ids: number[] }).ids.length;
    }
    for (const [key, list] of [...this.byPhrase]) {
      if (list.freqs !== null) continue;
      this.byPhrase.delete(key);
      this.matches -= list.seqs.length;
      // Read again only after as many asks as a phrase never read.
      this.asks.delete(key);
    }
    return true;
  }

  /**
   * A kept phrase brought to the current state: the rows written since it was last brought up to
   * date (from the change log) are scored again, every other relevance recomputed; null when those
   * changes are no longer logged or the phrase cannot be reproduced exactly.
   */
  private catchUp(conn: Connection, phrase: string, list: PhraseMatches): PhraseMatches | null {
    const stats = this.stats;
    const first = this.log[0];
    if (stats === null || list.freqs === null || first === undefined || first.epoch > list.epoch + 1)
      return null;
    const changed = new Set<number>();
    for (const entry of this.log) if (entry.epoch > list.epoch) for (const id of entry.ids) changed.add(id);
    if (changed.size > CATCH_UP_MAX && wordOf(phrase) === null) return null;
    const ids = [...changed].sort((a, b) => a - b);
    return this.update(conn, phrase, list, changed, ids, stats.tokens / stats.rows);
  }

  /** One carried phrase in the current state; null when it cannot be reproduced exactly. */
  private update(
    conn: Connection,
    phrase: string,
    list: PhraseMatches,
    isChanged: ReadonlySet<number>,
    ids: readonly number[],
    avgdl: number,
  ): PhraseMatches | null {
    const stats = this.stats as IndexStats;
    const freqs = list.freqs as Float32Array;
    const fresh = this.writtenMatches(conn, phrase, ids);
    if (fresh === null) return null;
    let kept = list.seqs.length;
    if (isChanged.size > 0) {
      kept = 0;
      for (let i = 0; i < list.seqs.length; i++) if (!isChanged.has(list.seqs[i] as number)) kept++;
    }
    const hits = kept + fresh.seqs.length;
    const idf = this.idf(conn, stats.rows, hits);
    if (idf === null) return null;
    if (kept === list.seqs.length && fresh.seqs.length === 0) {
      // The same skills with the same counts (the writes were to other skills): only the relevances
      // move, with the row count and the average length. They are recomputed in the kept arrays
      // instead of into new ones: with a write every few seconds, new arrays for every kept phrase
      // (16 bytes a match, up to ~16 MB a reader) left garbage outside V8's heap faster than it was
      // collected — at 100,000 skills each reader's memory grew by 20–30 MB within a few writes.
      const scores = list.scores;
      for (let n = 0; n < scores.length; n++) {
        const seq = list.seqs[n] as number;
        scores[n] = bm25Term(idf, freqs[n] as number, stats.lengths[seq] as number, avgdl);
      }
      return {
        seqs: list.seqs,
        scores,
        freqs,
        epoch: this.epoch,
        ...(list.room === undefined ? {} : { room: list.room }),
      };
    }
    // Merged into reused arrays first (the kept arrays are read meanwhile), then copied into arrays
    // the phrase owns: those it already had when they have room, else new ones with room to spare.
    // New arrays for every kept phrase a write touches (16 bytes a match) were garbage outside V8's
    // heap, collected only once a thread's external memory had grown by 64 MB: at 100,000 skills,
    // with writes among finds, each search reader carried tens of MB of them.
    if (this.merging.seqs.length < hits) {
      const size = roomFor(hits);
      this.merging = {
        seqs: new Int32Array(size),
        scores: new Float64Array(size),
        freqs: new Float32Array(size),
      };
    }
    const { seqs, scores, freqs: nextFreqs } = this.merging;
    let i = 0;
    let j = 0;
    for (let n = 0; n < hits; n++) {
      while (i < list.seqs.length && isChanged.has(list.seqs[i] as number)) i++;
      const fromKept = i < list.seqs.length ? (list.seqs[i] as number) : Number.POSITIVE_INFINITY;
      const fromFresh = j < fresh.seqs.length ? (fresh.seqs[j] as number) : Number.POSITIVE_INFINITY;
      if (fromKept < fromFresh) {
        const freq = freqs[i] as number;
        seqs[n] = fromKept;
        scores[n] = bm25Term(idf, freq, stats.lengths[fromKept] as number, avgdl);
        nextFreqs[n] = freq;
        i++;
      } else {
        const seq = fresh.seqs[j] as number;
        const value = fresh.values[j] as number;
        const length = stats.lengths[seq] as number;
        const freq = fresh.byFreq ? value : freqOf(value, idf, length, avgdl);
        if (freq === null) return null;
        seqs[n] = seq;
        scores[n] = fresh.byFreq ? bm25Term(idf, freq, length, avgdl) : value;
        nextFreqs[n] = freq;
        j++;
      }
    }
    let room = list.room;
    if (room === undefined || room.seqs.length < hits) {
      const size = roomFor(hits);
      room = { seqs: new Int32Array(size), scores: new Float64Array(size), freqs: new Float32Array(size) };
      this.carriedBytes += size * 16;
    }
    room.seqs.set(seqs.subarray(0, hits));
    room.scores.set(scores.subarray(0, hits));
    room.freqs.set(nextFreqs.subarray(0, hits));
    return {
      seqs: room.seqs.subarray(0, hits),
      scores: room.scores.subarray(0, hits),
      freqs: room.freqs.subarray(0, hits),
      epoch: this.epoch,
      room,
    };
  }

  /**
   * The rows of `ids` (ascending, live, written since the matches being brought up to date were
   * exact) that hold `phrase`: for a one-word phrase, its weighted instance count in each, from the
   * rows' terms ({@link WrittenRows}: each row tokenized once for every phrase); for any other
   * phrase, the `bm25()` relevance FTS5 gives each (one scan per row). Null when a row cannot be
   * read as the index holds it.
   */
  private writtenMatches(conn: Connection, phrase: string, ids: readonly number[]): WrittenMatches | null {
    const seqs: number[] = [];
    const values: number[] = [];
    if (ids.length === 0) return { seqs, values, byFreq: true };
    const word = wordOf(phrase);
    if (word === null) {
      this.rowsScored += ids.length;
      for (const [seq, score] of conn
        .stmt(PHRASE_SCORES_AMONG)
        .raw(true)
        .all(phrase, JSON.stringify(ids)) as Array<[number, number]>) {
        seqs.push(seq);
        values.push(score);
      }
      return { seqs, values, byFreq: false };
    }
    const origins = (this.stats as IndexStats).origins;
    for (const seq of ids) {
      const freq = this.writtenTerms.freqOf(conn, seq, origins[seq] as number, word.term, word.prefix);
      // Float32 (the kept counts) holds a count of quarters exactly up to 2^22.
      if (freq === null || freq > 2 ** 22) return null;
      if (freq > 0) {
        seqs.push(seq);
        values.push(freq);
      }
    }
    return { seqs, values, byFreq: true };
  }

  /**
   * Whether any indexed text holds `phrase` (an FTS5 expression), asked once per database state:
   * from its matches when they are kept in this state or, with `fromLists`, scored from the per-term
   * lists (the ranking that follows uses them, see {@link PhraseScores.listed}); else through FTS5.
   */
  holds(conn: Connection, phrase: string, fromLists = false): boolean {
    let known = this.known.get(phrase);
    if (known === undefined) {
      const kept = this.byPhrase.get(phraseKey(phrase));
      const matches =
        kept !== undefined && kept.epoch === this.epoch ? kept : fromLists ? this.listed(conn, phrase) : null;
      known = matches !== null ? matches.seqs.length > 0 : conn.stmt(KNOWN_TERM).get(phrase) !== undefined;
      if (this.known.size >= PHRASE_CACHE_SEEN) this.known.clear();
      this.known.set(phrase, known);
    }
    return known;
  }

  /**
   * Whether the query of `phrases` should be ranked from kept matches (and counts this ask of each
   * phrase): true when each phrase is kept, or is asked for the {@link READ_AT_ASK}th time since
   * kept matches were last dropped, or for the second time when it was asked at least
   * {@link PREDICTED_ASKS} times before. Reading a phrase's matches costs about two exhaustive
   * rankings, so a phrase asked rarely is left to the exhaustive ranking.
   */
  worthReading(phrases: readonly string[]): boolean {
    let worth = true;
    for (const phrase of phrases) {
      const key = phraseKey(phrase);
      // Counted while kept too: the prediction after a drop.
      const asked = (this.asks.get(key) ?? 0) + 1;
      if (!this.asks.has(key) && this.asks.size >= PHRASE_CACHE_SEEN) this.asks.clear();
      this.asks.set(key, asked);
      if (!this.byPhrase.has(key) && !this.worthKeeping(key)) worth = false;
    }
    return worth;
  }

  /**
   * Whether the phrase of `key` has been asked often enough to read and keep its matches: for the
   * {@link READ_AT_ASK}th time since kept matches were last dropped, or for the second time when it
   * was asked at least {@link PREDICTED_ASKS} times before.
   */
  private worthKeeping(key: string): boolean {
    const asked = this.asks.get(key) ?? 0;
    return asked >= READ_AT_ASK || (asked >= 2 && (this.previous.get(key) ?? 0) >= PREDICTED_ASKS);
  }

  /**
   * Keeps `matches` as those of the phrase of `key` (not kept) when they fit in
   * {@link MAX_CACHED_MATCHES}, making room by dropping kept phrases asked fewer times (fewest
   * first; asks since kept matches were last dropped): a kept match saves about the same work on
   * each ask whatever its phrase, so the memory goes to the phrases asked most. Once the cache was
   * full, phrases kept first (often asked once or twice more) kept out the words most queries hold,
   * scored from the per-term lists on every ask. Returns whether they are kept.
   */
  private keep(key: string, matches: PhraseMatches): boolean {
    const size = matches.seqs.length;
    const over = this.matches + size - MAX_CACHED_MATCHES;
    if (over > 0) {
      const asked = this.asks.get(key) ?? 0;
      const victims: Array<{ key: string; asked: number; size: number }> = [];
      for (const [keptKey, list] of this.byPhrase) {
        const keptAsked = this.asks.get(keptKey) ?? 0;
        if (keptAsked < asked) victims.push({ key: keptKey, asked: keptAsked, size: list.seqs.length });
      }
      victims.sort((a, b) => a.asked - b.asked);
      let freed = 0;
      let count = 0;
      while (freed < over && count < victims.length) freed += (victims[count++] as { size: number }).size;
      if (freed < over) return false;
      for (const victim of victims.slice(0, count)) {
        this.byPhrase.delete(victim.key);
        this.matches -= victim.size;
      }
    }
    this.byPhrase.set(key, matches);
    this.matches += size;
    return true;
  }

  /**
   * The matches of `phrase` (an FTS5 expression of one phrase, with its column filter), read once
   * (then kept up to date, see the class comment). When they do not fit in the cache (nothing is
   * dropped to make room), the matches scored from the per-term lists for this query alone (not
   * kept, see {@link PhraseScores.listed}), or null when the phrase cannot be scored from them.
   */
  get(conn: Connection, phrase: string): PhraseMatches | null {
    const kept = this.kept(conn, phrase);
    if (kept !== undefined) return kept;
    // Full: the lists still score the phrase (kept in place of phrases asked less, see
    // {@link PhraseScores.keep}), where ranking every match through FTS5 cost ~10× the CPU at
    // 100,000 skills (once the cache was full, nearly every query of varied words went there).
    if (this.matches >= MAX_CACHED_MATCHES) return this.listedKept(conn, phrase);
    return this.read(conn, phrase);
  }

  /**
   * {@link PhraseScores.listed}, and kept (see {@link PhraseScores.keep}) when the phrase is not
   * kept and was asked often enough to be read (see {@link PhraseScores.worthReading}).
   */
  listedKept(conn: Connection, phrase: string): PhraseMatches | null {
    const listed = this.listed(conn, phrase);
    if (listed === null) return null;
    const key = phraseKey(phrase);
    if (!this.byPhrase.has(key) && this.worthKeeping(key)) this.keep(key, listed);
    return listed;
  }

  /**
   * The kept matches of `phrase` brought to the current state (see {@link PhraseScores.get});
   * undefined when it is not kept, null when it was kept but could not be brought up to date (it is
   * then dropped).
   */
  kept(conn: Connection, phrase: string): PhraseMatches | null | undefined {
    const key = phraseKey(phrase);
    const hit = this.byPhrase.get(key);
    if (hit !== undefined) {
      if (hit.epoch === this.epoch) return hit;
      const updated = this.catchUp(conn, phrase, hit);
      this.matches -= hit.seqs.length;
      if (updated !== null) this.caughtUp++;
      else this.droppedPhrases++;
      if (updated !== null) {
        this.byPhrase.set(key, updated);
        this.matches += updated.seqs.length;
        return updated;
      }
      // Ranked exhaustively now; asked rarely for the writes between its asks, it is read again only
      // on its CHURN_READ_AT_ASK-th ask from now.
      this.byPhrase.delete(key);
      this.asks.set(key, READ_AT_ASK - CHURN_READ_AT_ASK);
      return null;
    }
    return undefined;
  }

  /**
   * The matches of `phrase` in the current state scored from the per-term lists (`term-lists.ts`)
   * instead of by `bm25()`: the lists' entries that count (live rows written at or before their
   * part's origin and the lists' `covered` origin), rows written after `covered` scored through
   * FTS5 (as {@link PhraseScores.update} brings a kept phrase up to date), every relevance computed
   * as `bm25()` computes it. Null when the phrase is not one plain word (a column filter, a CJK
   * phrase, a word of several terms), the lists are not usable yet, more than
   * {@link LISTED_CHANGES_MAX} rows were written after `covered`, or the index cannot be tracked.
   * Scored once per query (the typo check and the ranking share it) until
   * {@link PhraseScores.forgetListed}; the arrays are not to be changed by the caller.
   */
  listed(conn: Connection, phrase: string): PhraseMatches | null {
    if (this.queryListedState !== this.states) {
      this.queryListed.clear();
      this.queryListedState = this.states;
    }
    const key = phraseKey(phrase);
    let matches = this.queryListed.get(key);
    if (matches === undefined) {
      matches = this.scoreListed(conn, phrase);
      this.queryListed.set(key, matches);
    }
    return matches;
  }

  /**
   * Forgets the phrases scored from the per-term lists for a query (those kept stay kept): called
   * before and after each query is ranked, so no arrays outlive the query that scored them.
   */
  forgetListed(): void {
    this.queryListed.clear();
  }

  /** {@link PhraseScores.listed}, computed. */
  private scoreListed(conn: Connection, phrase: string): PhraseMatches | null {
    const word = wordOf(phrase);
    if (word === null) return null;
    if (this.listState === null || this.listState.state !== this.states) {
      this.listState = { state: this.states, value: readTermListState(conn) };
    }
    const state = this.listState.value;
    if (state === null || state.covered === null) return null;
    const { term } = word;
    const upper = word.prefix ? prefixUpper(term) : undefined;
    const stats = this.currentStats(conn);
    if (stats === null) return null;
    const changed = this.writtenAfter(stats, state.covered);
    if (changed === null) return null;
    stats.highs ??= chunkHighs(stats.lengths, stats.origins, TERM_LIST_CHUNK);
    const united = unitedLists(conn, term, upper, {
      lengths: stats.lengths,
      origins: stats.origins,
      covered: state.covered,
      merged: state.merged,
      highs: stats.highs,
    });
    const list: PhraseMatches = {
      seqs: united.seqs,
      scores: new Float64Array(united.seqs.length),
      freqs: united.freqs,
      epoch: this.epoch,
    };
    return this.update(conn, phrase, list, changed.set, changed.ids, stats.tokens / stats.rows);
  }

  /** Live search rows written after an origin, found once per database state; null: too many. */
  private writtenAfter(stats: IndexStats, covered: number): { set: Set<number>; ids: number[] } | null {
    const seen = this.written;
    if (seen !== null && seen.state === this.states && seen.covered === covered) return seen.rows;
    const ids: number[] = [];
    const { lengths, origins } = stats;
    let rows: { set: Set<number>; ids: number[] } | null = null;
    let n = 0;
    for (; n < origins.length; n++) {
      if ((origins[n] as number) > covered && (lengths[n] as number) >= 0) {
        if (ids.length === LISTED_CHANGES_MAX) break;
        ids.push(n);
      }
    }
    if (n === origins.length) rows = { set: new Set(ids), ids };
    this.written = { state: this.states, covered, rows };
    return rows;
  }

  /**
   * The matches of a phrase that is not kept, read for one ranking only (not kept), when it holds
   * at most `max` skills: reading stops at the `max + 1`-th (null then, as for a rowid out of range).
   * The caller counted them (`max` is usually their number): the rows go one at a time into arrays
   * of that size, so a phrase of 250,000 matches costs its 3 MB of typed arrays and no array per row
   * held at once (~80 bytes each in the reader's V8 heap, which grew by tens of MB under varied
   * queries at 100,000 skills).
   */
  readFew(conn: Connection, phrase: string, max: number): { seqs: Int32Array; scores: Float64Array } | null {
    const read = readScored(
      conn
        .stmt(PHRASE_SCORES_FEW)
        .raw(true)
        .iterate(phrase, max + 1),
      max,
    );
    return read === null || read.count > max ? null : exactly(read);
  }

  /**
   * Reads and keeps the matches of `phrase` (not kept); when they do not fit in the cache, those
   * scored from the per-term lists (not kept), or null when the phrase cannot be scored from them.
   */
  private read(conn: Connection, phrase: string): PhraseMatches | null {
    const listed = this.listed(conn, phrase);
    if (listed !== null) {
      // Kept when it fits (or phrases asked less make room); else for this query alone.
      this.keep(phraseKey(phrase), listed);
      return listed;
    }
    // Counted first (without bm25(): ~0.1 µs a match against ~1 µs scored): a phrase that does not
    // fit is not scored in vain, and the rows go one at a time into arrays of the counted size —
    // no array per row held at once (~80 bytes each), no doubled arrays left behind for the
    // collector (garbage outside V8's heap that a reader thread, with little else to collect, kept
    // for long: tens of MB per reader at 100,000 skills).
    const room = MAX_CACHED_MATCHES - this.matches;
    const count = countUpTo(conn, phrase, room);
    if (count > room) return null;
    const read = readScored(conn.stmt(PHRASE_SCORES).raw(true).iterate(phrase), count, room);
    if (read === null || read.count > room) return null;
    const { seqs, scores } = exactly(read);
    const matches: PhraseMatches = { seqs, scores, freqs: null, epoch: this.epoch };
    matches.freqs = this.freqsOf(conn, matches);
    this.byPhrase.set(phraseKey(phrase), matches);
    this.matches += seqs.length;
    return matches;
  }

  /**
   * The weighted instance counts behind the matches just read, when each relevance is reproduced
   * exactly from its count (so the phrase can be carried into later states); null otherwise.
   */
  private freqsOf(conn: Connection, matches: PhraseMatches): Float32Array | null {
    const stats = this.currentStats(conn);
    if (stats === null) return null;
    const idf = this.idf(conn, stats.rows, matches.seqs.length);
    if (idf === null) return null;
    const avgdl = stats.tokens / stats.rows;
    const freqs = new Float32Array(matches.seqs.length);
    for (let i = 0; i < freqs.length; i++) {
      const seq = matches.seqs[i] as number;
      const length = seq < stats.lengths.length ? (stats.lengths[seq] as number) : -1;
      if (length < 0) return null;
      const freq = freqOf(matches.scores[i] as number, idf, length, avgdl);
      // Float32 holds a count of quarters exactly up to 2^22.
      if (freq === null || freq > 2 ** 22) return null;
      freqs[i] = freq;
    }
    return freqs;
  }
}

/** Rows of a phrase read into typed arrays: `count` rows, the arrays possibly longer. */
interface ScoredRead {
  seqs: Int32Array;
  scores: Float64Array;
  count: number;
}

/**
 * `(rowid, relevance)` rows into typed arrays sized for `expected` rows (grown by doubling should
 * there be more, up to `limit`): reading stops at the `limit + 1`-th row (then `count` is
 * `limit + 1`). Null when a rowid is out of the int32 range.
 *
 * @param rows - the statement's rows, in rowid order
 * @param expected - rows counted before, ≥ 0
 * @param limit - the most rows wanted (default `expected`)
 */
function readScored(rows: IterableIterator<unknown>, expected: number, limit = expected): ScoredRead | null {
  let seqs = new Int32Array(expected);
  let scores = new Float64Array(expected);
  let count = 0;
  for (const row of rows as IterableIterator<[number, number]>) {
    const [seq, raw] = row;
    if (count === limit) {
      // One more than wanted: the rest are not read (the iterator is closed by the loop's exit).
      count++;
      break;
    }
    if (seq > 0x7fffffff || seq < 0) return null;
    if (count === seqs.length) {
      const size = Math.min(limit, Math.max(count * 2, 1024));
      const moreSeqs = new Int32Array(size);
      moreSeqs.set(seqs);
      seqs = moreSeqs;
      const moreScores = new Float64Array(size);
      moreScores.set(scores);
      scores = moreScores;
    }
    seqs[count] = seq;
    scores[count] = raw;
    count++;
  }
  return { seqs, scores, count };
}

/** The rows of a {@link ScoredRead} in arrays of exactly their length (the same arrays when they fit). */
function exactly(read: ScoredRead): { seqs: Int32Array; scores: Float64Array } {
  if (read.seqs.length === read.count) return { seqs: read.seqs, scores: read.scores };
  return { seqs: read.seqs.slice(0, read.count), scores: read.scores.slice(0, read.count) };
}

function grownOrigins(origins: Float64Array, length: number): Float64Array {
  const more = new Float64Array(length);
  more.set(origins);
  return more;
}

function grown(lengths: Int32Array, id: number): Int32Array {
  const more = new Int32Array(Math.max(lengths.length * 2, id + 1)).fill(-1);
  more.set(lengths);
  return more;
}

/** Skill seqs above this are ranked by merging the phrase lists instead of summing into a dense array. */
const MAX_DENSE_SEQ = 1 << 22;

/**
 * Scratch arrays of {@link rankFromPhrases}, indexed by skill seq and reused by every query of a
 * connection (grown to the highest seq seen): the sum of each skill's kept relevance, the query
 * that last touched it, and the skills the current query touched (each once, in a prefix).
 */
class RankScratch {
  sums = new Float64Array(0);
  marks = new Uint32Array(0);
  touched = new Int32Array(0);
  /** The mark of a skill summed by the current query. */
  mark = 0;

  /** Readies the arrays for seqs up to `maxSeq` and returns the current query's mark. */
  next(maxSeq: number): number {
    if (maxSeq >= this.sums.length) {
      const size = Math.max(maxSeq + 1, this.sums.length * 2, 1024);
      this.sums = new Float64Array(size);
      this.marks = new Uint32Array(size);
      this.touched = new Int32Array(size);
      this.mark = 0;
    }
    this.mark += 2;
    if (this.mark >= 0xfffffffe) {
      this.marks.fill(0);
      this.mark = 2;
    }
    return this.mark;
  }
}

/** Where `{ seq, raw }` goes in `top` (best first; equal relevance: lower seq first). */
function insertAt(top: ReadonlyArray<{ seq: number; raw: number }>, seq: number, raw: number): number {
  let lo = 0;
  let hi = top.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const at = top[mid] as { seq: number; raw: number };
    if (at.raw > raw || (at.raw === raw && at.seq < seq)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The best `wanted` skills of the whole index for the query made of `phrases` (OR-ed), by relevance
 * then rowid — what `RANK_ALL` returns — from the phrases' kept matches; null when a phrase's matches
 * cannot be kept or a phrase is new (the caller then ranks exhaustively). A new phrase beside kept
 * ones is read for this query alone when it holds few skills (at most the kept matches divided by
 * {@link FEW_READ_SHARE}, all such phrases together): scoring its matches costs less than scoring
 * every match of the query.
 *
 * Each skill's relevance is the sum of its kept per-phrase relevance, added in phrase order starting
 * from 0, as `bm25()` adds them (a phrase the skill lacks adds nothing): the same floating-point
 * operations in the same order, so the same bits. `cache` was brought to the current state
 * ({@link PhraseScores.sync}) in this read transaction.
 */
function rankFromPhrases(
  conn: Connection,
  cache: PhraseScores,
  phrases: readonly string[],
  wanted: number,
  scratch: RankScratch = new RankScratch(),
): Array<{ seq: number; raw: number }> | null {
  // `searchSkills` brought the cache to this state (one read transaction).
  const lists: ScoredMatches[] = [];
  if (cache.worthReading(phrases)) {
    for (const phrase of phrases) {
      const list = cache.get(conn, phrase);
      if (list === null) return null;
      lists.push(list);
    }
  } else {
    // A phrase is neither kept nor asked often enough to be read and kept: the ranking still comes
    // from the kept phrases when the others hold few skills, read for this query alone (at most a
    // quarter of the kept matches in all: less than scoring every match of the query again).
    // A phrase whose terms have per-term lists is scored from them for this query (not kept).
    const kept = phrases.map((phrase) => {
      const list = cache.kept(conn, phrase);
      return list === undefined ? (cache.listedKept(conn, phrase) ?? undefined) : list;
    });
    let budget = 0;
    for (const list of kept) {
      if (list === null) return null;
      if (list !== undefined) budget += list.seqs.length;
    }
    budget = Math.floor(budget / FEW_READ_SHARE);
    // Counted before any is scored: when one of them holds too many skills (a common word, the usual
    // case in an agent's varied queries) the query is ranked exhaustively without first scoring up
    // to the budget's worth of matches in vain. The same budget decisions as scoring each in turn.
    const held = new Map<number, number>();
    for (const [i, phrase] of phrases.entries()) {
      if (kept[i] !== undefined) continue;
      if (budget <= 0) return null;
      const count = countUpTo(conn, phrase, budget);
      if (count > budget) return null;
      held.set(i, count);
      budget -= count;
    }
    for (const [i, phrase] of phrases.entries()) {
      const list = kept[i] ?? cache.readFew(conn, phrase, held.get(i) ?? 0);
      if (list === null || list === undefined) return null;
      lists.push(list);
    }
  }
  let maxSeq = 0;
  for (const list of lists) {
    if (list.seqs.length > 0) maxSeq = Math.max(maxSeq, list.seqs[list.seqs.length - 1] as number);
  }
  if (maxSeq >= MAX_DENSE_SEQ) return mergePhrases(lists, wanted);
  const mark = scratch.next(maxSeq);
  const { sums, marks, touched } = scratch;
  let count = 0;
  for (const list of lists) {
    const { seqs, scores } = list;
    for (let j = 0; j < seqs.length; j++) {
      const seq = seqs[j] as number;
      if (marks[seq] !== mark) {
        marks[seq] = mark;
        sums[seq] = 0;
        touched[count++] = seq;
      }
      sums[seq] = (sums[seq] as number) + (scores[j] as number);
    }
  }
  // Each skill once (the best `wanted` under relevance then seq are the same in any order).
  const top: Array<{ seq: number; raw: number }> = [];
  for (let t = 0; t < count; t++) {
    const seq = touched[t] as number;
    const raw = sums[seq] as number;
    if (top.length === wanted) {
      const last = top[wanted - 1] as { seq: number; raw: number };
      if (raw < last.raw || (raw === last.raw && seq > last.seq)) continue;
    }
    top.splice(insertAt(top, seq, raw), 0, { seq, raw });
    if (top.length > wanted) top.pop();
  }
  return top;
}

/** {@link rankFromPhrases} by merging the phrase lists in seq order (for seqs too high for the dense arrays). */
function mergePhrases(lists: readonly ScoredMatches[], wanted: number): Array<{ seq: number; raw: number }> {
  const at = new Array<number>(lists.length).fill(0);
  // Best first; ties keep the lower rowid first (it comes first and only a higher score displaces it).
  const top: Array<{ seq: number; raw: number }> = [];
  for (;;) {
    let seq = Number.POSITIVE_INFINITY;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i] as ScoredMatches;
      const j = at[i] as number;
      if (j < list.seqs.length && (list.seqs[j] as number) < seq) seq = list.seqs[j] as number;
    }
    if (seq === Number.POSITIVE_INFINITY) break;
    // In phrase order, as bm25() adds them (a phrase the skill lacks adds 0).
    let raw = 0;
    for (let i = 0; i < lists.length; i++) {
      const list = lists[i] as ScoredMatches;
      const j = at[i] as number;
      if (j < list.seqs.length && list.seqs[j] === seq) {
        raw += list.scores[j] as number;
        at[i] = j + 1;
      }
    }
    if (top.length === wanted && !(raw > (top[top.length - 1] as { raw: number }).raw)) continue;
    top.splice(insertAt(top, seq, raw), 0, { seq, raw });
    if (top.length > wanted) top.pop();
  }
  return top;
}

/** Rows kept by {@link StateRows} (~0.5 KB each). */
const KEPT_ROWS = 8192;

/**
 * The scope columns and the hit columns of ranked skills, by seq (skills that no longer exist are
 * left out): the hits are among the first ranked, whose scope is read anyway, so their columns come
 * in the same look (each a B-tree descent to a page that holds them all).
 */
const ROWS_OF = `SELECT s.seq, s.account_id, s.name, s.root_uri, s.description, s.tags, s.allowed_tools,
  s.revision, s.updated_at FROM json_each(?) AS j CROSS JOIN skills AS s ON s.seq = j.value`;

/** A ranked skill's row: the columns of a hit and its account. */
type ScopedRow = SearchHitRow & { account_id: string };

/**
 * Skill rows a connection read under one change token (that of {@link PhraseScores.contentState}),
 * at most {@link KEPT_ROWS}: the scope and hit columns of ranked skills. A query asked again, or
 * sharing hits with an earlier one, reads no row twice; any write that moves the token (of this
 * connection or another) empties them.
 */
class StateRows {
  private state = -1;
  readonly rows = new Map<number, ScopedRow>();

  /** Empties the rows when `state` is not the state they were read in. */
  at(state: number): this {
    if (state !== this.state) {
      this.rows.clear();
      this.state = state;
    }
    return this;
  }
}

/** Rows of `seqs` through `kept`, the missing ones read (one statement) and kept. */
function rowsOf(conn: Connection, kept: StateRows, seqs: readonly number[]): Map<number, ScopedRow> {
  const map = kept.rows;
  const found = new Map<number, ScopedRow>();
  const missing: number[] = [];
  for (const seq of seqs) {
    const row = map.get(seq);
    if (row === undefined) missing.push(seq);
    else found.set(seq, row);
  }
  if (missing.length === 0) return found;
  // Arrays, made into objects here: better-sqlite3's row objects cost ~1 µs more a row.
  const read = conn.stmt(ROWS_OF).raw(true).all(JSON.stringify(missing)) as Array<
    [number, string, string, string, string, string, string, string, number]
  >;
  if (map.size + read.length > KEPT_ROWS) map.clear();
  for (const [
    seq,
    account_id,
    name,
    root_uri,
    description,
    tags,
    allowed_tools,
    revision,
    updated_at,
  ] of read) {
    const row: ScopedRow = {
      seq,
      account_id,
      name,
      root_uri,
      description,
      tags,
      allowed_tools,
      revision,
      updated_at,
    };
    found.set(seq, row);
    if (read.length <= KEPT_ROWS) map.set(seq, row);
  }
  return found;
}

/** The skills of `seqs` in the caller's account and roots (the filter of `KEYS_IN_SCOPE`). */
function keysInScope(
  conn: Connection,
  kept: StateRows,
  seqs: readonly number[],
  accountId: string,
  roots: ReadonlySet<string>,
): KeyRow[] {
  const keys = rowsOf(conn, kept, seqs);
  const out: KeyRow[] = [];
  for (const seq of seqs) {
    const key = keys.get(seq);
    if (key !== undefined && key.account_id === accountId && roots.has(key.root_uri)) out.push(key);
  }
  return out;
}

/**
 * The best `needed` FTS hits within the caller's roots, in rank order (light rows: no body).
 * `fromPhrases`, when given and not null, stands for the ranking of the whole index (`RANK_ALL`).
 */
function rankLexical(
  conn: Connection,
  match: string,
  accountId: string,
  roots: string,
  needed: number,
  kept: StateRows,
  fromPhrases?: (wanted: number) => Array<{ seq: number; raw: number }> | null,
): Array<SearchCandidate<number>> {
  const wanted = needed * OVERFETCH + 20;
  const rootSet = new Set(JSON.parse(roots) as string[]);
  let order =
    fromPhrases?.(wanted) ?? (conn.stmt(RANK_ALL).all(match, wanted) as Array<{ seq: number; raw: number }>);
  // The first `needed` are usually all in scope: look the others up only when some are not.
  let keys = keysInScope(
    conn,
    kept,
    order.slice(0, needed).map((r) => r.seq),
    accountId,
    rootSet,
  );
  if (keys.length < needed && order.length > needed) {
    const more = keysInScope(
      conn,
      kept,
      order.slice(needed).map((r) => r.seq),
      accountId,
      rootSet,
    );
    keys = [...keys, ...more];
  }
  if (keys.length < needed && order.length === wanted) {
    // Other accounts or roots crowd the top of the index: rank within the caller's scope exactly.
    order = conn.stmt(RANK_SCOPED).all(match, accountId, roots, needed) as Array<{
      seq: number;
      raw: number;
    }>;
    keys = keysInScope(
      conn,
      kept,
      order.map((r) => r.seq),
      accountId,
      rootSet,
    );
  }
  const bySeq = new Map(keys.map((key) => [key.seq, key]));
  const result: Array<SearchCandidate<number>> = [];
  for (const { seq, raw } of order) {
    const key = bySeq.get(seq);
    if (key !== undefined && result.length < needed) {
      result.push({ key: seq, name: key.name, rootUri: key.root_uri, lexical: raw });
    }
  }
  return result;
}

/**
 * Hits kept by {@link StateResults}, all queries together (~0.5 KB each); an answer counts one more
 * (so empty answers, the answer to any random text, are bounded too).
 */
const KEPT_RESULT_HITS = 4096;

/**
 * Longest key kept, characters: a query longer than this (rarely asked twice) is ranked every time,
 * so kept keys take at most ~8 MB per search connection however long the queries sent.
 */
const MAX_RESULT_KEY_LENGTH = 2048;

function resultWeight(result: KeptResult): number {
  return result.hits.length + 1;
}

/** A query's answer kept by {@link StateResults}. */
interface KeptResult {
  hits: SearchHit[];
  /** The phrases whose asks the query counts (see {@link PhraseScores.worthReading}); null: none. */
  phrases: string[] | null;
}

/**
 * The answers of recent lexical queries under one change token (that of
 * {@link PhraseScores.contentState}), by account, roots, query text and limit, at most
 * {@link KEPT_RESULT_HITS} hits in all (an answer counts one more; a key past
 * {@link MAX_RESULT_KEY_LENGTH} characters is not kept): a query asked again before the next write
 * (of any connection) is answered without ranking. An answer is a function of the stored skills and
 * those inputs only: the kept phrase relevance and the per-term lists give the bits of the
 * exhaustive ranking, so commits of search-index upkeep (which move the database state, not the
 * token) keep it, and kept rows are those of the same token. An answer that used the vocabulary for
 * typo tolerance is not kept (its slices may predate the state, see {@link TermCache}); nor are
 * semantic queries (the query vector is another input). Any write that moves the token empties it.
 */
export class StateResults {
  private state = -1;
  private hits = 0;
  private readonly byKey = new Map<string, KeptResult>();

  /** The answer kept for `key` under `state`, if any (a new state empties the answers first). */
  get(state: number, key: string): KeptResult | undefined {
    this.at(state);
    return this.byKey.get(key);
  }

  /** Keeps an answer given in `state` (the oldest answers make room; one too large is not kept). */
  set(state: number, key: string, result: KeptResult): void {
    this.at(state);
    const weight = resultWeight(result);
    if (weight > KEPT_RESULT_HITS || key.length > MAX_RESULT_KEY_LENGTH) return;
    const previous = this.byKey.get(key);
    if (previous !== undefined) {
      this.byKey.delete(key);
      this.hits -= resultWeight(previous);
    }
    while (this.hits + weight > KEPT_RESULT_HITS) {
      const [oldest, kept] = this.byKey.entries().next().value as [string, KeptResult];
      this.byKey.delete(oldest);
      this.hits -= resultWeight(kept);
    }
    this.byKey.set(key, result);
    this.hits += weight;
  }

  /** Number of answers kept (tests and diagnostics). */
  get size(): number {
    return this.byKey.size;
  }

  private at(state: number): void {
    if (state === this.state) return;
    this.byKey.clear();
    this.hits = 0;
    this.state = state;
  }
}

/**
 * `Store.search` on SQLite: produces the candidates of `find` and leaves their ranking to the
 * engine-neutral `ranking.ts`.
 *
 * 1. The query is tokenised and quoted (no FTS syntax reaches SQLite; an empty token list → no hits),
 *    stop words dropped, terms OR-ed, the last one also as a prefix. A query of stop words only
 *    searches name, tags and description (not overview and body). A run of Chinese, Japanese or
 *    Korean letters is the phrase of its bigrams, as the index stores such runs (`cjk-segment.ts`).
 * 2. Candidates: the best `limit × roots` FTS hits in the caller's scope (lexical relevance: negated
 *    BM25 with `FIELD_WEIGHTS`), plus skills whose name equals the query. The ranking adds up the
 *    relevance of each query phrase kept from earlier queries ({@link PhraseScores}: the same
 *    `bm25()` values, so the same hits in the same order) while the database is unchanged.
 * 3. With a query vector: the caller's skills with a stored vector of the same model are scored by
 *    `semanticMatches` (brute-force cosine over the in-memory {@link VectorCache}): the lexical
 *    candidates (then the best 50) whose meaning agrees gain semantic relevance, and skills that
 *    stand out by meaning alone are candidates too.
 * 4. `rankCandidates` fuses, ranks, de-duplicates across roots and cuts to `limit`; the kept rows are
 *    read (the columns a hit needs; the overview only when `toSearchHit` asks) and turned into hits by
 *    `toSearchHit`.
 *
 * @param terms - the connection's caches (vocabulary slices, phrase relevance)
 * @param options - `exhaustive`: score every match (the ranking the pruned one must equal; tests);
 *   `results`: answers kept per database state ({@link StateResults}), for a caller that never
 *   changes the hits it is given (they are kept and given again)
 * @returns hits, best first
 */
export function searchSkills(...args: Parameters<typeof searchSkillsAnswer>): SearchHit[] {
  return searchSkillsAnswer(...args).hits;
}

/**
 * {@link searchSkills}, with whether the hits may be given again while the change token is unchanged
 * (`Store.searchAnswer`): they may unless typo tolerance read the vocabulary, whose slices are kept
 * for minutes and may be older than the state searched. The semantic half is stable: the
 * {@link VectorCache} catches up inside the same read transaction.
 *
 * @returns the hits (as {@link searchSkills}) and `stable`
 */
export function searchSkillsAnswer(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  query: string,
  limit: number,
  semantic?: { query: SemanticQuery; cache: VectorCache },
  terms: TermCache = new TermCache(),
  options: { exhaustive?: boolean; results?: StateResults } = {},
): SearchAnswer {
  terms.scores.sync(conn);
  terms.scores.forgetListed();
  try {
    return findHits(conn, accountId, rootUris, query, limit, semantic, terms, options);
  } finally {
    terms.scores.forgetListed();
  }
}

/** {@link searchSkills} once the phrase cache is in the current state. */
function findHits(
  conn: Connection,
  accountId: string,
  rootUris: readonly string[],
  query: string,
  limit: number,
  semantic: { query: SemanticQuery; cache: VectorCache } | undefined,
  terms: TermCache,
  options: { exhaustive?: boolean; results?: StateResults },
): SearchAnswer {
  const max = Math.max(0, Math.floor(limit));
  const { results } = options;
  const resultKey =
    results === undefined || semantic !== undefined || options.exhaustive === true
      ? null
      : JSON.stringify([accountId, rootUris, query, max]);
  if (results !== undefined && resultKey !== null) {
    const kept = results.get(terms.scores.contentState, resultKey);
    if (kept !== undefined) {
      // Asked again: counted, and its phrases read, on the ask the ranking would read them, so later
      // states rank from kept relevance as they would have (a failed read leaves the rest unread).
      if (kept.phrases !== null && terms.scores.worthReading(kept.phrases)) {
        for (const phrase of kept.phrases) if (terms.scores.get(conn, phrase) === null) break;
      }
      return { hits: kept.hits, stable: true };
    }
  }
  const sliceAsks = terms.sliceAsks;
  const asked = parseSearchQuery(query);
  // Misspelt words are searched with their likely corrections too (not for stop-word-only queries).
  const fixes =
    asked.fields === SHORT_FIELDS
      ? []
      : typoCorrections(conn, terms, asked.tokens, asked.prefixLast, options.exhaustive !== true);
  const parsed = fixes.length === 0 ? asked : { ...asked, corrections: fixes };
  const columns = asked.fields === SHORT_FIELDS ? SHORT_FIELDS : undefined;
  const original = buildMatchExpression(asked.tokens, columns === undefined ? {} : { columns });
  const match =
    original === null || fixes.length === 0
      ? original
      : `${original} OR ${fixes.map((term) => `"${term}"`).join(' OR ')}`;
  // The same expression phrase by phrase (each token alone, the last one maybe as a prefix).
  const phrases = [
    ...asked.tokens.map((token, i) =>
      String(buildMatchExpression([token], { prefixLast: i === asked.tokens.length - 1 })),
    ),
    ...fixes.map((term) => `"${term}"`),
  ];
  if ((match === null && semantic === undefined) || max === 0 || rootUris.length === 0) {
    return { hits: [], stable: terms.sliceAsks === sliceAsks };
  }
  const roots = JSON.stringify(rootUris);
  const budget = candidateBudget(max, rootUris.length);

  // The phrases whose asks this query counted (kept with its answer).
  let counted: string[] | null = null;
  // With a query vector, more lexical candidates: their meaning may lift one into the top `limit`.
  const needed = semantic === undefined ? budget : Math.max(budget, SEMANTIC_CANDIDATES);
  const candidates: Array<SearchCandidate<number>> =
    match === null
      ? []
      : rankLexical(
          conn,
          match,
          accountId,
          roots,
          needed,
          terms.rows.at(terms.scores.contentState),
          // The kept phrase matches stand for the index's ranking when they add up to the same query.
          options.exhaustive === true || phraseQuery(phrases, columns) !== match
            ? undefined
            : (wanted) => {
                counted = phrases.map((phrase) => phraseQuery([phrase], columns));
                return rankFromPhrases(conn, terms.scores, counted, wanted, terms.scratch);
              },
        );
  if (semantic !== undefined) {
    semantic.cache.refresh(conn);
    const scoped = semantic.cache.inScope(accountId, new Set(rootUris), semantic.query.model);
    const matches = semanticMatches(semantic.query.vector, scoped, Math.max(budget, SEMANTIC_CANDIDATES), {
      lexicalKeys: new Set(candidates.map((c) => c.key)),
      ...(semantic.query.semanticOnlyMinZ !== undefined
        ? { semanticOnlyMinZ: semantic.query.semanticOnlyMinZ }
        : {}),
    });
    // The cache may lag a delete by a moment: keep only skills that are still in scope.
    const live = new Set(
      (
        conn.stmt(KEYS_IN_SCOPE).all(JSON.stringify(matches.map((m) => m.key)), accountId, roots) as KeyRow[]
      ).map((row) => row.seq),
    );
    for (const m of matches) {
      if (live.has(m.key))
        candidates.push({ key: m.key, name: m.name, rootUri: m.rootUri, lexical: 0, semantic: m.semantic });
    }
  }
  const named = conn.stmt(KEYS_BY_NAME).all(accountId, JSON.stringify(parsed.nameKeys), roots) as KeyRow[];
  for (const key of named)
    candidates.push({ key: key.seq, name: key.name, rootUri: key.root_uri, lexical: 0 });

  const top = rankCandidates(parsed, candidates, rootUris, max);
  const rowBySeq = rowsOf(
    conn,
    terms.rows.at(terms.scores.contentState),
    top.map((hit) => hit.key),
  );
  const hits = top.flatMap((hit) => {
    const row = rowBySeq.get(hit.key);
    if (row === undefined) return [];
    const overviewOf = () =>
      (conn.stmt(OVERVIEW_BY_SEQ).pluck(true).get(hit.key) as string | null | undefined) ?? null;
    return [toSearchHit(parsed, hit, toSearchSource(row), overviewOf)];
  });
  // Kept unless the vocabulary (possibly older than this state, see TermCache) was consulted for typos.
  const stable = terms.sliceAsks === sliceAsks;
  if (results !== undefined && resultKey !== null && stable) {
    results.set(terms.scores.contentState, resultKey, { hits, phrases: counted });
  }
  return { hits, stable };
}
