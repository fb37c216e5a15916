/**
 * Per-term match lists of the SQLite search index (`search/term-lists.ts`, schema version 15): a
 * phrase scored from them gives exactly the skills and the `bm25()` bits FTS5 gives it, for plain
 * words and prefixes of the corpus — once built, not before (nor while the first build runs, with
 * writes between its steps), after a restart mid-build, and after adds, updates and deletes before
 * and after the lists' `covered` origin; `find` ranked with them equals the exhaustive ranking.
 * The build in steps of one unit of work each (inside a term's list and a chunk), resumed after a
 * restart, gives the same lists as one step; a pass after writes tokenizes only the written rows
 * and gives the lists a fresh build gives. Short passes write delta segments (schema version 17)
 * that a merge pass folds into the parts: exact at every step of either, across a restart mid-pass,
 * and after an upgrade of a file whose lists were built at version 16.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSkillMd } from '@skillport/core';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCorpus } from '../../../../scripts/test-corpus.js';
import { isCjkToken } from '../../src/search/cjk-segment.js';
import { tokenizeQuery } from '../../src/search/fts-query.js';
import {
  LISTED_CHANGES_MAX,
  readRowLengths,
  searchSkills,
  TermCache,
} from '../../src/search/sqlite-search.js';
import {
  MAX_SEGMENTS,
  prefixUpper,
  readTermListState,
  runTermListStep,
  stemsOf,
  TERM_LIST_CHUNK,
  TERM_LIST_PART_COST,
  TermListBuilder,
  type TermListStepReport,
  unitedLists,
} from '../../src/search/term-lists.js';
import { type Connection, openConnection } from '../../src/store/sqlite/connection.js';
import { createSqliteStore } from '../../src/store/sqlite/create-sqlite-store.js';
import { SCHEMA_VERSION } from '../../src/store/sqlite/migrations.js';
import type { Store } from '../../src/store/types.js';
import { corpusSkillTexts } from './corpus.js';
import { AGENT_ROOT, makeWrite, USER_ROOT } from './helpers.js';

const WORDS = (
  'pdf invoice spreadsheet excel chart docker compose kubernetes deploy react component hooks ' +
  'typescript types python pandas data analysis security audit review commit git branch merge ' +
  'slack message email calendar image generation scraping browser testing migration database ' +
  'write tests code documentation api running runner deployment'
).split(' ');

/** Every match of one phrase with FTS5's own `bm25()`, by rowid: the reference. */
const FTS_SCORES = `SELECT rowid, -bm25(skills_fts, 10, 5, 3, 1.5, 0.25) FROM skills_fts WHERE skills_fts MATCH ?
  ORDER BY rowid`;

let dir: string;
let store: Store;
let conn: Connection;
/** Plain words and prefixes (`"word"*`) of the stored texts. */
let phrases: string[] = [];
/** How many of {@link phrases} can be scored from lists. */
let listable = 0;

const pick = (i: number, k: number) => WORDS[(i * 7 + k * 11) % WORDS.length] as string;
/** The name of the i-th synthetic skill (root: the agent root when i % 4 is 0, else the user root). */
const nameOf = (i: number) => `skill-${i}-${pick(i, 0)}`;

function openStore(): Store {
  return createSqliteStore({ dataDir: dir });
}

/** Build steps (merging the index first), `steps` of them once the list build has begun. */
async function buildSteps(target: Store, steps: number): Promise<number> {
  for (let merges = 0; merges < 10_000 && readTermListState(conn)?.target == null; merges++) {
    if (!(await target.compactSearchIndex(1))) break;
  }
  let done = 0;
  while (done < steps && (await target.compactSearchIndex(1))) done++;
  return done;
}

async function buildAll(target: Store): Promise<void> {
  while (await target.compactSearchIndex(64)) {}
}

/**
 * Compares every phrase scored from the lists with FTS5's scoring; returns how many were scored from
 * the lists (the others: not built yet or not listable, null).
 */
