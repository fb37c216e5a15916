import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { describeCorpus } from '../../../../scripts/test-corpus.js';
import { corpusDir, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;

/** Every corpus SKILL.md (as text) and the two Xiaohongshu MCP tools, added the way a client would. */
beforeAll(async () => {
  const skills = path.join(corpusDir(), 'skills');
  t = await startTestServer();
  let added = 0;
  for (const folder of readdirSync(skills).sort()) {
    const file = path.join(skills, folder, 'SKILL.md');
    if (!existsSync(file)) continue;
    const res = await t.request('POST', '/api/v1/skills', {
      body: { data: readFileSync(file, 'utf8'), wait: true },
    });
    // Some corpus files are refused on purpose (invalid, or a host path: 4xx); a 5xx is a failure.
    expect(res.status, `${folder}: ${res.text}`).toBeLessThan(500);
    if (res.status === 200) added++;
  }
  expect(added).toBeGreaterThan(50);
  for (const tool of ['050-xiaohongshu-check-login-status.json', '051-xiaohongshu-search-feeds-cjk.json']) {
    const data = JSON.parse(readFileSync(path.join(corpusDir(), 'mcp', tool), 'utf8')) as unknown;
    const res = await t.request('POST', '/api/v1/skills', { body: { data, wait: true } });
    expect(res.status, `${tool}: ${res.text}`).toBe(200);
  }
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describeCorpus('POST /api/v1/skills/find with Chinese, Japanese and Korean queries (real corpus)', () => {
  test.each([
    { query: '视频生成', name: 'aigc-director', why: '051, zh: part of the description' },
    { query: '分镜', name: 'aigc-director', why: '051, zh: a two-character word inside a run' },
    { query: '多資料庫查詢', name: 'ark-db-query', why: '031, zh-TW: start of the description' },
    { query: '資料庫連線', name: 'ark-db-query', why: '031, zh-TW: a trigger phrase' },
    { query: '新規作成', name: 'tool-command-creator', why: '033, ja: kanji inside kana' },
    { query: 'コマンドを直して', name: 'tool-command-creator', why: '033, ja: kana and kanji mixed' },
    { query: '小红书登录', name: 'check-login-status', why: 'MCP 050, zh: sub-phrase' },
    { query: '搜索小红书', name: 'search-feeds', why: 'MCP 051, zh: sub-phrase' },
    { query: '小红书 MCP', name: 'check-login-status', why: 'CJK and Latin words' },
  ])('$why: "$query" → $name in the top 3', async ({ query, name }) => {
    const res = await t.request('POST', '/api/v1/skills/find', { body: { query, limit: 10 } });
    expect(res.status, res.text).toBe(200);
    const skills = res.json.result.skills as Array<{ name: string; score: number; match_reason: string }>;
    const top = skills.slice(0, 3).map((s) => s.name);
    expect(top, JSON.stringify(skills.map((s) => [s.name, s.score]))).toContain(name);
    const hit = skills.find((s) => s.name === name);
    expect(hit?.match_reason).toBe('lexical');
    expect(hit?.score).toBeGreaterThan(0);
  });

  test.each(['检查小红书登录状态吗', '小红书登录了'])(
    'a sentence longer than any stored run is searched word by word: "%s" → check-login-status first',
    async (query) => {
      const res = await t.request('POST', '/api/v1/skills/find', { body: { query } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.result.skills[0]?.name).toBe('check-login-status');
    },
  );
});
