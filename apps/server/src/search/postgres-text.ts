import { stemmer } from 'stemmer';
import { hasCjk, isCjkToken, splitCjkRuns } from './cjk-segment.js';
import { MAX_TOKEN_LENGTH } from './fts-query.js';
import type { SearchQuery } from './ranking.js';
import type { SearchField } from './score.js';
import type { SearchDocument } from './search-document.js';

/**
 * The text of the PostgreSQL search index, tokenised in JavaScript so both engines see the same words.
 *
 * PostgreSQL's own parser (`to_tsvector`) splits text differently from SQLite's `unicode61`
 * (`report.pdf` is one "file" token there; non-ASCII letters depend on the database's `LC_CTYPE`), so
 * the server builds the `tsvector` itself, the way the SQLite index tokenises: words are runs of
 * letters and digits, case and diacritics folded, Porter-stemmed (the `simple` configuration plus
 * stemming: no stop words are dropped, so a name like `the-end` stays findable), runs of Chinese,
 * Japanese and Korean letters indexed as overlapping bigrams (`cjk-segment.ts`). Each field carries a
 * weight label: name `A`, tags `B`, description `C`, overview and body `D`.
 */

/** The `tsvector` weight label of each field. */
export const FIELD_LABELS: Readonly<Record<SearchField, 'A' | 'B' | 'C' | 'D'>> = {
  name: 'A',
  tags: 'B',
  description: 'C',
  overview: 'D',
  body: 'D',
};

const LABELS = ['A', 'B', 'C', 'D'] as const;
const LABEL_INDEX = { A: 0, B: 1, C: 2, D: 3 } as const;

/** Largest position PostgreSQL keeps in a `tsvector` (later words share it). */
const MAX_POSITION = 16_383;
/** Most positions PostgreSQL keeps per lexeme. */
const MAX_POSITIONS_PER_LEXEME = 256;
/** Positions skipped between fields, so a phrase never spans two fields. */
const FIELD_GAP = 2;

const ASCII = /^[\x00-\x7f]*$/;
/** Letters, digits and combining marks (marks are folded away per word, after NFKD). */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_WORD = /[a-z0-9]+/g;
/** First code unit of a CJK token (bigrams made here start with a CJK letter; see `cjk-segment.ts`). */
const CJK_START =
  /^[\u1100-\u11ff\u3005-\u3007\u3021-\u3029\u3031-\u303b\u3040-\u30ff\u3131-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uffdc\ud81b\ud82c\ud840-\ud8bf]/;
const SAFE_LEXEME = /^[^'\\]*$/;
const LETTERS = /[\p{L}\p{N}]+/gu;
const MARKS = /\p{M}/gu;

/** Case and diacritic folding of one non-CJK word, as `unicode61 remove_diacritics 2` does. */
function foldWord(word: string): string {
  return ASCII.test(word) ? word.toLowerCase() : word.normalize('NFKD').replace(MARKS, '').toLowerCase();
}

/** Stems by word: a registry's vocabulary repeats heavily, and stemming costs ~3 µs per call. */
const stems = new Map<string, string>();
/** Entries kept before the cache starts over (bounds memory: ~10 MB of short strings). */
const MAX_CACHED_STEMS = 100_000;

function stem(word: string): string {
  let out = stems.get(word);
  if (out === undefined) {
    out = stemmer(word);
    if (stems.size >= MAX_CACHED_STEMS) stems.clear();
    stems.set(word, out);
  }
  return out;
}

/**
 * The index lexeme of one folded word: cut to `MAX_TOKEN_LENGTH` characters, then Porter-stemmed when
 * it has 3 or more characters (as SQLite's `porter` tokenizer does); CJK tokens are kept as they are.
 *
 * @param word - a folded word, or a CJK bigram/character
 * @returns the lexeme
 */
export function toLexeme(word: string): string {
  if (ASCII.test(word)) {
    const cut = word.length > MAX_TOKEN_LENGTH ? word.slice(0, MAX_TOKEN_LENGTH) : word;
    return cut.length < 3 ? cut : stem(cut);
  }
  if (isCjkToken(word)) return word;
  const chars = Array.from(word);
  const cut = chars.length > MAX_TOKEN_LENGTH ? chars.slice(0, MAX_TOKEN_LENGTH).join('') : word;
  return cut.length < 3 ? cut : stem(cut);
}

/** The lexemes of one field's text, in order. */
function fieldLexemes(text: string): string[] {
  if (text === '') return [];
  let words: string[];
  if (ASCII.test(text)) {
    words = text.toLowerCase().match(ASCII_WORD) ?? [];
  } else if (!hasCjk(text)) {
    // Fold the whole field once (cheaper than per word); NFKD is safe here: no Hangul to decompose.
    words = text.normalize('NFKD').replace(MARKS, '').toLowerCase().match(LETTERS) ?? [];
  } else {
    // As `segmentForIndex` would index it, without a regular expression per token: each word is cut
    // into its CJK runs (→ overlapping bigrams, then the run's last character) and the rest (folded).
    words = [];
    for (const word of text.match(WORD) ?? []) {
      for (const part of splitCjkRuns(word)) {
        if (isCjkToken(part)) {
          const chars = Array.from(part);
          for (let i = 0; i + 1 < chars.length; i++) words.push(`${chars[i]}${chars[i + 1]}`);
          words.push(chars[chars.length - 1] as string);
          continue;
        }
        const folded = foldWord(part);
        if (folded !== '') words.push(folded);
      }
    }
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      // CJK bigrams and characters are lexemes as they are; the rest is cut and stemmed.
      if (!CJK_START.test(word)) words[i] = toLexeme(word);
    }
    return words;
  }
  for (let i = 0; i < words.length; i++) words[i] = toLexeme(words[i] as string);
  return words;
}

