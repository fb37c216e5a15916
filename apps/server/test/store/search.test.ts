import { afterEach, describe, expect, it } from 'vitest';
import { LEXICAL_MATCH_FLOOR, normaliseScore, SCORE_HALF_POINT } from '../../src/search/score.js';
import type { Store } from '../../src/store/types.js';
import { TEST_ENGINE } from '../helpers/engine.js';
import { AGENT_ROOT, makeWrite, openTempStore, TEST_CLAIM, USER_ROOT } from './helpers.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function seeded(): Promise<Store> {
  const temp = openTempStore();
  cleanup = temp.cleanup;
  const { store } = temp;
  const skills = [
    { name: 'calculator', description: 'Perform mathematical calculations', tags: ['math'] },
    {
      name: 'notes',
      description: 'Keep notes in a notebook',
      body: '# notes\n\nWrite down what the calculator said, or anything else worth remembering.\n',
    },
    { name: 'search-web', description: 'Search the web for current information', tags: ['web', 'research'] },
    { name: 'pdf-tools', description: 'Extract text and tables from PDF files', tags: ['documents', 'pdf'] },
    { name: 'cafe-finder', description: 'Find a café nearby', tags: ['food'] },
    {
      name: 'deploy',
      description: 'Deploy services to production',
      body: '# deploy\n\nRuns the deployment pipeline.\n',
    },
  ];
  for (const s of skills) await store.putSkill(makeWrite(s));
  return store;
}