function compareListed(label: string, target: Connection = conn): number {
  const terms = new TermCache();
  let listed = 0;
  target.db
    .transaction(() => {
      terms.scores.sync(target);
      for (const phrase of phrases) {
        const got = terms.scores.listed(target, phrase);
        if (got === null) continue;
        listed++;
        const want = target.db.prepare(FTS_SCORES).raw(true).all(phrase) as Array<[number, number]>;
        expect([...got.seqs], `${label}: ${phrase} skills`).toEqual(want.map((row) => row[0]));
        expect([...got.scores], `${label}: ${phrase} scores`).toEqual(want.map((row) => row[1]));
      }
    })
    .deferred();
  return listed;
}

function find(terms: TermCache, query: string, exhaustive: boolean) {
  return conn.db
    .transaction(() =>
      searchSkills(conn, 'acme', [USER_ROOT, AGENT_ROOT], query, 10, undefined, terms, { exhaustive }),
    )
    .deferred();
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'skillport-term-lists-'));
  store = openStore();
  const texts: string[] = [];
  for (let i = 0; i < 160; i++) {
    const write = makeWrite({
      name: nameOf(i),
      description: `Works with ${pick(i, 1)} and ${pick(i, 2)} for ${pick(i, 3)} tasks`,
      tags: [pick(i, 4)],
      body: `# ${pick(i, 5)}\n\nUse ${pick(i, 6)} with ${pick(i, 7)}. ${pick(i, 8)} ${'the and of '.repeat(i % 3)}\n`,
    });
    await store.putSkill({ ...write, rootUri: i % 4 === 0 ? AGENT_ROOT : USER_ROOT });
  }
  texts.push(WORDS.join(' '));
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
      texts.push(text);
    }
  } else {
    console.info('sqlite-term-lists: corpus absent, synthetic skills only');
  }
  // Words of every length from the texts (a sample of each), as words and as prefixes.
  const words = [...new Set(texts.flatMap((text) => tokenizeQuery(text)))].filter((w) => w.length >= 3);
  const sample = words.filter((_, i) => i % Math.max(1, Math.floor(words.length / 400)) === 0);
  phrases = sample.flatMap((word) => [`"${word}"`, `"${word}"*`]);
  // Scored from lists once built: one plain (not CJK) word of one index term.
  listable = sample.filter((word) => !isCjkToken(word) && stemsOf(word).length === 1).length * 2;
  conn = openConnection(path.join(dir, 'skillport.db'), { readonly: true });
}, 180_000);

