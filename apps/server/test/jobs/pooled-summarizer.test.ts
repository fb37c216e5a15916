// The server's overview job renders from the fields the write stored (frontmatter name and
// description, body) instead of parsing SKILL.md again: the overview must be the one rendered from
// the SKILL.md text itself.
import { afterAll, describe, expect, it } from 'vitest';
import { describeCorpus } from '../../../../scripts/test-corpus.js';
import { createPooledSummarizer, defaultSummarizer } from '../../src/jobs/job-runner.js';
import { prepareSkill } from '../../src/services/prepare-skill.js';
import type { SkillRecord } from '../../src/store/types.js';
import { createWorkerPool } from '../../src/workers/worker-pool.js';
import { corpusSkillTexts } from '../store/corpus.js';

const pool = createWorkerPool({ threads: 1 });
afterAll(async () => {
  await pool.close();
});
const pooled = createPooledSummarizer(pool);

/** The record a write stores for `text` (as `writeSkill` builds it; JSON round trip as in the store). */
function storedRecord(text: string, storedName = 'stored-name'): SkillRecord {
  const prepared = prepareSkill({ text });
  return {
    name: storedName,
    description: prepared.description ?? '',
    frontmatter: JSON.parse(JSON.stringify(prepared.frontmatter)) as Record<string, unknown>,
    body: prepared.body,
  } as SkillRecord;
}

async function expectSameOverview(text: string, storedName?: string): Promise<void> {
  const skill = storedRecord(text, storedName);
  const fromText = await defaultSummarizer({ skill, definition: text });
  expect(await pooled({ skill, definition: text })).toBe(fromText);
}

describe('createPooledSummarizer', () => {
  it.each([
    ['plain', '---\nname: pdf\ndescription: Reads PDF files\n---\n# PDF\n\n## Usage\n\nRun it.\n'],
    ['no name or description', '---\ntags: [a]\n---\n# Title\n\nBody text.\n'],
    ['non-string name', '---\nname: 42\ndescription: [not, a, string]\n---\nBody\n'],
    ['no frontmatter', '# Just markdown\n\nSome text.\n'],
    [
      'BOM and CRLF',
      '\uFEFF---\r\nname: crlf\r\ndescription: Windows line ends\r\n---\r\n# H\r\n\r\nText\r\n',
    ],
    ['name not slug', '---\nname: My Skill\ndescription: "  padded  "\n---\n\n\n## Steps\n1. one\n2. two\n'],
  ])('renders the same overview as from the text: %s', async (_label, text) => {
    await expectSameOverview(text, 'my-skill');
  });
});

describeCorpus('createPooledSummarizer on the corpus', () => {
  it('renders the same overview as from the text for every corpus SKILL.md', async () => {
    for (const { text } of corpusSkillTexts()) await expectSameOverview(text);
  });
});