describe(`${TEST_ENGINE} store: search`, () => {
  it('ranks a name hit above a body hit, and reports the exact name match', async () => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], 'calculator', { limit: 10 });
    expect(hits.map((h) => h.skill.name)).toEqual(['calculator', 'notes']);
    // 'calculations' in the description stems like 'calculator'. Both bodies hold the word too, but
    // matchedFields never lists the body (a body match is level 2, the level of a hit without any
    // lower-level match): 'notes' matched in its body alone.
    expect(hits[0]).toMatchObject({ matchReason: 'name', matchedFields: ['name', 'description'] });
    expect(hits[1]).toMatchObject({ matchReason: 'lexical', matchedFields: [] });
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? 1);
  });

  it("carries the skill's listed fields, not its body, frontmatter or overview (a body-only match lists no field)", async () => {
    const store = await seeded();
    const [hit] = await store.search('acme', [USER_ROOT], 'pipeline', { limit: 10 });
    const stored = await store.getSkill('acme', USER_ROOT, 'deploy');
    expect(hit?.skill.name).toBe('deploy');
    expect(hit?.matchedFields).toEqual([]);
    expect(hit?.skill).toStrictEqual({
      name: 'deploy',
      rootUri: USER_ROOT,
      description: 'Deploy services to production',
      tags: stored?.tags,
      allowedTools: stored?.allowedTools,
      revision: stored?.revision,
      updatedAt: stored?.updatedAt,
    });
  });

  it.each([
    { query: 'calc', first: 'calculator', why: 'prefix of the last term' },
    { query: 'Search Web', first: 'search-web', why: 'kebab-case of the query is the name' },
    { query: 'search_web', first: 'search-web', why: 'snake_case spelling of the name' },
    { query: 'web research', first: 'search-web', why: 'tags' },
    { query: 'cafe', first: 'cafe-finder', why: 'diacritics folded' },
    { query: 'deploying', first: 'deploy', why: 'stemming' },
    { query: 'PDF tables', first: 'pdf-tools', why: 'case-insensitive, several fields' },
  ])('finds $first for "$query" ($why)', async ({ query, first }) => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], query, { limit: 10 });
    expect(hits[0]?.skill.name).toBe(first);
  });

  it('returns scores in [0, 1], descending, cut to the limit', async () => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], 'the web search calculator notes pdf', { limit: 3 });
    expect(hits).toHaveLength(3);
    for (const [i, hit] of hits.entries()) {
      expect(hit.score).toBeGreaterThan(0);
      expect(hit.score).toBeLessThanOrEqual(1);
      if (i > 0) expect(hit.score).toBeLessThanOrEqual(hits[i - 1]?.score ?? 1);
    }
  });

  it('reports every matched field but the body in field order', async () => {
    const store = await seeded();
    const [hit] = await store.search('acme', [USER_ROOT], 'pdf', { limit: 1 });
    expect(hit?.matchedFields).toEqual(['name', 'tags', 'description']);
  });

  it.each([
    '"foo OR',
    '*',
    'NEAR(a b)',
    'name:calculator',
    '-',
    ')(',
    '^calc',
    'a AND',
    '"',
    "'; DROP TABLE skills; --",
    '{name}:x',
  ])('treats FTS syntax in %j as plain text', async (query) => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], query, { limit: 10 });
    expect(Array.isArray(hits)).toBe(true);
  });

  it('searches only name, tags and description for a query of stop words', async () => {
    const store = await seeded();
    const hits = await store.search('acme', [USER_ROOT], 'The', { limit: 10 });
    // 'notes' has "the" only in its body; 'search-web' in its description.
    expect(hits.map((h) => [h.skill.name, h.matchedFields])).toEqual([['search-web', ['description']]]);
  });

  it('finds by words inside operator-like input', async () => {
    const store = await seeded();
    expect((await store.search('acme', [USER_ROOT], 'name:calculator', { limit: 1 }))[0]?.skill.name).toBe(
      'calculator',
    );
    expect(await store.search('acme', [USER_ROOT], '*', { limit: 10 })).toEqual([]);
    expect(await store.search('acme', [USER_ROOT], 'zzzunknownword', { limit: 10 })).toEqual([]);
  });

  it('searches only the given roots of the given account, and keeps one hit per name (first root wins)', async () => {
    const store = await seeded();
    await store.putSkill(
      makeWrite({ name: 'calculator', rootUri: AGENT_ROOT, description: 'Agent calculator' }),
    );
    await store.putSkill(makeWrite({ name: 'abacus', rootUri: AGENT_ROOT, description: 'Old calculator' }));
    await store.putSkill(makeWrite({ name: 'calculator', accountId: 'other' }));
    const both = await store.search('acme', [USER_ROOT, AGENT_ROOT], 'calculator', { limit: 10 });
    expect(both.map((h) => [h.skill.name, h.skill.rootUri])).toEqual([
      ['calculator', USER_ROOT],
      ['abacus', AGENT_ROOT],
      ['notes', USER_ROOT],
    ]);
    const agentOnly = await store.search('acme', [AGENT_ROOT], 'calculator', { limit: 10 });
    expect(agentOnly.map((h) => h.skill.description)).toEqual(['Agent calculator', 'Old calculator']);
    expect((await store.search('other', [USER_ROOT, AGENT_ROOT], 'calculator', { limit: 10 })).length).toBe(
      1,
    );
    expect(await store.search('nobody', [USER_ROOT], 'calculator', { limit: 10 })).toEqual([]);
  });

  it('gives a positive score to a term found in every skill (FTS5 clamps its IDF to ~0)', async () => {
    const temp = openTempStore();
    cleanup = temp.cleanup;
    await temp.store.putSkill(makeWrite({ name: 'one', description: 'git helper', body: 'git git' }));
    await temp.store.putSkill(makeWrite({ name: 'two', description: 'uses git' }));
    const hits = await temp.store.search('acme', [USER_ROOT], 'git', { limit: 5 });
    expect(hits.map((h) => h.skill.name)).toEqual(['one', 'two']);
    for (const hit of hits) expect(hit.score).toBeGreaterThanOrEqual(normaliseScore(LEXICAL_MATCH_FLOOR));
  });

  it.each([
    [0, 0],
    [-3, 0],
    [SCORE_HALF_POINT, 0.5],
    [SCORE_HALF_POINT * 3, 0.75],
    [1e9, 1],
  ])('normaliseScore(%d) = %d', (raw, expected) => {
    expect(normaliseScore(raw)).toBeCloseTo(expected, 6);
  });

  it('indexes the overview once the task completes', async () => {
    const store = await seeded();
    expect(await store.search('acme', [USER_ROOT], 'spreadsheet', { limit: 5 })).toEqual([]);
    const task = await store.claimTask(Date.now(), TEST_CLAIM);
    const skill = await store.getSkillById(task?.skillId ?? '');
    if (task === null) throw new Error('no task');
    await store.completeTask(task.lease, { overview: 'Works with spreadsheet exports', result: {} });
    const hits = await store.search('acme', [USER_ROOT], 'spreadsheet', { limit: 5 });
    expect(hits.map((h) => [h.skill.name, h.matchedFields])).toEqual([[skill?.name, ['overview']]]);
  });

  it('sees an update at once: old words gone, new words found', async () => {
    const store = await seeded();
    await store.putSkill(makeWrite({ name: 'deploy', description: 'Roll out releases' }));
    expect(
      (await store.search('acme', [USER_ROOT], 'production', { limit: 5 })).map((h) => h.skill.name),
    ).toEqual([]);
    expect(
      (await store.search('acme', [USER_ROOT], 'releases', { limit: 5 })).map((h) => h.skill.name),
    ).toEqual(['deploy']);
  });
});