afterAll(async () => {
  conn?.db.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('per-term match lists', () => {
  it('are not used before they are built (the database is usable at once)', () => {
    expect(readTermListState(conn)).toEqual({
      covered: null,
      target: null,
      nextSeq: null,
      merged: null,
      delta: false,
    });
    expect(listable).toBeGreaterThan(500);
    expect(compareListed('unbuilt')).toBe(0);
    for (const query of ['docker compose', 'python data analys', 'security']) {
      expect(find(new TermCache(), query, false)).toEqual(find(new TermCache(), query, true));
    }
  });

  it('are not used while the first build runs, with writes between its steps', async () => {
    expect(await buildSteps(store, 3)).toBe(3);
    const state = readTermListState(conn);
    expect(state?.target).not.toBeNull();
    expect(state?.covered).toBeNull();
    expect(compareListed('mid-build')).toBe(0);
    // Writes during the build: an add, an update of a skill already read, a delete.
    await store.putSkill(
      makeWrite({
        name: 'mid-build-new',
        description: 'Docker compose for python data analysis',
        body: '# Docker\n',
      }),
    );
    await store.putSkill({
      ...makeWrite({ name: nameOf(1), description: 'Security audit of kubernetes', body: '# Audit\n' }),
      rootUri: USER_ROOT,
    });
    expect(await store.deleteSkill('acme', USER_ROOT, nameOf(2))).not.toBeNull();
    expect(await buildSteps(store, 3)).toBe(3);
    expect(compareListed('mid-build after writes')).toBe(0);
  });

  it('resume the pass after a restart mid-build and then score every listable phrase exactly', async () => {
    const before = readTermListState(conn);
    expect(before?.target).not.toBeNull();
    await store.close();
    store = openStore();
    await buildSteps(store, 1);
    // The same pass goes on (its target kept), it does not start again.
    expect(readTermListState(conn)?.target).toBe(before?.target);
    while (readTermListState(conn)?.target != null) expect(await store.compactSearchIndex(64)).toBe(true);
    const state = readTermListState(conn);
    expect(state).toEqual({
      covered: before?.target,
      target: null,
      nextSeq: null,
      merged: before?.target,
      delta: false,
    });
    // The writes of the previous test came after the pass's target: scored through FTS5 until the
    // next pass.
    expect(compareListed('built')).toBe(listable);
    await buildAll(store);
    expect(readTermListState(conn)?.covered).toBeGreaterThan(before?.target as number);
    expect(compareListed('built, writes listed')).toBe(listable);
  });

  it('stay exact after adds, updates and deletes below and above the watermark', async () => {
    const changes: Array<() => Promise<unknown>> = [
      () =>
        store.putSkill(
          makeWrite({
            name: 'after-build',
            description: 'Docker compose and python data analysis for code review',
            tags: ['docker', 'python'],
            body: '# Docker\n\nDocker compose, python pandas, git commit, running tests, api documentation.\n',
          }),
        ),
      // Replaced: other words (its row is now above the watermark).
      () =>
        store.putSkill(
          makeWrite({
            name: 'after-build',
            description: 'Kubernetes deploy and security audit',
            body: `# Deploy\n\n${'Deploy kubernetes clusters after a security audit. '.repeat(30)}\n`,
          }),
        ),
      // Deleted below the watermark (built into the lists).
      () => store.deleteSkill('acme', USER_ROOT, nameOf(5)),
      () => store.deleteSkill('acme', AGENT_ROOT, nameOf(8)),
      // Deleted above it.
      () => store.deleteSkill('acme', USER_ROOT, 'after-build'),
      // An update of a skill built into the lists.
      () =>
        store.putSkill({
          ...makeWrite({
            name: nameOf(3),
            description: 'Slack message and excel spreadsheet',
            body: '# S\n',
          }),
          rootUri: USER_ROOT,
        }),
    ];
    for (const [i, change] of changes.entries()) {
      await change();
      expect(compareListed(`after change ${i}`), `change ${i}`).toBe(listable);
      for (const query of [
        'docker compose',
        'kubernetes deploy',
        'python data analys',
        'slack excel',
        'calendar',
      ]) {
        expect(find(new TermCache(), query, false), `${query} after change ${i}`).toEqual(
          find(new TermCache(), query, true),
        );
      }
    }
    // The next pass moves `covered` past the writes.
    const covered = readTermListState(conn)?.covered as number;
    await buildAll(store);
    expect(readTermListState(conn)?.covered).toBeGreaterThan(covered);
    expect(compareListed('rebuilt')).toBe(listable);
  });

  it('rank find exactly as every match is ranked, cold and warm', () => {
    const terms = new TermCache();
    const queries = [
      ...WORDS.map((w) => `${w} code`),
      'runn',
      'deploym kubernetes',
      'the',
      '数据分析 python',
    ];
    for (let round = 0; round < 5; round++) {
      for (const query of queries) {
        expect(find(terms, query, false), `${query} round ${round}`).toEqual(
          find(new TermCache(), query, true),
        );
      }
    }
  });

  it('read the same entries from a file in UTF-16 (their blobs concatenated as hexadecimal there)', () => {
    const file = path.join(dir, 'utf16.db');
    const copy = new Database(file);
    copy.pragma("encoding = 'UTF-16le'");
    for (const table of ['search_term_lists', 'search_term_deltas']) {
      copy.exec(
        conn.db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck(true).get(table) as string,
      );
      const rows = conn.db.prepare(`SELECT * FROM ${table}`).all() as Array<Record<string, unknown>>;
      const columns = Object.keys(rows[0] ?? {});
      const insert = copy.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      copy.transaction(() => {
        for (const row of rows) insert.run(...columns.map((column) => row[column]));
      })();
    }
    copy.close();
    const utf16 = openConnection(file, { readonly: true });
    try {
      expect(utf16.db.pragma('encoding', { simple: true })).toBe('UTF-16le');
      const state = readTermListState(conn);
      const lengths = readRowLengths(conn);
      expect(state?.covered).not.toBeNull();
      expect(lengths).not.toBeNull();
      const rows = {
        lengths: lengths?.lengths as Int32Array,
        origins: lengths?.origins as Float64Array,
        covered: state?.covered as number,
        merged: state?.merged,
      };
      let entries = 0;
      for (const word of WORDS) {
        const [term] = stemsOf(word);
        if (term === undefined) continue;
        for (const upper of [undefined, prefixUpper(term)]) {
          const want = unitedLists(conn, term, upper, rows);
          const got = unitedLists(utf16, term, upper, rows);
          expect([...got.seqs], `${term} ${upper ?? ''}`).toEqual([...want.seqs]);
          expect([...got.freqs], `${term} ${upper ?? ''}`).toEqual([...want.freqs]);
          entries += want.seqs.length;
        }
      }
      expect(entries).toBeGreaterThan(100);
    } finally {
      utf16.db.close();
    }
  });

  it('score the rows written after `covered` from their terms, exactly, and fall back to FTS5 past LISTED_CHANGES_MAX of them', async () => {
    for (let i = 0; i < 20; i++) {
      await store.putSkill(
        makeWrite({ name: `burst-${i}`, description: `Docker burst ${i}`, body: '# B\n' }),
      );
    }
    // Every listable phrase still scored from the lists, the 20 rows from their terms: the same bits.
    expect(compareListed('burst of 20')).toBe(listable);
    // More rows written than are worth tokenizing for one find: FTS5 scores the phrases.
    for (let i = 20; i <= LISTED_CHANGES_MAX; i += 32) {
      await Promise.all(
        Array.from({ length: Math.min(32, LISTED_CHANGES_MAX + 1 - i) }, (_, k) =>
          store.putSkill(
            makeWrite({ name: `burst-${i + k}`, description: `Docker burst ${i + k}`, body: '# B\n' }),
          ),
        ),
      );
    }
    expect(compareListed('burst')).toBe(0);
    expect(find(new TermCache(), 'docker burst', false)).toEqual(find(new TermCache(), 'docker burst', true));
    await buildAll(store);
    expect(compareListed('burst rebuilt')).toBe(listable);
  });

  it('build in steps of one unit each (inside a term and a chunk), across a restart, as one step does', () => {
    const whole = scratch('whole');
    const stepped = scratch('stepped');
    try {
      expect(build(whole, new TermListBuilder(CHUNK), Number.MAX_SAFE_INTEGER)).toBe(1);
      const lists = whole.db.prepare(LISTS).raw(true).all() as Array<[string, number, number]>;
      expect(lists.length).toBeGreaterThan(1000);
      // Terms listed in several chunks (their list is written across steps below).
      const parts = new Map<string, number>();
      for (const [term] of lists) parts.set(term, (parts.get(term) ?? 0) + 1);
      expect([...parts.values()].filter((n) => n >= 4).length).toBeGreaterThan(20);
      let builder = new TermListBuilder(CHUNK);
      let most = 0;
      const steps = build(stepped, builder, 1, (report, step) => {
        most = Math.max(most, report.rows + report.parts);
        // A restart mid-chunk: the chunk in memory is lost and done again.
        if (step === 300 || step === 2000) {
          builder.close();
          builder = new TermListBuilder(CHUNK);
          return builder;
        }
        return undefined;
      });
      expect(steps).toBeGreaterThan(lists.length);
      expect(most).toBe(1);
      expect(stepped.db.prepare(LISTS).raw(true).all()).toEqual(lists);
      expect(readTermListState(stepped)).toEqual(readTermListState(whole));
    } finally {
      whole.db.close();
      stepped.db.close();
    }
  });

  it("bound each step of the store's budget: parts rewritten (each a page the commit writes) and work", () => {
    const whole = scratch('whole-bounded');
    const stepped = scratch('stepped-bounded');
    try {
      expect(build(whole, new TermListBuilder(), Number.MAX_SAFE_INTEGER)).toBe(1);
      const lists = whole.db.prepare(LISTS).raw(true).all();
      // The store's step: 64 pages × 64 µs (create-sqlite-store.ts).
      const budget = 64 * 64;
      let mostParts = 0;
      let mostWork = 0;
      const steps = build(stepped, new TermListBuilder(), budget, (report) => {
        mostParts = Math.max(mostParts, report.parts);
        mostWork = Math.max(mostWork, report.work);
        return undefined;
      });
      // A chunk of the real size holds more terms than one step may rewrite.
      const partsWritten = whole.db
        .prepare('SELECT count(*) FROM search_term_lists')
        .pluck(true)
        .get() as number;
      expect(partsWritten).toBeGreaterThan(2 * Math.ceil(budget / TERM_LIST_PART_COST));
      expect(steps).toBeGreaterThan(2);
      expect(mostParts).toBeGreaterThan(0);
      expect(mostParts).toBeLessThanOrEqual(Math.ceil(budget / TERM_LIST_PART_COST));
      // A step stops at its budget between units; the last unit (a part, a body piece) overshoots it
      // by at most its own estimate.
      expect(mostWork).toBeLessThan(budget + 400);
      expect(stepped.db.prepare(LISTS).raw(true).all()).toEqual(lists);
      expect(readTermListState(stepped)).toEqual(readTermListState(whole));
    } finally {
      whole.db.close();
      stepped.db.close();
    }
  });

  it('redo the chunk of a step whose writes were rolled back, and then equal a build without failures', () => {
    const whole = scratch('whole-unfailed');
    const failed = scratch('failed');
    try {
      expect(build(whole, new TermListBuilder(CHUNK), Number.MAX_SAFE_INTEGER)).toBe(1);
      // The parts' writes fail at chosen calls (a full disk, an I/O error) after others of the same
      // step: the step's transaction is rolled back with the parts it had already rewritten.
      let puts = 0;
      const failAt = new Set([40, 41, 300, 2000, 2003]);
      const failing: Connection = {
        db: failed.db,
        stmt(sql) {
          const statement = failed.stmt(sql);
          if (!sql.startsWith('INSERT OR REPLACE INTO search_term_lists')) return statement;
          return {
            run: (...args: unknown[]) => {
              if (failAt.has(++puts)) throw new Error('disk I/O error');
              return statement.run(...args);
            },
          } as unknown as typeof statement;
        },
      };
      const builder = new TermListBuilder(CHUNK);
      let failures = 0;
      let steps = 0;
      for (;;) {
        try {
          if (!runTermListStep(failing, builder, 2000, Number.POSITIVE_INFINITY)) break;
        } catch (error) {
          expect((error as Error).message).toBe('disk I/O error');
          failures++;
        }
        if (++steps > 1_000_000) throw new Error('the build does not end');
      }
      expect(failures).toBe(failAt.size);
      expect(effectiveLists(failed)).toEqual(effectiveLists(whole));
      expect(readTermListState(failed)).toEqual(readTermListState(whole));
    } finally {
      whole.db.close();
      failed.db.close();
    }
  });

  it('keep the chunk in memory when a step cannot begin (another connection holds the write lock)', () => {
    const whole = scratch('whole-unlocked');
    const locked = scratch('locked');
    const file = locked.db.name;
    const holder = openConnection(file);
    locked.db.pragma('busy_timeout = 0');
    try {
      expect(build(whole, new TermListBuilder(CHUNK), Number.MAX_SAFE_INTEGER)).toBe(1);
      const rows = whole.db.prepare('SELECT count(*) FROM skills_fts_docsize').pluck(true).get() as number;
      const builder = new TermListBuilder(CHUNK);
      let tokenized = 0;
      let refused = 0;
      for (let step = 0; ; step++) {
        // Every 7th step, another connection (a RESTART checkpoint, say) holds the write lock.
        const lock = step % 7 === 3;
        if (lock) holder.db.exec('BEGIN IMMEDIATE');
        try {
          const more = runTermListStep(locked, builder, 500, Number.POSITIVE_INFINITY);
          tokenized += builder.last.rows;
          if (!more) break;
        } catch (error) {
          expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
          refused++;
        } finally {
          if (lock) holder.db.exec('ROLLBACK');
        }
        if (step > 1_000_000) throw new Error('the build does not end');
      }
      expect(refused).toBeGreaterThan(10);
      // No chunk was begun again: each row tokenized once, as without the refused steps.
      expect(tokenized).toBe(rows);
      expect(effectiveLists(locked)).toEqual(effectiveLists(whole));
      expect(readTermListState(locked)).toEqual(readTermListState(whole));
    } finally {
      holder.db.close();
      whole.db.close();
      locked.db.close();
    }
  });

  it('after adds, updates and deletes, a pass tokenizes only the rows written and equals a fresh build', async () => {
    const copyDir = path.join(dir, 'incremental');
    mkdirSync(copyDir);
    const file = path.join(copyDir, 'skillport.db');
    const writer = openConnection(path.join(dir, 'skillport.db'));
    writer.db.prepare('VACUUM INTO ?').run(file);
    writer.db.close();
    const copy = openConnection(file);
    copy.db.exec(RESET);
    const copyStore = createSqliteStore({ dataDir: copyDir });
    try {
      const builder = new TermListBuilder(CHUNK);
      build(copy, builder, Number.MAX_SAFE_INTEGER);
      const covered = readTermListState(copy)?.covered as number;
      // Adds (one in a new chunk past the last), updates with other words, deletes.
      for (let i = 0; i < 3; i++) {
        await copyStore.putSkill(
          makeWrite({ name: `incremental-${i}`, description: `Invoice pandas ${i}`, body: '# Invoice\n' }),
        );
      }
      await copyStore.putSkill({
        ...makeWrite({ name: nameOf(10), description: 'Calendar and email triage', body: '# Mail\n' }),
        rootUri: USER_ROOT,
      });
      await copyStore.putSkill({
        ...makeWrite({ name: nameOf(20), description: 'Browser scraping', body: '# Scrape\n' }),
        rootUri: AGENT_ROOT,
      });
      expect(await copyStore.deleteSkill('acme', USER_ROOT, nameOf(30))).not.toBeNull();
      expect(await copyStore.deleteSkill('acme', USER_ROOT, nameOf(41))).not.toBeNull();
      let rows = 0;
      let parts = 0;
      let deltas = 0;
      build(copy, builder, 1, (report) => {
        rows += report.rows;
        parts += report.parts;
        deltas += report.deltas;
        return undefined;
      });
      expect(rows).toBe(5);
      // A delta pass: the written rows' terms appended as one segment, no part rewritten.
      expect(parts).toBe(0);
      expect(deltas).toBeGreaterThan(0);
      const total = copy.db.prepare('SELECT count(*) FROM search_term_lists').pluck(true).get() as number;
      expect(deltas).toBeLessThan(total / 10);
      expect(readTermListState(copy)?.covered).toBeGreaterThan(covered);
      const fresh = scratch('fresh', copy);
      try {
        build(fresh, new TermListBuilder(CHUNK), Number.MAX_SAFE_INTEGER);
        expect(effectiveLists(copy)).toEqual(effectiveLists(fresh));
      } finally {
        fresh.db.close();
      }
    } finally {
      await copyStore.close();
      copy.db.close();
    }
  });

  it('list a few written rows in a delta segment per pass, merged into the parts after MAX_SEGMENTS, exact at every step', async () => {
    const copyDir = path.join(dir, 'deltas');
    mkdirSync(copyDir);
    const file = path.join(copyDir, 'skillport.db');
    const writer = openConnection(path.join(dir, 'skillport.db'));
    writer.db.prepare('VACUUM INTO ?').run(file);
    writer.db.close();
    const copy = openConnection(file);
    copy.db.exec(RESET);
    const copyStore = createSqliteStore({ dataDir: copyDir });
    const segments = () =>
      copy.db.prepare('SELECT count(DISTINCT origin) FROM search_term_deltas').pluck(true).get() as number;
    try {
      // The store's parts of 1,024 seqs (the reader's), so that the reader is the judge: every
      // listable phrase scored from the lists equals FTS5's bm25() over every match.
      let builder = new TermListBuilder();
      build(copy, builder, Number.MAX_SAFE_INTEGER);
      const passes: Array<{ parts: number; deltas: number; rows: number }> = [];
      for (let round = 0; round <= MAX_SEGMENTS + 1; round++) {
        // An add or an update of a listed skill with other words, by turns, and a delete.
        if (round % 2 === 0) {
          await copyStore.putSkill(
            makeWrite({
              name: `delta-${round}`,
              description: `Kubernetes invoice ${round} zebrafish${round}`,
              body: `# Delta\n\n${'pandas docker '.repeat(round)}\n`,
            }),
          );
        } else {
          await copyStore.putSkill({
            ...makeWrite({
              name: nameOf(40 + round),
              description: `Calendar triage ${round}`,
              body: '# Mail\n',
            }),
            rootUri: (40 + round) % 4 === 0 ? AGENT_ROOT : USER_ROOT,
          });
        }
        if (round % 3 === 2) {
          const i = 60 + round;
          expect(
            await copyStore.deleteSkill('acme', i % 4 === 0 ? AGENT_ROOT : USER_ROOT, nameOf(i)),
          ).not.toBeNull();
        }
        const pass = { parts: 0, deltas: 0, rows: 0 };
        let steps = 0;
        const restartAt = round === 4 ? 3 : -1;
        while (copy.db.transaction(() => builder.step(copy, 1, Number.POSITIVE_INFINITY)).immediate()) {
          pass.parts += builder.last.parts;
          pass.deltas += builder.last.deltas;
          pass.rows += builder.last.rows;
          steps++;
          if (steps === restartAt) {
            // A restart mid-pass: the pass is found again (a delta pass drops what it wrote).
            builder.close();
            builder = new TermListBuilder();
          }
          // Mid-merge, with segments still read beside rewritten parts.
          if (pass.parts > 0 && pass.parts % 10 === 0 && builder.last.parts > 0) {
            expect(compareListed(`round ${round} step ${steps}`, copy)).toBe(listable);
          }
          if (steps > 1_000_000) throw new Error('the pass does not end');
        }
        passes.push(pass);
        expect(compareListed(`round ${round}`, copy)).toBe(listable);
      }
      // The first MAX_SEGMENTS passes wrote a segment each and rewrote no part; the next merged.
      expect(passes.slice(0, MAX_SEGMENTS).every((p) => p.parts === 0 && p.deltas > 0)).toBe(true);
      expect(passes[MAX_SEGMENTS]?.parts).toBeGreaterThan(0);
      expect(passes[MAX_SEGMENTS]?.deltas).toBe(0);
      // The merged segments are deleted by the steps after the merge; the last pass wrote one.
      expect(segments()).toBe(1);
      const state = readTermListState(copy);
      expect(state?.merged).toBeLessThan(state?.covered as number);
      expect(state?.delta).toBe(false);
      // And as a fresh build lists the same rows.
      const fresh = scratch('deltas-fresh', copy);
      try {
        build(fresh, new TermListBuilder(), Number.MAX_SAFE_INTEGER);
        expect(effectiveLists(copy, undefined, TERM_LIST_CHUNK)).toEqual(
          effectiveLists(fresh, undefined, TERM_LIST_CHUNK),
        );
      } finally {
        fresh.db.close();
      }
    } finally {
      await copyStore.close();
      copy.db.close();
    }
  }, 180_000);

  it('are exact again after the upgrade of a file whose lists were built at schema version 16', async () => {
    const upgradeDir = path.join(dir, 'upgrade');
    mkdirSync(upgradeDir);
    const file = path.join(upgradeDir, 'skillport.db');
    const writer = openConnection(path.join(dir, 'skillport.db'));
    writer.db.prepare('VACUUM INTO ?').run(file);
    writer.db.close();
    // Back to version 16's layout, its lists built and complete.
    const old = openConnection(file);
    old.db.exec(RESET);
    build(old, new TermListBuilder(), Number.MAX_SAFE_INTEGER);
    const built = readTermListState(old);
    old.db.exec(`DROP TABLE search_term_deltas; DROP INDEX skills_fts_docsize_origin;
      ALTER TABLE search_term_build DROP COLUMN merged; ALTER TABLE search_term_build DROP COLUMN delta;
      PRAGMA user_version = 16;`);
    expect(readTermListState(old)).toBeNull();
    old.db.close();
    const upgraded = createSqliteStore({ dataDir: upgradeDir });
    try {
      await upgraded.migrate();
      const conn17 = openConnection(file);
      try {
        expect(conn17.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
        // Version 17 kept the lists built at 16 (`merged` = `covered`); version 20 then indexed every
        // skill again (FTS5 numbers the rows afresh), so they start over and are built again.
        expect(built?.covered).not.toBeNull();
        expect(readTermListState(conn17)).toEqual({
          covered: null,
          target: null,
          nextSeq: null,
          merged: null,
          delta: false,
        });
        const builder = new TermListBuilder();
        while (conn17.db.transaction(() => builder.step(conn17, 4096)).immediate()) {}
        expect(readTermListState(conn17)?.covered).not.toBeNull();
        // A write, listed by a delta pass of the upgraded file; the lists are exact.
        await upgraded.putSkill(
          makeWrite({ name: 'after-upgrade', description: 'Docker compose invoice', body: '# Up\n' }),
        );
        let deltas = 0;
        while (conn17.db.transaction(() => builder.step(conn17, 4096)).immediate())
          deltas += builder.last.deltas;
        expect(deltas).toBeGreaterThan(0);
        const fresh = scratch('upgrade-fresh', conn17);
        try {
          build(fresh, new TermListBuilder(), Number.MAX_SAFE_INTEGER);
          const rows = readRowLengths(conn17);
          const state = readTermListState(conn17);
          if (rows === null || state?.covered == null) throw new Error('lists not usable');
          for (const term of ['docker', 'compos', 'invoic', 'python']) {
            expect(
              unitedLists(conn17, term, undefined, { ...rows, covered: state.covered, merged: state.merged }),
              term,
            ).toEqual(unitedLists(fresh, term, undefined, { ...rows, covered: state.covered }));
          }
        } finally {
          fresh.db.close();
        }
      } finally {
        conn17.db.close();
      }
    } finally {
      await upgraded.close();
    }
  });
});

/** Seqs per part in the builder tests (the store's 1,024 would put every test skill in one chunk). */
const CHUNK = 16;
const RESET = `DELETE FROM search_term_lists; DELETE FROM search_term_deltas;
  UPDATE search_term_build SET covered = NULL, target = NULL, next_seq = NULL, merged = NULL, delta = 0`;
const LISTS = 'SELECT term, chunk, origin, seqs, freqs FROM search_term_lists ORDER BY term, chunk';

/** A copy of a database (default: the store's) with its lists emptied, open for writing. */
function scratch(name: string, from?: Connection): Connection {
  const file = path.join(dir, `${name}.db`);
  const source = from ?? openConnection(path.join(dir, 'skillport.db'));
  try {
    source.db.prepare('VACUUM INTO ?').run(file);
  } finally {
    if (from === undefined) source.db.close();
  }
  const copy = openConnection(file);
  copy.db.exec(RESET);
  return copy;
}

/**
 * Runs a builder to the end, a write transaction per step; `onStep` may hand back the builder to
 * go on with (a restart). Returns the steps that did something.
 */
function build(
  target: Connection,
  builder: TermListBuilder,
  budget: number,
  onStep?: (report: TermListStepReport, step: number) => TermListBuilder | undefined,
): number {
  let current = builder;
  let steps = 0;
  while (target.db.transaction(() => current.step(target, budget, Number.POSITIVE_INFINITY)).immediate()) {
    const next = onStep?.(current.last, steps);
    if (next !== undefined) current = next;
    steps++;
    if (steps > 1_000_000) throw new Error('the build does not end');
  }
  return steps;
}

/**
 * Every listed term's entries that count, as the reader unites them (with `upTo`: as if `covered`
 * were that origin, to compare lists built further with lists mid-pass).
 */
function effectiveLists(
  target: Connection,
  upTo?: number,
  chunk = CHUNK,
): Array<[string, number[], number[]]> {
  const rows = readRowLengths(target);
  const state = readTermListState(target);
  const covered = upTo ?? state?.covered;
  if (rows === null || covered == null) throw new Error('lists not usable');
  const terms = target.db
    .prepare('SELECT term FROM search_term_lists UNION SELECT term FROM search_term_deltas ORDER BY term')
    .pluck(true)
    .all();
  const out: Array<[string, number[], number[]]> = [];
  for (const term of terms as string[]) {
    const list = unitedLists(target, term, undefined, { ...rows, covered, merged: state?.merged, chunk });
    if (list.seqs.length > 0) out.push([term, [...list.seqs], [...list.freqs]]);
  }
  return out;
}
