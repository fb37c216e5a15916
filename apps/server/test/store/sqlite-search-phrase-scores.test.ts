/**
 * `find` on SQLite ranked from kept phrase relevance (`PhraseScores` in `search/sqlite-search.ts`)
 * returns exactly what ranking every match with FTS5's `bm25()` returns: the same hits, scores,
 * matched fields and order — for single words, several words, prefixes, typo corrections, CJK,
 * stop words only, several roots, an account crowded out of the top of the index, ties between
 * copies of one skill, and after the database changed (the kept relevance is carried over adds and
 * updates, recomputed from the new index statistics, and dropped on a delete).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSkillMd } from '@skillport/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCorpus } from '../../../../scripts/test-corpus.js';
import { readRowLengths, StateResults, searchSkills, TermCache } from '../../src/search/sqlite-search.js';
import { type Connection, openConnection } from '../../src/store/sqlite/connection.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { corpusSkillTexts } from './corpus.js';
import { AGENT_ROOT, makeWrite, USER_ROOT } from './helpers.js';

const WORDS = (
  'pdf invoice spreadsheet excel chart docker compose kubernetes deploy react component hooks ' +
  'typescript types python pandas data analysis security audit review commit git branch merge ' +
  'slack message email calendar image generation scraping browser testing migration database ' +
  'write tests code documentation api 数据 分析 小红书'
).split(' ');

const QUERIES = [
  'pdf',
  'git commit',
  'docker compose',
  'react component',
  'write tests',
  'security audit',
  'database migration',
  'api documentation',
  'image generation',
  'web scraping',
  'excel spreadsheet',
  'deploy kubernetes',
  'code review',
  'slack message',
  'typescript types',
  'python data analysis',
  'kubernets deploy', // a typo: corrected from the vocabulary
  'pyhton pandas analysis', // a typo among other words
  'the', // stop words only: name, tags and description
  'how to write',
  'react comp', // prefix
  'te', // too short to be a prefix
  'data analys',
  '数据分析 python', // CJK run plus a word
  '小红书',
  'skill-3-pdf', // an exact name
  '"security" OR audit*', // FTS syntax is only punctuation here
  'code code code review review',
  'commit branch merge git review code tests write data',
  'zzzz qqqq', // nothing
];

let dir: string;
let store: Store;
let conn: Connection;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-phrase-scores-'));
  store = createSqliteStore({ dataDir: dir });
  const pick = (i: number, k: number) => WORDS[(i * 7 + k * 11) % WORDS.length] as string;
  // Copies of one text under other names tie in relevance: the order among them must hold too.
  for (let i = 0; i < 240; i++) {
    const variant = i % 80;
    await store.putSkill({
      ...makeWrite({
        name: `skill-${i}-${pick(variant, 0)}`,
        description: `Works with ${pick(variant, 1)} and ${pick(variant, 2)} for ${pick(variant, 3)} tasks`,
        tags: [pick(variant, 4)],
        body: `# ${pick(variant, 5)}\n\nUse ${pick(variant, 6)} with ${pick(variant, 7)}. ${pick(variant, 8)} ${'the and of '.repeat(variant % 3)}\n`,
      }),
      rootUri: i % 4 === 0 ? AGENT_ROOT : USER_ROOT,
      // A small second account whose skills rank below the first one's.
      accountId: i % 10 === 0 ? 'other' : 'acme',
    });
  }
  // A body of 200 words: its row's token count takes two bytes in FTS5's docsize record, which
  // readRowLengths must decode (the corpus has such rows too, but a clone may lack the corpus).
  await store.putSkill({
    ...makeWrite({
      name: 'skill-long-body',
      description: 'Works with documentation for writing tasks',
      body: `# Long\n\n${Array.from({ length: 200 }, (_, k) => WORDS[k % WORDS.length]).join(' ')}\n`,
    }),
    rootUri: USER_ROOT,
    accountId: 'acme',
  });
  if (findCorpus() !== undefined) {
    const encoder = new TextEncoder();
    for (const [i, { text }] of corpusSkillTexts().entries()) {
      const skill = parseSkillMd(text).skill;
      const name = `corpus-${i}`;
      await store.putSkill({
        ...makeWrite({ name, description: skill.description ?? name, body: skill.body }),
        tags: skill.tags,
        rootUri: i % 3 === 0 ? AGENT_ROOT : USER_ROOT,
        files: [{ path: 'SKILL.md', kind: 'definition', content: encoder.encode(text) }],
      });
    }
  } else {
    console.info('sqlite-search-phrase-scores: corpus absent, synthetic skills only');
  }
  conn = openConnection(path.join(dir, 'skillport.db'), { readonly: true });
}, 120_000);

afterAll(async () => {
  conn?.db.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

function find(
  terms: TermCache,
  account: string,
  roots: string[],
  query: string,
  limit: number,
  exhaustive: boolean,
  results?: StateResults,
) {
  return conn.db
    .transaction(() =>
      searchSkills(conn, account, roots, query, limit, undefined, terms, {
        exhaustive,
        ...(results === undefined ? {} : { results }),
      }),
    )
    .deferred();
}

const SCOPES: Array<[string, string[]]> = [
  ['acme', [USER_ROOT]],
  ['acme', [USER_ROOT, AGENT_ROOT]],
  ['acme', [AGENT_ROOT, USER_ROOT]],
  ['other', [USER_ROOT, AGENT_ROOT]],
];

describe('find ranked from kept phrase relevance', () => {
  it('returns the hits of the exhaustive ranking, cold and warm', () => {
    const terms = new TermCache();
    let compared = 0;
    let found = 0;
    for (const [account, roots] of SCOPES) {
      for (const limit of [1, 3, 10, 50]) {
        for (const query of QUERIES) {
          const expected = find(new TermCache(), account, roots, query, limit, true);
          // Early asks: exhaustive and counted; the fourth ask of a phrase (in this state) reads its
          // matches; later ones rank from the kept ones (each query is asked in every scope and limit).
          for (let round = 0; round < 3; round++) {
            expect(
              find(terms, account, roots, query, limit, false),
              `${query} ${limit} ${roots} round ${round}`,
            ).toEqual(expected);
            compared += 1;
          }
          found += expected.length;
        }
      }
    }
    expect(terms.scores.size).toBeGreaterThan(0); // the warm rounds ranked from kept relevance
    expect(compared).toBe(SCOPES.length * 4 * QUERIES.length * 3);
    expect(found).toBeGreaterThan(1000); // the comparison is not between empty lists
  });

  it('carries the kept relevance over adds and updates, to the bit, and drops it on a delete', async () => {
    const terms = new TermCache();
    const scopes: Array<[string, string[]]> = [
      ['acme', [USER_ROOT, AGENT_ROOT]],
      ['other', [USER_ROOT]],
    ];
    const compareAll = (label: string) => {
      for (const [account, roots] of scopes) {
        for (const query of QUERIES) {
          expect(find(terms, account, roots, query, 10, false), `${label}: ${query} ${account}`).toEqual(
            find(new TermCache(), account, roots, query, 10, true),
          );
        }
      }
    };
    // Every phrase asked four times: read and kept.
    for (let round = 0; round < 4; round++) compareAll(`warm ${round}`);
    expect(terms.scores.size).toBeGreaterThan(0);
    const changes: Array<() => Promise<unknown>> = [
      // A new skill holding many query words.
      () =>
        store.putSkill(
          makeWrite({
            name: 'carry-docker-python',
            description: 'Docker compose and python data analysis for code review',
            tags: ['docker', 'python'],
            body: '# Docker\n\nDocker compose, python pandas, git commit, write tests, api documentation.\n',
          }),
        ),
      // The same skill replaced: other words, longer body.
      () =>
        store.putSkill(
          makeWrite({
            name: 'carry-docker-python',
            description: 'Kubernetes deploy and security audit',
            tags: ['kubernetes'],
            body: `# Deploy\n\n${'Deploy kubernetes clusters after a security audit. '.repeat(30)}\n`,
          }),
        ),
      // A synthetic skill of the other account replaced (its words change, its row stays).
      () =>
        store.putSkill({
          ...makeWrite({
            name: 'skill-0-pdf',
            description: 'Slack message and excel spreadsheet',
            tags: ['slack'],
            body: '# Slack\n\nSend a slack message with an excel spreadsheet.\n',
          }),
          accountId: 'other',
          rootUri: AGENT_ROOT,
        }),
      // Several skills at once (grouped into one commit when the store groups concurrent writes).
      () =>
        Promise.all(
          [1, 2, 3].map((k) =>
            store.putSkill(
              makeWrite({
                name: `carry-batch-${k}`,
                description: `React component ${k} with typescript types`,
                body: `# React\n\n${'react component hooks '.repeat(k * 5)}\n`,
              }),
            ),
          ),
        ),
    ];
    for (const [i, change] of changes.entries()) {
      await change();
      // The first ask after the change finds its phrase kept: carried over, not dropped and read again.
      expect(find(terms, 'acme', [USER_ROOT, AGENT_ROOT], 'docker compose', 10, false)).toEqual(
        find(new TermCache(), 'acme', [USER_ROOT, AGENT_ROOT], 'docker compose', 10, true),
      );
      expect(terms.scores.size, `change ${i}`).toBeGreaterThan(0);
      compareAll(`after change ${i}`);
    }
    expect(find(terms, 'acme', [USER_ROOT, AGENT_ROOT], 'kubernetes deploy', 3, false)[0]?.skill.name).toBe(
      'carry-docker-python',
    );
    // A delete: dropped (which row went is not known), then read again and exact.
    expect(await store.deleteSkill('acme', USER_ROOT, 'carry-docker-python')).not.toBeNull();
    find(terms, 'acme', [USER_ROOT, AGENT_ROOT], 'docker compose', 10, false);
    expect(terms.scores.size).toBe(0);
    for (let round = 0; round < 2; round++) compareAll(`after the delete ${round}`);
    expect(terms.scores.size).toBeGreaterThan(0);
  });

  it('brings a kept word up to date across many written skills, tokenizing each written skill once for every phrase', async () => {
    const terms = new TermCache();
    const roots = [USER_ROOT, AGENT_ROOT];
    const check = (query: string) =>
      expect(find(terms, 'acme', roots, query, 10, false), query).toEqual(
        find(new TermCache(), 'acme', roots, query, 10, true),
      );
    // 'the' alone searches name, tags and description: a phrase under a column filter.
    for (let round = 0; round < 4; round++) {
      check('slack message');
      check('pdf');
      check('the');
    }
    const kept = terms.scores.size;
    expect(kept).toBeGreaterThan(0);
    const before = terms.scores.work;
    // Six skills written one commit each (more than four since the last ask of 'slack message'),
    // 'pdf' asked after each so that every commit is seen.
    for (let i = 0; i < 6; i++) {
      await store.putSkill(
        makeWrite({
          name: `churn-${i}`,
          description: `Slack message ${i}`,
          body: `# Slack\n\n${'slack '.repeat(i)}\n`,
        }),
      );
      check('pdf');
    }
    check('slack message');
    check('the');
    const after = terms.scores.work;
    // Each written skill tokenized once, though three one-word phrases were brought up to date
    // across it; none scored through FTS5. The column-filtered phrase is dropped (each of its six
    // rows would cost an FTS5 scan) and ranked over every match instead.
    expect(after.rowsTokenized - before.rowsTokenized).toBe(6);
    expect(after.rowsScored - before.rowsScored).toBe(0);
    expect(after.caughtUp - before.caughtUp).toBe(6 + 2);
    expect(after.dropped - before.dropped).toBe(1);
    expect(find(terms, 'acme', roots, 'slack message', 3, false)[0]?.skill.name).toMatch(/^churn-/);
    // Twenty skills written together (one commit or a few): one tokenization each for both queries.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.putSkill(
          makeWrite({
            name: `churn-batch-${i}`,
            description: `Slack message about a pdf ${i}`,
            body: `# Batch\n\n${'pdf slack messages '.repeat(i % 4)}\n`,
          }),
        ),
      ),
    );
    check('slack message');
    check('pdf');
    const batch = terms.scores.work;
    expect(batch.rowsTokenized - after.rowsTokenized).toBe(20);
    expect(batch.rowsScored - after.rowsScored).toBe(0);
    expect(batch.dropped - after.dropped).toBe(0);
    expect(batch.caughtUp - after.caughtUp).toBe(3);
  });

  it('brings a growing phrase up to date in arrays it owns, new ones only when they run out of room', async () => {
    const terms = new TermCache();
    const roots = [USER_ROOT, AGENT_ROOT];
    const check = (label: string) =>
      expect(find(terms, 'acme', roots, 'docker compose', 10, false), label).toEqual(
        find(new TermCache(), 'acme', roots, 'docker compose', 10, true),
      );
    for (let round = 0; round < 4; round++) check(`warm ${round}`);
    const kept = terms.scores.size;
    expect(kept).toBeGreaterThan(0);
    const before = terms.scores.carriedAllocated;
    const write = (name: string, extra: string) =>
      store.putSkill(
        makeWrite({
          name,
          description: `Docker compose ${extra}`,
          body: `# Docker\n\ndocker compose ${extra}\n`,
        }),
      );
    // The first new match: each phrase of the query gets arrays of its own, with room to spare.
    await write('room-0', 'files');
    check('after the first add');
    const grown = terms.scores.carriedAllocated;
    expect(grown).toBeGreaterThan(before);
    expect(terms.scores.size).toBe(kept + 2); // one new match for each of the two phrases
    // Eight more adds and updates of them: the same arrays, to the bit.
    for (let i = 1; i <= 8; i++) {
      await write(i % 2 === 0 ? `room-${i}` : `room-${i - 1}`, `services ${i}`);
      check(`after write ${i}`);
    }
    expect(terms.scores.size).toBe(kept + 2 * 5);
    expect(terms.scores.carriedAllocated).toBe(grown);
  });

  it('reads a phrase on its fourth ask across carried changes, on its second after a drop when asked four times before', async () => {
    const terms = new TermCache();
    const roots = [USER_ROOT, AGENT_ROOT];
    const expected = () => find(new TermCache(), 'acme', roots, 'kubernetes', 10, true);
    const ask = () => {
      const hits = find(terms, 'acme', roots, 'kubernetes', 10, false);
      expect(hits).toEqual(expected());
      return terms.scores.size;
    };
    let n = 0;
    const add = () =>
      store.putSkill(
        makeWrite({ name: `phrase-policy-${n++}`, description: 'A change', body: '# Change\n' }),
      );
    // Deleting a skill this connection has seen (another word's find saw it) drops kept matches.
    const drop = async () => {
      await add();
      find(terms, 'acme', roots, 'pdf', 1, false);
      await store.deleteSkill('acme', USER_ROOT, `phrase-policy-${n - 1}`);
    };
    // Asks count across commits that only add: read on the fourth, then carried.
    expect(ask()).toBe(0);
    await add();
    expect([ask(), ask()]).toEqual([0, 0]);
    await add();
    expect(ask()).toBeGreaterThan(0);
    await add();
    expect(ask()).toBeGreaterThan(0);
    ask();
    // A delete drops it; it was asked six times before: read on the second ask after.
    await drop();
    expect(ask()).toBe(0);
    expect(ask()).toBeGreaterThan(0);
    await drop();
    // Two asks before the drop: back to the fourth ask.
    expect([ask(), ask(), ask()]).toEqual([0, 0, 0]);
    expect(ask()).toBeGreaterThan(0);
  });

  it('learns a new word after the database changes (it is no longer corrected as a typo)', async () => {
    const terms = new TermCache();
    const roots = [USER_ROOT, AGENT_ROOT];
    for (let round = 0; round < 3; round++) {
      expect(find(terms, 'acme', roots, 'zebrafish', 10, false)).toEqual(
        find(new TermCache(), 'acme', roots, 'zebrafish', 10, true),
      );
    }
    await store.putSkill(
      makeWrite({ name: 'zebrafish-lab', description: 'Zebrafish lab protocols', body: '# Zebrafish\n' }),
    );
    const after = find(terms, 'acme', roots, 'zebrafish', 10, false);
    expect(after[0]?.skill.name).toBe('zebrafish-lab');
    expect(after).toEqual(find(new TermCache(), 'acme', roots, 'zebrafish', 10, true));
  });
});

describe('a phrase with few matches beside kept ones', () => {
  it('is read for the one query, not kept, and the ranking is that of every match', async () => {
    await store.putSkill(
      makeWrite({ name: 'few-zither', description: 'Zither tuning with python', body: '# Zither data\n' }),
    );
    const terms = new TermCache();
    const roots = [USER_ROOT, AGENT_ROOT];
    // `python` and `data` (as a prefix) asked four times: read and kept.
    for (let i = 0; i < 4; i++) find(terms, 'acme', roots, 'python data', 10, false);
    const kept = terms.scores.size;
    expect(kept).toBeGreaterThan(0);
    const exhaustive = conn.stmt.bind(conn);
    let ranked = 0;
    conn.stmt = (sql: string) => {
      if (sql.includes('ORDER BY raw DESC')) ranked++;
      return exhaustive(sql);
    };
    try {
      // `zither` is asked for the first time: read for this query alone (one skill holds it).
      for (const query of ['python zither data', 'zither python data']) {
        expect(find(terms, 'acme', roots, query, 10, false)).toEqual(
          find(new TermCache(), 'acme', roots, query, 10, true),
        );
      }
      // Only the exhaustive rankings of the comparison ran, none for the pruned ones.
      expect(ranked).toBe(2);
      expect(terms.scores.size).toBe(kept);
    } finally {
      conn.stmt = exhaustive;
    }
  });
});

describe('a phrase with many matches beside kept ones', () => {
  it('is counted, not scored, before the query is ranked over every match', () => {
    const terms = new TermCache();
    const roots = [USER_ROOT, AGENT_ROOT];
    for (let i = 0; i < 4; i++) find(terms, 'acme', roots, 'python data', 10, false);
    expect(terms.scores.size).toBeGreaterThan(0);
    const original = conn.stmt.bind(conn);
    const ran: string[] = [];
    conn.stmt = (sql: string) => {
      ran.push(sql);
      return original(sql);
    };
    try {
      // `works` (every synthetic description) holds more skills than a quarter of the kept matches.
      for (const query of ['works python data', 'python zither works data']) {
        ran.length = 0;
        const pruned = find(terms, 'acme', roots, query, 10, false);
        const scoredFew = ran.filter(
          (sql) => sql.includes('bm25') && sql.includes('LIMIT ?') && !sql.includes('DESC'),
        );
        const counted = ran.filter((sql) => sql.includes('count(*)') && sql.includes('MATCH'));
        expect(counted.length).toBeGreaterThan(0);
        // No match of `works` (nor of `zither`, counted before it) was scored for the few-matches path.
        expect(scoredFew).toEqual([]);
        expect(ran.some((sql) => sql.includes('ORDER BY raw DESC'))).toBe(true);
        expect(pruned).toEqual(find(new TermCache(), 'acme', roots, query, 10, true));
      }
    } finally {
      conn.stmt = original;
    }
  });
});

describe('answers kept per database state (StateResults)', () => {
  it('gives a query asked again in the same state the answer it gave, equal to the exhaustive ranking', () => {
    const terms = new TermCache();
    const results = new StateResults();
    for (const [account, roots] of SCOPES) {
      for (const query of QUERIES) {
        const expected = find(new TermCache(), account, roots, query, 10, true);
        const first = find(terms, account, roots, query, 10, false, results);
        expect(first).toEqual(expected);
        const again = find(terms, account, roots, query, 10, false, results);
        expect(again).toEqual(expected);
        // Another limit, another answer.
        expect(find(terms, account, roots, query, 3, false, results)).toEqual(
          find(new TermCache(), account, roots, query, 3, true),
        );
      }
    }
    // Kept: the same array is given again (no ranking).
    const roots = [USER_ROOT, AGENT_ROOT];
    const kept = find(terms, 'acme', roots, 'docker compose', 10, false, results);
    expect(find(terms, 'acme', roots, 'docker compose', 10, false, results)).toBe(kept);
    // Not kept: an answer that consulted the vocabulary for a typo (its slices may be older).
    const typo = find(terms, 'acme', roots, 'pyhton pandas', 10, false, results);
    expect(typo.length).toBeGreaterThan(0);
    expect(find(terms, 'acme', roots, 'pyhton pandas', 10, false, results)).not.toBe(typo);
  });

  it('answers afresh after any commit, and counts the asks it answers (a phrase is read on its fourth ask)', async () => {
    const terms = new TermCache();
    const results = new StateResults();
    const roots = [USER_ROOT, AGENT_ROOT];
    const ask = () => find(terms, 'acme', roots, 'spreadsheet', 10, false, results);
    const before = ask();
    expect(ask()).toBe(before);
    expect(ask()).toBe(before);
    // Answered from the kept answer after the first ask; read on the fourth, as when ranked.
    expect(terms.scores.size).toBe(0);
    expect(ask()).toBe(before);
    const read = terms.scores.size;
    expect(read).toBeGreaterThan(0);
    await store.putSkill(
      makeWrite({ name: 'state-results-sheet', description: 'Spreadsheet macros', body: '# Spreadsheet\n' }),
    );
    const after = ask();
    expect(after).not.toBe(before);
    expect(after.map((hit) => hit.skill.name)).toContain('state-results-sheet');
    expect(after).toEqual(find(new TermCache(), 'acme', roots, 'spreadsheet', 10, true));
    // Ranked from the kept relevance, carried over the add.
    expect(terms.scores.size).toBe(read + 1);
    expect(ask()).toBe(after);
  });

  it('keeps a bounded number of answers: empty answers count, and a query past 2,048 characters is not kept', () => {
    const results = new StateResults();
    const state = 1;
    // Distinct queries that match nothing (random text) would otherwise be kept without limit.
    for (let i = 0; i < 10_000; i++) results.set(state, `nothing-${i}`, { hits: [], phrases: null });
    expect(results.size).toBe(4096);
    expect(results.get(state, 'nothing-9999')).toBeDefined();
    expect(results.get(state, 'nothing-0')).toBeUndefined();
    const long = 'x'.repeat(2049);
    results.set(state, long, { hits: [], phrases: null });
    expect(results.get(state, long)).toBeUndefined();
    const edge = 'y'.repeat(2048);
    results.set(state, edge, { hits: [], phrases: null });
    expect(results.get(state, edge)).toBeDefined();
  });
});

/** SQLite's varint (7 bits a byte, big-endian, the ninth byte whole), summed over a record. */
function recordSum(record: Uint8Array): number {
  let total = 0;
  let i = 0;
  while (i < record.length) {
    let value = 0;
    for (let k = 0; i < record.length; k++) {
      const byte = record[i++] as number;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) break;
    }
    total += value;
  }
  return total;
}

