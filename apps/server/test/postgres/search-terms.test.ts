/**
 * PostgreSQL find reads its relevance from `skill_terms` (migration 4): one row per lexeme of each
 * skill's search vector with that lexeme's `ts_rank` term. These tests hold it to the vectors: the
 * rows follow every write (add, update, overview, delete) and the backfill of an existing registry,
 * each row gives exactly `ts_rank`'s figure, and the candidates of find are the same rows, in the
 * same order, with the same relevance as ranking the vectors. Runs in the `postgres` vitest project.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KeyRow, lexicalCandidates, thresholdOutcomes } from '../../src/search/postgres-search.js';
import { PostgresTermStats, PROBE_RATIO } from '../../src/search/postgres-term-stats.js';
import { buildTsqueryTerms, type RankTerm } from '../../src/search/postgres-text.js';
import { parseSearchQuery } from '../../src/search/ranking.js';
import type { Store } from '../../src/store/types.js';
import {
  dropEngineData,
  openEngineStore,
  postgresQuery,
  postgresTermCountDrift,
  postgresUrl,
  schemaFor,
} from '../helpers/engine.js';
import { makeWrite, TEST_CLAIM, USER_ROOT } from '../store/helpers.js';

const AGENT_ROOT = 'viking://agent/skills';
const RANK_WEIGHTS = '{0.025,0.3,0.5,1}';

/** Skills whose words repeat across fields, share prefixes, and mix scripts. */
function writes() {
  const words = [
    'review',
    'reviewer',
    'repository',
    'code',
    'deploy',
    'pdf',
    'report',
    'the',
    'test',
    'repo',
  ];
  return Array.from({ length: 60 }, (_, i) => {
    const pick = (n: number) => words[(i * 7 + n * 3) % words.length] as string;
    const body = Array.from(
      { length: 1 + (i % 9) },
      (_, line) =>
        `${pick(line)} ${pick(line + 1)} the ${i % 4 === 0 ? '检查小红书 登录' : 'café'} ${pick(line + 2)}s`,
    ).join('\n');
    return makeWrite({
      name: `${pick(0)}-${pick(1)}-${i}`,
      description: `${pick(2)} and ${pick(3)} for the ${pick(4)} team`,
      tags: i % 3 === 0 ? [pick(5), 'code'] : [],
      body: `# ${pick(6)}\n\n${body}\n`,
      rootUri: i % 5 === 0 ? AGENT_ROOT : USER_ROOT,
    });
  });
}

const QUERIES = [
  'review',
  'code review',
  'reviewing code reports',
  'pdf',
  'the',
  'deploy the code',
  'test',
  'tests',
  'café',
  '小',
  '小红',
  '小红书',
  'report pdf deploy review test code',
  'rep',
  'nothing-matches-this',
];

let dataDir: string;
let store: Store;

