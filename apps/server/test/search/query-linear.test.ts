// A find query may be as long as the JSON body allows (4 MiB by default): reading it into tokens must
// cost linear time. Keeping tokens unique with `Array.includes` made a query of 125,000 distinct words
// (1 MB) hold a search reader for over 100 s of CPU.
import { describe, expect, it } from 'vitest';
import { findSuperLinearRung } from '../../../../scripts/test-support/linear-growth.js';
import { MAX_SEGMENTED_QUERY_CHARS, segmentCjkWords, tokenizeQuery } from '../../src/search/fts-query.js';
import { parseSearchQuery } from '../../src/search/ranking.js';

/** `n` characters of distinct words: `w0x w1x w2x …`. */
const distinctWords = (n: number): string =>
  Array.from({ length: Math.ceil(n / 7) }, (_, i) => `w${i}x`)
    .join(' ')
    .slice(0, n);

/** `n` characters of distinct two-character Chinese words separated by full stops. */
const distinctCjk = (n: number): string =>
  Array.from(
    { length: Math.ceil(n / 3) },
    (_, i) =>
      `${String.fromCodePoint(0x4e00 + (i % 20_000))}${String.fromCodePoint(0x4e00 + ((i * 7 + 3) % 20_000))}。`,
  )
    .join('')
    .slice(0, n);

describe('find query parsing is linear in the query length', () => {
  it.each([
    ['distinct words', distinctWords],
    ['distinct CJK words', distinctCjk],
    ['one CJK run of distinct words', (n: number) => distinctCjk(n).replaceAll('。', '')],
  ])('%s', (_label, build) => {
    expect(findSuperLinearRung(parseSearchQuery, build, { from: 4096, to: 1024 * 1024 })).toBeNull();
  });

  it('segmenting one long CJK run', () => {
    const run = (n: number) => distinctCjk(n).replaceAll('。', '');
    expect(findSuperLinearRung(segmentCjkWords, run, { from: 4096, to: 256 * 1024 })).toBeNull();
  });

  it('keeps the first tokens in order, unique, at most 16', () => {
    expect(tokenizeQuery(`${distinctWords(50_000)} w0x w1x`)).toEqual(
      Array.from({ length: 16 }, (_, i) => `w${i}x`),
    );
    expect(tokenizeQuery('pdf PDF report pdf report')).toEqual(['pdf', 'report']);
  });
});

describe('long CJK queries', () => {
  it('split words only from the first MAX_SEGMENTED_QUERY_CHARS CJK characters, and still find the run', () => {
    const sentence = '从报名的人里随机抽取三个幸运中奖者';
    const filler = '中文测试'.repeat(MAX_SEGMENTED_QUERY_CHARS);
    expect(tokenizeQuery(`${filler} ${sentence}`)).toEqual(
      tokenizeQuery(`${filler} ${filler}`).concat(sentence),
    );
    expect(tokenizeQuery(sentence)).toEqual([sentence, ...segmentCjkWords(sentence)]);
  });

  it('a megabyte of one repeated CJK phrase costs about as much per character as a short one', () => {
    expect(
      findSuperLinearRung(tokenizeQuery, (n) => '中文测试'.repeat(n / 4), {
        from: 4096,
        to: 1024 * 1024,
        maxRatio: 32,
      }),
    ).toBeNull();
  });
});
