import { describe, expect, it } from 'vitest';
import {
  buildRankTerms,
  buildTsquery,
  buildTsqueryTerms,
  buildTsvector,
  buildTsvectorAsync,
  toLexeme,
} from '../../src/search/postgres-text.js';
import { parseSearchQuery } from '../../src/search/ranking.js';

const doc = (fields: Partial<Record<'name' | 'tags' | 'description' | 'overview' | 'body', string>>) => ({
  name: '',
  tags: '',
  description: '',
  overview: '',
  body: '',
  ...fields,
});

describe('postgres search text', () => {
  it.each([
    ['deploying', 'deploi'],
    ['Reports', 'report'],
    ['go', 'go'],
    ['小红', '小红'],
    ['a'.repeat(80), 'a'.repeat(64)],
  ])('lexeme of %j', (word, expected) => {
    expect(toLexeme(word.toLowerCase())).toBe(expected);
  });

  it('labels fields A–D, keeps positions apart between fields, folds case and diacritics', () => {
    const vector = buildTsvector(
      doc({ name: 'pdf', tags: 'docs', description: 'Café PDFs', body: 'the pdf' }),
    );
    expect(vector).toBe("'pdf':1A,8C,14D 'doc':4B 'cafe':7C 'the':13D");
  });

  it('splits on punctuation the way the SQLite index does (file names, paths, hyphens)', () => {
    expect(buildTsvector(doc({ body: 'report.pdf /usr/bin search-web' }))).toBe(
      "'report':9D 'pdf':10D 'usr':11D 'bin':12D 'search':13D 'web':14D",
    );
  });

  it('indexes CJK runs as bigrams and their last character', () => {
    expect(buildTsvector(doc({ description: '小红书' }))).toBe("'小红':5C '红书':6C '书':7C");
  });

  it('quotes lexemes safely (no tsvector syntax from user text)', () => {
    expect(buildTsvector(doc({ body: "it's a \\ test" }))).toBe("'it':9D 's':10D 'a':11D 'test':12D");
  });

  it('the chunked builder gives the same vector as the one-pass builder on a large mixed body', async () => {
    const body = Array.from(
      { length: 3000 },
      (_, i) => `Line ${i} deploying café 检查小红书登录状态${i % 7 === 0 ? 'x'.repeat(90) : ''} report.pdf`,
    ).join('\n');
    const big = doc({ name: 'big', description: 'Large', body });
    expect(await buildTsvectorAsync(big)).toBe(buildTsvector(big));
  });

  it.each([
    ['search webs', "'search' | 'web':*"],
    ['the', "'the':ABC"],
    ['小红书 mcp', "('小红' <-> '红书') | 'mcp':*"],
    ['书', "'书':*"],
    ['--', null],
  ])('tsquery of %j', (query, expected) => {
    expect(buildTsquery(parseSearchQuery(query))).toBe(expected);
  });

  it('one tsquery per token, for per-term ranking', () => {
    expect(buildTsqueryTerms(parseSearchQuery('deploying apps'))).toEqual(["'deploi'", "'app':*"]);
  });
});

describe('postgres rank terms', () => {
  it('gives the lexemes, prefixes and labels of the tsquery terms', () => {
    expect(buildRankTerms(parseSearchQuery('Searching webs'))).toEqual([
      { lexeme: 'search', prefix: false, labels: 0 },
      { lexeme: 'web', prefix: true, labels: 0 },
    ]);
    // Stop words only: name, tags and description (labels A, B, C).
    expect(buildRankTerms(parseSearchQuery('how to'))).toEqual([
      { lexeme: 'how', prefix: false, labels: 7 },
      { lexeme: 'to', prefix: false, labels: 7 },
    ]);
    expect(buildRankTerms(parseSearchQuery('小'))).toEqual([{ lexeme: '小', prefix: true, labels: 0 }]);
    expect(buildRankTerms(parseSearchQuery('小红'))).toEqual([{ lexeme: '小红', prefix: false, labels: 0 }]);
  });

  it('leaves phrases (CJK runs of three or more characters) to the vectors', () => {
    expect(buildRankTerms(parseSearchQuery('pdf 小红书'))).toBeNull();
  });
});