/** Rows of `skill_terms` that differ from what the current vectors give (both directions). */
async function drift(): Promise<number> {
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

async function candidates(
  query: string,
  via: 'terms' | 'all-terms' | 'vectors',
  roots = [USER_ROOT, AGENT_ROOT],
  options: { budget?: number; firstDepth?: number; termStats?: PostgresTermStats; account?: string } = {},
) {
  const parsed = parseSearchQuery(query);
  const terms = buildTsqueryTerms(parsed);
  if (terms.length === 0) return [];
  const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
  try {
    const client = await pool.connect();
    try {
      await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
      return await lexicalCandidates(
        client,
        parsed,
        terms,
        options.account ?? 'acme',
        roots,
        options.budget ?? 20,
        via,
        options.termStats,
        options.firstDepth,
      );
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/**
 * Query terms whose document frequencies `skill_term_frequencies` reads: prefixes standing for several
 * lexemes, terms limited to fields, single-character and CJK prefixes, words no skill holds.
 */
const FREQUENCY_TERMS: RankTerm[] = [
  { lexeme: 'team', prefix: true, labels: 0 },
  { lexeme: 'the', prefix: true, labels: 0 },
  { lexeme: 'review', prefix: false, labels: 0 },
  { lexeme: 'review', prefix: true, labels: 0 },
  { lexeme: 'rep', prefix: true, labels: 0 },
  { lexeme: 're', prefix: true, labels: 1 | 2 | 4 },
  { lexeme: 'rep', prefix: true, labels: 8 },
  { lexeme: 'code', prefix: false, labels: 4 },
  { lexeme: 'the', prefix: false, labels: 1 | 2 | 4 },
  { lexeme: '小', prefix: true, labels: 0 },
  { lexeme: 'nothing', prefix: false, labels: 0 },
  { lexeme: 'nothingatall', prefix: true, labels: 0 },
  { lexeme: 'pdf', prefix: true, labels: 2 },
  { lexeme: 'team', prefix: true, labels: 15 },
  { lexeme: 'teamwork', prefix: true, labels: 0 },
  { lexeme: 'teamm', prefix: true, labels: 0 },
  { lexeme: 'onboardin', prefix: true, labels: 0 },
  { lexeme: 'caf', prefix: true, labels: 0 },
  { lexeme: 'r', prefix: true, labels: 0 },
  { lexeme: 'review', prefix: true, labels: 8 },
];

/** Each term's document frequency and lexemes, counted from the rows of `skill_terms`. */
async function countedFrequencies(terms: readonly RankTerm[]) {
  return postgresQuery<{ df: string; lexemes: string[] }>(
    dataDir,
    `SELECT (SELECT count(DISTINCT t.skill_seq) FROM skill_terms t
         WHERE (t.lexeme = q.lexeme OR (q.prefix AND starts_with(t.lexeme, q.lexeme)))
           AND (q.labels = 0 OR t.labels & q.labels <> 0)) AS df,
       CASE WHEN q.prefix THEN ARRAY(SELECT DISTINCT t.lexeme FROM skill_terms t
         WHERE starts_with(t.lexeme, q.lexeme) ORDER BY 1) ELSE ARRAY[q.lexeme] END AS lexemes
     FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
     ORDER BY q.i`,
    [terms.map((t) => t.lexeme), terms.map((t) => t.prefix), terms.map((t) => t.labels)],
  );
}

/** Each term's document frequency and lexemes as `find` reads them (a fresh memory: no kept counts). */
async function readFrequencies(terms: readonly RankTerm[]) {
  const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
  try {
    const client = await pool.connect();
    try {
      await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
      const read = await new PostgresTermStats().read(client, terms);
      return read.stats.map((stat) => ({ df: String(stat.df), lexemes: stat.lexemes }));
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

/** Rows of `skill_term_count_deltas` not folded yet (PostgreSQL migration 22). */
async function pendingCountRows(): Promise<number> {
  const [row] = await postgresQuery<{ n: string }>(
    dataDir,
    'SELECT count(*) AS n FROM skill_term_count_deltas',
  );
  return Number(row?.n);
}

/**
 * Waits until no fold of the pending search-term counts is running and none is pending (folding what
 * is left): a background fold started by earlier writes would otherwise fold a test's new rows.
 */
async function settleFolds(): Promise<void> {
  for (let tries = 0; tries < 500; tries++) {
    const [row] = await postgresQuery<{ n: number }>(dataDir, 'SELECT skill_term_counts_fold(256) AS n');
    if (Number(row?.n) !== -1 && (await pendingCountRows()) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('pending search-term counts are still being folded after 10 s');
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-terms-'));
  store = openEngineStore(dataDir);
  await store.ensureAccount('acme');
  await store.ensureUser('acme', 'alice');
  for (const write of writes()) await store.putSkill(write);
});

afterAll(async () => {
  await store.close();
  await dropEngineData(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('postgres find: per-term ranking rows (skill_terms)', () => {
  it('holds one row per lexeme of every skill, each giving exactly ts_rank', async () => {
    expect(await drift()).toBe(0);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);
    const [counts] = await postgresQuery<{ terms: string; lexemes: string }>(
      dataDir,
      `SELECT (SELECT count(*) FROM skill_terms) AS terms,
         (SELECT sum(length(search)) FROM skills) AS lexemes`,
    );
    expect(Number(counts?.terms)).toBeGreaterThan(500);
    expect(counts?.terms).toBe(counts?.lexemes);
    const [mismatch] = await postgresQuery<{ n: string }>(
      dataDir,
      `SELECT count(*) AS n FROM skill_terms t JOIN skills s ON s.seq = t.skill_seq
       WHERE t.rank::real <> ts_rank($1::real[], s.search, quote_literal(t.lexeme)::tsquery)`,
      [RANK_WEIGHTS],
    );
    expect(mismatch?.n).toBe('0');
  });

  it('gives every lexeme the figure of the positions loop, to the last bit (migration 13)', async () => {
    const [compared] = await postgresQuery<{ single: string; several: string; differ: string }>(
      dataDir,
      `SELECT count(*) FILTER (WHERE cardinality(u.positions) = 1) AS single,
         count(*) FILTER (WHERE cardinality(u.positions) > 1) AS several,
         count(*) FILTER (WHERE float8send(skill_term_rank(u.positions, u.weights))
           IS DISTINCT FROM float8send(skill_term_rank_positions(u.positions, u.weights))) AS differ
       FROM skills s CROSS JOIN LATERAL unnest(s.search) AS u`,
    );
    // Both kinds of lexeme are there, and no figure differs in any bit.
    expect(Number(compared?.single)).toBeGreaterThan(100);
    expect(Number(compared?.several)).toBeGreaterThan(10);
    expect(compared?.differ).toBe('0');
    // Every weight, alone, in the inline branch.
    const [weights] = await postgresQuery<{ differ: string }>(
      dataDir,
      `SELECT count(*) FILTER (WHERE float8send(skill_term_rank(ARRAY[1]::smallint[], ARRAY[w]))
           IS DISTINCT FROM float8send(skill_term_rank_positions(ARRAY[1]::smallint[], ARRAY[w]))) AS differ
       FROM unnest(ARRAY['A', 'B', 'C', 'D']) AS w`,
    );
    expect(weights?.differ).toBe('0');
  });

  it('sums the rows of a prefix as ts_rank sums its entries, to the last bit', async () => {
    const [mismatch] = await postgresQuery<{ n: string; skills: string }>(
      dataDir,
      `WITH folded AS (
         SELECT skill_seq, skill_rank_fold(array_agg(rank ORDER BY lexeme)) AS r
         FROM skill_terms WHERE starts_with(lexeme, 're') GROUP BY skill_seq)
       SELECT count(*) FILTER (WHERE f.r <> ts_rank($1::real[], s.search, 're:*'::tsquery)) AS n,
         count(*) AS skills
       FROM folded f JOIN skills s ON s.seq = f.skill_seq`,
      [RANK_WEIGHTS],
    );
    expect(Number(mismatch?.skills)).toBeGreaterThan(10);
    expect(mismatch?.n).toBe('0');
  });

  it.each(QUERIES)('find candidates for %j are the same as ranking the vectors', async (query) => {
    const byTerms = await candidates(query, 'terms');
    const byVectors = await candidates(query, 'vectors');
    expect(byTerms).toEqual(byVectors);
    expect(await candidates(query, 'all-terms')).toEqual(byVectors);
    if (query !== 'nothing-matches-this') expect(byTerms.length).toBeGreaterThan(0);
  });

  it('reading the best rows first and stopping early gives the same candidates at every depth', async () => {
    const before = { ...thresholdOutcomes };
    for (const query of QUERIES) {
      for (const budget of [1, 3, 8]) {
        const expected = await candidates(query, 'vectors', undefined, { budget });
        for (const firstDepth of [1, 2, 5]) {
          expect(await candidates(query, 'terms', undefined, { budget, firstDepth })).toEqual(expected);
        }
        expect(await candidates(query, 'terms', [AGENT_ROOT], { budget, firstDepth: 2 })).toEqual(
          await candidates(query, 'vectors', [AGENT_ROOT], { budget }),
        );
      }
    }
    // Each way of ending was taken: stopped by the bound, every row read, every row ranked instead;
    // and rounds read deeper without ranking.
    expect(thresholdOutcomes.deeper).toBeGreaterThan(before.deeper);
    expect(thresholdOutcomes.bound).toBeGreaterThan(before.bound);
    expect(thresholdOutcomes.exhausted).toBeGreaterThan(before.exhausted);
    expect(thresholdOutcomes.fallback).toBeGreaterThan(before.fallback);
  });

  it('settles ties between identical copies exactly, ranking only the candidates that can enter', async () => {
    // Another account holds 15 copies of a dozen skills (as a registry of many copies of the same
    // SKILL.md): the copies tie, every list read holds them, and acme's rows are candidates out of
    // scope.
    await store.ensureAccount('ties');
    await store.ensureUser('ties', 'alice');
    for (let copy = 0; copy < 15; copy++) {
      for (const write of writes().slice(0, 12)) {
        await store.putSkill({ ...write, accountId: 'ties', name: `${write.name}-copy${copy}` });
      }
    }
    const before = { ...thresholdOutcomes };
    for (const query of QUERIES) {
      for (const budget of [1, 5, 20]) {
        const expected = await candidates(query, 'vectors', undefined, { budget, account: 'ties' });
        for (const firstDepth of [3, 40]) {
          expect(
            await candidates(query, 'terms', undefined, { budget, firstDepth, account: 'ties' }),
          ).toEqual(expected);
        }
      }
    }
    expect(thresholdOutcomes.pruned).toBeGreaterThan(before.pruned);
    expect(thresholdOutcomes.bound).toBeGreaterThan(before.bound);
  });

  it('counts document frequencies again once a skill changes (the search generation)', async () => {
    const termStats = new PostgresTermStats();
    const ask = () =>
      candidates('spreadsheet formulas', 'terms', undefined, { termStats, firstDepth: 1, budget: 3 });
    const first = await ask();
    expect(first).toEqual(await candidates('spreadsheet formulas', 'vectors', undefined, { budget: 3 }));
    const [generation] = await postgresQuery<{ g: string }>(
      dataDir,
      'SELECT sum(n)::text AS g FROM skill_search_generation',
    );
    await store.putSkill(
      makeWrite({
        name: `spreadsheet-formulas-${Date.now()}`,
        description: 'Spreadsheet formulas, spreadsheet charts',
        body: '# Spreadsheet\n\nformulas for every spreadsheet\n',
      }),
    );
    const [after] = await postgresQuery<{ g: string }>(
      dataDir,
      'SELECT sum(n)::text AS g FROM skill_search_generation',
    );
    expect(BigInt(after?.g ?? 0)).toBeGreaterThan(BigInt(generation?.g ?? 0));
    const second = await ask();
    expect(second).not.toEqual(first);
    expect(second).toEqual(await candidates('spreadsheet formulas', 'vectors', undefined, { budget: 3 }));
  });

  it('keeps the postings it read per search generation: a word asked again is not read again', async () => {
    const termStats = new PostgresTermStats();
    const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
    try {
      const client = await pool.connect();
      try {
        await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
        const reads: string[] = [];
        const counting = {
          query: (config: pg.QueryConfig, values?: unknown[]) => {
            if (config.name?.startsWith('skillport-top-postings')) reads.push(config.name);
            return client.query(config, values);
          },
        } as unknown as pg.ClientBase;
        const ask = (query: string) => {
          const parsed = parseSearchQuery(query);
          const terms = buildTsqueryTerms(parsed);
          return lexicalCandidates(
            counting,
            parsed,
            terms,
            'acme',
            [USER_ROOT, AGENT_ROOT],
            3,
            'terms',
            termStats,
            1,
          );
        };
        const readsOf = async (query: string) => {
          reads.length = 0;
          expect(await ask(query)).toEqual(await candidates(query, 'vectors', undefined, { budget: 3 }));
          return [...reads];
        };
        // One row per lexeme first: the first ask reads its lists (and deeper), another query too;
        // asked again in the same generation, every list comes from memory.
        expect(await readsOf('code review')).toContain('skillport-top-postings');
        expect(await readsOf('reviewing code reports')).toContain('skillport-top-postings');
        expect(await readsOf('code review')).toEqual([]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it("keeps the account, root and name of the skills it looked up per search generation, for any caller's scope", async () => {
    const termStats = new PostgresTermStats();
    const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
    try {
      const client = await pool.connect();
      try {
        await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
        const lookups: string[] = [];
        const counting = {
          query: (config: pg.QueryConfig, values?: unknown[]) => {
            if (config.name === 'skillport-find-in-scope') lookups.push(config.name);
            return client.query(config, values);
          },
        } as unknown as pg.ClientBase;
        const lookupsOf = async (query: string, account: string, roots: string[], budget: number) => {
          lookups.length = 0;
          const parsed = parseSearchQuery(query);
          const found = await lexicalCandidates(
            counting,
            parsed,
            buildTsqueryTerms(parsed),
            account,
            roots,
            budget,
            'terms',
            termStats,
            2,
          );
          // Keys as numbers (this plain pool gives `bigint` as text; kept skills' keys are numbers).
          const keyed = (rows: KeyRow[]) => rows.map((row) => ({ ...row, seq: Number(row.seq) }));
          expect(keyed(found)).toEqual(keyed(await candidates(query, 'vectors', roots, { budget, account })));
          return lookups.length;
        };
        // The first ask looks its matches up; asked again in the same generation, its matches are
        // known. Another account's or another root's caller gets its own scope from the same memory.
        expect(await lookupsOf('code review', 'acme', [USER_ROOT, AGENT_ROOT], 3)).toBeGreaterThan(0);
        expect(await lookupsOf('code review', 'acme', [USER_ROOT, AGENT_ROOT], 3)).toBe(0);
        await lookupsOf('code review', 'acme', [AGENT_ROOT], 3);
        await lookupsOf('code review', 'acme', [USER_ROOT], 20);
        await lookupsOf('code review', 'ties', [USER_ROOT, AGENT_ROOT], 3);
        await lookupsOf('review', 'ties', [USER_ROOT, AGENT_ROOT], 20);
        await lookupsOf('review', 'acme', [USER_ROOT, AGENT_ROOT], 20);
        // A new skill raises the search generation: what was kept is not used for it.
        await store.putSkill(makeWrite({ name: 'code-review-kept', description: 'code review', body: 'x' }));
        try {
          expect(await lookupsOf('code review', 'acme', [USER_ROOT, AGENT_ROOT], 3)).toBeGreaterThan(0);
        } finally {
          await store.deleteSkill('acme', USER_ROOT, 'code-review-kept');
        }
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it("reads each term's document frequency and lexemes from the kept counts, as counting its rows gives", async () => {
    // One skill with rare words starting with a common one ('team'), so a prefix's other lexemes are
    // few, and one skill holds several of them (its probe is counted once; a prefix of at most 8
    // characters matching any field counts it once from the counts of each skill's runs of lexemes,
    // migration 17), and words sharing a prefix longer than that ('onboardingflow', 'onboardingkit').
    await store.putSkill(
      makeWrite({
        name: 'onboarding',
        description: 'Onboarding of teammates',
        body: '# Onboarding\n\nteammates and teamwork of the team: onboardingflow, onboardingkit, teamworks\n',
      }),
    );
    const terms = FREQUENCY_TERMS;
    const expected = await countedFrequencies(terms);
    const [total] = await postgresQuery<{ n: string }>(dataDir, 'SELECT count(*) AS n FROM skills');
    // Prefixes standing for several lexemes, and terms limited to fields, are among them.
    expect(expected.filter((row) => row.lexemes.length > 1).length).toBeGreaterThan(2);
    // Both ways of counting the other lexemes of a prefix limited to fields or longer than 8
    // characters are taken: probes of the most frequent one's rows (the others have at most
    // 1/PROBE_RATIO of its rows) and a join of both lists (more).
    const ways = await postgresQuery<{ probes: boolean }>(
      dataDir,
      `SELECT sum(n) FILTER (WHERE r > 1) * $4 <= max(n) AS probes FROM (
         SELECT q.i, row_number() OVER (PARTITION BY q.i ORDER BY count(*) DESC, t.lexeme) AS r, count(*) AS n
         FROM unnest($1::text[], $2::boolean[], $3::int[]) WITH ORDINALITY AS q(lexeme, prefix, labels, i)
         JOIN skill_terms t ON q.prefix AND starts_with(t.lexeme, q.lexeme) AND (q.labels = 0 OR t.labels & q.labels <> 0)
         WHERE q.labels <> 0 OR char_length(q.lexeme) > 8
         GROUP BY q.i, t.lexeme) AS c
       GROUP BY i HAVING count(*) > 1`,
      [terms.map((t) => t.lexeme), terms.map((t) => t.prefix), terms.map((t) => t.labels), PROBE_RATIO],
    );
    expect(new Set(ways.map((row) => row.probes))).toEqual(new Set([true, false]));
    expect(expected.some((row) => Number(row.df) === 0)).toBe(true);
    // Prefixes counted from the runs of lexemes, some matching several lexemes of one skill.
    const runs = await postgresQuery<{ held: string }>(
      dataDir,
      `SELECT max(held) AS held FROM (SELECT t.skill_seq, count(*) AS held FROM skill_terms t
         WHERE starts_with(t.lexeme, 'team') GROUP BY t.skill_seq) AS h`,
    );
    expect(Number(runs[0]?.held)).toBeGreaterThan(2);
    const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
    try {
      const client = await pool.connect();
      try {
        await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
        const read = await new PostgresTermStats().read(client, terms);
        expect(read.total).toBe(Number(total?.n));
        expect(read.stats).toEqual(expected.map((row) => ({ df: Number(row.df), lexemes: row.lexemes })));
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('plans the term-frequency statement once per connection, not on every count (migration 15)', async () => {
    // Each read counts new terms (a new memory each time), on one connection. PostgreSQL plans a
    // prepared statement for its parameters five times, then keeps its generic plan only when that
    // costs no more; the counting statement itself never did (its arrays' sizes are known to a custom
    // plan only), so it was planned again on every call. Now the prepared statement calls
    // `skill_term_frequencies`, which runs the counting statement under `force_generic_plan`.
    const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
    try {
      const client = await pool.connect();
      try {
        await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
        const words = ['review', 'code', 'deploy', 'pdf', 'report', 'test', 'repo', 'the'];
        for (const [i, word] of words.entries()) {
          const terms: RankTerm[] = [
            { lexeme: word, prefix: i % 2 === 0, labels: 0 },
            { lexeme: words[(i + 3) % words.length] as string, prefix: true, labels: i % 3 === 0 ? 4 : 0 },
          ];
          const read = await new PostgresTermStats().read(client, terms);
          expect(read.stats).toHaveLength(2);
        }
        const { rows } = await client.query<{ custom: string; generic: string }>(
          `SELECT custom_plans AS custom, generic_plans AS generic FROM pg_prepared_statements
           WHERE name = 'skillport-term-frequencies'`,
        );
        expect(rows.map((row) => [Number(row.custom), Number(row.generic)])).toEqual([[5, words.length - 5]]);
        const { rows: settings } = await client.query<{ config: string[] | null }>(
          `SELECT p.proconfig AS config FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
           WHERE p.proname = 'skill_term_frequencies' AND n.nspname = $1`,
          [schemaFor(dataDir)],
        );
        expect(settings.map((row) => row.config)).toEqual([['plan_cache_mode=force_generic_plan']]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('keeps the counts exact under concurrent adds, updates and deletes through two stores', async () => {
    const other = openEngineStore(dataDir);
    try {
      const names = Array.from({ length: 24 }, (_, i) => `count-race-${i}`);
      // Adds through both stores at once (many share a shard: 24 skills over 64 shards, and common words).
      await Promise.all(
        names.map((name, i) =>
          (i % 2 === 0 ? store : other).putSkill(
            makeWrite({
              name,
              description: `review the ${i % 3 === 0 ? 'deploy' : 'report'} code`,
              body: `# Review\n\nreview code and deploy reports ${i}\n`,
            }),
          ),
        ),
      );
      expect(await postgresTermCountDrift(dataDir)).toBe(0);
      // Updates moving words between fields (their label sets change) and deletes, interleaved.
      await Promise.all(
        names.map((name, i) =>
          i % 3 === 2
            ? (i % 2 === 0 ? other : store).deleteSkill('acme', USER_ROOT, name)
            : (i % 2 === 0 ? other : store).putSkill(
                makeWrite({
                  name,
                  description: 'deploy pipelines',
                  tags: ['review'],
                  body: `# Deploy\n\ndeploy ${i % 2 === 0 ? 'reviewer' : 'code'} notes\n`,
                  task: { type: 'update_skill', userId: 'alice' },
                }),
              ),
        ),
      );
      expect(await postgresTermCountDrift(dataDir)).toBe(0);
      expect(await drift()).toBe(0);
      for (const query of ['review', 'deploy code', 'reviewer notes rep']) {
        expect(await candidates(query, 'terms')).toEqual(await candidates(query, 'vectors'));
      }
    } finally {
      await other.close();
    }
  });

  it('folds the pending count changes of writes in batches, the frequencies exact before, between and after (migration 22)', async () => {
    const terms = FREQUENCY_TERMS;
    // This test's writes go through a store of their own, whose count of writes starts at 0, so none
    // of them starts a background fold (a store starts one every 64 writes); a fold started by the
    // earlier tests' writes through `store` is waited out first, as it would fold these rows too.
    await settleFolds();
    const writer = openEngineStore(dataDir);
    try {
      await writer.putSkill(
        makeWrite({
          name: 'fold-a',
          description: 'review teamwork reports',
          body: '# Fold\n\nteammates review\n',
        }),
      );
      await writer.putSkill(
        makeWrite({ name: 'fold-b', description: 'deploy the café', body: '# Fold\n\nrepository rep\n' }),
      );
      // An update (a row of each sign) and a delete (a row of -1), not folded yet.
      await writer.putSkill(
        makeWrite({
          name: 'fold-a',
          description: 'onboarding of the team',
          tags: ['review'],
          body: '# Fold\n\nreviewer notes\n',
          task: { type: 'update_skill', userId: 'alice' },
        }),
      );
      await writer.deleteSkill('acme', USER_ROOT, 'fold-b');
    } finally {
      await writer.close();
    }
    expect(await pendingCountRows()).toBeGreaterThan(3);
    const expected = (await countedFrequencies(terms)).map((row) => ({ df: row.df, lexemes: row.lexemes }));
    expect(await readFrequencies(terms)).toEqual(expected);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);

    // Part folded, part pending.
    const [partly] = await postgresQuery<{ n: number }>(dataDir, 'SELECT skill_term_counts_fold(3) AS n');
    expect(partly?.n).toBe(3);
    expect(await pendingCountRows()).toBeGreaterThan(0);
    expect(await readFrequencies(terms)).toEqual(expected);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);

    // While another fold holds the lock, a fold does nothing (no wait on its rows).
    const pool = new pg.Pool({ connectionString: postgresUrl(), max: 1 });
    try {
      const client = await pool.connect();
      try {
        await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
        await client.query('BEGIN');
        await client.query('SELECT skill_term_counts_fold(0)');
        const before = await pendingCountRows();
        expect(await store.compactSearchIndex(64)).toBe(false);
        expect(await pendingCountRows()).toBe(before);
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }

    // The idle upkeep folds the rest.
    while (await store.compactSearchIndex(64)) {}
    expect(await pendingCountRows()).toBe(0);
    expect(await readFrequencies(terms)).toEqual(expected);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);

    // A store folds by itself after a few dozen writes (in the background; closing waits for it).
    const other = openEngineStore(dataDir);
    try {
      for (let i = 0; i < 70; i++) {
        await other.putSkill(
          makeWrite({
            name: `fold-many-${i}`,
            description: `review ${i % 2 === 0 ? 'teamwork' : 'deploy'} notes`,
          }),
        );
      }
    } finally {
      await other.close();
    }
    expect(await pendingCountRows()).toBeLessThanOrEqual(6);
    expect(await readFrequencies(terms)).toEqual(
      (await countedFrequencies(terms)).map((row) => ({ df: row.df, lexemes: row.lexemes })),
    );
    expect(await postgresTermCountDrift(dataDir)).toBe(0);
  });

  it('keeps to the roots asked for', async () => {
    const byTerms = await candidates('code review', 'terms', [AGENT_ROOT]);
    expect(byTerms.length).toBeGreaterThan(0);
    expect(byTerms.every((row) => row.root_uri === AGENT_ROOT)).toBe(true);
    expect(byTerms).toEqual(await candidates('code review', 'vectors', [AGENT_ROOT]));
  });

  it('follows updates, overviews and deletes', async () => {
    const changed = makeWrite({
      name: 'code-review-0',
      description: 'Now about spreadsheets',
      body: '# Sheets\n\nspreadsheet spreadsheet formulas\n',
      task: { type: 'update_skill', userId: 'alice' },
    });
    await store.putSkill(changed);
    // The oldest task is the first add's: its overview re-indexes that skill.
    const claimed = await store.claimTask(Date.now(), TEST_CLAIM);
    if (claimed === null) throw new Error('expected a runnable task');
    expect(
      await store.completeTask(claimed.lease, {
        overview: 'An overview: reviewer notes on spreadsheets',
        revision: claimed.revision,
        result: {},
      }),
    ).toBe(true);
    const victim = (await store.listSkills('acme', USER_ROOT, { limit: 3 })).skills[2];
    if (victim === undefined) throw new Error('expected skills');
    expect(await store.deleteSkill('acme', USER_ROOT, victim.name)).not.toBeNull();
    const [overview] = await postgresQuery<{ n: string }>(
      dataDir,
      `SELECT count(*) AS n FROM skill_terms t JOIN skills s ON s.seq = t.skill_seq
       WHERE t.lexeme = 'spreadsheet' AND s.overview IS NOT NULL`,
    );
    expect(overview?.n).toBe('1');
    expect(await drift()).toBe(0);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);
    expect(await candidates('spreadsheet', 'terms')).toEqual(await candidates('spreadsheet', 'vectors'));
    expect(await candidates('reviewer', 'terms')).toEqual(await candidates('reviewer', 'vectors'));
  });

  it('is backfilled for a registry written before it existed', async () => {
    await postgresQuery(
      dataDir,
      `DROP TRIGGER skill_terms_added ON skills; DROP TRIGGER skill_terms_changed ON skills;
       DROP TRIGGER skill_terms_gone ON skills; DROP TABLE skill_terms; DROP FUNCTION skill_terms_sync();
       DROP FUNCTION skill_term_rank(smallint[], text[]); DROP FUNCTION skill_term_labels(text[]);
       DROP FUNCTION IF EXISTS skill_term_rank_positions(smallint[], text[]);
       DROP FUNCTION skill_rank_fold(float8[]);
       DROP TRIGGER skill_files_usage ON skill_files; DROP TRIGGER skills_usage_files_first ON skills;
       DROP TRIGGER skills_usage_move ON skills; DROP FUNCTION skill_files_usage();
       DROP FUNCTION skills_usage_files_first(); DROP FUNCTION skills_usage_move(); DROP TABLE account_usage;
       DROP TRIGGER skill_search_generation_added ON skills; DROP TRIGGER skill_search_generation_changed ON skills;
       DROP TRIGGER skill_search_generation_gone ON skills; DROP FUNCTION skill_search_generation_bump();
       DROP TABLE skill_search_generation;
       DROP TRIGGER skill_root_counts_added ON skills; DROP TRIGGER skill_root_counts_moved ON skills;
       DROP TRIGGER skill_root_counts_gone ON skills; DROP FUNCTION skill_root_counts_sync();
       DROP TABLE skill_root_counts; DROP TABLE skill_term_counts; DROP FUNCTION skill_term_shared(text, text);
       DROP TABLE skill_term_count_deltas; DROP FUNCTION skill_term_counts_fold(int);
       DROP FUNCTION skill_term_triples(tsvector);
       DELETE FROM skillport_migrations WHERE version >= 4`,
    );
    await store.close();
    store = openEngineStore(dataDir);
    expect(await store.search('acme', [USER_ROOT], 'review', { limit: 5 })).not.toHaveLength(0);
    expect(await drift()).toBe(0);
    expect(await postgresTermCountDrift(dataDir)).toBe(0);
    for (const query of QUERIES) {
      expect(await candidates(query, 'terms')).toEqual(await candidates(query, 'vectors'));
    }
  });
});
