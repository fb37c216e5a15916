import { describe, expect, it } from 'vitest';
import { cjkMatchTerm, hasCjk, segmentForIndex, splitCjkRuns } from '../../src/search/cjk-segment.js';
import { buildMatchExpression, tokenizeQuery } from '../../src/search/fts-query.js';

describe('CJK segmentation', () => {
  it.each([
    { text: 'plain ascii, unchanged', out: 'plain ascii, unchanged' },
    { text: 'café déjà-vu', out: 'café déjà-vu' },
    { text: '书', out: ' 书 ' },
    { text: '检查小红书登录', out: ' 检查 查小 小红 红书 书登 登录 录 ' },
    { text: 'AI视频生成', out: 'AI 视频 频生 生成 成 ' },
    { text: '小红书MCP服务', out: ' 小红 红书 书 MCP 服务 务 ' },
    { text: '新規作成・改訂', out: ' 新規 規作 作成 成 ・ 改訂 訂 ' },
    { text: 'スラッシュ', out: ' スラ ラッ ッシ シュ ュ ' },
    { text: 'ﾛｸﾞｲﾝ', out: ' ログ グイ イン ン ' },
    { text: '로그인 상태를', out: ' 로그 그인 인   상태 태를 를 ' },
    { text: '⺀ radical', out: '⺀ radical' },
  ])('indexes "$text" as "$out"', ({ text, out }) => {
    expect(segmentForIndex(text)).toBe(out);
  });

  it.each([
    { text: 'ascii only', cjk: false },
    { text: 'an em dash — and café', cjk: false },
    { text: 'a Kangxi radical ⺀ is not a letter', cjk: false },
    { text: 'Chinese 中', cjk: true },
    { text: 'Extension B 𠀀', cjk: true },
    { text: 'half-width ﾛ', cjk: true },
    { text: 'hangul 한', cjk: true },
    { text: 'hiragana あ', cjk: true },
  ])('hasCjk("$text") is $cjk', ({ text, cjk }) => {
    expect(hasCjk(text)).toBe(cjk);
  });

  it.each([
    { word: 'mcp', parts: ['mcp'] },
    { word: '小红书mcp', parts: ['小红书', 'mcp'] },
    { word: 'ai视频ai', parts: ['ai', '视频', 'ai'] },
    { word: 'ﾛｸﾞｲﾝ', parts: ['ログイン'] },
  ])('splits "$word" into $parts', ({ word, parts }) => {
    expect(splitCjkRuns(word)).toEqual(parts);
  });

  it.each([
    { token: '书', term: '"书"*' },
    { token: '登录', term: '"登录"' },
    { token: '小红书登录', term: '"小红 红书 书登 登录"' },
  ])('searches "$token" as $term', ({ token, term }) => {
    expect(cjkMatchTerm(token)).toBe(term);
  });

  it.each([
    { query: '小红书', match: '"小红 红书"' },
    { query: '小红书 MCP', match: '"小红 红书" OR "mcp"*' },
    { query: '小红书MCP', match: '"小红 红书" OR "mcp"*' },
    { query: '书 登录', match: '"书"* OR "登录"' },
    { query: '登录 the', match: '"登录"' },
    { query: 'search web', match: '"search" OR "web"*' },
  ])('builds the MATCH expression of "$query"', ({ query, match }) => {
    expect(buildMatchExpression(tokenizeQuery(query))).toBe(match);
  });
});