describe('readRowLengths', () => {
  it("gives each search row's token count, the row count and the highest origin", () => {
    const rows = conn.db.prepare('SELECT id, sz, origin FROM skills_fts_docsize').raw(true).all() as Array<
      [number, Uint8Array, number]
    >;
    const read = readRowLengths(conn);
    expect(read?.count).toBe(rows.length);
    expect(read?.origin).toBe(Math.max(...rows.map((row) => row[2])));
    for (const [id, sz] of rows) expect(read?.lengths[id], `row ${id}`).toBe(recordSum(sz));
    expect(rows.some(([, sz]) => sz.some((byte) => byte >= 0x80))).toBe(true);
  });

  it('decodes long, nine-byte, truncated and empty records, across batches', () => {
    const scratch = openConnection(path.join(dir, 'lengths.db'));
    try {
      scratch.db.exec('CREATE TABLE skills_fts_docsize (id INTEGER PRIMARY KEY, sz BLOB, origin INTEGER)');
      const records: Array<[number, number[]]> = [
        [1, [1, 2, 3, 4, 5]],
        [2, []],
        [3, [0x81, 0x00, 0xff, 0x7f]],
        [4, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x81, 0x05, 0x02]],
        [5, [0x05, 0x83]],
      ];
      for (let id = 6; id < 20_000; id += 3) records.push([id, [id % 128, 0x80 | (id % 7), id % 100]]);
      const insert = scratch.db.prepare('INSERT INTO skills_fts_docsize VALUES (?, ?, ?)');
      scratch.db.transaction(() => {
        for (const [id, bytes] of records) insert.run(id, Buffer.from(bytes), id * 2);
      })();
      const read = readRowLengths(scratch);
      expect(read?.count).toBe(records.length);
      expect(read?.origin).toBe((records.at(-1)?.[0] ?? 0) * 2);
      for (const [id, bytes] of records)
        expect(read?.lengths[id], `row ${id}`).toBe(recordSum(Uint8Array.from(bytes)));
      expect(read?.lengths[0]).toBe(-1);
      scratch.db.prepare('INSERT INTO skills_fts_docsize VALUES (-1, ?, 1)').run(Buffer.from([1]));
      expect(readRowLengths(scratch)).toBeNull();
    } finally {
      scratch.db.close();
    }
  });
});

