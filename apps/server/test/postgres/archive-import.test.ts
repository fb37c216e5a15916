/**
 * PostgreSQL `importRecords` writes records in batches and derives the tables that row triggers keep
 * (`skill_terms`, `skill_term_counts`, `account_usage`, `skill_root_counts`, `skill_search_generation`)
 * once, at the end: these tests hold the result to what the triggers give for the same rows, with the triggers back on
 * for the writes that follow, and find ranking the imported registry as it ranks the source. Runs in
 * the `postgres` vitest project.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataRecord } from '../../src/archive/archive-format.js';
import type { Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore, postgresQuery, postgresTermCountDrift } from '../helpers/engine.js';
import { makeWrite, USER_ROOT } from '../store/helpers.js';

const AGENT_ROOT = 'viking://agent/skills';
const WORDS = [
  'review',
  'deploy',
  'pdf',
  'report',
  'kubernetes',
  'python',
  'data',
  'slack',
  'docker',
  'test',
];
/** More skills (and blobs) than one import batch holds (500). */
const SKILLS = 520;

let work: string;
let source: Store;
let target: Store;
const sourceDir = () => path.join(work, 'source');
const targetDir = () => path.join(work, 'target');

async function all(store: Store): Promise<DataRecord[]> {
  const out: DataRecord[] = [];
  for await (const record of store.exportRecords()) out.push(record);
  return out;
}

/** Rows of `skill_terms` that differ from what the skills' vectors give (both directions). */
async function termDrift(dataDir: string): Promise<number> {
  const rows = await postgresQuery<{ n: string }>(
    dataDir,
    `WITH expected AS (
       SELECT u.lexeme COLLATE "C" AS lexeme, s.seq AS skill_seq, skill_term_rank(u.positions, u.weights) AS rank,
         skill_term_labels(u.weights) AS labels
       FROM skills s CROSS JOIN LATERAL unnest(s.search) AS u)
     SELECT count(*) AS n FROM (
       (SELECT * FROM expected EXCEPT SELECT lexeme, skill_seq, rank, labels FROM skill_terms)
       UNION ALL
       (SELECT lexeme, skill_seq, rank, labels FROM skill_terms EXCEPT SELECT * FROM expected)) AS d`,
  );
  return Number(rows[0]?.n);
}

const usage = (dataDir: string) =>
  postgresQuery<{ account_id: string; stored_bytes: string }>(
    dataDir,
    `SELECT account_id, sum(stored_bytes)::text AS stored_bytes FROM account_usage
     GROUP BY account_id HAVING sum(stored_bytes) <> 0 ORDER BY account_id`,
  );

/** Skills per root as `skill_root_counts` gives them, and as counting the rows does. */
const rootCounts = (dataDir: string) =>
  postgresQuery<{ account_id: string; root_uri: string; kept: string; counted: string }>(
    dataDir,
    `SELECT c.account_id, c.root_uri, c.kept::text, (SELECT count(*) FROM skills s
       WHERE s.account_id = c.account_id AND s.root_uri = c.root_uri)::text AS counted
     FROM (SELECT account_id, root_uri, sum(n) AS kept FROM skill_root_counts GROUP BY 1, 2) AS c
     ORDER BY 1, 2`,
  );

