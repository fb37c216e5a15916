/**
 * PostgreSQL find keeps each process's rankings of recent queries (`PostgresFindAnswers`) while the
 * database's search generation is unchanged. These tests hold the answers of a replica that keeps
 * rankings to ranking afresh, whatever another replica on the same database writes meanwhile, and
 * show that a kept ranking is really given again. Runs in the `postgres` vitest project only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresFindAnswers } from '../../src/search/postgres-find-answers.js';
import { searchSkillsPostgres } from '../../src/search/postgres-search.js';
import { PostgresTermStats } from '../../src/search/postgres-term-stats.js';
import { buildRankTerms } from '../../src/search/postgres-text.js';
import { parseSearchQuery } from '../../src/search/ranking.js';
import { createPool } from '../../src/store/postgres/connection.js';
import type { SearchHit, Store } from '../../src/store/types.js';
import { dropEngineData, openEngineStore, postgresQuery, postgresUrl, schemaFor } from '../helpers/engine.js';
import { makeWrite, USER_ROOT } from '../store/helpers.js';

const AGENT_ROOT = 'viking://agent/skills';
const ROOTS = [USER_ROOT, AGENT_ROOT];
const WORDS = ['deploy', 'pipeline', 'review', 'report', 'pdf', 'kubernetes', 'docs', 'testing'];
const QUERIES = [
  'deploy',
  'deploy pipeline',
  'review the report',
  'kube',
  'pdf docs testing',
  'kubernetes-7',
];

let dataDir: string;
/** Replica A keeps rankings (as every store does); B writes. */
let replicaA: Store;
let replicaB: Store;
let pool: pg.Pool;

/** Finds `query` by ranking afresh: no kept rankings, document frequencies counted anew. */
async function fresh(query: string, limit = 5): Promise<SearchHit[]> {
  const client = await pool.connect();
  try {
    await client.query(`SET search_path = "${schemaFor(dataDir)}", public`);
    return await searchSkillsPostgres(
      client,
      'acme',
      ROOTS,
      query,
      limit,
      undefined,
      new PostgresTermStats(),
    );
  } finally {
    client.release();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'skillport-pg-answers-'));
  replicaA = openEngineStore(dataDir);
  replicaB = openEngineStore(dataDir);
  // A pool as the store opens it (its schema first, bigints as numbers).
  pool = createPool({ url: postgresUrl() }, [schemaFor(dataDir), 'public'], 2);
  await replicaA.ensureAccount('acme');
  await replicaA.ensureUser('acme', 'alice');
  for (let i = 0; i < 40; i++) {
    const pick = (n: number) => WORDS[(i * 3 + n) % WORDS.length] as string;
    await replicaA.putSkill(
      makeWrite({
        name: `${pick(0)}-${i}`,
        description: `${pick(1)} and ${pick(2)} for the team`,
        body: `# ${pick(3)}\n\n${Array.from({ length: 1 + (i % 5) }, (_, n) => `${pick(n)} ${pick(n + 4)}`).join('\n')}\n`,
        rootUri: i % 4 === 0 ? AGENT_ROOT : USER_ROOT,
      }),
    );
  }
});

