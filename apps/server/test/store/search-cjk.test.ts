import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { makeWrite, openTempStore, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** Skills with unbroken runs of Chinese, Japanese and Korean text in every searchable field. */
const SKILLS = [
  { name: 'check-login-status', description: '检查小红书登录状态', tags: ['xiaohongshu'] },
  { name: 'search-feeds', description: '搜索小红书内容（需要已登录）', tags: ['xiaohongshu'] },
  {
    name: 'publish-note',
    description: 'Publish a note',
    body: '# publish\n\n发布图文笔记到平台，支持 MCP 调用。\n',
  },
  { name: 'db-query-tw', description: '多資料庫查詢工具箱，統一回傳 JSON 契約' },
  { name: 'command-creator-ja', description: 'Cursor のスラッシュコマンドを新規作成・改訂するスキル' },
  { name: 'login-ko', description: '로그인 상태를 확인합니다', tags: ['한국어'] },
  { name: '笔记助手', description: 'Helper for notes', body: '# helper\n\nHelps.\n' },
  { name: 'tagged-only', description: 'Only its tag is Chinese', tags: ['数据分析'] },
  { name: 'mixed-latin', description: '小红书MCP服务器' },
  { name: 'half-width', description: 'ﾛｸﾞｲﾝ画面を開く' },
  { name: 'plain', description: 'Search the web for current information' },
];

async function seeded(): Promise<Store> {
  const temp = openTempStore();
  cleanup = temp.cleanup;
  for (const skill of SKILLS) await temp.store.putSkill(makeWrite(skill));
  return temp.store;
}

describe(`${TEST_ENGINE} store: search of Chinese, Japanese and Korean text`, () => {
  it.each([
    {
      why: 'zh: a sub-phrase of the description',
      query: '小红书',
      found: ['check-login-status', 'search-feeds', 'mixed-latin'],
      fields: ['description'],
    },
    { why: 'zh: a run at the end of the text', query: '状态', found: ['check-login-status'] },
    // Found by its body; matchedFields never lists the body.
    { why: 'zh: in the body', query: '图文笔记', found: ['publish-note'], fields: [] },
    { why: 'zh: in a tag', query: '分析', found: ['tagged-only'], fields: ['tags'] },
    { why: 'zh: in the name', query: '助手', found: ['笔记助手'], fields: ['name'] },
    { why: 'zh-tw: traditional characters', query: '資料庫查詢', found: ['db-query-tw'] },
    { why: 'zh-tw: simplified does not match traditional', query: '资料库', found: [] },
    {
      why: 'ja: katakana',
      query: 'スラッシュコマンド',
      found: ['command-creator-ja'],
      fields: ['description'],
    },
    { why: 'ja: kana and kanji mixed', query: '新規作成', found: ['command-creator-ja'] },
    { why: 'ja: kanji and hiragana across a boundary', query: 'ドを新規', found: ['command-creator-ja'] },
    {
      why: 'ja: half-width katakana in the text, full width in the query',
      query: 'ログイン画面',
      found: ['half-width'],
    },
    { why: 'ko: part of a word', query: '로그인', found: ['login-ko'], fields: ['description'] },
    { why: 'ko: part of a word with its particle', query: '상태', found: ['login-ko'] },
    { why: 'ko: a tag', query: '한국', found: ['login-ko'], fields: ['tags'] },
    {
      why: 'single character (start of a bigram)',
      query: '登',
      found: ['check-login-status', 'search-feeds'],
    },
    {
      why: 'single character (last of its run)',
      query: '态',
      found: ['check-login-status'],
      fields: ['description'],
    },
  ])('$why: "$query"', async ({ query, found, fields }) => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], query, { limit: 20 });
    expect(hits.map((hit) => hit.skill.name).sort()).toEqual([...found].sort());
    for (const hit of hits) {
      expect(hit.matchReason).toBe(hit.skill.name === query ? 'name' : 'lexical');
      expect(hit.score).toBeGreaterThan(0);
      if (fields !== undefined) expect(hit.matchedFields).toEqual(fields);
      else expect(hit.matchedFields.length).toBeGreaterThan(0);
    }
  });

  it.each([
    {
      why: 'CJK and Latin words, separated',
      query: '小红书 MCP',
      first: 'mixed-latin',
      also: ['check-login-status', 'search-feeds', 'publish-note'],
    },
    {
      why: 'CJK and Latin words, touching',
      query: '小红书MCP',
      first: 'mixed-latin',
      also: ['check-login-status', 'search-feeds', 'publish-note'],
    },
    {
      why: 'two CJK words',
      query: '小红书 登录',
      first: 'check-login-status',
      also: ['search-feeds', 'mixed-latin'],
    },
    {
      why: 'a run of five characters: the phrase, then its words',
      query: '小红书登录',
      first: 'check-login-status',
      also: ['search-feeds'],
    },
    {
      why: 'the whole stored run',
      query: '检查小红书登录状态',
      first: 'check-login-status',
      also: ['search-feeds'],
    },
    {
      why: 'a sentence longer than the stored run (searched word by word)',
      query: '检查小红书登录状态吗',
      first: 'check-login-status',
      also: ['search-feeds'],
    },
    {
      why: 'words in another order than stored',
      query: '登录小红书',
      first: 'check-login-status',
      also: ['search-feeds'],
    },
  ])('ranks text with all of the query first ($why)', async ({ query, first, also }) => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], query, { limit: 20 });
    expect(hits[0]?.skill.name).toBe(first);
    expect(hits.map((hit) => hit.skill.name).sort()).toEqual([first, ...also].sort());
  });

  it('reports every field holding the run, and CJK-touching Latin words as words', async () => {
    const store = await seeded();
    const [mixed] = await store
      .search('acme', [USER_ROOT], 'mcp', { limit: 20 })
      .then((hits) => hits.filter((hit) => hit.skill.name === 'mixed-latin'));
    expect(mixed?.matchedFields).toEqual(['description']);
    const [named] = await store.search('acme', [USER_ROOT], '笔记助手', { limit: 5 });
    expect(named).toMatchObject({ matchReason: 'name', matchedFields: ['name'] });
    expect(named?.skill.name).toBe('笔记助手');
  });

  it('keeps Latin search as it was', async () => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], 'search web', { limit: 20 });
    expect(hits[0]).toMatchObject({ matchedFields: ['description'], matchReason: 'lexical' });
    expect(hits[0]?.skill.name).toBe('plain');
  });

  it('finds a skill again after an update changes its CJK text, and not by the old text', async () => {
    const store = await seeded();
    await store.putSkill(makeWrite({ name: 'check-login-status', description: '退出账号' }));
    const old = await store.search('acme', [USER_ROOT], '登录状态', { limit: 20 });
    expect(old.map((hit) => hit.skill.name)).toEqual([]);
    const now = await store.search('acme', [USER_ROOT], '账号', { limit: 20 });
    expect(now.map((hit) => hit.skill.name)).toEqual(['check-login-status']);
  });
});
