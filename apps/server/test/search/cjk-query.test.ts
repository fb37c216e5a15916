import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CJK_PHRASE, segmentCjkWords, tokenizeQuery } from '../../src/search/fts-query.js';
import { makeWrite, openTempStore, USER_ROOT } from '../store/helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('natural-language CJK queries', () => {
  it('segments a Chinese or Japanese sentence into words of two or more characters', () => {
    expect(segmentCjkWords('从报名的人里随机抽取三个幸运中奖者')).toEqual([
      '报名',
      '随机',
      '抽取',
      '幸运',
      '中奖',
    ]);
    expect(segmentCjkWords('音声を文字起こしする')).toEqual(expect.arrayContaining(['音声', '文字']));
    expect(segmentCjkWords('音声を文字起こしする')).not.toContain('を');
  });

  it('keeps short runs as one phrase and adds the words of long ones after the whole run', () => {
    expect(tokenizeQuery('小红书 mcp')).toEqual(['小红书', 'mcp']);
    expect(Array.from('小红书登录').length).toBeGreaterThan(MAX_CJK_PHRASE);
    const tokens = tokenizeQuery('检查小红书登录状态');
    expect(tokens[0]).toBe('检查小红书登录状态');
    expect(tokens).toEqual(expect.arrayContaining(['检查', '登录', '状态']));
  });

  it('a need written as a Chinese sentence finds a skill described in Chinese in other words', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.putSkill(
      makeWrite({ name: 'lucky-draw', description: '抽奖工具：从名单中随机抽取中奖者' }),
    );
    await temp.store.putSkill(makeWrite({ name: 'login-check', description: '检查小红书登录状态' }));
    await temp.store.putSkill(makeWrite({ name: 'notes', description: 'Keep notes' }));
    const hits = await temp.store.search('acme', [USER_ROOT], '从报名的人里随机抽取三个幸运中奖者', {
      limit: 5,
    });
    expect(hits[0]?.skill.name).toBe('lucky-draw');
    expect(hits[0]?.matchedFields).toContain('description');
    // The exact phrase still ranks first for a sub-phrase query.
    const phrase = await temp.store.search('acme', [USER_ROOT], '小红书登录状态', { limit: 5 });
    expect(phrase[0]?.skill.name).toBe('login-check');
  });
});