beforeAll(async () => {
  work = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-import-'));
  source = openEngineStore(sourceDir());
  for (const account of ['acme', 'other']) {
    await source.ensureAccount(account);
    await source.ensureUser(account, 'alice');
  }
  for (let i = 0; i < SKILLS; i++) {
    const pick = (n: number) => WORDS[(i * 7 + n * 3) % WORDS.length] as string;
    await source.putSkill(
      makeWrite(
        {
          name: `${pick(0)}-${pick(1)}-${i}`,
          accountId: i % 7 === 0 ? 'other' : 'acme',
          rootUri: i % 5 === 0 ? AGENT_ROOT : USER_ROOT,
          description: `${pick(2)} and ${pick(3)} for the ${pick(4)} team`,
          tags: i % 3 === 0 ? [pick(5)] : [],
          body: `# ${pick(6)}\n\n${pick(7)} ${pick(8)} ${i % 4 === 0 ? '检查小红书' : 'café'} ${pick(9)}s\n`,
        },
        i % 4 === 0 ? { 'notes.md': `notes ${i}`, 'data.bin': new Uint8Array([0, 255, i % 256]) } : {},
      ),
    );
  }
  // History and a delete, so the source's counters went up and down.
  await source.putSkill(makeWrite({ name: 'review-deploy-1', body: '# changed\n\nslack report\n' }));
  await source.deleteSkill('acme', USER_ROOT, 'deploy-report-2');
  target = openEngineStore(targetDir());
  await target.importRecords(source.exportRecords());
}, 120_000);

afterAll(async () => {
  await source?.close();
  await target?.close();
  await dropEngineData(sourceDir());
  await dropEngineData(targetDir());
  rmSync(work, { recursive: true, force: true });
});

describe('postgres db import: batches, then the trigger-kept tables derived once', () => {
  it('imports every record unchanged', async () => {
    const [a, b] = [await all(source), await all(target)];
    expect(b.length).toBe(a.length);
    expect(b).toEqual(a);
  });

  it('derives search terms, stored bytes, root counts and the search generation as the triggers do', async () => {
    expect(await termDrift(targetDir())).toBe(0);
    expect(await postgresTermCountDrift(targetDir())).toBe(0);
    expect(await usage(targetDir())).toEqual(await usage(sourceDir()));
    const counts = await rootCounts(targetDir());
    expect(counts.length).toBeGreaterThan(2);
    for (const row of counts) expect(row.kept).toBe(row.counted);
    const generation = await postgresQuery<{ shard: number; n: string; skills: string }>(
      targetDir(),
      `SELECT g.shard, g.n::text, (SELECT count(*) FROM skills s WHERE s.seq % 64 = g.shard)::text AS skills
       FROM skill_search_generation g ORDER BY g.shard`,
    );
    expect(generation).toHaveLength(64);
    for (const row of generation) expect(row.n).toBe(row.skills);
  });

  it('finds the same skills in the same order as the source', async () => {
    for (const query of ['review', 'deploy pdf', 'kubernetes team', 'rep', '小红书', 'café slack']) {
      for (const account of ['acme', 'other']) {
        const [a, b] = await Promise.all([
          source.search(account, [USER_ROOT, AGENT_ROOT], query, { limit: 20 }),
          target.search(account, [USER_ROOT, AGENT_ROOT], query, { limit: 20 }),
        ]);
        expect(b.map((h) => [h.skill.name, h.score])).toEqual(a.map((h) => [h.skill.name, h.score]));
      }
    }
  });
  it('turns the triggers back on: later writes keep the tables', async () => {
    const disabled = await postgresQuery<{ tgname: string }>(
      targetDir(),
      `SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled = 'D'
         AND tgrelid IN ('skills'::regclass, 'skill_files'::regclass)`,
    );
    expect(disabled).toEqual([]);
    const before = await usage(targetDir());
    await target.putSkill(makeWrite({ name: 'zebra-after-import' }, { 'extra.md': 'twelve bytes' }));
    const after = await usage(targetDir());
    const acme = (rows: typeof before) => Number(rows.find((r) => r.account_id === 'acme')?.stored_bytes);
    expect(acme(after)).toBeGreaterThan(acme(before));
    expect(await termDrift(targetDir())).toBe(0);
    expect(await postgresTermCountDrift(targetDir())).toBe(0);
    for (const row of await rootCounts(targetDir())) expect(row.kept).toBe(row.counted);
    const hits = await target.search('acme', [USER_ROOT], 'zebra', { limit: 5 });
    expect(hits.map((h) => h.skill.name)).toContain('zebra-after-import');
    await target.deleteSkill('acme', USER_ROOT, 'zebra-after-import');
    expect(await usage(targetDir())).toEqual(before);
  });
});