afterAll(async () => {
  await replicaA.close();
  await replicaB.close();
  await pool.end();
  await dropEngineData(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('postgres find: kept rankings per replica (search generation)', () => {
  it('gives a repeated query its kept ranking, until the search generation changes', async () => {
    const answers = new PostgresFindAnswers();
    const termStats = new PostgresTermStats();
    const client = await pool.connect();
    try {
      const find = () =>
        searchSkillsPostgres(client, 'acme', ROOTS, 'deploy', 5, undefined, termStats, answers);
      const first = await find();
      expect(first.length).toBe(5);
      expect(first).toEqual(await fresh('deploy'));
      expect(answers.size).toBe(1);
      // Relevance changed behind the generation's back (rows of the stemmed lexeme `deploi`; no
      // trigger bumps it for `skill_terms`): the kept ranking is given again, while ranking afresh
      // sees the change.
      const last = first[4]?.skill.name;
      await postgresQuery(
        dataDir,
        `UPDATE skill_terms SET rank = rank * 8
         WHERE starts_with(lexeme, 'deploi') AND skill_seq = (SELECT seq FROM skills WHERE name = $1)`,
        [last],
      );
      const changed = await fresh('deploy');
      expect(changed).not.toEqual(first);
      expect(await find()).toEqual(first);
      // A new generation: ranked again.
      await postgresQuery(dataDir, 'UPDATE skill_search_generation SET n = n + 1 WHERE shard = 0');
      expect(await find()).toEqual(changed);
      await postgresQuery(
        dataDir,
        `UPDATE skill_terms SET rank = rank / 8
         WHERE starts_with(lexeme, 'deploi') AND skill_seq = (SELECT seq FROM skills WHERE name = $1)`,
        [last],
      );
      await postgresQuery(dataDir, 'UPDATE skill_search_generation SET n = n + 1 WHERE shard = 0');
      expect(await find()).toEqual(first);
    } finally {
      client.release();
    }
  });

  it('plans the read of named skills and the generation once per connection (migration 18)', async () => {
    // Each find of a new query reads the search generation and the skills whose name is the query
    // first. As a prepared statement of its own it was planned for its arrays on every call; it now
    // calls `skill_find_named`, which runs under `force_generic_plan`, so PostgreSQL keeps the
    // statement's generic plan after its first five runs.
    const answers = new PostgresFindAnswers();
    const termStats = new PostgresTermStats();
    const client = await pool.connect();
    try {
      const queries = ['deploy-3', 'pipeline', 'review-5 report', 'docs', 'kube', 'pdf', 'testing', 'team'];
      for (const query of queries) {
        const hits = await searchSkillsPostgres(
          client,
          'acme',
          ROOTS,
          query,
          5,
          undefined,
          termStats,
          answers,
        );
        expect(hits).toEqual(await fresh(query));
      }
      const { rows } = await client.query<{ custom: string; generic: string }>(
        `SELECT custom_plans AS custom, generic_plans AS generic FROM pg_prepared_statements
         WHERE name = 'skillport-find-named-generation'`,
      );
      // The connection may have run it before (another test): five custom plans, then generic ones.
      expect(rows.map((row) => Number(row.custom))).toEqual([5]);
      expect(Number(rows[0]?.generic)).toBeGreaterThanOrEqual(queries.length - 5);
      const { rows: settings } = await client.query<{ config: string[] | null }>(
        `SELECT p.proconfig AS config FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
         WHERE p.proname = 'skill_find_named' AND n.nspname = $1`,
        [schemaFor(dataDir)],
      );
      expect(settings.map((row) => row.config)).toEqual([['plan_cache_mode=force_generic_plan']]);
    } finally {
      client.release();
    }
  });

  it("sees at once what another replica committed: adds, deletes, updates, a file's new revision", async () => {
    const check = async () => {
      for (const query of QUERIES) {
        expect(await replicaA.search('acme', ROOTS, query, { limit: 5 })).toEqual(await fresh(query));
        // Asked again (now from the kept ranking): still the same.
        expect(await replicaA.search('acme', ROOTS, query, { limit: 5 })).toEqual(await fresh(query));
      }
    };
    await check();
    const added = makeWrite({
      name: 'deploy-pipeline-kube',
      description: 'Deploy pipeline for kubernetes: deploy, deploy, deploy',
      body: '# Deploy\n\ndeploy pipeline kubernetes deploy\n',
    });
    await replicaB.putSkill(added);
    const hits = await replicaA.search('acme', ROOTS, 'deploy pipeline', { limit: 5 });
    expect(hits[0]?.skill.name).toBe('deploy-pipeline-kube');
    await check();
    // A new auxiliary file: a new revision, the same search vector (the generation stays).
    const before = hits[0]?.skill.revision;
    await replicaB.putSkill({
      ...added,
      files: makeWrite(
        { name: added.name, description: added.description, body: added.body },
        { 'scripts/run.sh': 'echo deploy\n' },
      ).files,
      task: { type: 'update_skill', userId: 'alice' },
    });
    const updated = await replicaA.search('acme', ROOTS, 'deploy pipeline', { limit: 5 });
    expect(updated[0]?.skill.name).toBe('deploy-pipeline-kube');
    expect(updated[0]?.skill.revision).not.toBe(before);
    await check();
    // A new description (and vector).
    await replicaB.putSkill({
      ...makeWrite({ name: 'deploy-pipeline-kube', description: 'Now about spreadsheets' }),
      task: { type: 'update_skill', userId: 'alice' },
    });
    const redescribed = await replicaA.search('acme', ROOTS, 'deploy pipeline', { limit: 5 });
    expect(redescribed.find((hit) => hit.skill.name === 'deploy-pipeline-kube')?.skill.description).toBe(
      'Now about spreadsheets',
    );
    await check();
    expect(await replicaB.deleteSkill('acme', USER_ROOT, 'deploy-pipeline-kube')).not.toBeNull();
    await check();
    expect(await replicaB.deleteSkill('acme', USER_ROOT, 'kubernetes-7')).not.toBeNull();
    await check();
  });

  it('answers as ranking afresh after each write of another replica, with finds running meanwhile', async () => {
    let writing = true;
    const background = (async () => {
      let i = 0;
      while (writing) {
        await Promise.all(
          QUERIES.map((query) =>
            replicaA.search('acme', ROOTS, QUERIES[(i + query.length) % QUERIES.length] as string, {
              limit: 5,
            }),
          ),
        );
        i++;
      }
    })();
    try {
      for (let round = 0; round < 6; round++) {
        const name = `deploy-review-${round}`;
        await replicaB.putSkill(
          makeWrite({ name, description: 'deploy review report', body: '# Deploy\n\ndeploy review pdf\n' }),
        );
        for (const query of QUERIES) {
          expect(await replicaA.search('acme', ROOTS, query, { limit: 5 })).toEqual(await fresh(query));
        }
        if (round % 2 === 1) expect(await replicaB.deleteSkill('acme', USER_ROOT, name)).not.toBeNull();
        for (const query of QUERIES) {
          expect(await replicaA.search('acme', ROOTS, query, { limit: 5 })).toEqual(await fresh(query));
        }
      }
    } finally {
      writing = false;
      await background;
    }
  });

  it("gives a read overlapping a change and another read one generation's document frequencies", async () => {
    const terms = buildRankTerms(parseSearchQuery('quokka wombat numbat'));
    if (terms === null || terms.length !== 3) throw new Error('expected three rank terms');
    const [quokka, wombat, numbat] = terms as [(typeof terms)[0], (typeof terms)[0], (typeof terms)[0]];
    await replicaB.putSkill(makeWrite({ name: 'quokka-wombat', description: 'quokka and wombat' }));
    const before = await new PostgresTermStats().read(pool, [quokka, wombat]);
    expect(before.stats.map((s) => s.df)).toEqual([1, 1]);
    const termStats = new PostgresTermStats();
    await termStats.read(pool, [quokka]);
    // Read X finds `quokka` kept and counts `wombat`; once that count has answered (in the old
    // generation), another replica adds a quokka, and read Y checks the generation (new) and starts
    // counting, held until X has finished.
    type Query = { name?: string; text: string; values?: unknown[] };
    let releaseY = () => {};
    const yHeld = new Promise<void>((resolve) => {
      releaseY = resolve;
    });
    let yCounting = () => {};
    const yStarted = new Promise<void>((resolve) => {
      yCounting = resolve;
    });
    const dbY = {
      query: async (config: Query) => {
        if (config.name === 'skillport-term-frequencies') {
          yCounting();
          await yHeld;
        }
        return pool.query(config);
      },
    } as unknown as pg.Pool;
    let readY: Promise<unknown> = Promise.resolve();
    const dbX = {
      query: async (config: Query) => {
        const result = await pool.query(config);
        if (config.name === 'skillport-term-frequencies') {
          await replicaB.putSkill(makeWrite({ name: 'quokka-two', description: 'another quokka' }));
          readY = termStats.read(dbY, [numbat]);
          await yStarted;
        }
        return result;
      },
    } as unknown as pg.Pool;
    const x = await termStats.read(dbX, [quokka, wombat]);
    releaseY();
    await readY;
    expect(x).toEqual(before);
    // Later reads count in the new generation.
    expect((await termStats.read(pool, [quokka, wombat])).stats.map((s) => s.df)).toEqual([2, 1]);
    expect((await termStats.read(pool, [quokka, wombat])).total).toBe(before.total + 1);
  });
});