describe('answers kept across search-index upkeep', () => {
  it('are given again after commits that only merge the index or build per-term lists, and equal the exhaustive ranking', async () => {
    const terms = new TermCache();
    const results = new StateResults();
    const roots = [USER_ROOT, AGENT_ROOT];
    const asked = QUERIES.map((query) => find(terms, 'acme', roots, query, 10, false, results));
    // Kept: given again as the same array (answers that consulted the vocabulary for a typo are not).
    const kept = QUERIES.filter(
      (query, i) => find(terms, 'acme', roots, query, 10, false, results) === asked[i],
    );
    expect(kept.length).toBeGreaterThan(QUERIES.length - 5);
    const { state, contentState } = terms.scores;
    // FTS5 merges and per-term list steps, each its own commit, until nothing is left to do.
    let steps = 0;
    while (await store.compactSearchIndex(8)) steps++;
    expect(steps).toBeGreaterThan(1);
    for (const [i, query] of QUERIES.entries()) {
      const again = find(terms, 'acme', roots, query, 10, false, results);
      if (kept.includes(query)) expect({ query, same: again === asked[i] }).toEqual({ query, same: true });
      expect(again).toEqual(find(new TermCache(), 'acme', roots, query, 10, true));
    }
    expect(terms.scores.state).not.toBe(state);
    expect(terms.scores.contentState).toBe(contentState);
    // A write is a new content state: answered afresh.
    await store.putSkill(
      makeWrite({ name: 'upkeep-pdf', description: 'PDF pdf pdf forms', body: '# PDF\n' }),
    );
    const after = find(terms, 'acme', roots, 'pdf', 10, false, results);
    expect(terms.scores.contentState).not.toBe(contentState);
    expect(after.map((hit) => hit.skill.name)).toContain('upkeep-pdf');
    expect(after).toEqual(find(new TermCache(), 'acme', roots, 'pdf', 10, true));
  });
});