/** Quotes a lexeme for `tsvector`/`tsquery` input. */
function quote(lexeme: string): string {
  if (SAFE_LEXEME.test(lexeme)) return `'${lexeme}'`;
  return `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}

/**
 * The `tsvector` of a search document, as input text (cast with `::tsvector`): every lexeme with its
 * positions and field labels.
 *
 * @param doc - from `buildSearchDocument`
 * @returns e.g. `'search':1A 'web':2A,9C …`; `''` for an empty document
 * @example
 * ```ts
 * buildTsvector({ name: 'pdf', tags: '', description: 'Reads PDFs', overview: '', body: '' });
 * // "'pdf':1A,6C 'read':5C"
 * ```
 */
export function buildTsvector(doc: SearchDocument): string {
  const builder = new TsvectorBuilder();
  for (const field of FIELD_ORDER) {
    builder.add(doc[field], LABEL_INDEX[FIELD_LABELS[field]]);
    builder.endField();
  }
  return builder.toString();
}

/**
 * Characters of field text tokenised between two yields to the event loop (a few ms of work; CJK
 * text, two tokens per character, is the slowest). A run of letters longer than this plus
 * {@link MAX_BOUNDARY_SEARCH} is cut (only hostile text has one).
 */
const CHUNK_LENGTH = 2048;
/** How far past a chunk's end a word boundary is looked for. */
const MAX_BOUNDARY_SEARCH = 256;
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/**
 * {@link buildTsvector} for large documents without holding the event loop: the text is tokenised
 * in chunks of about {@link CHUNK_LENGTH} characters, cut between words, yielding in between (a
 * 100 000-character body is a few dozen milliseconds of work).
 *
 * @param doc - from `buildSearchDocument`
 * @returns the same text as {@link buildTsvector}
 */
export async function buildTsvectorAsync(doc: SearchDocument): Promise<string> {
  const builder = new TsvectorBuilder();
  for (const field of FIELD_ORDER) {
    const text = doc[field];
    const label = LABEL_INDEX[FIELD_LABELS[field]];
    let start = 0;
    while (start < text.length) {
      let end = Math.min(text.length, start + CHUNK_LENGTH);
      const limit = Math.min(text.length, end + MAX_BOUNDARY_SEARCH);
      while (end < limit && WORD_CHAR.test(text[end] as string)) end++;
      builder.add(start === 0 && end === text.length ? text : text.slice(start, end), label);
      start = end;
      if (start < text.length) await new Promise<void>((resolve) => setImmediate(resolve));
    }
    builder.endField();
  }
  return builder.toString();
}

const FIELD_ORDER = ['name', 'tags', 'description', 'overview', 'body'] as const;

/** Accumulates lexeme positions field by field, then prints the `tsvector` text. */
class TsvectorBuilder {
  // Per lexeme, its positions as numbers (position × 4 + label index), turned into text once at the end.
  private readonly positions = new Map<string, number[]>();
  private position = 0;

  add(text: string, label: number): void {
    for (const lexeme of fieldLexemes(text)) {
      if (this.position < MAX_POSITION) this.position++;
      const entry = this.position * 4 + label;
      const list = this.positions.get(lexeme);
      if (list === undefined) this.positions.set(lexeme, [entry]);
      else if (list.length < MAX_POSITIONS_PER_LEXEME) list.push(entry);
    }
  }

  endField(): void {
    this.position = Math.min(this.position + FIELD_GAP, MAX_POSITION);
  }

  toString(): string {
    const parts: string[] = [];
    for (const [lexeme, list] of this.positions) {
      let text = `${quote(lexeme)}:`;
      for (let i = 0; i < list.length; i++) {
        const entry = list[i] as number;
        text += `${i === 0 ? '' : ','}${entry >> 2}${LABELS[entry & 3]}`;
      }
      parts.push(text);
    }
    return parts.join(' ');
  }
}

/**
 * The `tsquery` of a parsed `find` query (cast with `::tsquery`): the tokens' lexemes OR-ed, the last
 * one also as a prefix (`:*`) when `prefixLast`; a CJK run of n ≥ 2 characters is the phrase of its
 * bigrams (`'小红' <-> '红书'`), one CJK character a prefix; when the query searches only the short
 * fields, every term is restricted to labels `A`, `B`, `C`.
 *
 * @param query - from `parseSearchQuery`
 * @returns the query text, or null when there are no tokens
 * @example
 * ```ts
 * buildTsquery(parseSearchQuery('search webs')); // "'search' | 'web':*"
 * ```
 */
export function buildTsquery(query: SearchQuery): string | null {
  const terms = buildTsqueryTerms(query);
  return terms.length === 0 ? null : terms.join(' | ');
}

/**
 * The `tsquery` of each token of a parsed query, in token order (what {@link buildTsquery} OR-s),
 * so each term can be ranked and weighted by its rarity on its own.
 *
 * @param query - from `parseSearchQuery`
 * @returns one `tsquery` text per token (empty when there are no tokens)
 */
export function buildTsqueryTerms(query: SearchQuery): string[] {
  const { tokens } = query;
  const labels =
    query.fields.length < 5 ? [...new Set(query.fields.map((f) => FIELD_LABELS[f]))].join('') : '';
  return tokens.map((token, index) => {
    if (isCjkToken(token)) {
      const chars = Array.from(token);
      if (chars.length === 1) return `${quote(token)}:*${labels}`;
      const bigrams: string[] = [];
      for (let i = 0; i + 1 < chars.length; i++) {
        bigrams.push(`${quote(`${chars[i]}${chars[i + 1]}`)}${labels ? `:${labels}` : ''}`);
      }
      return bigrams.length === 1 ? (bigrams[0] as string) : `(${bigrams.join(' <-> ')})`;
    }
    const lexeme = quote(toLexeme(foldWord(token)));
    const prefix = index === tokens.length - 1 && query.prefixLast;
    if (prefix) return `${lexeme}:*${labels}`;
    return labels ? `${lexeme}:${labels}` : lexeme;
  });
}

/** Bit of each field label in `skill_terms.labels` (PostgreSQL migration 4). */
const LABEL_BITS = { A: 1, B: 2, C: 4, D: 8 } as const;

/** One query term as `skill_terms` looks it up (see {@link buildRankTerms}). */
export interface RankTerm {
  /** The lexeme, or the prefix of the lexemes, the term matches. */
  lexeme: string;
  /** Whether every lexeme starting with `lexeme` matches (the tsquery's `:*`). */
  prefix: boolean;
  /** Field-label bits a match must carry somewhere (A 1, B 2, C 4, D 8); 0 = any field. */
  labels: number;
}

/**
 * The terms of {@link buildTsqueryTerms} as `skill_terms` rows are looked up: the same lexemes,
 * prefixes and field labels, unquoted.
 *
 * @param query - from `parseSearchQuery`
 * @returns one term per token, in token order; null when a token is a phrase (a CJK run of three or
 *   more characters: ranked from the stored vector, which has the positions a phrase needs)
 */
export function buildRankTerms(query: SearchQuery): RankTerm[] | null {
  const { tokens } = query;
  const labels =
    query.fields.length < 5
      ? [...new Set(query.fields.map((f) => FIELD_LABELS[f]))].reduce((bits, l) => bits | LABEL_BITS[l], 0)
      : 0;
  const terms: RankTerm[] = [];
  for (const [index, token] of tokens.entries()) {
    if (isCjkToken(token)) {
      // One character: a prefix; two: one bigram; more: a phrase of bigrams.
      const length = Array.from(token).length;
      if (length > 2) return null;
      terms.push({ lexeme: token, prefix: length === 1, labels });
      continue;
    }
    const prefix = index === tokens.length - 1 && query.prefixLast;
    terms.push({ lexeme: toLexeme(foldWord(token)), prefix, labels });
  }
  return terms;
}
