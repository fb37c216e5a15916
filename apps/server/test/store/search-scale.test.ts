import { parseSkillMd } from '@skillport/core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeCorpus } from '../../../../scripts/test-corpus.js';
import type { SkillWrite, Store } from '../../src/store/types.js';
import { corpusSkillTexts } from './corpus.js';
import { openTempStore, USER_ROOT } from './helpers.js';

// Find at scale: results stay bounded and the exact name ranks first with 2 000 skills (on each
// engine). Latency is printed, not asserted (timings belong to `pnpm bench`, not to pass/fail on a
// shared machine); measure another size with
// `SKILLPORT_SEARCH_SCALE=10000 pnpm vitest run apps/server/test/store/search-scale.test.ts`.
const SKILLS = Number(process.env.SKILLPORT_SEARCH_SCALE ?? 2000);
const QUERIES = [
  'pdf',
  'git commit',
  'search the web',
  'docker',
  'test',
  'api',
  'calc',
  'code review',
  'data analysis python',
  'skill',
  'the',
  'deploy kubernetes cluster',
  'write documentation',
  'frontend design',
  'mcp server',
  'xlsx spreadsheet',
];

let store: Store;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = openTempStore();
  store = temp.store;
  cleanup = temp.cleanup;
  const corpus = corpusSkillTexts().map(({ text }) => parseSkillMd(text).skill);
  const encoder = new TextEncoder();
  const started = performance.now();
  for (let i = 0; i < SKILLS; i++) {
    const source = corpus[i % corpus.length]!;
    const name = `${source.name ?? 'skill'}-${i}`;
    const description = source.description ?? '';
    const write: SkillWrite = {
      accountId: 'bench',
      rootUri: USER_ROOT,
      name,
      description,
      tags: source.tags,
      allowedTools: source.allowedTools,
      frontmatter: source.frontmatter,
      body: source.body,
      sourceMetadata: null,
      files: [{ path: 'SKILL.md', kind: 'definition', content: encoder.encode(`${name}\n${source.body}`) }],
      task: { type: 'add_skill', userId: 'bench' },
    };
    await store.putSkill(write);
  }
  console.info(`search-scale: ${SKILLS} putSkill in ${Math.round(performance.now() - started)} ms`);
}, 300_000);

afterAll(async () => {
  await cleanup?.();
});

describeCorpus(`search at ${SKILLS} skills`, () => {
  it('answers every query with at most limit hits and ranks the exact name first', async () => {
    for (const query of QUERIES) await store.search('bench', [USER_ROOT], query, { limit: 10 });
    const timings: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const query of QUERIES) {
        const t0 = performance.now();
        const hits = await store.search('bench', [USER_ROOT, 'viking://agent/skills'], query, { limit: 10 });
        timings.push(performance.now() - t0);
        expect(hits.length).toBeLessThanOrEqual(10);
      }
    }
    timings.sort((a, b) => a - b);
    const pct = (p: number) =>
      timings[Math.min(timings.length - 1, Math.ceil((p / 100) * timings.length) - 1)]!;
    console.info(
      `search-scale: ${timings.length} finds, p50 ${pct(50).toFixed(2)} ms, p95 ${pct(95).toFixed(2)} ms, ` +
        `p99 ${pct(99).toFixed(2)} ms, max ${timings.at(-1)!.toFixed(2)} ms`,
    );

    const some = (await store.listSkills('bench', USER_ROOT, { limit: 1 })).skills[0]!;
    const [top] = await store.search('bench', [USER_ROOT], some.name, { limit: 5 });
    expect(top).toMatchObject({ matchReason: 'name' });
    expect(top?.skill.name).toBe(some.name);
  });
});
